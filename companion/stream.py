"""Each phone's stream of changes (Server-Sent Events): one long response per
open page, holding one worker thread that sleeps until its table changes.

On (re)connection the stream starts from the version the phone last saw
(the browser sends it back as ``Last-Event-ID``; a page's first connection
names it in ``?since=``): a phone that missed changes gets the table as it is
now at once. Then every committed change (from this worker or another, see
:mod:`companion.hub`) sends the parts that changed for this phone, with the
new version as the event's id; a ``heartbeat`` event every heartbeat keeps
proxies from closing an idle stream and tells the page the stream is alive. A phone whose browser cannot hold a stream polls
``/t/<code>/live`` instead (companion.js).
"""

from __future__ import annotations

import fcntl
import struct
import termios
import threading
from collections import Counter
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, request, stream_with_context

from companion import live
from companion.caller import by_cookies, by_cookies_at, heard
from companion.errors import TooMany
from companion.security import client_address
from companion.hub import HEARTBEAT_S
from companion.lobby import clean_code
from companion.turns import turn_for_news
from companion.web import get_referee

bp = Blueprint("stream", __name__)


def last_seen_version() -> int:
    """The version a reconnecting event stream last saw: the browser's
    ``Last-Event-ID``, else ``?since=`` (a page's first connection); -1 if none."""
    for raw in (request.headers.get("Last-Event-ID"), request.args.get("since")):
        try:
            return int(raw)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
    return -1


def _event(version: int, data: str) -> str:
    """One SSE event: each line of ``data`` on a ``data:`` line of its own
    (the browser joins them with newlines again)."""
    if "\r" in data:   # rare: one look over the text (pages of 50-100 KB) instead of two replacements
        data = data.replace("\r\n", "\n").replace("\r", "\n")
    return f"id: {version}\nevent: change\ndata: " + data.replace("\n", "\ndata: ") + "\n\n"


class Streams:
    """The streams one worker holds open, in all and per client address.

    Each stream holds a thread for as long as its page is open, so one
    device opening hundreds would take every thread, and then nobody would
    get an answer. A worker keeps ``THREADS_KEPT_FREE`` of its ``THREADS``
    for ordinary requests and lets one address hold at most
    ``STREAMS_PER_ADDRESS``; a stream past either is answered 429 (the
    page then polls: companion.js)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self.by_address: Counter[str] = Counter()

    @staticmethod
    def most(config: Any) -> int:
        """Streams one worker holds at most: its threads but those kept free
        (at most a quarter of them, so a small worker still holds streams)."""
        threads = int(config["THREADS"])
        return threads - min(int(config["THREADS_KEPT_FREE"]), threads // 4)

    def admit(self, address: str, config: Any) -> None:
        most = self.most(config)
        with self._lock:
            if self.total >= most:
                raise TooMany("This server is holding all the live connections it can: this page will "
                              "check for changes every few seconds instead.", 30)
            if self.by_address[address] >= int(config["STREAMS_PER_ADDRESS"]):
                raise TooMany("Too many live connections from this address: this page will check for "
                              "changes every few seconds instead.", 30)
            self.total += 1
            self.by_address[address] += 1

    def release(self, address: str) -> None:
        with self._lock:
            self.total -= 1
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


def unread_bytes(sock: Any) -> int:
    """Bytes written to ``sock`` that its reader has not taken yet (Linux:
    what waits in the send queue, unsent or unacknowledged; 0 elsewhere).
    A phone reading its stream takes every event as it comes, so this stays
    near 0; it grows once the reader's own buffer is full."""
    if sock is None or not hasattr(termios, "TIOCOUTQ"):
        return 0
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]
    except (OSError, ValueError):
        return 0


@bp.get("/t/<code>/events")
def events(code: str) -> Any:
    caller = by_cookies(clean_code(code))
    streams: Streams = current_app.extensions["companion_streams"]
    address = client_address()[:64]
    streams.admit(address, current_app.config)
    referee = get_referee()
    hub = current_app.extensions["companion_hub"]
    heartbeat = float(current_app.config.get("HEARTBEAT_S", HEARTBEAT_S))
    unread_most = int(current_app.config["STREAM_UNREAD_BYTES"])
    sock = request.environ.get("gunicorn.socket")
    since = last_seen_version()

    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def changes() -> Iterator[str]:
        nonlocal caller
        sent = live.Sent()
        hub.watching(caller.code, +1)
        if sock is not None:
            # a write its reader never takes ends the stream after this long, rather than hold its place for good
            sock.settimeout(float(app.config["STREAM_SEND_S"]))
        try:
            yield "retry: 1000\n\n"
            with turn_for_news(app):
                if caller.snap.version == since:   # the page already shows this version
                    sent.version, sent.parts, news = since, _shown(caller), None
                else:
                    news = sent.changes(caller)
            while True:
                if news is not None:
                    yield _event(sent.version, news)
                arrived = hub.wait(caller.code, caller.snap.version, heartbeat)
                if hub.closed:
                    return   # this worker is stopping: the browser reconnects (EventSource's retry)
                if unread_bytes(sock) > unread_most:
                    # Its reader is not reading: a phone that is would have taken
                    # it all by now. The stream ends and frees its place; a real
                    # page that was only slow reconnects and catches up.
                    return
                if arrived is None:
                    # an event, not a comment: the page sees it, and says so
                    # when none has come for a while (companion.js)
                    yield "event: heartbeat\ndata: still here\n\n"
                    heard(caller)   # the page is open: its player is at the table
                    # A change whose news was missed (another worker's) is
                    # looked for without a turn: every stream does this every
                    # heartbeat, 50 a second at 50 tables, and almost always
                    # finds none; taking the one turn news has for each would
                    # queue the real pushes behind them.
                    newer = referee.version(caller.code)
                    if newer <= caller.snap.version:
                        news = None
                        continue
                    arrived = newer
                # one turn for the new version and what changed in it: a push
                # that queued twice would wait behind the busy worker twice
                with turn_for_news(app):
                    if arrived is not None:
                        arrived = hub.newest(caller.code, arrived)
                    caller = by_cookies_at(referee.snapshot_at(caller.code, arrived))
                    news = sent.changes(caller) if caller.snap.version != sent.version else None
        finally:
            hub.watching(caller.code, -1)
            if sock is not None:
                try:
                    sock.settimeout(None)
                except OSError:
                    pass

    response = Response(stream_with_context(changes()), mimetype="text/event-stream")
    # released when the server closes the response, whether or not the
    # stream ever started (a phone can go before its first byte)
    response.call_on_close(lambda: streams.release(address))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"   # nginx: pass each event on at once
    return response


def _shown(caller) -> dict[str, str]:
    """What the page the phone already has holds (it was rendered at this version)."""
    sent = live.Sent()
    sent.changes(caller)
    return sent.parts
