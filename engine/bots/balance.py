"""A balance report's arithmetic: bot games of a card set played for it
(:func:`play_for_report`), the figures they add up to (:func:`figures`),
and the differences between two sets' figures that are larger than their
noise (:func:`differences`). Plain data in, plain data out, knowing no game:
what a game did with its cards comes from its own
:meth:`~engine.core.Game.card_uses`, how it ended from
:meth:`~engine.core.Game.end_condition`.

Each game of a report is a pure function of (card set, seed, match index):
:func:`match_of` makes the match, :func:`play_for_report` plays it, so a
process pool and a Dask cluster give the same figures.

The statistics (each stated in the report):

* a card's use is the share of the games in which it was in play (where
  the game says: :meth:`~engine.core.Game.cards_in_play`; else of all
  games) that a seat did this with it;
* a rate (a seat's win share, an end condition, a card's use) with
  Wilson's 95% interval (:func:`engine.bots.report.wilson`); a shared win
  counts as a share;
* a difference of two rates by the two-proportion z-test (pooled), of two
  means by Welch's z (the normal approximation, fine at the tens of games a
  report plays); a difference is marked when ``|z| >= 1.96`` (5%, two-sided,
  each figure on its own: among 40 figures about two are marked by chance);
* a card is flagged when its rate lies far outside the other cards' (a
  robust z, distance from their median in units of 1.4826 median absolute
  deviations, or of a rate's own noise if that is larger, of at least
  :data:`FLAG_Z`) and its interval leaves their
  median out; or when the seats that used it won more or less than the
  others by a z of at least :data:`FLAG_Z`.

>>> round(two_proportions(30, 50, 20, 50), 2)
2.0
>>> round(two_proportions(0, 10, 0, 10), 2)
0.0
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.bots.arena import Match, play
from engine.bots.report import Z95, quantile, wilson
from engine.core import Game

FLAG_Z = 3.0
"""How far outside the rest a card must be to be flagged: a robust z of 3
is rare among cards that differ only by chance."""
STOPPED = "stopped by the arena (no score moved for long; not a rule)"
"""The end condition of a game the arena's bound stopped unfinished."""


# --- the games --------------------------------------------------------------------
def match_of(index: int, players: Sequence[int], levels: Sequence[str], seed: int) -> Match:
    """The ``index``-th match of a report: the player counts take turns, and
    at each count the levels move one seat round the table every game (so
    that a seat's win rate is the seat's, not a level's); its seed is
    ``seed + index``, the same for both sets compared (the same deals and
    rolls where the sets allow: their difference is the cards', not luck's).

    >>> [(m.players, m.levels, m.seed) for m in (match_of(k, [2, 3], ["greedy", "random"], 10) for k in range(3))]
    [(2, ('greedy', 'random'), 10), (3, ('greedy', 'random', 'greedy'), 11), (2, ('random', 'greedy'), 12)]
    """
    count = players[index % len(players)]
    turn = index // len(players)
    seated = [levels[i % len(levels)] for i in range(count)]
    return Match(count, tuple(seated[(s - turn) % count] for s in range(count)), seed + index)


def play_for_report(make_game: Callable[[], Game], match: Match, index: int) -> dict[str, Any]:
    """One game of a report, summed up as plain data: who won, the scores,
    its length in rounds and actions, how it ended and what each seat did
    with which cards. Everything in it depends on the set, the match and
    ``index`` only (no clock, no process)."""
    game = make_game()
    uses: list[list[Any]] = []
    rounds = _Rounds()

    def step(before, after, seat, action) -> None:
        uses.extend([s, card, verb] for s, card, verb in game.card_uses(before, after, seat, action))
        rounds.note(seat)

    final: list[Any] = [None]
    seen: set[str] = set()

    def watch(state) -> None:
        final[0] = state
        seen.update(game.cards_in_play(state))

    record = play(game, match, watch=watch, step=step)
    counted = game.round_of(final[0])
    end = (game.end_condition(final[0]) or "the game ended (it does not say how)") if record.over else STOPPED
    return {"index": index, "players": match.players, "levels": list(match.levels), "seed": match.seed,
            "scores": list(record.scores), "winners": list(record.winners), "actions": record.length,
            "rounds": counted if counted is not None else rounds.count, "end": end, "uses": uses,
            "in_play": sorted(seen)}


class _Rounds:
    """A round counted where the game keeps no count: each time the seat
    that moved first moves again after another seat moved."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.last: int | None = None
        self.count = 0

    def note(self, seat: int) -> None:
        if self.first is None:
            self.first, self.count = seat, 1
        elif seat == self.first and self.last != seat:
            self.count += 1
        self.last = seat


# --- the figures of one set ---------------------------------------------------------
def _rate(hits: float, n: int) -> dict[str, float]:
    low, high = wilson(hits, n)
    rate = hits / n if n else 0.0
    # (rounded, Wilson's bounds can pass a rate of 0 or 1 by a hair)
    return {"hits": round(hits, 6), "n": n, "rate": rate, "low": min(low, rate), "high": max(high, rate)}


def _spread(values: Sequence[float]) -> dict[str, float]:
    n = len(values)
    return {"n": n, "mean": statistics.fmean(values) if n else 0.0,
            "sd": statistics.stdev(values) if n > 1 else 0.0,
            "min": min(values, default=0), "p10": quantile(list(values), 0.10), "p25": quantile(list(values), 0.25),
            "p50": quantile(list(values), 0.5), "p75": quantile(list(values), 0.75),
            "p90": quantile(list(values), 0.90), "max": max(values, default=0)}


def _share(game: Mapping[str, Any], seat: int) -> float:
    winners = game["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def figures(games: Sequence[Mapping[str, Any]], card_names: Mapping[str, str]) -> dict[str, Any]:
    """Every figure of one set's games (each game a :func:`play_for_report` summary)."""
    counts = sorted({g["players"] for g in games})
    by_count = {p: [g for g in games if g["players"] == p] for p in counts}
    out: dict[str, Any] = {"games": len(games), "seat_advantage": {}, "scores": {}, "rounds": {}, "actions": {},
                           "end_conditions": {}}
    for p, some in by_count.items():
        key = str(p)
        out["seat_advantage"][key] = [_rate(sum(_share(g, s) for g in some), len(some)) for s in range(p)]
        out["scores"][key] = [_spread([g["scores"][s] for g in some]) for s in range(p)]
        out["rounds"][key] = _spread([g["rounds"] for g in some])
        out["actions"][key] = _spread([g["actions"] for g in some])
        ends = sorted({g["end"] for g in some})
        out["end_conditions"][key] = {e: _rate(sum(g["end"] == e for g in some), len(some)) for e in ends}
    out["cards"] = _cards(games, card_names)
    return out


def _cards(games: Sequence[Mapping[str, Any]], card_names: Mapping[str, str]) -> dict[str, Any]:
    seen = {card for g in games for _, card, _ in g["uses"]}
    ids = list(card_names) + sorted(seen - set(card_names))
    verbs = sorted({verb for g in games for _, _, verb in g["uses"]})
    seats = sum(g["players"] for g in games)
    total_wins = sum(_share(g, s) for g in games for s in range(g["players"]))
    told = any(g["in_play"] for g in games)  # the game says which cards were in play
    cards: dict[str, Any] = {}
    for card in ids:
        offered = [not told or card in g["in_play"] or any(c == card for _, c, _ in g["uses"]) for g in games]
        n_offered = sum(offered)
        used_by = [{s for s, c, _ in g["uses"] if c == card} for g in games]
        n_used = sum(len(u) for u in used_by)
        wins_used = sum(_share(g, s) for g, u in zip(games, used_by) for s in u)
        entry: dict[str, Any] = {"name": card_names.get(card, card), "verbs": {},
                                 "win_used": _rate(wins_used, n_used),
                                 "win_not": _rate(total_wins - wins_used, seats - n_used)}
        for verb in verbs:
            hits = [sum(1 for _, c, v in g["uses"] if c == card and v == verb) for g in games]
            entry["verbs"][verb] = {**_rate(sum(1 for h in hits if h), n_offered), "times": sum(hits)}
        entry["in_play"] = _rate(n_offered, len(games))
        entry["used"] = _rate(sum(1 for u in used_by if u), n_offered)
        entry["win_z"] = two_proportions(wins_used, n_used, total_wins - wins_used, seats - n_used)
        cards[card] = entry
    for verb in verbs:
        rates = [c["verbs"][verb]["rate"] for c in cards.values()]
        centre = statistics.median(rates) if rates else 0.0
        spread = statistics.median([abs(r - centre) for r in rates]) * 1.4826 if rates else 0.0
        for card, c in cards.items():
            v = c["verbs"][verb]
            # never narrower than a rate's own noise at this card's count of games: where most
            # cards share one rate the deviations' median is 0, and any card would be "far"
            n = max(v["n"], 1)
            scale = max(spread, math.sqrt(centre * (1 - centre) / n), 1 / n)
            z = (v["rate"] - centre) / scale
            v["robust_z"] = z
            if abs(z) >= FLAG_Z and not v["low"] <= centre <= v["high"]:
                c.setdefault("flags", []).append(f"{verb} {'more' if z > 0 else 'less'} often than the rest "
                                                 f"({v['rate']:.0%} of the games it was in play; the cards' median "
                                                 f"{centre:.0%})")
    for c in cards.values():
        if abs(c["win_z"]) >= FLAG_Z:
            c.setdefault("flags", []).append(
                f"the seats that used it won {'more' if c['win_z'] > 0 else 'less'} often "
                f"({c['win_used']['rate']:.0%} against {c['win_not']['rate']:.0%})")
    return cards


# --- two sets side by side ----------------------------------------------------------
def two_proportions(hits_a: float, n_a: int, hits_b: float, n_b: int) -> float:
    """The two-proportion z statistic (pooled): ``a``'s rate less ``b``'s in
    units of its standard error; 0 when either side has no trials or the
    pooled rate is 0 or 1 (no spread to measure against)."""
    if n_a <= 0 or n_b <= 0:
        return 0.0
    pooled = (hits_a + hits_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return (hits_a / n_a - hits_b / n_b) / se if se > 0 else 0.0


def welch(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Welch's z of two means (from :func:`_spread` summaries); 0 with no spread."""
    if a["n"] < 2 or b["n"] < 2:
        return 0.0
    se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return (a["mean"] - b["mean"]) / se if se > 0 else 0.0


@dataclass(frozen=True)
class Difference:
    figure: str
    where: str
    this: float
    other: float
    z: float

    @property
    def marked(self) -> bool:
        return abs(self.z) >= Z95

    def to_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "where": self.where, "this": self.this, "other": self.other,
                "z": self.z, "marked": self.marked}


def differences(this: Mapping[str, Any], other: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every figure the two sets share, compared: rates by the two-proportion
    test, means by Welch's z (see the module's note)."""
    out: list[Difference] = []

    def rate(figure: str, where: str, a: Mapping[str, float], b: Mapping[str, float]) -> None:
        z = two_proportions(a["hits"], a["n"], b["hits"], b["n"])
        out.append(Difference(figure, where, a["rate"], b["rate"], z))

    def mean(figure: str, where: str, a: Mapping[str, float], b: Mapping[str, float]) -> None:
        out.append(Difference(figure, where, a["mean"], b["mean"], welch(a, b)))

    for p, seats in this["seat_advantage"].items():
        for s, a in enumerate(seats):
            if p in other["seat_advantage"]:
                rate("seat_advantage", f"{p} players, seat {s + 1}", a, other["seat_advantage"][p][s])
    for p, seats in this["scores"].items():
        for s, a in enumerate(seats):
            if p in other["scores"]:
                mean("scores", f"{p} players, seat {s + 1}", a, other["scores"][p][s])
    for figure in ("rounds", "actions"):
        for p, a in this[figure].items():
            if p in other[figure]:
                mean(figure, f"{p} players", a, other[figure][p])
    for p, ends in this["end_conditions"].items():
        theirs = other["end_conditions"].get(p)
        if theirs is None:
            continue
        for end in sorted(set(ends) | set(theirs)):
            n_a, n_b = this["seat_advantage"][p][0]["n"], other["seat_advantage"][p][0]["n"]
            a = ends.get(end, _rate(0, n_a))
            b = theirs.get(end, _rate(0, n_b))
            rate("end_conditions", f"{p} players: {end}", a, b)
    for card, a in this["cards"].items():
        b = other["cards"].get(card)
        if b is None:
            continue
        for verb, va in a["verbs"].items():
            if verb in b["verbs"]:
                rate("cards", f"{card}: {verb}", va, b["verbs"][verb])
        rate("cards", f"{card}: in play", a["in_play"], b["in_play"])
        rate("cards", f"{card}: used in any way", a["used"], b["used"])
        rate("cards", f"{card}: win rate of its users", a["win_used"], b["win_used"])
    return [d.to_dict() for d in out]


def summary_lines(diffs: Iterable[Mapping[str, Any]]) -> list[str]:
    """The marked differences, largest first, as sentences."""
    marked = sorted((d for d in diffs if d["marked"]), key=lambda d: -abs(d["z"]))
    return [f"{d['figure'].replace('_', ' ')}, {d['where']}: {d['this']:.3g} here against {d['other']:.3g} "
            f"(z = {d['z']:+.1f})" for d in marked]
