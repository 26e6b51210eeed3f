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
