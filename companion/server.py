"""Run the companion: gunicorn on all interfaces with as many worker
processes as asked (each serving its phones' requests as greenlets, or as
threads: :data:`WORKER_CLASSES`), the address to open from a phone, and a
QR code of it in the terminal.

Every worker is stateless apart from caches: tables live in the database,
and a change committed by one worker reaches the phones streaming from
another through the fan-out (:mod:`companion.hub`). Behind a proxy the same
tables can be served by workers on several machines (docs/deploy.md).

>>> lan_addresses()  # doctest: +SKIP
['192.168.1.23']
"""

from __future__ import annotations

import fcntl
import ipaddress
import os
import socket
import struct
import sys
import time
from typing import Any, Mapping, TextIO

import segno

from companion import create_app


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a phone on the same network could
    reach, best first. Nothing is sent on the network to find them."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    found.extend(_interface_addresses())
    out: list[str] = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or address in out:
            continue
        out.append(address)
    return sorted(out, key=lambda a: (not ipaddress.ip_address(a).is_private, a))


def _interface_addresses() -> list[str]:
    """IPv4 address of every interface (Linux: SIOCGIFADDR; elsewhere nothing)."""
    out = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except (OSError, AttributeError):
        return out
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
                out.append(socket.inet_ntoa(packed[20:24]))
            except OSError:
                continue
    return out


def phone_url(host: str, port: int) -> str:
    """The address to print: the LAN address when serving on all interfaces."""
    if host in ("0.0.0.0", "::", ""):
        addresses = lan_addresses()
        shown = addresses[0] if addresses else "127.0.0.1"
    else:
        shown = host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def serve(host: str = "0.0.0.0", port: int = 5000, database_url: str | None = None, *,
          instance_path: str | None = None, config: Mapping[str, Any] | None = None,
          workers: int = 1, threads: int = 256, qr: bool = True, out: TextIO | None = None,
          allocator: str | None = None, worker_class: str = "gevent", graceful_timeout: int = 5) -> None:
    """Start the companion and keep running until interrupted.

    ``database_url``: ``postgresql://...`` or ``sqlite:///file``; default: a
    SQLite file in the instance folder (``instance_path``, by default
    ``./instance``). ``config`` overrides app settings (e.g. ``RATE_LIMITS``).
    ``threads`` per worker bound how many phones (each holds a stream) and
    requests a worker serves at once: size it for the phones, not the cores.
    ``allocator``: how to name the C allocator this process runs on
    (:mod:`companion.allocator`; by default, the one it has loaded).
    ``worker_class``: ``gevent`` (one thread per worker, each request a
    greenlet) or ``gthread`` (a thread per request): see :data:`WORKER_CLASSES`.
    ``graceful_timeout``: seconds a worker told to stop lets the requests it
    is answering finish (its phones' streams and idle connections it ends at
    once: :func:`_end_streams_on_stop`).
    """
    if worker_class not in WORKER_CLASSES:
        raise ValueError(f"worker_class must be one of {', '.join(WORKER_CLASSES)}, not {worker_class!r}")
    if instance_path is not None:
        instance_path = os.path.abspath(instance_path)   # Flask takes only an absolute one (a relative one was a traceback)
    out = out or sys.stdout
    if allocator is None:
        from companion.allocator import in_use

        allocator = "jemalloc" if in_use() == "jemalloc" else "the system's allocator"
    url = phone_url(host, port)
    settings: dict[str, Any] = {"PUBLIC_URL": url, "WORKERS": workers, "THREADS": threads}
    if database_url:
        settings["DATABASE_URL"] = database_url
    settings.update(config or {})
    url = str(settings["PUBLIC_URL"])
    # schema ready, settings checked; its bots stay idle (the workers play them, each after its fork)
    probe = create_app(None, instance_path=instance_path, overrides={**settings, "BOTS": False})
    store = probe.extensions["companion_store"]
    print(f"labkit companion: {store.db.kind} database, {workers} worker(s) x {threads} "
          f"{'requests at once (gevent)' if worker_class == 'gevent' else 'threads'}, "
          f"fan-out {probe.extensions['companion_hub'].fanout.name}, "
          f"{len(probe.extensions['companion_referee'].game_names())} game(s), memory from {allocator}", file=out)
    _tell_sets(probe, out)
    _warm(probe, out)
    store.db.close()
    print(f"Open this on a phone on the same network: {url}", file=out)
    if qr:
        try:
            segno.make(url, error="m").terminal(out=out, compact=True)
        except (OSError, ValueError, UnicodeError):  # a terminal that cannot show it: the address is printed above
            pass
    print(f"Listening on {host}:{port} (Ctrl-C to stop)", file=out, flush=True)
    def worker_app() -> Any:   # in each worker, after its fork (and, under gevent, its patching)
        if worker_class == "gevent":
            _psycopg_gives_way()
        return create_app(None, instance_path=instance_path, overrides=settings)

    run_gunicorn(worker_app, host, port, workers=workers, threads=threads, worker_class=worker_class,
                 graceful_timeout=graceful_timeout, trusted_proxies=str(probe.config.get("TRUSTED_PROXIES") or ""))


def _psycopg_gives_way() -> None:
    """psycopg chooses how to wait on the network when it is first imported:
    here that is in the master (which made the schema ready), before the
    worker patched sockets and threads for gevent, so it chose its C wait,
    which holds the worker's only thread (a worker listening for PostgreSQL's
    notifications never got to answer anyone). The worker switches to the
    wait psycopg itself picks when imported after gevent's patching:
    ``select.poll``, patched, which gives way to the other greenlets."""
    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and waiting.wait is getattr(waiting, "wait_c", None):
        waiting.wait = waiting.wait_poll


def _warm(app: Any, out: TextIO) -> None:
    """Each game's lookups worked out in the master, before the fork
    (:meth:`engine.core.Game.warm`): every worker starts with them, shared,
    and its memory does not grow as play meets them one by one."""
    started = time.perf_counter()
    referee = app.extensions["companion_referee"]
    for name in referee.game_names():
        referee.game(name).warm()
    print(f"Worked out the games' lookups in {time.perf_counter() - started:.1f} s", file=out)


def _tell_sets(app: Any, out: TextIO) -> None:
    """The card sets of ``SETS_DIR`` a host may choose, and why any are not offered."""
    sets = app.extensions["companion_referee"].table_sets()
    if sets.folder is None:
        return
    found, problems = sets.server_sets()
    names = ", ".join(f"{s.info.name if s.info else source} ({s.game.title})" for s, source in found) or "none"
    print(f"Card sets from {sets.folder}: {names}", file=out)
    if problems:
        print(f"Not offered ({len(problems)} problem{'s' if len(problems) != 1 else ''}):", file=out)
        for problem in problems:
            print(f"  {problem}", file=out)


WORKER_CLASSES = ("gevent", "gthread")
"""How a worker serves its phones at once. ``gevent``, the default: one
thread, each connection a greenlet that gives way whenever it waits on the
network, so a busy worker passes the interpreter from one request to the
next without the operating system switching hundreds of threads (at 50
tables of four phones, others saw a move in 15-17 ms at the 95th
percentile against 77-124 ms with threads, for the same CPU:
docs/design/serving-speed.md). ``gthread``: a thread per request, as
before; each open phone holds one."""

GEVENT_CONNECTIONS = 2000
"""Connections one gevent worker holds open: each phone keeps its stream
and a kept-alive connection for its taps, and a worker at its limit stops
accepting until one closes, so this is well above ``threads`` (which bounds
the live streams, companion/stream.py)."""


def run_gunicorn(make_app: Any, host: str, port: int, *, workers: int, threads: int,
                 worker_class: str = "gevent", graceful_timeout: int = 5, trusted_proxies: str = "") -> None:
    """gunicorn's workers, each building its own app after the fork.
    ``trusted_proxies`` (``TRUSTED_PROXIES``): the only addresses whose
    ``X-Forwarded-Proto`` gunicorn believes (its own default believed
    127.0.0.1's, so a script on the server's machine could pass for HTTPS)."""
    from gunicorn.app.base import BaseApplication

    from companion.security import _trusted

    forwarded = ",".join(str(network) for network in _trusted(trusted_proxies))
    worker: Any = worker_class
    if worker_class == "gevent":
        from companion.worker import Worker   # gevent's, bounded per client address

        worker = Worker

    class Companion(BaseApplication):
        def load_config(self) -> None:
            bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            if worker_class == "gevent":
                self.cfg.set("worker_connections", max(GEVENT_CONNECTIONS, 4 * threads))
            for key, value in {"bind": bind, "workers": workers, "worker_class": worker, "threads": threads,
                               "forwarded_allow_ips": forwarded,
                               "keepalive": 75, "graceful_timeout": graceful_timeout, "timeout": 30,
                               "accesslog": None,
                               "errorlog": "-", "loglevel": "warning", "proc_name": "labkit-companion"}.items():
                self.cfg.set(key, value)

            self.cfg.set("post_worker_init", _end_streams_on_stop)
            self.cfg.set("worker_int", _stop_helpers)      # Ctrl-C: the worker exits at once, helpers first
            self.cfg.set("worker_exit", _worker_exit)      # any end: the bots' processes reaped, nothing left

        def load(self) -> Any:
            return make_app()

    Companion().run()


def _end_streams_on_stop(worker: Any) -> None:
    """Once a worker has loaded the app. A worker told to stop (SIGTERM) ends its phones' streams at once,
    and closes the connections they keep open between taps, rather than wait
    out the graceful timeout on them: the phones reconnect, to another
    worker behind a proxy, and catch up from their last version."""
    import signal

    from companion import collector, idle

    app = worker.wsgi
    collector.serve_without_pauses(app)
    if hasattr(worker, "configure"):
        worker.configure(app.config)   # its bounds per client address (companion/worker.py)
    connections = worker.wsgi = idle.Connections(app)
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        # A signal handler may not wait (under gevent, a wait here raised
        # BlockingSwitchOutError): the helpers are told to stop, and the
        # worker's exit waits for them (_stop_helpers).
        app.extensions["companion_hub"].close()
        app.extensions["companion_bots"].stop(timeout=0)
        app.extensions["companion_presence"].stop(timeout=0)
        if "companion_timings" in app.extensions:
            app.extensions["companion_timings"].census()
        if callable(previous):
            previous(signum, frame)   # gunicorn's: no more connections taken
        connections.close_idle()      # the ones phones keep open between taps end now (companion/idle.py)

    signal.signal(signal.SIGTERM, on_term)


def _stop_helpers(worker: Any) -> None:
    """The worker is ending (Ctrl-C, or its exit after a stop): its helper
    threads stop and its bot processes are ended and reaped, so the server
    leaves no process behind and nothing to clean up (a pool not shut down
    leaked its semaphores)."""
    app = getattr(worker, "wsgi", None)
    app = getattr(app, "app", app)    # the idle-connection middleware around the app
    extensions = getattr(app, "extensions", None)
    if not extensions:
        return
    extensions["companion_hub"].close()
    extensions["companion_presence"].stop(timeout=1.0)
    extensions["companion_bots"].stop(timeout=2.0)
    from companion import set_check

    set_check.close()   # the card set checker, if an upload started one (atexit never runs after os._exit)


def _worker_exit(server: Any, worker: Any) -> None:
    """The worker's last step (gunicorn calls it as the worker's process ends,
    its exit on its way). Its helpers stopped and its database closed, a
    gevent worker ends here: the interpreter's own teardown then had nothing
    left to do but print "Exception ignored in _removeHandlerRef" (logging's
    locks are gevent's, and gevent is torn down before them)."""
    _stop_helpers(worker)
    app = getattr(worker.wsgi, "app", worker.wsgi)
    store = getattr(app, "extensions", {}).get("companion_store")
    if store is not None:
        store.db.close()
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return
    if not monkey.is_module_patched("threading"):
        return
    leaving = sys.exc_info()[1]
    code = leaving.code if isinstance(leaving, SystemExit) else (1 if leaving is not None else 0)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))

