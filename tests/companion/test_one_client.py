"""What one client can and cannot do to the real server (``python -m
companion`` under gunicorn's gevent worker, on loopback), as an attack
probe found it: each attack from an address of its own (Linux answers every
127.x.y.z), while a phone at 127.0.0.1 plays on. Limits are configured short
(seconds, not the minutes of the probe) and counted, never waited out.
docs/deploy.md, "What one client can and cannot do", lists every limit."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.client import call
from tests.conftest import Server
from tests.companion.test_server import new_table

LIMITS = {
    "LABKIT_BODY_SECONDS": "1.5",           # a body has 1.5 s, plus 1 s per 32 KiB it declares
    "LABKIT_FIRST_REQUEST_S": "1.5",        # a new connection's first request within 1.5 s
    "LABKIT_HEARTBEAT_S": "0.5",            # streams look at their reader every half second
    "LABKIT_STREAM_UNREAD_BYTES": "1024",   # ...and end once 1 KiB waits unread
    "LABKIT_TRUSTED_PROXIES": "127.0.0.9",  # the one proxy whose X-Forwarded-Proto is believed
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("one-client") / "instance", env=LIMITS,
                     extra=["--rate-limit", "lookup=5/3600"]).start()
    yield running
    running.stop()


def connect(server: Server, source: str, timeout: float = 10, rcvbuf: int | None = None) -> socket.socket:
    """A connection from ``source`` (an address of 127.0.0.0/8)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", server.port))
    return s


def answer(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole HTTP answer read off ``s`` (status, headers in lower case, body)."""
    response = http.client.HTTPResponse(s)
    response.begin()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


def status_of(s: socket.socket) -> int | None:
    """The status of the answer waiting on ``s``; ``None`` if it was closed without one."""
    try:
        first = s.recv(64)
    except OSError:
        return None
    return int(first.split(b" ", 2)[1]) if first.startswith(b"HTTP/") else None


def get(server: Server, path: str, source: str = "127.0.0.1", headers: dict[str, str] | None = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20, source_address=(source, 0))
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


# --- 1. slow request bodies -------------------------------------------------------------------------

def test_two_slow_bodies_hold_no_turn_and_are_answered_408(server: Server) -> None:
    """Found: two ``POST /t/<any code>/act`` trickling a 60,000-byte body a
    byte at a time held both of the worker's turns; a tap waited 59.5 s. Now
    the tap is answered while both still trickle, and each trickler gets 408
    once its time is up (1.5 s + 60,000 / 32 KiB here) and its connection closes."""
    table = new_table(server.url, ["Ada", "Bo"])
    stop = threading.Event()
    answers: dict[str, tuple[int | None, float]] = {}

    def trickle(source: str) -> None:
        s = connect(server, source, timeout=15)
        s.sendall(b"POST /t/ZZZZZ/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
                  b"\r\nContent-Length: 60000\r\n\r\n")
        s.settimeout(0.2)
        first = b""
        while not stop.is_set() and not first:
            try:
                s.sendall(b"a")
                first = s.recv(64)   # an answer (or the end) before the body is whole
            except socket.timeout:
                continue
            except OSError:
                break
        answers[source] = (int(first.split(b" ", 2)[1]) if first.startswith(b"HTTP/") else None, time.monotonic())
        s.close()

    tricklers = [threading.Thread(target=trickle, args=(source,)) for source in ("127.0.0.5", "127.0.0.6")]
    for t in tricklers:
        t.start()
    time.sleep(0.5)   # both bodies under way
    code, ada = table["code"], table["tokens"][0]
    try:
        state = call(server.url, "GET", f"/api/tables/{code}", token=ada, timeout=30)[1]
        status, _ = call(server.url, "POST", f"/api/tables/{code}/actions",
                         {"version": state["version"], "action": state["actions"][0]}, ada, timeout=30)
        tapped = time.monotonic()
        assert status == 200
        assert not answers, f"the tap was answered only after a slow body was: {answers}"
    finally:
        for t in tricklers:
            t.join(timeout=12)
        stop.set()
    assert {source: got for source, (got, _) in answers.items()} == {"127.0.0.5": 408, "127.0.0.6": 408}
    assert all(at > tapped for _, at in answers.values())


# --- 2. idle connections ----------------------------------------------------------------------------

def test_one_address_holds_64_connections_and_each_must_ask_within_its_time(server: Server) -> None:
    """Found: 2,100 connections from one address, never used, stopped the
    worker taking any new one for 75 s. Now the 65th from one address is
    refused at once (503), a phone elsewhere is answered, and the 64 held are
    closed when their first request has not come in time (1.5 s here)."""
    held = [connect(server, "127.0.0.7") for _ in range(70)]
    try:
        refused = []
        for s in held[64:]:
            refused.append(status_of(s))
        assert refused == [503] * 6, refused
        assert get(server, "/api/games").status == 200
        for s in held[:64]:
            s.settimeout(10)
            assert s.recv(1) == b"", "an idle connection was kept past its first request's time"
    finally:
        for s in held:
            s.close()


# --- 3. guessing codes ------------------------------------------------------------------------------

def test_join_by_code_counts_every_miss_as_the_api_does(server: Server) -> None:
    """Found: ``/join?code=`` answered 25,800-35,900 guesses a minute from one
    address while the guarded paths allowed 20. Five misses here (``lookup=5/3600``),
    then every code is refused to that address, a live one too."""
    live = new_table(server.url, ["Ada", "Bo"], seed=9)["code"]
    guesser = "127.0.0.8"
    misses = [get(server, f"/join?code={code}", guesser).status for code in ("QQQQQ", "QQQQR", "QQQQS", "QQQQT", "QQQQU")]
    assert misses == [404] * 5
    assert get(server, "/join?code=QQQQV", guesser).status == 429
    assert get(server, f"/join?code={live}", guesser).status == 429          # a hit looks like a miss now
    assert get(server, f"/join?code={live}").status == 303                   # another address is not held up


# --- 4. streams nobody reads ------------------------------------------------------------------------

def test_a_stream_whose_reader_does_not_read_is_ended_and_frees_its_place(server: Server) -> None:
    """Found: streams opened and never read were held for good (224 from 4
    addresses refused every other phone's stream). An address holds at most
    16 (``STREAMS_PER_ADDRESS``); one whose reader leaves its bytes unread
    (a tiny receive buffer here, never read) is ended within a few heartbeats,
    and the address may open another."""
    table = new_table(server.url, ["Ada", "Bo"], seed=11)
    code = table["code"]
    request = f"GET /t/{code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    unread = []
    for _ in range(16):
        s = connect(server, "127.0.0.10", rcvbuf=1024)
        s.sendall(request)
        unread.append(s)
    try:
        extra = connect(server, "127.0.0.10")
        extra.sendall(request)
        assert status_of(extra) == 429          # the address's share is taken
        extra.close()
        for _ in range(3):                      # news for every stream: more bytes for readers that do not read
            state = call(server.url, "GET", f"/api/tables/{code}")[1]
            seat = state["to_move"][0]
            mine = call(server.url, "GET", f"/api/tables/{code}", token=table["tokens"][seat])[1]
            call(server.url, "POST", f"/api/tables/{code}/actions",
                 {"version": mine["version"], "action": mine["actions"][-1]}, table["tokens"][seat])
        deadline = time.monotonic() + 10
        while True:
            again = connect(server, "127.0.0.10")
            again.sendall(request)
            got = status_of(again)
            again.close()
            if got == 200:
                break
            assert time.monotonic() < deadline, "unread streams kept their places"
            time.sleep(0.25)
    finally:
        for s in unread:
            s.close()


# --- 8. answers that were 500 -----------------------------------------------------------------------

def test_a_malformed_origin_and_a_broken_chunked_body_are_400(server: Server) -> None:
    """Found: 110 of 5,993 random requests answered 500, from two causes."""
    code = new_table(server.url, ["Ada", "Bo"], seed=12)["code"]
    s = connect(server, "127.0.0.11")
    s.sendall(f"POST /t/{code}/act HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://[::1\r\n"
              "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1".encode())
    status, _, body = answer(s)
    s.close()
    assert status == 400 and b"Origin" in body, (status, body[:200])
    s = connect(server, "127.0.0.11")
    s.sendall(f"POST /t/{code}/act HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
              "Content-Type: application/x-www-form-urlencoded\r\n\r\nzz\r\nabc\r\n0\r\n\r\n".encode())
    status, headers, body = answer(s)
    assert status == 400, (status, body[:200])
    assert s.recv(1) == b""          # and the connection ends: the rest of such a body is never read
    s.close()


# --- 9. uploads, cookies behind HTTPS ----------------------------------------------------------------

def _form(server: Server, source: str = "127.0.0.1",
          headers: dict[str, str] | None = None) -> tuple[http.client.HTTPConnection, str, str]:
    """A connection that has loaded the home page: its session cookie and CSRF token."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60, source_address=(source, 0))
    connection.request("GET", "/", headers=headers or {})
    response = connection.getresponse()
    page = response.read().decode()
    cookie = response.getheader("Set-Cookie") or ""
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return connection, cookie, token


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[str, bytes]:
    boundary = "labkit-test-boundary"
    out = []
    for name, value in fields.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data) in files.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                   "Content-Type: application/zip\r\n\r\n".encode() + data + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(out)


def upload(server: Server, game: str, zipped: bytes, name: str = "set.zip", source: str = "127.0.0.1") -> tuple[int, str]:
    connection, cookie, token = _form(server, source)
    kind, body = multipart({"csrf_token": token, "game": game, "card_set": "upload"},
                           {"card_set_zip": (name, zipped)})
    connection.request("POST", f"/tables?game={game}", body=body,
                       headers={"Content-Type": kind, "Cookie": cookie.split(";")[0]})
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


def test_a_zip_of_a_megabyte_is_checked_not_refused_for_its_size(server: Server) -> None:
    """Found: zips over about 100-140 KB were refused with a bare 413 though a
    set's zip may be 4 MiB. A 1 MB zip now gets the set's own sentences."""
    import io
    import os
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("notes.txt", os.urandom(1_000_000))
    status, page = upload(server, "organicsoup", out.getvalue(), "mega.zip")
    assert status == 422, (status, page[:300])
    assert "mega.zip was not accepted as a card set" in page


def test_cookies_are_secure_only_behind_a_trusted_proxy_over_https(server: Server) -> None:
    """Found: the session cookie (it holds the CSRF token) was never
    ``Secure`` behind HTTPS, and ``X-Forwarded-Proto`` was believed from
    127.0.0.1 though no proxy was trusted."""
    https = {"X-Forwarded-Proto": "https"}
    # a script on the server's own machine saying "https": not believed
    connection, cookie, token = _form(server, "127.0.0.1", https)
    assert "labkit_session=" in cookie and "Secure" not in cookie
    kind, body = multipart({"csrf_token": token, "game": "toyrace"}, {})
    connection.request("POST", "/tables?game=toyrace", body=body,
                       headers={"Content-Type": kind, "Cookie": cookie.split(";")[0], **https})
    made = connection.getresponse()
    made.read()
    assert made.status == 303
    host = made.getheader("Set-Cookie") or ""
    assert "labkit_host_" in host and "Secure" not in host, host
    connection.close()
    # the trusted proxy (127.0.0.9) saying the phone came over HTTPS: every cookie is Secure
    connection, cookie, _ = _form(server, "127.0.0.9", https)
    assert "labkit_session=" in cookie and "Secure" in cookie, cookie
    connection.close()


def test_a_relative_instance_path_is_taken_from_where_serve_runs(monkeypatch: Any, tmp_path: Path, toy: Any) -> None:
    """Found: ``labkit serve --instance-path rel`` printed a traceback (Flask wants it absolute)."""
    from click.testing import CliRunner

    from companion import server as serving
    from labkit.cli import main

    seen: dict[str, Any] = {}
    monkeypatch.setattr(serving, "run_gunicorn", lambda make_app, host, port, **kw: seen.update(app=make_app()))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "--instance-path", "here", "--no-qr", "--allocator", "system",
                                       "--port", "5123"])
    assert result.exit_code == 0, result.output
    assert Path(seen["app"].instance_path) == tmp_path / "here"
    assert (tmp_path / "here" / "secret_key").exists()
    seen["app"].extensions["companion_store"].db.close()


# --- 7. two phones claiming one seat link -------------------------------------------------------------

@pytest.mark.postgres
def test_two_phones_claiming_one_seat_link_at_once_on_postgresql_one_gets_it(server_factory: Any,
                                                                               postgres_url: str) -> None:
    """Found on PostgreSQL: two phones claiming one seat link at the same
    moment were both told they had the seat (22 of 30 races). 30 races here,
    each a new link for Ada's seat, claimed by two phones at once: exactly
    one gets the seat (303 with its cookie), the other is told the link was used (410)."""
    server = server_factory(database_url=postgres_url).start()
    table = new_table(server.url, ["Ada", "Bo"], seed=30)
    code = table["code"]
    host, cookie, token = _form(server)
    host_cookies = f"{cookie.split(';')[0]}; labkit_host_{code}={table['host']}"
    phones = [_form(server)[1:] for _ in range(2)]
    for race in range(30):
        kind, body = multipart({"csrf_token": token}, {})
        host.request("POST", f"/t/{code}/seats/0/handover", body=body,
                     headers={"Content-Type": kind, "Cookie": host_cookies})
        made = host.getresponse()
        page = made.read().decode()
        assert made.status == 200, (made.status, page[:300])
        nonce = re.findall(rf"/t/{code}/claim/([A-Za-z0-9_-]+)", page)[-1]
        start = threading.Barrier(2)
        results: list[tuple[int, str]] = []

        def claim(cookie: str, csrf: str) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            kind, body = multipart({"csrf_token": csrf}, {})
            start.wait()
            connection.request("POST", f"/t/{code}/claim/{nonce}", body=body,
                               headers={"Content-Type": kind, "Cookie": cookie.split(";")[0]})
            response = connection.getresponse()
            response.read()
            results.append((response.status, response.getheader("Set-Cookie") or ""))
            connection.close()

        claimers = [threading.Thread(target=claim, args=phone) for phone in phones]
        for t in claimers:
            t.start()
        for t in claimers:
            t.join(timeout=30)
        assert sorted(status for status, _ in results) == [303, 410], (race, results)
        assert sum(f"labkit_seat_{code}=" in told for _, told in results) == 1, (race, results)
    host.close()
