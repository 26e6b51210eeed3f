"""gunicorn's gevent worker with two bounds on what one client address can
hold: connections open at once, and the time a new connection has to send
its first request.

A gevent worker keeps up to ``GEVENT_CONNECTIONS`` (2,000) connections
(:mod:`companion.server`) and stops accepting at that; gunicorn gave a
connection 75 s (its keep-alive) to send a request, the first included. So
2,100 connections opened from one laptop and left silent stopped the
worker taking any new phone for 75 s, again and again. Here:

* ``CONNECTIONS_PER_ADDRESS`` (64): one address holds at most this many
  connections; the next is answered 503 and closed at once. A phone needs
  two or three (its stream and its taps'); a browser opens at most six to
  one server. Trusted proxies (``TRUSTED_PROXIES``) are not counted: every
  connection through them comes from them.
* ``FIRST_REQUEST_S`` (10): a new connection's first request must have
  arrived (its line and headers) within this; later requests on a kept-alive
  connection have gunicorn's keep-alive (75 s), as before.

The worker class is ``gevent`` only; ``--worker-class gthread`` has neither
bound (docs/deploy.md).
"""

from __future__ import annotations

import weakref
from collections import Counter
from typing import Any, Mapping

import gevent
from gunicorn.workers.ggevent import GeventWorker

BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 5\r\nContent-Length: 46\r\n\r\nToo many connections from this address: wait.\n")


class Worker(GeventWorker):
    """:class:`GeventWorker`, bounded per client address (see the module)."""

    per_address = 64
    first_request = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open: Counter[str] = Counter()
        self.trusted: tuple[Any, ...] = ()
        self.refused = 0
        """Connections refused for their address's count (the load test reads it in the log)."""
        self._served: "weakref.WeakSet[Any]" = weakref.WeakSet()

    def configure(self, config: Mapping[str, Any]) -> None:
        """The app's settings, once it is loaded in this worker."""
        from companion.security import _trusted

        self.per_address = int(config["CONNECTIONS_PER_ADDRESS"])
        self.first_request = float(config["FIRST_REQUEST_S"])
        self.trusted = _trusted(str(config.get("TRUSTED_PROXIES") or ""))

    def _counted(self, address: str) -> bool:
        from companion.security import _is_in

        return self.per_address > 0 and not (self.trusted and _is_in(address, self.trusted))

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
        if not self._counted(address):
            super().handle(listener, client, addr)
            return
        if self.open[address] >= self.per_address:
            self.refused += 1
            try:
                client.sendall(BUSY)
            except OSError:
                pass
            finally:
                client.close()
            return
        self.open[address] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]

    def timeout_ctx(self) -> Any:
        """The wait for a request: ``first_request`` for a connection's first, keep-alive after."""
        served = gevent.getcurrent() in self._served
        return gevent.Timeout(self.cfg.keepalive if served else self.first_request, False)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        self._served.add(gevent.getcurrent())
        return super().handle_request(listener_name, req, sock, addr)
