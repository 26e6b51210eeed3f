"""The server starts on jemalloc when it is installed (a worker's memory
stays flat over an evening; docs/design/serving-speed.md), says which
allocator it runs on, and can be told to keep the system's."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from companion import allocator

JEMALLOC = allocator.library()
needs_jemalloc = pytest.mark.skipif(
    JEMALLOC is None or not Path("/proc/self/maps").exists(),
    reason="jemalloc is not installed here (Debian: apt-get install libjemalloc2; `make test` installs it as root)")


def test_the_preload_comes_first_and_the_operators_settings_stay() -> None:
    env = allocator.preload_env({"LD_PRELOAD": "/opt/trace.so", "MALLOC_CONF": "narenas:2", "HOME": "/h"},
                                "/usr/lib/x/libjemalloc.so.2")
    assert env["LD_PRELOAD"] == "/usr/lib/x/libjemalloc.so.2:/opt/trace.so"
    assert env["MALLOC_CONF"] == "narenas:2"
    assert env["HOME"] == "/h" and env[allocator.RESTARTED] == "1"
    assert allocator.preload_env({}, "/j.so")["MALLOC_CONF"] == allocator.OPTIONS


def test_a_restart_that_did_not_load_it_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "library", lambda: "/nowhere/libjemalloc.so.2")
    monkeypatch.setattr(allocator, "in_use", lambda pid="self": "system")
    monkeypatch.setenv(allocator.RESTARTED, "1")
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("started itself again"))
    assert allocator.restart_with_jemalloc("auto") == "the system's allocator (/nowhere/libjemalloc.so.2 did not load)"


def test_without_the_library_it_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "library", lambda: None)
    monkeypatch.setattr(allocator, "in_use", lambda pid="self": "system")
    monkeypatch.delenv(allocator.RESTARTED, raising=False)
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("started itself again"))
    assert "apt-get install libjemalloc2" in allocator.restart_with_jemalloc("auto")
    assert allocator.restart_with_jemalloc("system") == "the system's allocator (as asked)"


def _worker_pids(master: int) -> list[int]:
    """gunicorn's workers: the processes whose parent is the server."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:   # it ended while we looked
            continue
        if int(text[text.rindex(")") + 2:].split()[1]) == master:
            out.append(int(stat.parent.name))
    return out


def _started(server: Any) -> tuple[str, list[int]]:
    server.start()
    log = (server.instance.parent / f"server-{server.port}.log").read_text()
    workers: list[int] = []
    deadline = time.monotonic() + 10
    while not workers and time.monotonic() < deadline:
        workers = _worker_pids(server.proc.pid)
        time.sleep(0.05)
    assert workers, "gunicorn's worker was not found"
    return log, workers


@needs_jemalloc
def test_the_server_and_its_worker_run_on_jemalloc(server_factory: Any, tmp_path: Path) -> None:
    server = server_factory()
    log, workers = _started(server)
    assert re.search(r"labkit companion: .*memory from jemalloc", log), log
    assert allocator.in_use(server.proc.pid) == "jemalloc"
    assert [allocator.in_use(pid) for pid in workers] == ["jemalloc"] * len(workers)
    # it started itself again in the same process: the pid the caller holds is still the server's
    os.kill(server.proc.pid, signal.SIGTERM)
    assert server.proc.wait(timeout=15) == 0


@needs_jemalloc
def test_the_system_allocator_when_asked(server_factory: Any) -> None:
    server = server_factory(extra=["--allocator", "system"])
    log, workers = _started(server)
    assert "memory from the system's allocator (as asked)" in log, log
    assert [allocator.in_use(pid) for pid in [server.proc.pid, *workers]] == ["system"] * (1 + len(workers))
