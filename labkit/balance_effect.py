"""Two measures a balance report adds to its counts, each costing extra
games (the report says how many):

* **leave one out** (:func:`leave_one_out`), the marginal effect of a card
  the report asks the author to look at, as deck simulators measure a
  card's importance: the set again with that card's change undone (its row
  as in the other set), or, for a card the author did not change, its
  fields replaced by those of a typical card of its kind (its id and place in its file
  kept, so the same seeds deal the same way), played on the same matches;
  where the game refuses every stand-in tried (a game whose cards must each
  be a different molecule), the set without the card (the deals then differ
  from the card on).
  For each game in which a seat used the card, the win share of those seats
  is compared with the same seats' in the same match without the card: the
  paired mean difference is the card's effect on its users' winning, with
  a normal 95% interval;
* **the skill ladder** (:func:`ladder`): how much a bot level beats random
  at 2 players in each set, on the same matches: the skill depth of the
  set against the original's (a set that luck decides gives the better
  player less).
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Callable, Mapping, Sequence

from engine.bots.balance import share
from engine.bots.report import Z95, wilson
from engine.data import DataError
from labkit import balance_rows
from labkit.cardsets import CardSet

MAX_CARDS = 3
"""The cards of ``look_at`` measured by leaving them out (each costs a set's games)."""
UNDONE = "(its row in the other set)"
"""The first stand-in of a card the author changed: the card as it was."""
TRIES = 3
"""Stand-ins tried, nearest the median first, when the parser refuses one (a
recipe twice in a deck, say)."""


def _stand_ins(cs: CardSet, card: str, played: Sequence[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """The cards of ``card``'s kind, the most typical first: nearest the
    median of their use in the set's own games."""
    kind = balance_rows.kind_of(cs.set_files, card)
    if kind is None:
        return "", []
    field, same = kind
    used = {c: 0 for c in same}
    offered = {c: 0 for c in same}
    for g in played:
        users = {c for _, c, _ in g["uses"]}
        for c in same:
            if not g["in_play"] or c in g["in_play"] or c in users:
                offered[c] += 1
                used[c] += c in users
    rates = {c: used[c] / offered[c] if offered[c] else 0.0 for c in same}
    if not rates:
        return field, []
    middle = statistics.median(rates.values())
    return field, sorted(same, key=lambda c: (abs(rates[c] - middle), c))


def leave_one_out(cs: CardSet, other: CardSet, look_at: Sequence[Mapping[str, Any]], played: Sequence[Mapping[str, Any]],
                  runner: Callable, source_of: Callable[[str, Mapping[str, bytes], str], Any], games: int,
                  levels: Sequence[str], players: Sequence[int], seed: int) -> list[dict[str, Any]]:
    """The leave-one-out of the first :data:`MAX_CARDS` cards of ``look_at``
    (see the module's note), ``games`` matches each (at most the report's);
    ``source_of(game, files, shown)`` makes a set the runner can play."""
    games = min(games, len(played))
    rows = balance_rows.rows(cs.set_files)
    out = []
    for entry in look_at[:MAX_CARDS]:
        card = entry["card"]
        field, candidates = _stand_ins(cs, card, played)
        result: dict[str, Any] = {"card": card, "name": entry["name"], "games": games}
        refusals = []
        theirs = balance_rows.rows(other.set_files).get(card)
        undo = [UNDONE] if entry.get("changed") and theirs is not None and theirs[0] == rows[card][0] else []
        for stand_in in [*undo, *candidates[:TRIES], None]:
            model = theirs[1] if stand_in == UNDONE else None
            files = balance_rows.replaced(cs.set_files, card, stand_in, model)
            source = source_of(cs.game.name, files, f"{cs.folder} ({card} as {stand_in or 'nothing'})")
            try:
                source()
            except DataError as exc:
                refusals.append(f"{stand_in or 'without it'}: {exc.problems[0] if exc.problems else exc}")
                continue
            without = runner([source], games, levels, players, seed, stage=f"leave one out: {card}")[0]
            result.update(stand_in=stand_in, kind=field,
                          stand_in_name=rows[stand_in][1].get("name", stand_in) if stand_in in rows else None,
                          **_paired(card, played[:games], without, stand_in))
            break
        else:
            result["said"] = "not measured: the set is refused both with a stand-in and without it: " + \
                "; ".join(refusals)
        result["refused"] = refusals
        out.append(result)
    return out


def _paired(card: str, with_it: Sequence[Mapping[str, Any]], without: Sequence[Mapping[str, Any]],
            stand_in: str | None) -> dict[str, Any]:
    diffs, won, won_without = [], 0.0, 0.0
    for g, h in zip(with_it, without):
        users = {s for s, c, _ in g["uses"] if c == card}
        if not users:
            continue
        a = sum(share(g, s) for s in users)
        b = sum(share(h, s) for s in users)
        diffs.append(a - b)
        won, won_without = won + a, won_without + b
    n = len(diffs)
    if n == 0:
        return {"used_in": 0, "said": "not measured: no seat used it in these games"}
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    low, high = mean - Z95 * se, mean + Z95 * se
    return {"used_in": n, "won": won, "won_without": won_without, "effect": mean, "low": low, "high": high,
            "said": f"in the {n} games a seat used it, its users won {won:g} ({won / n:.0%}); on the same matches "
                    f"{_as(stand_in)}, the same seats won {won_without:g} "
                    f"({won_without / n:.0%}): {100 * mean:+.0f} percentage points"
                    + (f" ({100 * low:+.0f} to {100 * high:+.0f}, 95%)" if n > 1 else "")}


def _as(stand_in: str | None) -> str:
    if stand_in == UNDONE:
        return "with its change undone (its row as in the other set)"
    return "without it" if stand_in is None else f"with it played as {stand_in}, a typical card of its kind"


def ladder(sources: Sequence[Any], runner: Callable, games: int, bot: str, desc, seed: int) -> dict[str, Any]:
    """``bot`` against random, ``games`` matches of each set at 2 players
    (or the fewest the game allows), seats alternating."""
    players = max(2, desc.min_players) if desc.max_players >= 2 else desc.min_players
    played = runner(sources, games, [bot, "random"], [players], seed, stage=f"ladder: {bot} against random")
    sets = []
    for games_of in played:
        wins = sum(share(g, s) for g in games_of for s, level in enumerate(g["levels"]) if level == bot)
        low, high = wilson(wins, len(games_of))
        sets.append({"wins": wins, "games": len(games_of), "rate": wins / len(games_of) if games_of else 0.0,
                     "low": low, "high": high})
    return {"bot": bot, "against": "random", "players": players, "games": games, "sets": sets,
            "said": [f"{bot} won {s['wins']:g} of {s['games']} against random ({s['rate']:.0%}, "
                     f"{s['low']:.0%}-{s['high']:.0%})" for s in sets]}
