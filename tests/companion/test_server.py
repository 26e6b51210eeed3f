"""The real server (``python -m companion`` under gunicorn) over real HTTP:
killed mid-game and started again, the game goes on from the same state;
two conflicting actions sent at once, exactly one applies."""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

import pytest

from companion.client import call
from companion.server import lan_addresses, phone_url



def new_table(base: str, players: list[str], seed: int = 4242, target: int = 40) -> dict[str, Any]:
    status, created = call(base, "POST", "/api/tables", {"game": "toyrace", "seed": seed, "options": {"target": target}})
    assert status == 201, created
    code = created["code"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in players]
    version = call(base, "GET", f"/api/tables/{code}")[1]["version"]
    status, _ = call(base, "POST", f"/api/tables/{code}/start", {"version": version}, created["host_token"])
    assert status == 200
    return {"code": code, "host": created["host_token"], "tokens": tokens}


def play(base: str, t: dict[str, Any], actions: int) -> None:
    for _ in range(actions):
        state = call(base, "GET", f"/api/tables/{t['code']}")[1]
        seat = state["to_move"][0]
        mine = call(base, "GET", f"/api/tables/{t['code']}", token=t["tokens"][seat])[1]
        status, body = call(base, "POST", f"/api/tables/{t['code']}/actions",
                            {"version": mine["version"], "action": mine["actions"][-1]}, t["tokens"][seat])
        assert status == 200, body


@pytest.mark.slow
def test_a_killed_server_resumes_every_table_exactly(server_factory: Any, tmp_path: Any) -> None:
    server = server_factory().start()
    tables = [new_table(server.url, ["Ada", "Bo"], seed=s) for s in (1, 2)]
    for t in tables:
        play(server.url, t, 7)
    before = [call(server.url, "GET", f"/api/tables/{t['code']}", token=t["tokens"][0])[1] for t in tables]
    server.kill()                                     # SIGKILL in mid-game

    again = server_factory(port=server.port).start()  # same instance folder, same database file
    after = [call(again.url, "GET", f"/api/tables/{t['code']}", token=t["tokens"][0])[1] for t in tables]
    assert after == before
    for t in tables:                                  # the game goes on, and the tokens still work
        play(again.url, t, 5)
        state = call(again.url, "GET", f"/api/tables/{t['code']}")[1]
        assert state["moves"] == 12
    # and the host can still undo across the restart
    t = tables[0]
    v = call(again.url, "GET", f"/api/tables/{t['code']}")[1]["version"]
    status, undone = call(again.url, "POST", f"/api/tables/{t['code']}/undo", {"version": v}, t["host"])
    assert status == 200 and undone["moves"] == 11


@pytest.mark.slow
def test_two_conflicting_actions_at_once_exactly_one_applies(server_factory: Any) -> None:
    server = server_factory().start()
    t = new_table(server.url, ["Ada", "Bo"])
    code, ada = t["code"], t["tokens"][0]
    for _ in range(3):
        version = call(server.url, "GET", f"/api/tables/{code}", token=ada)[1]["version"]
        barrier = threading.Barrier(2)
        answers: list[int] = []

        def send(guess: str) -> None:
            barrier.wait()
            status, _ = call(server.url, "POST", f"/api/tables/{code}/actions",
                             {"version": version, "action": {"type": "bet", "guess": guess}}, ada)
            answers.append(status)

        threads = [threading.Thread(target=send, args=(g,)) for g in ("high", "low")]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(answers) == [200, 409], answers
        state = call(server.url, "GET", f"/api/tables/{code}", token=ada)[1]
        assert state["version"] == version + 1 and state["view"]["my_bet"] in ("high", "low")
        # finish the round so the next try starts clean
        bo = t["tokens"][1]
        mine = call(server.url, "GET", f"/api/tables/{code}", token=bo)[1]
        call(server.url, "POST", f"/api/tables/{code}/actions", {"version": mine["version"],
                                                                 "action": {"type": "bet", "guess": "low"}}, bo)
        lead = call(server.url, "GET", f"/api/tables/{code}")[1]["to_move"][0]
        mine = call(server.url, "GET", f"/api/tables/{code}", token=t["tokens"][lead])[1]
        call(server.url, "POST", f"/api/tables/{code}/actions", {"version": mine["version"],
                                                                 "action": {"type": "roll"}}, t["tokens"][lead])


def test_the_address_printed_for_phones() -> None:
    assert phone_url("127.0.0.1", 5000) == "http://127.0.0.1:5000"
    url = phone_url("0.0.0.0", 5000)
    assert url.startswith("http://") and url.endswith(":5000") and "0.0.0.0" not in url
    for address in lan_addresses():
        assert not address.startswith("127.")


def test_serve_prints_the_address_and_a_qr_code(monkeypatch: Any, tmp_path: Any, toy: Any) -> None:
    import io

    from companion import server

    seen: dict[str, Any] = {}

    def fake_gunicorn(make_app: Any, host: str, port: int, **kw: Any) -> None:
        seen.update(kw, host=host, port=port, app=make_app())

    monkeypatch.setattr(server, "run_gunicorn", fake_gunicorn)
    out = io.StringIO()
    server.serve("0.0.0.0", 5123, f"sqlite:///{tmp_path / 'db.sqlite3'}", instance_path=str(tmp_path / "i"), out=out,
                 workers=2, threads=64)
    text = out.getvalue()
    assert "Open this on a phone on the same network: http://" in text
    assert ":5123" in text and "2 worker(s) x 64 requests at once (gevent)" in text
    assert "\u2588\u2588\u2588\u2588" in text                          # the QR code's blocks
    assert seen["host"] == "0.0.0.0" and seen["port"] == 5123 and seen["workers"] == 2
    assert seen["worker_class"] == "gevent"
    assert seen["app"].config["PUBLIC_URL"].endswith(":5123")
    out = io.StringIO()
    server.serve("127.0.0.1", 5124, f"sqlite:///{tmp_path / 'db.sqlite3'}", instance_path=str(tmp_path / "i"),
                 out=out, threads=32, qr=False, worker_class="gthread")
    assert "1 worker(s) x 32 threads" in out.getvalue() and seen["worker_class"] == "gthread"
    with pytest.raises(ValueError, match="worker_class must be one of gevent, gthread, not 'eventlet'"):
        server.serve("127.0.0.1", 5125, out=io.StringIO(), worker_class="eventlet")


@pytest.mark.slow
def test_300_streams_from_one_address_leave_the_server_answering(server_factory: Any) -> None:
    """Found by an attacker: 256 open event streams from one device took every
    thread of the worker, and then nobody got an answer. Raw sockets, each
    holding a stream open without reading it, as a hostile client would, from
    an address of its own (127.0.0.2): it gets its 16 streams
    (``STREAMS_PER_ADDRESS``), 48 more connections are told 429 (64 in all,
    ``CONNECTIONS_PER_ADDRESS``) and the rest are refused at once."""
    import socket
    import time

    server = server_factory().start()
    code = new_table(server.url, ["Ada", "Bo"])["code"]
    request = (f"GET /t/{code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n").encode()

    def status(s: socket.socket) -> bytes:
        try:
            return s.recv(64).split(b" ", 2)[1]
        except (OSError, IndexError):    # closed at once, or reset: refused
            return b"refused"

    held, statuses = [], []
    try:
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0))
            s.sendall(request)
            held.append(s)
        for s in held:                       # each answers at once: a stream (200), "too many" (429) or refused
            statuses.append(status(s))
        started = time.monotonic()
        answer, games = call(server.url, "GET", "/api/games", timeout=10)
        took = time.monotonic() - started
        assert answer == 200 and games, (answer, took)
        counts = {s: statuses.count(s) for s in set(statuses)}
        assert counts.get(b"200") == 16 and counts.get(b"429") == 48, counts
        assert counts.get(b"503", 0) + counts.get(b"refused", 0) == 236, counts
    finally:
        for s in held:
            s.close()
    # a closed stream's thread learns it at its next heartbeat (5 s) and is
    # released: then a new stream is let in again
    deadline = time.monotonic() + 20
    while True:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0))
        try:
            s.sendall(request)
            if status(s) == b"200":
                break
        finally:
            s.close()
        assert time.monotonic() < deadline, "closed streams were never released"
        time.sleep(0.5)


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_a_stopped_worker_ends_its_phones_connections_at_once(server_factory: Any, tmp_path: Any,
                                                              monkeypatch: Any, worker_class: str) -> None:
    """Found in the suite's own time: a worker told to stop (SIGTERM) with a
    phone at its table waited out the whole graceful timeout. Its stream
    ended at once, but gunicorn kept that connection open for the phone's
    next request, as it does the one a phone keeps open between taps
    (keep-alive), and waited for both. With a graceful timeout of a minute,
    the worker must be gone long before it: its stream ended, its idle
    connection closed, and its last words (the timings' census) written."""
    import json
    import socket
    import subprocess

    timings = tmp_path / "timings.jsonl"
    monkeypatch.setenv("LABKIT_TIMINGS_FILE", str(timings))
    server = server_factory(extra=["--graceful-timeout", "60", "--worker-class", worker_class]).start()
    code = new_table(server.url, ["Ada", "Bo"])["code"]

    def ask(path: str, reply_bytes: int = 4096) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert s.recv(reply_bytes).split(b" ", 2)[1] == b"200"
        return s

    stream = ask(f"/t/{code}/events", 64)
    idle = ask("/manifest.webmanifest")     # answered in full; the connection stays open for the next tap
    try:
        assert server.proc is not None
        server.proc.terminate()
        for s in (stream, idle):
            while s.recv(65536):            # read to the end: the worker closes each
                pass
        try:
            server.proc.wait(timeout=30)    # half the graceful timeout: it stopped by itself, not at the timeout
        except subprocess.TimeoutExpired:
            pytest.fail("the worker waited out its graceful timeout with a phone attached")
    finally:
        stream.close()
        idle.close()
    said = [json.loads(line) for line in timings.read_text().splitlines()]
    assert any("left" in entry for entry in said), said[-3:]


def _bot_table(base: str) -> str:
    """A Lab Notes table of two bots, being played (their thinking processes started)."""
    status, made = call(base, "POST", "/api/tables", {"game": "labnotes", "seed": 3})
    assert status == 201, made
    for level in ("easy", "medium"):
        assert call(base, "POST", f"/api/tables/{made['code']}/bots", {"level": level}, made["host_token"])[0] == 201
    version = call(base, "GET", f"/api/tables/{made['code']}")[1]["version"]
    assert call(base, "POST", f"/api/tables/{made['code']}/start", {"version": version}, made["host_token"])[0] == 200
    deadline = time.monotonic() + 30
    while call(base, "GET", f"/api/tables/{made['code']}")[1]["moves"] < 2:   # the bots' processes are up
        assert time.monotonic() < deadline, "the bots never moved"
        time.sleep(0.1)
    return made["code"]


def _group(pgid: int) -> list[str]:
    """The live processes of the server's group: pid, pgid, ppid, command. A
    zombie is no process left running: one whose parent ended is the init
    process's to reap, and a container's init may be slow to."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,ppid=,stat=,args="], capture_output=True, text=True).stdout
    return [" ".join(line.split()[:3] + line.split()[4:]) for line in out.splitlines()
            if line.split()[1] == str(pgid) and not line.split()[3].startswith("Z")]


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stopped_server_is_quiet_and_leaves_no_process(server_factory: Any, stop: str) -> None:
    """Ctrl-C (SIGINT) or a service manager's stop (SIGTERM) with bots in play:
    the server prints no traceback and no warning, and every process it
    started (gunicorn's worker, the bots' thinking processes) is gone. Before,
    the bots' driver printed BlockingSwitchOutError or "cannot schedule new
    futures", the pool left "leaked semaphore objects", and a worker that did
    not end was killed."""
    import signal

    server = server_factory(games=("engine.labnotes:GAME",)).start()
    _bot_table(server.url)
    assert server.proc is not None
    assert len(_group(server.proc.pid)) >= 3               # master, worker, a bot process at least
    server.proc.send_signal(getattr(signal, stop))
    assert server.proc.wait(timeout=20) == 0
    time.sleep(1.0)
    server.log.close()
    assert _group(server.proc.pid) == []
    said = (server.instance.parent / f"server-{server.port}.log").read_text()
    said = said[said.index("Listening on"):]
    for noise in ("Traceback", "Exception ignored", "leaked", "SIGKILL", "Error", "error"):
        assert noise not in said, said


def test_a_killed_worker_takes_its_bot_processes_with_it(server_factory: Any) -> None:
    """kill -9 on the worker: gunicorn starts another, the table plays on,
    and the dead worker's thinking processes do not outlive it."""
    import os
    import signal

    server = server_factory(games=("engine.labnotes:GAME",)).start()
    code = _bot_table(server.url)
    assert server.proc is not None
    group = _group(server.proc.pid)
    worker = next(int(line.split()[0]) for line in group if int(line.split()[2]) == server.proc.pid)
    thinking = [int(line.split()[0]) for line in group if int(line.split()[2]) == worker]
    assert thinking
    os.kill(worker, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(str(pid) in " ".join(_group(server.proc.pid)).split() for pid in thinking):
        assert time.monotonic() < deadline, _group(server.proc.pid)
        time.sleep(0.2)
    moves = call(server.url, "GET", f"/api/tables/{code}")[1]["moves"]
    deadline = time.monotonic() + 30
    while call(server.url, "GET", f"/api/tables/{code}")[1]["moves"] == moves:   # a new worker's bots play on
        assert time.monotonic() < deadline
        time.sleep(0.2)
