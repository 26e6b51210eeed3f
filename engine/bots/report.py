"""What bot games add up to: wins by level and by seat, scores, lengths,
time per decision, each win rate with its 95% interval. Plain arithmetic
over :class:`~engine.bots.arena.GameRecord` s, shared by ``labkit play``,
``make bench`` and the balance report.

A shared win is split among the winners (two winners: half a win each),
so the shares of a game always add up to one (none in a solo game lost).

>>> round(wilson(40, 50)[0], 3), round(wilson(40, 50)[1], 3)
(0.67, 0.888)
>>> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile([], 0.95)
(2.5, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from engine.bots.arena import GameRecord

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a win rate of ``wins`` in ``games`` (a
    share may be fractional: a shared win counts as half). Unlike the plain
    normal interval it stays inside 0 to 1 and is honest near them."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between neighbours); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


@dataclass
class Tally:
    """Bot games added up."""

    games: int = 0
    wins_by_level: dict[str, float] = field(default_factory=dict)
    """Win shares of every seat of that level, summed over the games."""
    seats_by_level: dict[str, int] = field(default_factory=dict)
    """Seats that level held, summed over the games."""
    games_with_level: dict[str, int] = field(default_factory=dict)
    wins_by_seat: dict[int, float] = field(default_factory=dict)
    scores_by_level: dict[str, list[int]] = field(default_factory=dict)
    places_by_level: dict[str, list[int]] = field(default_factory=dict)
    """Each seat's place (1 the best, a tie sharing the better place): what
    a game whose totals are ranking codes reports instead of its scores."""
    lengths: list[int] = field(default_factory=list)
    times_by_level: dict[str, list[float]] = field(default_factory=dict)
    stopped: int = 0
    """Games the arena stopped (its bound, not the rules)."""
    unfinished: int = 0
    """Of those, games left unfinished (no end by agreement), ranked as they stood."""
    quiet: int = 0
    """The longest run of actions without a score moving, over the games."""

    def add(self, record: GameRecord) -> "Tally":
        levels = record.match.levels
        self.games += 1
        for level in dict.fromkeys(levels):
            self.games_with_level[level] = self.games_with_level.get(level, 0) + 1
        for seat, level in enumerate(levels):
            self.seats_by_level[level] = self.seats_by_level.get(level, 0) + 1
            self.scores_by_level.setdefault(level, []).append(record.scores[seat])
            place = 1 + sum(1 for t in record.scores if t > record.scores[seat])
            self.places_by_level.setdefault(level, []).append(place)
        for seat in record.winners:
            share = 1.0 / len(record.winners)
            self.wins_by_level[levels[seat]] = self.wins_by_level.get(levels[seat], 0.0) + share
            self.wins_by_seat[seat] = self.wins_by_seat.get(seat, 0.0) + share
        for seat, seconds in record.times:
            self.times_by_level.setdefault(levels[seat], []).append(seconds)
        self.lengths.append(record.length)
        self.stopped += record.stopped is not None
        self.unfinished += not record.over
        self.quiet = max(self.quiet, record.quiet)
        return self

    def win_rate(self, level: str) -> tuple[float, float, float]:
        """The share of the games that ``level`` won, over the games it sat
        in, and its 95% interval: ``(rate, low, high)``."""
        n = self.games_with_level.get(level, 0)
        wins = self.wins_by_level.get(level, 0.0)
        low, high = wilson(wins, n)
        return (wins / n if n else 0.0, low, high)

    def mean_score(self, level: str) -> float:
        scores = self.scores_by_level.get(level, [])
        return sum(scores) / len(scores) if scores else 0.0

    def mean_place(self, level: str) -> float:
        places = self.places_by_level.get(level, [])
        return sum(places) / len(places) if places else 0.0

    def times(self, level: str) -> tuple[float, float, float]:
        """Seconds per decision of ``level``: ``(p50, p95, max)``."""
        t = self.times_by_level.get(level, [])
        return (quantile(t, 0.5), quantile(t, 0.95), max(t, default=0.0))


def tally(records: Iterable[GameRecord]) -> Tally:
    out = Tally()
    for r in records:
        out.add(r)
    return out
