"""Which C allocator the server's process uses, and starting it with jemalloc.

A worker serving many tables allocates and frees rendered pages all day.
With glibc's allocator the freed memory stays scattered through the heap and
is not given back, so the worker grows for as long as it runs; with jemalloc
it stays flat (docs/design/serving-speed.md has the measurements). An
allocator can only be chosen when a process starts, so ``labkit serve``
starts itself again with jemalloc preloaded, before the server forks any
worker. Debian's ``libjemalloc2`` provides it; without it the server runs on
the system's allocator and says so.

>>> preload_env({"LD_PRELOAD": "/x/other.so"}, "/y/libjemalloc.so.2")["LD_PRELOAD"]
'/y/libjemalloc.so.2:/x/other.so'
"""

from __future__ import annotations

import functools
import glob
import os
import sys
from pathlib import Path
from typing import Any, Mapping

# Where Debian (under its architecture's folder) and other systems put it;
# the first that exists is used.
CANDIDATES = ("/usr/lib/*/libjemalloc.so.2", "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2")
# Set in the restarted process, so a library that fails to load is not tried again and again.
RESTARTED = "LABKIT_ALLOCATOR_RESTARTED"
# jemalloc returns freed pages from a thread of its own rather than inside
# whichever request happens to free them, after they have been free for 1 s
# rather than its default 10: a worker frees its pages' text at every move,
# and in the soak the pages it held freed but not yet returned were 19 -> 28 MB
# over ten minutes with 10 s, 15 -> 16-23 MB with 1 s, for the same CPU per
# move (docs/design/serving-speed.md, 2026-12-05, evening).
OPTIONS = "background_thread:true,dirty_decay_ms:1000"


def library() -> str | None:
    """The jemalloc library on this machine, or None."""
    return next((path for pattern in CANDIDATES for path in sorted(glob.glob(pattern))), None)


def in_use(pid: int | str = "self") -> str:
    """The allocator a running process has loaded: 'jemalloc' or 'system'."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text(errors="replace")
    except OSError:
        return "system"
    return "jemalloc" if "libjemalloc" in maps else "system"


def preload_env(environ: Mapping[str, str], path: str) -> dict[str, str]:
    """``environ`` with ``path`` preloaded first and jemalloc's options added
    (options already set are kept: they are the operator's)."""
    env = dict(environ)
    env["LD_PRELOAD"] = ":".join(p for p in (path, environ.get("LD_PRELOAD", "")) if p)
    env.setdefault("MALLOC_CONF", OPTIONS)
    env[RESTARTED] = "1"
    return env


def restart_with_jemalloc(choice: str) -> str:
    """Replace this process by the same command with jemalloc preloaded, when
    ``choice`` is 'auto', it is installed and not yet in use. Returns why the
    process goes on as it is (it does not return when it restarts)."""
    if choice == "system":
        return "the system's allocator (as asked)"
    if in_use() == "jemalloc":
        return "jemalloc"
    path = library()
    if path is None:
        return "the system's allocator (jemalloc is not installed: apt-get install libjemalloc2)"
    if os.environ.get(RESTARTED):
        return f"the system's allocator ({path} did not load)"
    sys.stdout.flush()
    sys.stderr.flush()
    # the same interpreter by its full path (a bare "python3" in argv[0] could
    # be found elsewhere on PATH, outside this virtual environment)
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], preload_env(os.environ, path))
    raise AssertionError("unreachable: execve returns only by raising")  # pragma: no cover


@functools.lru_cache(maxsize=1)
def _mallctl() -> Any:
    """jemalloc's ``mallctl`` in this process, or ``None`` (another allocator)."""
    import ctypes

    try:
        found = ctypes.CDLL(None).mallctl
    except AttributeError:
        return None
    found.restype = ctypes.c_int
    found.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p,
                      ctypes.c_size_t]
    return found


def heap() -> tuple[int, int] | None:
    """(bytes jemalloc has handed out and not had back, bytes of its pages
    resident): their difference is what the allocator holds beyond what
    the program uses (freed pages not yet returned, fragmentation).
    ``None`` where jemalloc is not the allocator."""
    import ctypes

    mallctl = _mallctl()
    if mallctl is None:
        return None
    epoch = ctypes.c_uint64(1)
    size = ctypes.c_size_t(ctypes.sizeof(epoch))
    mallctl(b"epoch", ctypes.byref(epoch), ctypes.byref(size), ctypes.byref(epoch), size)  # refresh the stats
    out = []
    for name in (b"stats.allocated", b"stats.resident"):
        value, size = ctypes.c_size_t(0), ctypes.c_size_t(ctypes.sizeof(ctypes.c_size_t))
        if mallctl(name, ctypes.byref(value), ctypes.byref(size), None, 0) != 0:
            return None   # a jemalloc built without statistics
        out.append(int(value.value))
    return out[0], out[1]


@functools.lru_cache(maxsize=1)
def _sqlite_library() -> Any:
    """The SQLite library Python's module uses (found by name: the module
    does not export SQLite's own functions), or ``None``."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        used = lib.sqlite3_memory_used
    except (OSError, AttributeError):
        return None
    used.restype, used.argtypes = ctypes.c_int64, []
    return used


def sqlite_memory_used() -> int | None:
    """Bytes SQLite's allocator holds in this process: each connection's
    page cache (up to 2 MB each by default, filling as the file grows),
    prepared statements and schemas. ``None`` where it cannot be asked
    (SQLite linked into Python itself, or no shared library found)."""
    used = _sqlite_library()
    return None if used is None else int(used())
