"""What a worker's moves and garbage collections cost it, written down
when asked (``TIMINGS_FILE``, or ``LABKIT_TIMINGS_FILE`` in the environment):
the soak benchmark reads the file to say what limits its figures.

A phone measures a move from its tap to the answer. Inside the worker the
same move has two times: its wall time from the first byte the app sees to
the answer drawn, and the CPU its own thread used in it. When the wall time
is many times the CPU, the move spent the difference waiting while other
requests (other moves, every phone's stream drawing its page) ran: for the
interpreter lock with threads, for its turn on the one thread with gevent.
The worker is saturated, not slow at the move. With gevent every greenlet
runs on the same thread, so a request's CPU is counted greenlet by
greenlet (:class:`_GreenletClock`), not as the thread's.
A full garbage collection holds that lock from start to end, so every
phone of the worker waits for as long as it takes.

One JSON line per event: ``{"act": [wall_ms, cpu_ms]}`` for each move
(``POST /t/<code>/act``) and ``{"gc": [wall_ms, collected, generation, cpu_ms]}`` for
each garbage collection (every one holds the interpreter lock: a young one
over many survivors stalls the worker too), written by the next request
(a collection's callback only notes it: it may run inside any allocation,
also one made while this module holds its lock); every 30 s of requests,
``{"blocks": [seconds, blocks, sqlite_bytes, [heap_bytes, resident_bytes]]}``, the small blocks
Python's allocator holds, the bytes SQLite's holds (its page caches) and
jemalloc's bytes in use and resident (:func:`companion.allocator.heap`);
``null`` where one cannot be asked. A worker told to stop writes ``{"spent": {kind: [requests, cpu_ms]}}``, the
CPU its app used on each kind of request (``act``, ``stream`` with every
event it made, ``page``, ``api``, ``static``, ``other``), and ``{"left": [collected, ms, {kind:
count}, {cycle: count}]}``: what one last full collection found in cycles
(each named by the functions in it), which with the collector kept out of
the way (:mod:`companion.collector`) is what the worker leaked. Nothing is
wrapped, and nothing is written, unless asked.
"""

from __future__ import annotations

import gc
import json
import sys
import threading
import time
import types
from collections import Counter, deque
from typing import Any, Callable, Iterable

from engine.bots.report import quantile
from companion import allocator
from companion.allocator import sqlite_memory_used

BLOCKS_EVERY_S = 30.0


class Timings:
    """The file and what writes to it; :meth:`close` undoes :func:`install`."""

    def __init__(self, path: str) -> None:
        self._out = open(path, "a", encoding="utf-8", buffering=1)
        self._lock = threading.Lock()
        self._gc_started = 0.0
        self._gc_cpu = 0.0
        self._started = time.monotonic()
        self._blocks_at = 0.0
        self.serving = False
        """Set by the worker's first request: collections before it are the worker loading."""
        self.stopping = False
        """Set by the census: collections after it are the worker ending (its
        last full collection at exit), not pauses any phone met."""
        self.spent: dict[str, list[float]] = {}
        """CPU ms of this worker's requests by kind of request: [requests, ms in all]."""
        self._pending: deque[tuple[str, Any, int]] = deque()
        """What a collection or a request has just said, for :meth:`drain` to
        write or add up. A collection can start inside any allocation, also
        one made while holding ``_lock``: its callback only appends here
        (atomic), so it never waits for a lock its own thread holds."""
        self._draining = threading.Lock()

    def write(self, kind: str, values: Any) -> None:
        line = json.dumps({kind: values}) + "\n"
        with self._lock:
            if not self._out.closed:
                self._out.write(line)

    def drain(self) -> None:
        """Write the collections and add up the CPU said since the last
        drain (one thread at a time; another finds the work taken)."""
        if not self._pending or not self._draining.acquire(blocking=False):
            return
        try:
            while self._pending:
                kind, value, n = self._pending.popleft()
                if kind == "gc":
                    self.write("gc", value)
                    continue
                _add(self.spent, kind, n, value)
        finally:
            self._draining.release()

    def count_blocks(self) -> None:
        """Every ``BLOCKS_EVERY_S``, the small blocks Python's allocator holds
        (its objects): climbing while the process's memory climbs, objects
        are kept; level while it climbs, the growth is large buffers (text)
        or the allocator's own. Beside them, SQLite's own memory (its
        connections' page caches fill as the file grows)."""
        now = time.monotonic()
        if now - self._blocks_at < BLOCKS_EVERY_S:
            return
        self._blocks_at = now
        self.write("blocks", [round(now - self._started, 1), sys.getallocatedblocks(), sqlite_memory_used(),
                              allocator.heap()])

    def census(self) -> None:
        """What a full collection finds in cycles that outlived a collection
        of the youngest generation: the worker never collects the older ones
        (:mod:`companion.collector`), so for it, a leak."""
        if self.stopping:   # a worker may be told to stop twice (by the arbiter and by the signal to its group)
            return
        self.drain()
        self.stopping = True
        self.write("spent", {kind: [n, round(ms, 1)] for kind, (n, ms) in self.spent.items()})
        started = time.perf_counter()
        try:
            gc.collect(0)   # the youngest's garbage: the worker's own collections free it as it comes
            gc.set_debug(gc.DEBUG_SAVEALL)   # keep what the full one finds, to say what it was
            collected = gc.collect()
            kinds = Counter(_kind(o) for o in gc.garbage)
            cycles = _cycles(gc.garbage)
            gc.garbage.clear()
        finally:
            gc.set_debug(0)
        self.write("left", [collected, round((time.perf_counter() - started) * 1000, 2), dict(kinds.most_common(12)),
                            dict(cycles.most_common(12))])

    def spend(self, kind: str, cpu_s: float, n: int = 1) -> None:
        """``n`` requests of ``kind`` (0: more of one already counted) used ``cpu_s``."""
        self._pending.append((kind, cpu_s * 1000, n))

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if self.stopping or not self.serving:   # loading, or ending (the census included): no phone waits
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
            self._gc_cpu = time.thread_time()
        else:
            # Its CPU time is the pause (it holds the lock throughout); its
            # wall time also holds the wait for the lock that this very
            # callback, being Python, may have given up to another thread.
            cpu, wall = time.thread_time() - self._gc_cpu, time.perf_counter() - self._gc_started
            self._pending.append(("gc", [round(wall * 1000, 2), info.get("collected", 0),
                                         info.get("generation", 2), round(cpu * 1000, 2)], 0))

    def close(self) -> None:
        if self.on_gc in gc.callbacks:
            gc.callbacks.remove(self.on_gc)
        self.drain()
        with self._lock:
            self._out.close()


def _kind(thing: Any) -> str:
    """A found object's type, and a function's own name (what made the cycle)."""
    if isinstance(thing, types.FunctionType):
        return f"function {thing.__module__}.{thing.__qualname__}"
    return f"{type(thing).__module__}.{type(thing).__qualname__}"


def _cycles(found: list[Any]) -> Counter[str]:
    """The cycles among ``found`` (objects joined by references to each
    other), each named by the functions in it: what made it."""
    index = {id(o): i for i, o in enumerate(found)}
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, thing in enumerate(found):
        for other in gc.get_referents(thing):
            j = index.get(id(other))
            if j is not None and root(i) != root(j):
                parent[root(i)] = root(j)
    names: dict[int, set[str]] = {}
    for i, thing in enumerate(found):
        group = names.setdefault(root(i), set())
        if isinstance(thing, types.FunctionType):
            group.add(_kind(thing))
    return Counter(" + ".join(sorted(group)) or "no function" for group in names.values())


class _GreenletClock:
    """CPU time per greenlet, for a worker where every request is a greenlet
    on one thread (gevent): at each switch the thread's CPU since the last
    one is added to the greenlet that ran. Installed only with timings on."""

    def __init__(self) -> None:
        import weakref

        import greenlet

        self._getcurrent = greenlet.getcurrent
        self._spent: "weakref.WeakKeyDictionary[Any, float]" = weakref.WeakKeyDictionary()
        self._last = time.thread_time()
        self._previous = greenlet.settrace(self._trace)

    def _trace(self, event: str, args: Any) -> None:
        if event in ("switch", "throw"):
            now = time.thread_time()
            origin = args[0]
            self._spent[origin] = self._spent.get(origin, 0.0) + now - self._last
            self._last = now
        if self._previous is not None:
            self._previous(event, args)

    def __call__(self) -> float:
        current = self._getcurrent()
        return self._spent.get(current, 0.0) + time.thread_time() - self._last


def _cpu_clock() -> Callable[[], float]:
    """The CPU clock of the running request: its thread's, or under gevent
    (threads patched into greenlets) its greenlet's."""
    try:
        from gevent import monkey
    except ImportError:
        return time.thread_time
    return _GreenletClock() if monkey.is_module_patched("threading") else time.thread_time


def install(app: Any) -> Timings | None:
    """Time the app's moves and the process's collections, if its
    ``TIMINGS_FILE`` names a file (appended to: every worker may write it)."""
    path = app.config.get("TIMINGS_FILE")
    if not path:
        return None
    timings = Timings(str(path))
    inner: Callable[..., Iterable[bytes]] = app.wsgi_app
    cpu_now = _cpu_clock()

    def timed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        timings.serving = True
        timings.drain()
        timings.count_blocks()
        kind = _request_kind(environ)
        wall, cpu = time.perf_counter(), cpu_now()
        try:
            answer = inner(environ, start_response)   # a move's answer is drawn whole before it is returned
        finally:
            spent = cpu_now() - cpu
            if kind == "act":
                timings.write("act", [round((time.perf_counter() - wall) * 1000, 2), round(spent * 1000, 2)])
        timings.spend(kind, spent)
        wrapper = environ.get("wsgi.file_wrapper")
        if isinstance(wrapper, type) and isinstance(answer, wrapper):
            return answer   # a file the server sends itself (sendfile): left as it is
        return _Counted(answer, timings, kind, cpu_now)

    app.wsgi_app = timed
    gc.callbacks.append(timings.on_gc)
    app.extensions["companion_timings"] = timings
    return timings


def _add(tally: dict[str, list[float]], kind: str, n: int, ms: float) -> None:
    """``n`` more requests of ``kind`` and ``ms`` more CPU in ``tally``."""
    entry = tally.setdefault(kind, [0, 0.0])
    entry[0] += n
    entry[1] += ms


def _request_kind(environ: dict[str, Any]) -> str:
    """What a request is, for the tally of where the worker's CPU goes."""
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
    if method == "POST" and path.endswith("/act"):
        return "act"
    if path.endswith("/events"):
        return "stream"
    if path.startswith("/api/"):
        return "api"
    if path.startswith(("/static/", "/manifest", "/sw.js", "/favicon")):
        return "static"
    if method == "GET" and path.startswith("/t/"):
        return "page"
    return "other"


class _Counted:
    """A response's body, its CPU counted as it is made (a stream makes
    each event as it iterates) and added to its kind's as it goes: a stream
    still open when the worker stops is counted too. The request itself was
    counted when the app answered."""

    def __init__(self, inner: Iterable[bytes], timings: Timings, kind: str,
                 clock: Callable[[], float] = time.thread_time) -> None:
        self.inner, self.timings, self.kind, self.clock = inner, timings, kind, clock

    def __iter__(self) -> Any:
        it = iter(self.inner)
        while True:
            cpu = self.clock()
            try:
                chunk = next(it)
            except StopIteration:
                self.timings.spend(self.kind, self.clock() - cpu, 0)
                return
            self.timings.spend(self.kind, self.clock() - cpu, 0)
            if self.kind == "stream":
                self.timings.spend("stream chunks", 0.0)
            yield chunk

    def close(self) -> None:
        cpu = self.clock()
        try:
            close = getattr(self.inner, "close", None)
            if close is not None:
                close()
        finally:
            self.timings.spend(self.kind, self.clock() - cpu, 0)


def summary(path: str) -> dict[str, Any]:
    """The figures of a timings file: moves timed, their wall and CPU
    percentiles (ms), the collections of each generation (how many,
    longest, in all): ``full_gc`` the oldest, ``young_gc`` the others, and
    the objects the stopped workers left in cycles (None if none said)."""
    acts: list[tuple[float, float]] = []
    collections: dict[bool, list[tuple[float, float | None]]] = {True: [], False: []}
    left: list[int] = []
    cycles: Counter[str] = Counter()
    blocks: list[tuple[float, int]] = []
    sqlite: list[tuple[float, int]] = []
    heap: list[tuple[float, int, int]] = []
    spent: dict[str, list[float]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            if "act" in entry:
                acts.append((float(entry["act"][0]), float(entry["act"][1])))
            elif "gc" in entry:   # a line without its generation (written before 2026-12-03) was a full one
                gc_entry = entry["gc"]
                collections[len(gc_entry) < 3 or gc_entry[2] == 2].append(
                    (float(gc_entry[0]), float(gc_entry[3]) if len(gc_entry) > 3 else None))
            elif "blocks" in entry:
                blocks.append((float(entry["blocks"][0]), int(entry["blocks"][1])))
                if len(entry["blocks"]) > 2 and entry["blocks"][2] is not None:
                    sqlite.append((float(entry["blocks"][0]), int(entry["blocks"][2])))
                if len(entry["blocks"]) > 3 and entry["blocks"][3] is not None:
                    heap.append((float(entry["blocks"][0]), *map(int, entry["blocks"][3])))
            elif "spent" in entry:
                for kind, (n, ms) in entry["spent"].items():
                    _add(spent, kind, n, ms)
            elif "left" in entry:
                left.append(int(entry["left"][0]))
                cycles.update(entry["left"][3] if len(entry["left"]) > 3 else {})

    def pct(values: list[float], p: float) -> float | None:
        return quantile(values, p) if values else None

    walls, cpus = [a[0] for a in acts], [a[1] for a in acts]
    return {"moves": len(acts),
            "wall_ms": {"p50": pct(walls, 0.5), "p95": pct(walls, 0.95)},
            "cpu_ms": {"p50": pct(cpus, 0.5), "p95": pct(cpus, 0.95)},
            "full_gc": _collections(collections[True]), "young_gc": _collections(collections[False]),
            "left_in_cycles": sum(left) if left else None, "cycles_left": dict(cycles), "blocks": blocks,
            "sqlite": sqlite, "heap": heap, "spent": spent}


def _collections(times: list[tuple[float, float | None]]) -> dict[str, Any]:
    """How many, and their wall and CPU milliseconds, longest and in all (CPU: None if not written)."""
    walls, cpus = [w for w, _ in times], [c for _, c in times if c is not None]
    return {"n": len(times), "longest_ms": max(walls, default=None), "total_ms": sum(walls),
            "longest_cpu_ms": max(cpus, default=None), "total_cpu_ms": sum(cpus) if cpus else None}
