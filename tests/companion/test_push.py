"""Changes pushed to phones, through real servers: a phone's stream gets a
change as soon as it is committed, catches up on reconnection, and a change
made through one worker reaches a phone streaming from another (PostgreSQL
LISTEN/NOTIFY, Redis pub/sub, or polling on a shared SQLite file). A retried
action (same id) is applied once."""

from __future__ import annotations

import http.client
import os
import queue
import socket
import threading
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from companion.client import call as api

pytestmark = pytest.mark.slow

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


class Stream:
    """One phone's open stream of changes (``/t/CODE/events``), read on a thread."""

    def __init__(self, base: str, code: str, token: str, since: int | None = None,
                 last_event_id: int | None = None) -> None:
        self.events: "queue.Queue[tuple[int, str]]" = queue.Queue()
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        path = f"/t/{code}/events" + (f"?since={since}" if since is not None else "")
        headers = {"Cookie": f"labkit_seat_{code}={token}", "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        version, data = None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    version = int(line[4:])
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and version is not None:
                    self.events.put((version, "\n".join(data)))
                    version, data = None, []
        except (OSError, ValueError, AttributeError):   # closed under the reader (http.client drops its file)
            pass

    def next(self, timeout: float = 10) -> tuple[int, str]:
        return self.events.get(timeout=timeout)

    def until(self, version: int, timeout: float = 10) -> str:
        while True:
            got, data = self.next(timeout)
            if got >= version:
                return data

    def close(self) -> None:
        """Hang up as a phone does (shut the socket, so the reader thread wakes at once)."""
        if self.conn.sock is not None:
            try:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conn.close()


def _table(base: str) -> tuple[str, list[str], int]:
    status, made = api(base, "POST", "/api/tables", {"game": "toyrace", "seed": 5})
    assert status == 201, made
    code = made["code"]
    tokens = [api(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    status, table = api(base, "POST", f"/api/tables/{code}/start", {"version": made["table"]["version"] + 2},
                        token=made["host_token"])
    assert status == 200, table
    return code, tokens, table["version"]


def _bet(base: str, code: str, token: str, version: int, guess: str = "high", action_id: str | None = None) -> Any:
    body: dict[str, Any] = {"action": {"type": "bet", "guess": guess}, "version": version}
    if action_id:
        body["action_id"] = action_id
    return api(base, "POST", f"/api/tables/{code}/actions", body, token=token)


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for s in opened:
        s.close()


def test_a_stream_gets_each_change_and_catches_up_on_reconnection(server_factory: Any, streams: list) -> None:
    base = server_factory().start().url
    code, tokens, version = _table(base)
    bo = Stream(base, code, tokens[1], since=version)
    streams.append(bo)
    status, after = _bet(base, code, tokens[0], version)
    assert status == 200
    data = bo.until(after["version"])
    assert 'hx-swap-oob="morph"' in data and f'data-version="{after["version"]}"' in data
    assert "Ada" in data

    # Bo's phone drops off; two moves happen; it comes back with its last id
    bo.close()
    status, later = _bet(base, code, tokens[1], after["version"], "low")
    assert status == 200
    back = Stream(base, code, tokens[1], last_event_id=after["version"])
    streams.append(back)
    got, data = back.next()
    assert got == later["version"] and 'hx-swap-oob="morph"' in data   # the table as it is now, at once


def test_a_retried_action_id_applies_once(server_factory: Any) -> None:
    base = server_factory().start().url
    code, tokens, version = _table(base)
    first = _bet(base, code, tokens[0], version, action_id="phone-ada-0001")
    again = _bet(base, code, tokens[0], version, action_id="phone-ada-0001")
    assert first[0] == again[0] == 200
    assert again[1]["version"] == first[1]["version"] == version + 1
    assert api(base, "GET", f"/api/tables/{code}")[1]["moves"] == 1
    # a new id for the same move is a new request: the rules say no
    status, body = _bet(base, code, tokens[0], first[1]["version"], action_id="phone-ada-0002")
    assert status == 422 and "already bet" in body["error"]


def _two_workers(server_factory: Any, **kw: Any) -> tuple[str, str]:
    one = server_factory(**kw).start()
    two = server_factory(**kw).start()
    return one.url, two.url


def _seen_across(one: str, two: str, streams: list) -> None:
    """A phone streaming from worker ``one`` sees a move made through worker ``two``, and back."""
    code, tokens, version = _table(one)
    ada = Stream(one, code, tokens[0], since=version)
    bo = Stream(two, code, tokens[1], since=version)
    streams.extend([ada, bo])
    status, after = _bet(two, code, tokens[1], version, "low")
    assert status == 200
    assert f'data-version="{after["version"]}"' in ada.until(after["version"])
    status, later = _bet(one, code, tokens[0], after["version"])
    assert status == 200
    assert f'data-version="{later["version"]}"' in bo.until(later["version"])


@pytest.mark.postgres
def test_two_workers_on_postgresql_see_each_others_changes(server_factory: Any, postgres_url: str,
                                                           streams: list) -> None:
    one, two = _two_workers(server_factory, database_url=postgres_url, extra=["--fanout", "postgres"])
    _seen_across(one, two, streams)


@pytest.mark.postgres
def test_two_workers_fan_out_through_redis(server_factory: Any, postgres_url: str, streams: list) -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError) as exc:
        pytest.skip(f"Redis is not reachable at {REDIS_URL}: {exc}")
    one, two = _two_workers(server_factory, database_url=postgres_url,
                            extra=["--fanout", "redis", "--redis-url", REDIS_URL])
    _seen_across(one, two, streams)


def test_two_workers_on_one_sqlite_file_see_each_others_changes(server_factory: Any, tmp_path: Any,
                                                                streams: list) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    one, two = _two_workers(server_factory, database_url=url, extra=["--fanout", "poll"])
    _seen_across(one, two, streams)


def test_a_change_whose_news_never_came_arrives_by_the_next_heartbeat(server_factory: Any, tmp_path: Any,
                                                                      streams: list) -> None:
    """Two servers on one SQLite file that tell each other nothing (``local``):
    a stream still finds the other's change when its heartbeat looks (every
    4 s), without waiting its turn for news (companion.stream)."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    one, two = _two_workers(server_factory, database_url=url, extra=["--fanout", "local"])
    code, tokens, version = _table(one)
    ada = Stream(one, code, tokens[0], since=version)
    streams.append(ada)
    status, after = _bet(two, code, tokens[1], version, "low")
    assert status == 200
    assert f'data-version="{after["version"]}"' in ada.until(after["version"], timeout=15)
