"""The connections a worker holds open between requests, so that a worker
told to stop can close them at once.

A phone's browser keeps its connection open after each answer (keep-alive)
for its next tap. gunicorn's stopping worker waits for every connection to
end, and an idle one never does by itself: a worker with one phone at its
table waited out the whole graceful timeout (5 s) before it stopped, and a
restart kept the whole room waiting that long. Closing the idle ones
lets it stop as soon as the requests in flight are answered; the phones
open new connections to the next worker, as after any keep-alive timeout.
"""

from __future__ import annotations

import socket
import weakref
from typing import Any, Callable, Iterable

from werkzeug.wsgi import ClosingIterator


class Connections:
    """WSGI middleware: each connection's socket, and whether a request is
    being answered on it now (gunicorn puts the socket in the environ)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self._seen: "weakref.WeakSet[Any]" = weakref.WeakSet()
        self._busy: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()
        self.stopping = False

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if sock is None:
            return self.app(environ, start_response)
        self._seen.add(sock)
        self._busy[sock] = self._busy.get(sock, 0) + 1
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self._done(sock)
            raise
        return ClosingIterator(answer, lambda: self._done(sock))

    def _done(self, sock: Any) -> None:
        left = self._busy.get(sock, 1) - 1
        if left > 0:
            self._busy[sock] = left
            return
        self._busy.pop(sock, None)
        if self.stopping:
            # A request that was being answered when the worker was told to
            # stop (a stream, ended by the hub): gunicorn would keep its
            # connection open for the next one, since it came before the stop.
            _shut(sock)

    def close_idle(self) -> int:
        """Shut every connection that is between requests now, and each
        other one as its request is answered; returns how many were shut now.
        The worker's reader of that connection then sees its end (after any
        request already on its way, which is answered) and closes it."""
        self.stopping = True
        return sum(_shut(sock) for sock in list(self._seen) if sock not in self._busy)


def _shut(sock: Any) -> bool:
    # For reading only: the worker's reader sees the end and closes the
    # connection, but a request it has read (or that already reached this
    # machine) is still answered. Shut both ways, a tap read just before the
    # stop and not yet at the app (this middleware had it as idle) lost its
    # answer: a narrow window under gevent, a real one under gthread.
    try:
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        return False   # already closed by the phone or by gunicorn: nothing to end
    return True
