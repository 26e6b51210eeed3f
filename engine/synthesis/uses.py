"""What a balance report reads from Synthesis (:meth:`engine.core.Game.card_uses`):
the goal cards of the game **completed** on a board when it is scored at the
end: the Molecular Chain card (its shape found in the volume table), the
Molecular Pattern card (it scores points), and in solo the Project card
(its chains all laid). A goal card is judged only at the end, so the uses
are read as the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.synthesis.cards import SynthesisCards
from engine.synthesis.state import State

if TYPE_CHECKING:
    from engine.synthesis.game import Synthesis

END = "the last turn was played"
"""The rulebook's one end: the turns of the Active Element disc are used up."""


def card_names(cards: SynthesisCards) -> dict[str, str]:
    out = {cid: c.row.name for cid, c in cards.chains.items()}
    out.update({cid: c.row.name for cid, c in cards.patterns.items()})
    out.update({cid: c.row.name for cid, c in cards.projects.items()})
    return out


def card_uses(game: "Synthesis", before: State, after: State) -> tuple[tuple[int, str, str], ...]:
    if before.phase == "over" or after.phase != "over":
        return ()
    out: list[tuple[int, str, str]] = []
    for seat in range(after.players):
        scored = game.seat_scored(after, seat)
        points = {line.key: line.points for line in scored.lines}
        if after.chain_card and points.get("chain_card", 0) > 0:
            out.append((seat, after.chain_card, "completed"))
        if after.pattern_card and points.get("pattern_card", 0) > 0:
            out.append((seat, after.pattern_card, "completed"))
        project = scored.details.get("project")
        if after.project and project and project.get("chains") is not None:
            out.append((seat, after.project, "completed"))
    return tuple(out)
