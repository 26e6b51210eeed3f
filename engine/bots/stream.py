"""The bots' random streams: one per (game seed, seat, decision number).

A bot takes every random choice it makes (a determinisation, a tie, a
rollout) from the stream of the decision it is making, and nothing else is
random, so a bot game is a function of its seed: played again it makes the
same choices, and its log replays to the same end. Deriving each stream
from the triple, instead of drawing from one shared generator, keeps a
decision's choices the same whatever the other seats did with theirs (a
seat that thinks longer does not shift its neighbours' dice).

>>> decision_rng(7, 1, 3).next64() == decision_rng(7, 1, 3).next64()
True
>>> len({decision_seed(7, seat, n) for seat in range(4) for n in range(100)})
400
"""

from __future__ import annotations

from engine.rng import Rng

_MASK = (1 << 64) - 1
_SEAT = 0xD1B54A32D192ED03
_DECISION = 0x8CB92BA72F3D8DD7
"""Odd constants (from the R2 and Weyl sequences) that spread seat and
decision numbers over the 64 bits before mixing."""


def decision_seed(seed: int, seat: int, decision: int) -> int:
    """A 64-bit seed for ``seat``'s ``decision``-th choice in the game of ``seed``."""
    rng = Rng((seed * _SEAT + (seat + 1)) & _MASK)
    rng = Rng(rng.next64() ^ ((decision + 1) * _DECISION & _MASK))
    return rng.next64()


def decision_rng(seed: int, seat: int, decision: int) -> Rng:
    """The generator of one decision (see :func:`decision_seed`)."""
    return Rng(decision_seed(seed, seat, decision))


def arena_rng(seed: int) -> Rng:
    """The arena's own stream: which of several seats free to act goes next
    in a simultaneous phase. A seat's number below 0 keeps it apart from
    every bot's stream."""
    return decision_rng(seed, -2, 0)
