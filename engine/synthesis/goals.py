"""The linking that scores the most once goal cards are counted.

Which chains are linked decides more than the chain points: a Molecular
Chain card scores each time its shape is found with its solid lines linked
and its missing lines not linked, and a Project card asks for whole chains
of given shapes. So the best linking for a player is searched together with
the cards, in one search (:mod:`.chain_search`): which places of the card
are counted and which chains are the Project's are decided as the chains
are.

In a solo game the goals come first: the search maximizes (goals met,
points, longest chain), so a linking that wins beats one that scores more
and loses.

>>> from engine.synthesis.table import TablePattern, TableShape
>>> t = TableShape((2, 2))
>>> colour = t.colours(["yy", "yy"])
>>> optimize(t, colour).chain_points   # alone, one chain of 4 scores most
10
>>> twin = TablePattern.parse(["o-o", "", "o-o"])   # two chains of two, kept apart
>>> best = optimize(t, colour, card=(twin, 5, 15))
>>> best.chain_points, best.card_points, [len(c) for c in best.linking.chains]
(6, 5, [2, 2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from engine.synthesis.chain_search import search
from engine.synthesis.chains import POINTS, Linking, chains_of
from engine.synthesis.table import Cell, Placed, TablePattern, TableShape, fitting

__all__ = ["Best", "fitting", "optimize"]


@dataclass(frozen=True)
class Best:
    linking: Linking
    card_points: int
    occurrences: tuple[Placed, ...]
    """Where the Molecular Chain card's shape was counted."""
    project: tuple[Placed, ...] | None
    """The Project's chains as laid in the table (``None``: not all could be)."""
    goals_met: bool

    @property
    def chain_points(self) -> int:
        return self.linking.points


def optimize(table: TableShape, colour: Mapping[Cell, str], points: tuple[int, ...] = POINTS,
             card: tuple[TablePattern, int, int] | None = None, project: tuple[TablePattern, ...] | None = None,
             card_needed: int | None = None) -> Best:
    """The best linking with its goals. ``card`` is a Molecular Chain card's
    ``(shape, points each time, maximum)``; ``project`` the chains a Project
    card asks for; ``card_needed`` the solo threshold the card must reach.
    Raises :class:`~engine.synthesis.chain_search.SearchTooLong` past its
    bound on work (no table a board holds comes near it)."""
    found = search(table, colour, points, card=card, project=project, card_needed=card_needed)
    assert found is not None  # nothing is forced here, so some linking exists
    return Best(Linking(found.points, found.links, chains_of(found.links)), found.card_points,
                found.occurrences, found.project, found.goals_met)
