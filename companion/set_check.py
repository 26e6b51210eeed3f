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
    from labkit import checks   # what labkit validate checks besides the data: rules in words, every face drawn

    problems = checks.cardset_problems(opened)
    if problems:
        return Checked(problems=tuple(problems))
    info = opened.info
    return Checked(hash=opened.content_hash, name=info.name if info else fallback_name,
                   author=info.author if info else "", version=info.version if info else "",
                   zip=setfiles.write_zip(opened.set_files))


STARTING_SECONDS = 120.0
"""How long a new worker may take to start (a bound: about 2 s on a quiet machine)."""


def _ready() -> bool:
    import labkit.cardsets  # noqa: F401 (the games' parsers and everything they import)
    import labkit.checks  # noqa: F401
    from generator import fonts, printable  # noqa: F401 (the faces a check draws, and their fonts)
    from labkit import registry

    registry.games()
    fonts.register()
    return True


class TooLong(Exception):
    """The check did not end within its time: the set is refused."""


class Broke(Exception):
    """The checking process ended without an answer (killed from outside,
    or out of memory): the set is refused, and the next check starts another."""


def _serve(requests: Any, answers: Any) -> None:
    """The checking process: ready once (its imports are not a check's
    time), then one check per request, each answered ``(True, checked)``
    or ``(False, the exception)``, raised again in the serving process.
    It ends with the serving process, however that ends (a worker killed by
    gunicorn's timeout or by kill -9 left it running)."""
    from companion.bot_worker import end_with_parent

    end_with_parent()
    answers.send(_ready())
    while True:
        try:
            args = requests.recv()
        except EOFError:
            return   # the serving process has gone
        try:
            answer: tuple[bool, Any] = (True, check(*args))
        except BaseException as exc:  # noqa: BLE001 (not hidden: the serving process raises it)
            answer = (False, exc)
        answers.send(answer)


class _Checker:
    """One spawned process that checks sets, kept between checks (starting
    one imports the games and RDKit: about 2 s). Spawned, not forked: the
    serving process has threads (and their locks) a fork would copy mid-use.

    Its answers are awaited with :func:`_readable`, which under gevent
    gives way to the other requests. ``Connection.poll`` did not: its
    selector was bound when the master imported multiprocessing, before the
    worker's patching, and held the worker's only thread for the whole
    check. ``multiprocessing.Pool`` read them in a helper thread that, as a
    greenlet, held the worker's only thread for good."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        # Two one-way pipes (plain blocking file descriptors), not one
        # two-way: that is a socket pair, which gevent's patched socket
        # module makes non-blocking, and the checking process would inherit that.
        requests, self.requests = context.Pipe(duplex=False)
        self.conn, answers = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(requests, answers), name="labkit-set-check",
                                       daemon=True)
        self.process.start()
        requests.close()
        answers.close()
        try:
            started = _readable(self.conn, STARTING_SECONDS) and self.conn.recv()
        except EOFError:   # it died while starting
            self.stop()
            raise Broke() from None
        if not started:
            self.stop()
            raise RuntimeError(f"the card set checker did not start within {STARTING_SECONDS:g} s")

    def ask(self, args: tuple[Any, ...], seconds: float) -> Checked:
        try:
            self.requests.send(args)
            if not _readable(self.conn, seconds):
                raise TooLong()
            ok, value = self.conn.recv()
        except (EOFError, BrokenPipeError):
            raise Broke() from None
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        self.process.kill()   # a check still running is killed: nothing of it is kept
        self.process.join()
        self.conn.close()
        self.requests.close()


def _readable(conn: Any, seconds: float) -> bool:
    """Whether ``conn`` has an answer within ``seconds``: ``select.poll`` as
    it is now, which in a gevent worker is gevent's (it waits as a greenlet)."""
    import select

    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    return bool(poller.poll(max(0.0, seconds) * 1000))


class Busy(Exception):
    """Another upload's check held the checker for longer than a check may take."""


_checker: _Checker | None = None
_made = threading.Lock()
"""Held only while :func:`_turn` makes the lock below (nothing waits inside it)."""
_one_at_a_time: Any = None


def _turn() -> Any:
    """The lock that lets one check at a time use the checker, made at the
    first upload, in the serving process: a lock made when this module was
    imported (in gunicorn's master, before the worker's gevent patching) was
    the operating system's, and a second upload waiting on it held the
    worker's only thread while the first could not finish: every table froze
    until gunicorn killed the worker."""
    global _one_at_a_time
    with _made:
        if _one_at_a_time is None:
            _one_at_a_time = threading.Lock()
        return _one_at_a_time


def checked(data: bytes, shown: str, game: GameDescriptor, fallback_name: str, seconds: float) -> Checked:
    """:func:`check` in the checking process, waiting at most ``seconds``
    (``0``: in this process, without a bound). Raises :class:`TooLong`;
    the checking process is stopped then (and another started at the next
    check). One check at a time per serving process: another waits for it
    at most ``seconds`` (then :class:`Busy`)."""
    global _checker
    if not seconds:
        return check(data, shown, game, fallback_name)
    turn = _turn()
    if not turn.acquire(timeout=seconds):
        raise Busy()
    try:
        if _checker is None:
            _checker = _Checker()
        try:
            return _checker.ask((data, shown, game, fallback_name), seconds)
        except (TooLong, Broke):
            _checker.stop()
            _checker = None
            raise
    finally:
        turn.release()


@atexit.register
def close() -> None:
    """Stop the checking process (at exit, before the interpreter takes its modules away)."""
    global _checker
    checker, _checker = _checker, None
    if checker is not None:
        checker.stop()
