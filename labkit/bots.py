"""``labkit play``'s work: bot-only games of one registered game, played in
this process or a pool, and the tables that sum them up. The games
themselves are :mod:`engine.bots`; nothing here names a game.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping

from rich.table import Table

from engine.bots import Budget
from engine.bots.arena import GameRecord, play_many, rotations
from engine.bots.report import Tally, tally
from labkit.cardsets import NamedGame


def read_options(game, items: tuple[str, ...], players: int) -> dict[str, Any] | None:
    """``KEY=VALUE`` pairs read by the game's own setup options; ``ValueError`` says what is wrong."""
    if not items:
        return None
    known = {o.key: o for o in game.setup_options}
    out = {}
    for item in items:
        key, _, text = item.partition("=")
        if key not in known:
            raise ValueError(f"{game.title} has no setup option {key!r} (known: {', '.join(known) or 'none'})")
        out[key] = known[key].read(text, players)
    return out


def play(name: str, players: int, levels: list[str], games: int, seed: int, options: Mapping[str, Any] | None,
         budget: Budget, processes: int = 1, progress: Callable[[GameRecord], None] | None = None
         ) -> list[GameRecord]:
    """``games`` bot games, the levels moving one seat round the table each game."""
    matches = rotations(players, levels, games, seed, options, budget)
    if processes <= 1:
        return play_many(NamedGame(name), matches, clock=time.perf_counter, progress=progress)
    with ProcessPoolExecutor(processes) as pool:
        return play_many(NamedGame(name), matches, clock=time.perf_counter, map=pool.map, progress=progress)


def tables(title: str, records: list[GameRecord], players: int, ranked: bool = False) -> list[Table]:
    """The tables of ``labkit play``; a game whose totals are ranking codes
    (``Game.ranked``) gets places, never an average of its codes."""
    t = tally(records)
    return [_levels(title, t, players, ranked), _seats(t, players), _lengths(t), _times(t)]


def _levels(title: str, t: Tally, players: int, ranked: bool = False) -> Table:
    table = Table(title=f"{title}: {t.games} bot games, {players} player{'s' if players != 1 else ''}",
                  caption="A shared win is split among its winners; 95% CI: Wilson's interval."
                  + (" Its totals rank the seats (codes, not points): places, 1 the best." if ranked else ""))
    extra = (("mean place", *(f"{_ordinal(p)}" for p in range(1, players + 1))) if ranked
             else ("mean score", "low", "high"))
    for col in ("level", "seats", "wins", "rate", "95% CI", *extra):
        table.add_column(col, justify="left" if col == "level" else "right")
    for level in t.seats_by_level:
        rate, low, high = t.win_rate(level)
        if ranked:
            places = t.places_by_level[level]
            cells = (f"{t.mean_place(level):.2f}",
                     *(f"{sum(1 for x in places if x == p) / len(places):.0%}" for p in range(1, players + 1)))
        else:
            scores = t.scores_by_level[level]
            cells = (f"{t.mean_score(level):,.1f}", f"{min(scores):,}", f"{max(scores):,}")
        table.add_row(level, str(t.seats_by_level[level]), f"{t.wins_by_level.get(level, 0):g}", f"{rate:.0%}",
                      f"{low:.0%}-{high:.0%}", *cells)
    return table


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _seats(t: Tally, players: int) -> Table:
    table = Table(title="Wins by seat", caption="The levels take turns in every seat.")
    for col in ("seat", "wins", "share"):
        table.add_column(col, justify="right")
    for seat in range(players):
        wins = t.wins_by_seat.get(seat, 0.0)
        table.add_row(str(seat + 1), f"{wins:g}", f"{wins / t.games:.0%}" if t.games else "-")
    return table


def _lengths(t: Tally) -> Table:
    table = Table(title="Game length (actions)",
                  caption="The arena stops a game whose scores stop moving (its bound, not a rule).")
    for col in ("mean", "shortest", "longest", "stopped by the bound", "of them unfinished"):
        table.add_column(col, justify="right")
    table.add_row(f"{sum(t.lengths) / len(t.lengths):,.0f}", f"{min(t.lengths):,}", f"{max(t.lengths):,}",
                  str(t.stopped), str(t.unfinished))
    return table


def _times(t: Tally) -> Table:
    table = Table(title="Time per decision (decisions with a choice)")
    for col in ("level", "decisions", "p50", "p95", "max"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for level, seconds in t.times_by_level.items():
        p50, p95, top = t.times(level)
        table.add_row(level, f"{len(seconds):,}", _ms(p50), _ms(p95), _ms(top))
    return table


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"
