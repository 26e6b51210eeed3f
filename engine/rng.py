"""The game's own seeded random generator, kept in the state as one integer.

Dice, shuffles and draws all come from here, so replaying an action log from
the seed rebuilds the same state exactly, on any machine and Python version
(the standard library's ``random`` makes no such promise across versions).

SplitMix64: small, fast, and its whole state is a 64-bit integer that
survives a JSON round trip.

>>> rng = Rng(42)
>>> [rng.below(6) for _ in range(5)]
[1, 1, 0, 0, 4]
>>> rng.state == Rng(42).advance(5).state
True
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        if not isinstance(state, int) or isinstance(state, bool):
            raise ValueError(f"rng state must be an integer, found {state!r}")
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def advance(self, n: int) -> "Rng":
        for _ in range(n):
            self.next64()
        return self

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
