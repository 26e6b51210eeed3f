"""The drawings a worker keeps between versions (companion.kept)."""

from __future__ import annotations

import threading

from companion.kept import Kept


def test_a_kept_thing_is_made_once_and_the_least_recently_used_goes_first() -> None:
    made: list[str] = []
    kept = Kept[str](2)

    def get(key: str) -> str:
        return kept.get(key, lambda: made.append(key) or key.upper())

    assert [get("a"), get("b"), get("a")] == ["A", "B", "A"] and made == ["a", "b"]
    get("c")                                # "b" was used least recently
    assert len(kept) == 2
    get("a")
    get("b")
    assert made == ["a", "b", "c", "b"]


def test_threads_sharing_it_each_get_the_right_thing_and_it_stays_within_bounds() -> None:
    kept = Kept[tuple](50)
    wrong: list[tuple] = []
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for i in range(20_000):
                key = ((i * 7919 + seed) % 120, "piece")
                got = kept.get(key, lambda: key)
                if got != key:
                    wrong.append((key, got))
        except BaseException as e:          # noqa: BLE001 - reported by the assertion below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not wrong and len(kept) <= 50


def test_a_thing_unused_for_a_minute_goes_when_something_new_is_kept() -> None:
    """What is kept follows the tables in play: a board nobody looked at for
    ``unused_s`` is dropped (a clock the test moves: nothing waits)."""
    now = [0.0]
    kept = Kept[str](100, unused_s=60.0, clock=lambda: now[0])
    for key in "abc":
        kept.get(key, lambda k=key: k)
    now[0] = 50.0
    kept.get("a", lambda: "again")          # "a" is used again: it stays
    now[0] = 100.0
    kept.get("d", lambda: "d")
    assert len(kept) == 2                    # "b" and "c" went; "a" (used at 50) and "d" stay
    assert kept.get("a", lambda: "made again") == "a"
    assert kept.get("b", lambda: "made again") == "made again"
