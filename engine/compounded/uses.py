"""What a balance report reads from Compounded (:meth:`engine.core.Game.card_uses`):
compounds and Lab Partner cards **claimed** (a claim token laid on the
card) and **completed** (the scientist who placed its last element; an
explosion that finishes one credits nobody), and which end condition ended
the game.

>>> from tests.engine.compounded.helpers import GAME
>>> s = GAME.setup(2, seed=1)
>>> t = s.copy()
>>> t.scientists[0].tokens[0] = "cell:0"
>>> card_uses(s, t) == ((0, s.grid[0].card, "claimed"),)
True
"""

from __future__ import annotations

from engine.compounded.cards import CompoundedCards
from engine.compounded.lab import AGREED
from engine.compounded.state import State, cell_of


def card_names(cards: CompoundedCards) -> dict[str, str]:
    """Every compound card and Lab Partner card (Lab Fires are no card one uses)."""
    return {cid: c.name for cid, c in cards.compounds.items()}


def card_uses(before: State, after: State) -> tuple[tuple[int, str, str], ...]:
    out: list[tuple[int, str, str]] = []
    for seat, (was, now) in enumerate(zip(before.scientists, after.scientists)):
        # a token newly on a space holding the same card as before is a claim
        # (one that came back to the Workbench and went out again in one action
        # is not seen: a claim is one decision, and one decision moves one token)
        held = [cell_of(t) for t in was.tokens]
        for i in (cell_of(t) for t in now.tokens):
            if i is None:
                continue
            if i in held:
                held.remove(i)
            elif after.grid[i].card:
                out.append((seat, after.grid[i].card, "claimed"))
    for was, now in zip(before.grid, after.grid):
        if now.complete and not (was.complete and was.card == now.card) and now.completed_by is not None:
            out.append((now.completed_by, now.card, "completed"))
    return tuple(out)


def end_condition(state: State) -> str | None:
    """The rulebook's two ends, or the table's agreement (not a rule)."""
    if state.over is None:
        return None
    if state.over == AGREED:
        return "ended by agreement"
    return state.over
