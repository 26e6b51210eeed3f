"""A balance report's games and one set's figures: bot games of a card set
played for it (:func:`play_for_report`) and the figures they add up to
(:func:`figures`). Two sets compared, and the cards to look at, are
:mod:`engine.bots.compare`; the statistics :mod:`engine.bots.stats`. Plain
data in, plain data out, knowing no game: what a game did with its cards
comes from its own :meth:`~engine.core.Game.card_uses`, how it ended from
:meth:`~engine.core.Game.end_condition`, who led from
:meth:`~engine.core.Game.standings`, and whether its totals are ranking
codes (never averaged) from :attr:`~engine.core.Game.ranked`.

Each game of a report is a pure function of (card set, seed, match index):
:func:`match_of` makes the match, :func:`play_for_report` plays it, so a
process pool and a Dask cluster give the same figures.

* a card's use is the share of the games in which it was in play (where
  the game says: :meth:`~engine.core.Game.cards_in_play`; else of all
  games) that a seat did this with it;
* a rate (a seat's win share, an end condition, a card's use) with
  Wilson's 95% interval (:func:`engine.bots.report.wilson`); a shared win
  counts as a share;
* each seat's win share is tested against an even share (``1 / players``)
  by the one-sample z-test, Benjamini-Hochberg at 5% over the seats of
  every player count: a seat advantage is named only when it survives.

>>> ranks([5, 9, 9, 1])
[3, 1, 1, 4]
"""

from __future__ import annotations

import statistics
from typing import Any, Callable, Mapping, Sequence

from engine.bots.arena import Match, play
from engine.bots.report import quantile, wilson
from engine.bots.stats import against_share, benjamini_hochberg, p_two_sided
from engine.core import Game

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
    its length in rounds and actions, how it ended, how often the lead
    changed hands and what each seat did with which cards. Everything in it
    depends on the set, the match and ``index`` only (no clock, no process)."""
    game = make_game()
    uses: list[list[Any]] = []
    rounds = _Rounds()
    lead = _Lead(game)

    def step(before, after, seat, action) -> None:
        uses.extend([s, card, verb] for s, card, verb in game.card_uses(before, after, seat, action))
        rounds.note(seat)
        counted = game.round_of(after)
        lead.note(after, counted if counted is not None else rounds.count)

    final: list[Any] = [None]
    seen: set[str] = set()

    def watch(state) -> None:
        final[0] = state
        seen.update(game.cards_in_play(state))

    record = play(game, match, watch=watch, step=step)
    lead.note(final[0], None)
    counted = game.round_of(final[0])
    end = (game.end_condition(final[0]) or "the game ended (it does not say how)") if record.over else STOPPED
    return {"index": index, "players": match.players, "levels": list(match.levels), "seed": match.seed,
            "scores": list(record.scores), "winners": list(record.winners), "actions": record.length,
            "rounds": counted if counted is not None else rounds.count, "end": end, "uses": uses,
            "in_play": sorted(seen), "lead_changes": lead.changes}


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


class _Lead:
    """Lead changes: the leader (the one seat strictly ahead by
    :meth:`~engine.core.Game.standings`) read as each round begins and at
    the end; a change is a new leader where another led before (a tie
    leads nobody and changes nothing). Read once a round, not once an
    action: a lead that changes hands inside a turn and back is no change."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.round: int | None = None
        self.leader: int | None = None
        self.changes = 0

    def note(self, state, round_now: int | None) -> None:
        if round_now is not None and round_now == self.round:
            return
        self.round = round_now
        leader = _leader(self.game.standings(state))
        if leader is None:
            return
        if self.leader is not None and leader != self.leader:
            self.changes += 1
        self.leader = leader


def _leader(totals: Sequence[float]) -> int | None:
    if len(totals) < 2:
        return None
    best = max(totals)
    ahead = [s for s, t in enumerate(totals) if t == best]
    return ahead[0] if len(ahead) == 1 else None


def ranks(totals: Sequence[float]) -> list[int]:
    """Each seat's place, 1 the best; equal totals share the better place."""
    return [1 + sum(1 for u in totals if u > t) for t in totals]


# --- the figures of one set ---------------------------------------------------------
def rate(hits: float, n: int) -> dict[str, float]:
    """A rate with its Wilson interval, as the report's JSON holds it."""
    low, high = wilson(hits, n)
    r = hits / n if n else 0.0
    # (rounded, Wilson's bounds can pass a rate of 0 or 1 by a hair)
    return {"hits": round(hits, 6), "n": n, "rate": r, "low": min(low, r), "high": max(high, r)}


def spread(values: Sequence[float]) -> dict[str, float]:
    n = len(values)
    return {"n": n, "mean": statistics.fmean(values) if n else 0.0,
            "sd": statistics.stdev(values) if n > 1 else 0.0,
            "min": min(values, default=0), "p10": quantile(list(values), 0.10), "p25": quantile(list(values), 0.25),
            "p50": quantile(list(values), 0.5), "p75": quantile(list(values), 0.75),
            "p90": quantile(list(values), 0.90), "max": max(values, default=0)}


def share(game: Mapping[str, Any], seat: int) -> float:
    winners = game["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def figures(games: Sequence[Mapping[str, Any]], card_names: Mapping[str, str], ranked: bool = False
            ) -> dict[str, Any]:
    """Every figure of one set's games (each game a :func:`play_for_report`
    summary). A game whose totals are ranking codes (``ranked``) gets each
    seat's places (``ranks``) and no ``scores``: an average of codes means
    nothing."""
    counts = sorted({g["players"] for g in games})
    by_count = {p: [g for g in games if g["players"] == p] for p in counts}
    out: dict[str, Any] = {"games": len(games), "seat_advantage": {}, "rounds": {}, "actions": {},
                           "lead_changes": {}, "end_conditions": {}, ("ranks" if ranked else "scores"): {}}
    for p, some in by_count.items():
        key = str(p)
        out["seat_advantage"][key] = [rate(sum(share(g, s) for g in some), len(some)) for s in range(p)]
        if ranked:
            places = [ranks(g["scores"]) for g in some]
            out["ranks"][key] = [{"mean": statistics.fmean(pl[s] for pl in places),
                                  "shares": [rate(sum(pl[s] == r for pl in places), len(some)) for r in range(1, p + 1)]}
                                 for s in range(p)]
        else:
            out["scores"][key] = [spread([g["scores"][s] for g in some]) for s in range(p)]
        out["rounds"][key] = spread([g["rounds"] for g in some])
        out["actions"][key] = spread([g["actions"] for g in some])
        out["lead_changes"][key] = spread([g.get("lead_changes", 0) for g in some])
        ends = sorted({g["end"] for g in some})
        out["end_conditions"][key] = {e: rate(sum(g["end"] == e for g in some), len(some)) for e in ends}
    out["seat_tests"] = seat_tests(out["seat_advantage"])
    out["cards"] = _cards(games, card_names)
    return out


def seat_tests(seats: Mapping[str, Sequence[Mapping[str, float]]]) -> list[dict[str, Any]]:
    """Each seat's win share against an even share, Benjamini-Hochberg at 5%
    over all the seats: ``advantage`` true where it survives."""
    tests = []
    for p, rates in seats.items():
        for s, r in enumerate(rates):
            z = against_share(r["hits"], r["n"], 1 / int(p))
            tests.append({"players": int(p), "seat": s + 1, "rate": r["rate"], "low": r["low"], "high": r["high"],
                          "n": r["n"], "even": 1 / int(p), "z": z, "p": p_two_sided(z)})
    for t, kept in zip(tests, benjamini_hochberg([t["p"] for t in tests])):
        t["advantage"] = kept and t["n"] > 0
    return tests


def _cards(games: Sequence[Mapping[str, Any]], card_names: Mapping[str, str]) -> dict[str, Any]:
    seen = {card for g in games for _, card, _ in g["uses"]}
    ids = list(card_names) + sorted(seen - set(card_names))
    verbs = sorted({verb for g in games for _, _, verb in g["uses"]})
    seats = sum(g["players"] for g in games)
    total_wins = sum(share(g, s) for g in games for s in range(g["players"]))
    told = any(g["in_play"] for g in games)  # the game says which cards were in play
    in_play = [set(g["in_play"]) for g in games]
    by_card: dict[str, list[list[tuple[int, str]]]] = {}
    for k, g in enumerate(games):
        for s, c, v in g["uses"]:
            by_card.setdefault(c, [[] for _ in games])[k].append((s, v))
    cards: dict[str, Any] = {}
    for card in ids:
        mine = by_card.get(card, [[] for _ in games])
        offered = [not told or card in in_play[k] or bool(mine[k]) for k in range(len(games))]
        n_offered = sum(offered)
        used_by = [{s for s, _ in m} for m in mine]
        n_used = sum(len(u) for u in used_by)
        wins_used = sum(share(g, s) for g, u in zip(games, used_by) for s in u)
        entry: dict[str, Any] = {"name": card_names.get(card, card), "verbs": {},
                                 "win_used": rate(wins_used, n_used),
                                 "win_not": rate(total_wins - wins_used, seats - n_used)}
        for verb in verbs:
            hits = [sum(1 for _, v in m if v == verb) for m in mine]
            entry["verbs"][verb] = {**rate(sum(1 for h in hits if h), n_offered), "times": sum(hits)}
        entry["in_play"] = rate(n_offered, len(games))
        entry["used"] = rate(sum(1 for u in used_by if u), n_offered)
        cards[card] = entry
    return cards
