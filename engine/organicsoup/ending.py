"""Ending the Game: create life and win, or, when the atom deck runs out,
have the most building blocks.

A :class:`~engine.core.Result` ranks seats by their totals, so the
rulebook's tie-breaks are folded into one number: a created amino/nucleic
molecule is worth more than any count of recipes, then complex recipes
count before simple ones, simple before basic. The weights only rank (there
are at most 20 simple and 4 basic recipes, so a lower level can never
outweigh one recipe of the level above); a phone shows the counts, which
are in each score's ``details`` (design doc, reading 12).

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "+propane +water | +ethanol +methane +oxygen")
>>> r = result(cards, s)
>>> [score.total for score in r.scores], r.winners     # a tie on complex and simple; Player 2 has a basic
([10100, 10101], (1,))
"""

from __future__ import annotations

from typing import Sequence

from engine.core import Result, ScoreLine, SeatScore
from engine.organicsoup.cards import OrganicSoupCards
from engine.organicsoup.state import State

LIFE = 1_000_000
WEIGHTS = (("complex", "Complex recipes (10,000 each)", 10_000), ("simple", "Simple recipes (100 each)", 100),
           ("basic", "Basic recipes (1 each)", 1))
"""A score line per level, each recipe weighted so that the totals rank as the
rulebook does; the label says the weight, so a score table reads."""


def recipes_by_level(cards: OrganicSoupCards, recipes: Sequence[str]) -> dict[str, int]:
    out = {"basic": 0, "simple": 0, "complex": 0, "amino": 0}
    for rid in recipes:
        out[cards.recipe(rid).level] += 1
    return out


def seat_score(cards: OrganicSoupCards, state: State, seat: int, name: str) -> SeatScore:
    counts = recipes_by_level(cards, state.seats[seat].recipes)
    life = state.winner == seat
    lines = (ScoreLine("life", "Created life" + (f": {cards.recipe(state.life).name}" if life and state.life else ""),
                       LIFE if life else 0),
             *(ScoreLine(level, label, counts[level] * weight) for level, label, weight in WEIGHTS))
    details = {"recipes": counts, "life": state.life if life else None, "final": state.phase == "over"}
    return SeatScore(seat, name, lines, sum(line.points for line in lines), details)


def result(cards: OrganicSoupCards, state: State, names: Sequence[str] | None = None) -> Result:
    """Each seat's standing: final once the game is over, so far before."""
    names = names or [f"Player {i + 1}" for i in range(state.players)]
    scores = tuple(seat_score(cards, state, i, names[i]) for i in range(state.players))
    best = max(s.total for s in scores)
    return Result(scores=scores, winners=tuple(s.seat for s in scores if s.total == best))
