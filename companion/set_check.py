"""Checking an uploaded card set in a process of its own, for at most
``SET_CHECK_SECONDS``.

A set's files are bounded in size (:mod:`labkit.setfiles`), but not the
work of checking them: the game's parser proves every compound buildable,
and a compound that does not fit a note sheet takes the placement search
about a second (``engine.hexgrid.EMBED_STEPS``), so a megabyte of such rows could
hold a serving process's interpreter for hours and stall every table it
serves. The check runs in a spawned worker process instead (one per serving
process, started at the first upload), and one that takes too long is
stopped and the set refused.
"""

from __future__ import annotations

import atexit
import multiprocessing
import threading
from dataclasses import dataclass
from typing import Any

from engine.data import DataError
from engine.descriptor import GameDescriptor

CHECK_SECONDS = 20.0
"""A bound, not a rule (the ``SET_CHECK_SECONDS`` setting): the games' own
sets are checked in well under a second (the slowest in about 0.3 s)."""


@dataclass(frozen=True)
class Checked:
    """What the check found: the set's hash, name, author, version and files
    as one zip; or every problem, in the words ``labkit validate`` prints."""

    problems: tuple[str, ...] = ()
    other: str = ""
    """The title of the game the set is for, when it is not the table's."""
    hash: str = ""
    name: str = ""
    author: str = ""
    version: str = ""
    zip: bytes = b""


def check(data: bytes, shown: str, game: GameDescriptor, fallback_name: str) -> Checked:
    """The check itself (in the worker process): :func:`labkit.cardsets.open_zip`."""
    from labkit import cardsets, registry, setfiles

    which, problems, _ = setfiles.collect_zip(data, shown, (cardsets.MANIFEST,))
    if cardsets.MANIFEST in which:   # a set of another game would fail on every file: say so instead
        try:
            other = cardsets.game_of_files(which, problems, shown, registry.games())
        except DataError as exc:
            return Checked(problems=tuple(str(p) for p in exc.problems))
        if other.name != game.name:
            return Checked(problems=(f"{shown}/{cardsets.MANIFEST}: key 'game': expected {game.name!r}, "
                                     f"found {other.name!r}",), other=other.title)
    try:
        opened = cardsets.open_zip(data, shown, game)
    except DataError as exc:
        return Checked(problems=tuple(str(p) for p in exc.problems))
    info = opened.info
    return Checked(hash=opened.content_hash, name=info.name if info else fallback_name,
                   author=info.author if info else "", version=info.version if info else "",
                   zip=setfiles.write_zip(opened.set_files))


STARTING_SECONDS = 120.0
"""How long a new worker may take to start (a bound: about 2 s on a quiet machine)."""


def _ready() -> bool:
    import labkit.cardsets  # noqa: F401 (the games' parsers and everything they import)
    from labkit import registry

    registry.games()
    return True


class TooLong(Exception):
    """The check did not end within its time: the set is refused."""


_pool: Any = None
_lock = threading.Lock()


def checked(data: bytes, shown: str, game: GameDescriptor, fallback_name: str, seconds: float) -> Checked:
    """:func:`check` in the worker process, waiting at most ``seconds``
    (``0``: in this process, without a bound). Raises :class:`TooLong`;
    the worker is stopped then (and another started at the next check)."""
    global _pool
    if not seconds:
        return check(data, shown, game, fallback_name)
    with _lock:
        if _pool is None:
            # spawn, not fork: the serving process has threads (and their locks) a fork would copy mid-use
            _pool = multiprocessing.get_context("spawn").Pool(1)
            # its start (importing the games, RDKit) is not the check's time
            _pool.apply_async(_ready).get(timeout=STARTING_SECONDS)
        pool = _pool
    answer = pool.apply_async(check, (data, shown, game, fallback_name))
    try:
        return answer.get(timeout=seconds)
    except multiprocessing.TimeoutError:
        with _lock:
            if _pool is pool:
                _pool = None
        pool.terminate()   # the check's process is killed: nothing of it is kept
        raise TooLong() from None


@atexit.register
def close() -> None:
    """Stop the worker (at exit, before the interpreter takes its modules away)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.terminate()
        pool.join()
