"""Work in processes: one per core, forked so that they share what the
parent has drawn (a task names its part by index; see ``build._WORK``)."""

from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable


def run_all(task: Callable, tasks: list[tuple], workers: int | None):
    """``(task, result)`` as each finishes: in this process for one worker
    or one task, else in forked processes (they share what was drawn)."""
    n = workers or cores()
    if n <= 1 or len(tasks) <= 1 or "fork" not in mp.get_all_start_methods():
        for t in tasks:
            yield t, task(t)
        return
    with ProcessPoolExecutor(max_workers=min(n, len(tasks)), mp_context=mp.get_context("fork")) as pool:
        futures = {pool.submit(task, t): t for t in tasks}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
