"""A request's body is read whole, within a size and a time limit, before
the request takes anything it shares with other tables.

A tap takes one of the worker's turns (:mod:`companion.turns`) before its
view runs. Read lazily, its body was read inside the turn: two phones (or
one laptop) sending ``POST /t/<any code>/act`` with a long ``Content-Length``
and a byte every few seconds held both turns, and every table of the
worker waited (a tap answered after 59.5 s). Here the body comes off the
network first, with nothing held but the sender's own connection, and a
sender that is too slow or sends too much is answered at once:

* ``MAX_CONTENT_LENGTH`` (64 KiB; the create form, which may carry a card
  set's zip, more: :func:`companion.home.allow_uploads`): a body declared
  longer is refused unread (413); a chunked body is read to one byte past it.
* ``BODY_SECONDS`` (10) plus a second for every ``BODY_BYTES_PER_S`` (32 KiB)
  it declares: the whole body must have arrived by then, or the answer is
  408. A phone on a weak Wi-Fi sends a tap's few hundred bytes in well
  under a second.
* A body that cannot be read (a broken chunked encoding, a sender that hung
  up) is a 400, not a 500.

Each refusal ends the connection (what is left of the body is never read),
and is answered through the app (:func:`refuse_unread`), so a page, htmx and
the API each get it in their own form.

>>> limit_for({"PATH_INFO": "/tables", "REQUEST_METHOD": "POST"}, 64, {"/tables": 4096})
4096
>>> limit_for({"PATH_INFO": "/t/ABCDE/act", "REQUEST_METHOD": "POST"}, 64, {"/tables": 4096})
64
"""

from __future__ import annotations

import io
import socket
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping

from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge, RequestTimeout

REFUSED = "labkit.body_refused"
"""The environ key that carries a refusal from the reader to the app."""
CHUNK = 64 * 1024


class _TooSlow(Exception):
    pass


def limit_for(environ: Mapping[str, Any], default: int, larger: Mapping[str, int]) -> int:
    """The most bytes a request's body may hold: ``default``, or more on the
    few paths that take larger bodies (``larger``, by path)."""
    return larger.get(str(environ.get("PATH_INFO", "")), default)


def seconds_for(length: int, seconds: float, per_second: float) -> float:
    """Time a body of ``length`` bytes has to arrive.

    >>> seconds_for(500, 10, 32768)
    10.015...
    """
    return seconds + (length / per_second if per_second > 0 else 0.0)


def _gevent() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


@contextmanager
def _deadline(environ: Mapping[str, Any], seconds: float) -> Iterator[None]:
    """Raise :class:`_TooSlow` if the block still reads after ``seconds``.

    Under gevent a ``Timeout`` stops the read wherever it waits (a socket's
    own timeout is per ``recv``, and a sender trickling a byte at a time
    would reset it at every byte). Under threads, a timer shuts the
    connection for reading, and the read then ends."""
    sock = environ.get("gunicorn.socket")
    if sock is None or seconds <= 0:   # not a real connection (a test client): nothing can be slow
        yield
        return
    if _gevent():
        import gevent

        with gevent.Timeout(seconds, _TooSlow):
            yield
        return
    fired = threading.Event()

    def shut() -> None:
        fired.set()
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass

    timer = threading.Timer(seconds, shut)
    timer.daemon = True
    timer.start()
    try:
        yield
    except Exception:
        if fired.is_set():
            raise _TooSlow() from None
        raise
    finally:
        timer.cancel()
    if fired.is_set():
        raise _TooSlow()


def read_body(environ: dict[str, Any], limit: int, seconds: float, per_second: float) -> Exception | None:
    """Read the body into memory and put it back as ``wsgi.input``; the
    refusal to answer instead (its connection then closes), or ``None``."""
    chunked = "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
    raw_length = str(environ.get("CONTENT_LENGTH") or "").strip()
    if not chunked and raw_length in ("", "0"):
        return None
    declared: int | None = None
    if not chunked:
        try:
            declared = int(raw_length)
        except ValueError:
            return BadRequest("The request's Content-Length is not a number.")
        if declared < 0:
            return BadRequest("The request's Content-Length is not a number.")
        if declared > limit:
            return RequestEntityTooLarge(f"The request's body is {declared:,} bytes: at most {limit:,} are read.")
    wanted = declared if declared is not None else limit + 1
    stream = environ["wsgi.input"]
    parts: list[bytes] = []
    got = 0
    try:
        with _deadline(environ, seconds_for(wanted if declared is not None else limit, seconds, per_second)):
            while got < wanted:
                piece = stream.read(min(CHUNK, wanted - got))
                if not piece:
                    break
                parts.append(piece)
                got += len(piece)
    except _TooSlow:
        return RequestTimeout("The request's body came too slowly: send it again.")
    except (OSError, ValueError, _parse_errors()) as exc:   # a broken chunked body, a sender gone
        return BadRequest(f"The request's body could not be read ({type(exc).__name__}).")
    if declared is None and got > limit:
        return RequestEntityTooLarge(f"The request's body is over {limit:,} bytes, the most that is read.")
    if declared is not None and got < declared:
        return BadRequest("The request's body ended before its Content-Length.")
    body = b"".join(parts)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input_terminated"] = True
    return None


def _parse_errors() -> type[Exception] | tuple[type[Exception], ...]:
    try:
        from gunicorn.http.errors import ParseException
    except ImportError:  # pragma: no cover - gunicorn is a dependency
        return ()
    return ParseException


def install(app: Any) -> None:
    """Read every body first (the outermost layer of ``app.wsgi_app``)."""
    config = app.config
    larger: dict[str, int] = app.extensions.setdefault("companion_larger_bodies", {})
    inner: Callable[..., Iterable[bytes]] = app.wsgi_app

    def most(environ: dict[str, Any]) -> int:
        """The body limit of this request: by its path (the create form), or
        the ``max_body`` its view declares (a paper page's photo), else the default."""
        default = int(config["MAX_CONTENT_LENGTH"])
        if environ.get("PATH_INFO") in larger or environ.get("REQUEST_METHOD") != "POST":
            return limit_for(environ, default, larger)
        try:
            endpoint, _ = app.url_map.bind_to_environ(environ).match()
        except HTTPException:   # no such page: the app answers it, with no body read past the default
            return default
        return int(getattr(app.view_functions.get(endpoint), "max_body", None) or default)

    def body_first(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        refusal = read_body(environ, most(environ),
                            float(config["BODY_SECONDS"]), float(config["BODY_BYTES_PER_S"]))
        if refusal is None:
            return inner(environ, start_response)
        environ[REFUSED] = refusal
        environ["wsgi.input"] = io.BytesIO(b"")
        environ["CONTENT_LENGTH"] = "0"
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        # What is left of the body is never read: the connection ends once
        # the answer is sent (gunicorn keeps no connection whose reading has
        # ended; a Connection: close of ours it would have dropped, and then
        # read the rest of the body for the next request).
        _end_reading(environ.get("gunicorn.socket"))
        return inner(environ, start_response)

    app.wsgi_app = body_first


def _end_reading(sock: Any) -> None:
    if sock is None:
        return
    try:
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass


def refuse_unread() -> None:
    """In the app, before anything else: a body the reader refused is
    answered here, as every other refusal (raises its HTTP error)."""
    from flask import request

    refusal = request.environ.get(REFUSED)
    if refusal is not None:
        raise refusal
