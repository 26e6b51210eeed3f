"""The store, on SQLite always and on PostgreSQL when one is reachable."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.db import Database
from companion.errors import NotFound
from companion.store import CodeTaken, Store, VersionConflict


@pytest.fixture
def store(database_url: str) -> Any:
    database = Database(database_url)
    database.init_schema()
    yield Store(database)
    database.close()


def _table(store: Store, code: str = "ABCDE") -> dict[str, Any]:
    return store.create_table(code=code, game="toyrace", seed=2 ** 62 + 7, options={"target": 5},
                              host_token="h" * 64)


def _playing(store: Store) -> dict[str, Any]:
    t = _table(store)
    version = store.add_seat(t["id"], t["version"], 0, "Ada", "a" * 64)
    version = store.add_seat(t["id"], version, 1, "Bo", "b" * 64)
    store.start(t["id"], version, 2)
    return store.table("ABCDE")


def test_a_table_round_trips(store: Store) -> None:
    t = _table(store)
    again = store.table("ABCDE")
    assert again["id"] == t["id"]
    assert again["seed"] == 2 ** 62 + 7          # 63-bit seeds survive both back ends
    assert again["options"] == {"target": 5}
    assert (again["status"], again["version"], again["moves"]) == ("lobby", 0, 0)
    with pytest.raises(NotFound):
        store.table("ZZZZZ")


def test_codes_are_unique(store: Store) -> None:
    _table(store)
    with pytest.raises(CodeTaken):
        _table(store)


def test_a_seat_is_added_only_on_the_version_seen(store: Store) -> None:
    """The store keeps what the lobby allows (its rules are the referee's):
    a seat goes in on top of the version the referee read, never twice."""
    t = _table(store)
    assert store.add_seat(t["id"], 0, 0, "Ada", "a" * 64) == 1
    with pytest.raises(VersionConflict):
        store.add_seat(t["id"], 0, 1, "Bo", "b" * 64)        # someone joined since version 0
    with pytest.raises(VersionConflict):
        store.add_seat(t["id"], 1, 0, "Bo", "b" * 64)        # seat 0 is taken
    assert store.add_seat(t["id"], 1, 1, "Bo", "b" * 64) == 2
    assert [(s["seat"], s["name"], s["token"]) for s in store.seats(t["id"])] == [(0, "Ada", "a" * 64),
                                                                                 (1, "Bo", "b" * 64)]


def test_no_one_joins_after_the_start(store: Store) -> None:
    t = _playing(store)
    with pytest.raises(VersionConflict):
        store.add_seat(t["id"], t["version"], 2, "Late", "l" * 64)


def test_actions_append_on_the_version_seen_and_undo(store: Store) -> None:
    t = _playing(store)
    v = t["version"]
    v1 = store.append_action(t["id"], v, 0, 0, {"type": "bet", "guess": "high"})
    assert v1 == v + 1
    with pytest.raises(VersionConflict):
        store.append_action(t["id"], v, 0, 1, {"type": "bet", "guess": "low"})   # stale version
    v2 = store.append_action(t["id"], v1, 1, 1, {"type": "bet", "guess": "low"})
    assert [e.action["guess"] for e in store.log(t["id"])] == ["high", "low"]
    assert [e.version for e in store.log(t["id"])] == [v1, v2]
    v3 = store.undo(t["id"], v2)
    row = store.table("ABCDE")
    assert (row["version"], row["moves"], row["rewound_at"]) == (v3, 1, v3)
    assert [e.seq for e in store.log(t["id"])] == [1]
    with pytest.raises(VersionConflict):
        store.undo(t["id"], v2)                          # the version moved on
    store.undo(t["id"], v3)
    assert store.undo(t["id"], v3 + 1) is None           # nothing to undo


def test_two_threads_on_one_version_exactly_one_applies(store: Store) -> None:
    t = _playing(store)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def write(i: int) -> None:
        barrier.wait()
        try:
            store.append_action(t["id"], t["version"], 0, i % 2, {"type": "bet", "guess": "high", "n": i})
            outcomes.append("applied")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["applied"] + ["conflict"] * 7
    assert len(store.log(t["id"])) == 1
    assert store.table("ABCDE")["version"] == t["version"] + 1


def test_an_action_and_its_table_move_on_together(store: Store) -> None:
    """The log and the table row are written by one statement: the row
    carries the new version, the move count and, for the last action, the
    end of the game, after which nothing more is logged."""
    t = _playing(store)
    v0 = store.append_action(t["id"], t["version"], 0, 0, {"type": "bet", "guess": "low"})
    v0 = store.undo(t["id"], v0, "The host took back a move")
    assert store.table("ABCDE")["notice"] == "The host took back a move"
    v1 = store.append_action(t["id"], v0, 0, 0, {"type": "bet", "guess": "high"}, "id-00000001")
    row = store.table("ABCDE")
    assert (row["version"], row["moves"], row["status"], row["notice"]) == (v1, 1, "playing", None)
    assert row["updated_at"] >= t["updated_at"]
    v2 = store.append_action(t["id"], v1, 1, 1, {"type": "bet", "guess": "low"}, finished=True)
    row = store.table("ABCDE")
    assert (row["version"], row["moves"], row["status"]) == (v2, 2, "over")
    with pytest.raises(VersionConflict):
        store.append_action(t["id"], v2, 2, 0, {"type": "bet", "guess": "high"})   # the game is over
    assert [e.version for e in store.log(t["id"])] == [v1, v2]
    assert store.applied(t["id"], "id-00000001") == v1


def test_an_older_sqlite_database_gets_the_new_column_and_trigger(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Database(url)
    old.init_schema()
    with old.connect() as c:                       # as schema version 2 left it
        c.execute("DROP TRIGGER actions_advance")
        c.execute("ALTER TABLE actions DROP COLUMN ends")
        c.execute("UPDATE companion_meta SET value = '2' WHERE key = 'schema_version'")
    old.close()
    database = Database(url)
    database.init_schema()
    store = Store(database)
    t = _playing(store)
    assert store.append_action(t["id"], t["version"], 0, 0, {"type": "bet", "guess": "high"}) == t["version"] + 1
    assert store.table("ABCDE")["moves"] == 1
    database.close()


def test_sqlite_runs_in_wal_mode(tmp_path: Any) -> None:
    database = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    database.init_schema()
    with database.connect() as c:
        assert c.one("PRAGMA journal_mode")["journal_mode"] == "wal"
        assert c.one("PRAGMA busy_timeout")["timeout"] >= 1000
    database.close()


def test_a_worker_never_holds_more_connections_than_its_pool(database_url: str) -> None:
    """Under load a worker's 256 threads each opened a connection and ran
    PostgreSQL out of clients ("too many clients"); now they wait their turn."""
    database = Database(database_url, pool_size=3)
    database.init_schema()
    lock = threading.Lock()
    holding, most, sessions = 0, 0, set()

    def work() -> None:
        nonlocal holding, most
        with database.connect() as c:
            with lock:
                holding += 1
                most = max(most, holding)
            pid = c.one("SELECT pg_backend_pid() AS p" if database.kind == "postgres" else "SELECT 1 AS p")
            sessions.add(pid["p"] if database.kind == "postgres" else id(c))
            threading.Event().wait(0.05)
            with lock:
                holding -= 1

    threads = [threading.Thread(target=work) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    database.close()
    assert most == 3                  # the pool was used to the full, never past it
    assert len(sessions) <= 3         # and no fourth connection was ever opened


def test_a_request_waits_for_a_connection_then_is_told_the_server_is_busy(database_url: str) -> None:
    from companion.db import DatabaseBusy

    database = Database(database_url, pool_size=1, busy_timeout=0.2)
    database.init_schema()
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with database.connect():
            held.set()
            done.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    with pytest.raises(DatabaseBusy, match="1 database connections stayed busy"):
        with database.connect():
            pass
    done.set()
    holder.join()
    with database.connect() as c:             # a thread already holding one is never made to wait
        with database.connect() as inner:
            assert inner.one("SELECT 1 AS one")["one"] == 1
        assert c.one("SELECT 2 AS two")["two"] == 2
    database.close()
