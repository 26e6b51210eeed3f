"""The store, on SQLite always and on PostgreSQL when one is reachable."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.db import Conflict, Database, NotFound, Refused, Store


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
    store.add_seat(t["id"], "Ada", "a" * 64, 3)
    _, version = store.add_seat(t["id"], "Bo", "b" * 64, 3)
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
    with pytest.raises(Conflict):
        _table(store)


def test_seats_are_numbered_bounded_and_named_once(store: Store) -> None:
    t = _table(store)
    assert store.add_seat(t["id"], "Ada", "a" * 64, 2) == (0, 1)
    with pytest.raises(Refused, match="already called"):
        store.add_seat(t["id"], "ADA", "c" * 64, 2)
    assert store.add_seat(t["id"], "Bo", "b" * 64, 2) == (1, 2)
    with pytest.raises(Refused, match="full"):
        store.add_seat(t["id"], "Cy", "c" * 64, 2)
    assert [s["name"] for s in store.seats(t["id"])] == ["Ada", "Bo"]
    assert store.seat_for_token(t["id"], "b" * 64) == 1
    assert store.seat_for_token(t["id"], "x" * 64) is None


def test_no_one_joins_after_the_start(store: Store) -> None:
    t = _playing(store)
    with pytest.raises(Refused, match="started"):
        store.add_seat(t["id"], "Late", "l" * 64, 3)


def test_actions_append_on_the_version_seen_and_undo(store: Store) -> None:
    t = _playing(store)
    v = t["version"]
    v1 = store.append_action(t["id"], v, 0, 0, {"type": "bet", "guess": "high"})
    assert v1 == v + 1
    with pytest.raises(Conflict):
        store.append_action(t["id"], v, 0, 1, {"type": "bet", "guess": "low"})   # stale version
    v2 = store.append_action(t["id"], v1, 1, 1, {"type": "bet", "guess": "low"})
    assert [e.action["guess"] for e in store.log(t["id"])] == ["high", "low"]
    assert [e.version for e in store.log(t["id"])] == [v1, v2]
    v3 = store.undo(t["id"], v2)
    row = store.table("ABCDE")
    assert (row["version"], row["moves"], row["rewound_at"]) == (v3, 1, v3)
    assert [e.seq for e in store.log(t["id"])] == [1]
    with pytest.raises(Conflict):
        store.undo(t["id"], v2)                          # the version moved on
    store.undo(t["id"], v3)
    with pytest.raises(Refused, match="nothing to undo"):
        store.undo(t["id"], v3 + 1)


def test_two_threads_on_one_version_exactly_one_applies(store: Store) -> None:
    t = _playing(store)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def write(i: int) -> None:
        barrier.wait()
        try:
            store.append_action(t["id"], t["version"], 0, i % 2, {"type": "bet", "guess": "high", "n": i})
            outcomes.append("applied")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["applied"] + ["conflict"] * 7
    assert len(store.log(t["id"])) == 1
    assert store.table("ABCDE")["version"] == t["version"] + 1


def test_sqlite_runs_in_wal_mode(tmp_path: Any) -> None:
    database = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    database.init_schema()
    with database.connect() as c:
        assert c.one("PRAGMA journal_mode")["journal_mode"] == "wal"
        assert c.one("PRAGMA busy_timeout")["timeout"] >= 1000
    database.close()
