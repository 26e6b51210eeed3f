"""A worker told to stop closes the connections phones keep open between
taps (companion/idle.py), without losing a tap already on its way: over
real TCP sockets, the worker's end played by hand as gunicorn plays it
(it reads a request, then calls the app)."""

from __future__ import annotations

import socket
from typing import Any, Iterator

import pytest

from companion.idle import Connections

REQUEST = b"POST /t/ABCDE/act HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


@pytest.fixture
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A phone's connection and the worker's end of it."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        phone = socket.create_connection(listener.getsockname(), timeout=10)
        worker, _ = listener.accept()
        worker.settimeout(10)
    yield phone, worker
    phone.close()
    worker.close()


def _answered(connections: Connections, worker: socket.socket) -> None:
    """One request answered in full on the connection (it is idle after)."""
    answer = connections({"gunicorn.socket": worker}, lambda *a: None)
    assert list(answer) == [b"ok"]
    answer.close()


def _middleware() -> Connections:
    def app(environ: Any, start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [b"ok"]
    return Connections(app)


def test_an_idle_connection_is_ended_at_the_stop(connection: tuple[socket.socket, socket.socket]) -> None:
    phone, worker = connection
    connections = _middleware()
    _answered(connections, worker)
    assert connections.close_idle() == 1
    assert worker.recv(1) == b""        # the worker's reader sees the end, and closes the connection
    worker.close()
    assert phone.recv(1) == b""         # so the phone sees it too, and opens a new one to the next worker


def test_a_tap_read_just_before_the_stop_is_still_answered(connection: tuple[socket.socket, socket.socket]) -> None:
    """The window between gunicorn reading a request from an idle
    connection and calling the app (where the middleware first sees it):
    a stop then took the tap's connection both ways, and its answer was
    never sent. Shut for reading only, the answer goes out, and only then
    does the connection end."""
    phone, worker = connection
    connections = _middleware()
    _answered(connections, worker)
    phone.sendall(REQUEST)
    assert worker.recv(len(REQUEST), socket.MSG_WAITALL) == REQUEST   # read; not yet at the app
    assert connections.close_idle() == 1
    worker.sendall(ANSWER)
    got = b""
    while len(got) < len(ANSWER):
        chunk = phone.recv(len(ANSWER))
        assert chunk, "the connection ended before the tap was answered"
        got += chunk
    assert got == ANSWER
    assert worker.recv(1) == b""        # and then the worker's reader sees the end


def test_a_tap_sent_as_the_worker_stops_is_read_and_answered(connection: tuple[socket.socket, socket.socket]) -> None:
    """A tap whose bytes had reached the worker's machine but not yet been
    read when the stop came: it is still read, and answered."""
    phone, worker = connection
    connections = _middleware()
    _answered(connections, worker)
    phone.sendall(REQUEST)
    assert connections.close_idle() == 1
    assert worker.recv(len(REQUEST), socket.MSG_WAITALL) == REQUEST
    worker.sendall(ANSWER)
    assert phone.recv(len(ANSWER), socket.MSG_WAITALL) == ANSWER


def test_a_connection_busy_at_the_stop_ends_after_its_answer(connection: tuple[socket.socket, socket.socket]) -> None:
    phone, worker = connection
    connections = _middleware()
    answer = connections({"gunicorn.socket": worker}, lambda *a: None)
    assert connections.close_idle() == 0          # in flight: left to finish
    worker.sendall(ANSWER)
    assert list(answer) == [b"ok"]
    answer.close()                                 # answered: now it ends
    assert phone.recv(len(ANSWER), socket.MSG_WAITALL) == ANSWER
    assert worker.recv(1) == b""
