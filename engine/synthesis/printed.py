"""What the print manifest's ``source:`` names (``cardsdata/synthesis/game.yaml``).

A deck's rows are the data's own models, registered by :func:`.cards.parse`
with the line they were read from, so that text that will not fit a card is
reported on the card's own line. The physical pieces that are not one row
each have a small record here:

* ``boards.yaml``: the 12 double-sided Synthesis boards, one per letter
  (side A its front, side B its back);
* ``dice.yaml``: the Bond die and the Mutation die, each a cube net of six
  faces (a face is a Bond die shape id or a mutation id);
* ``rules.yaml``: the rules' figures, for the Active Element disc and the
  player reference cards.

>>> from engine.synthesis.examples import example_cards
>>> cards = example_cards()
>>> [(b.id, b.name, b.sides) for b in cards.source("boards.yaml")]
[('a', 'Board A', ('A', 'B')), ('b', 'Board B', ('A', 'B'))]
>>> [(d.colour, d.faces[:2]) for d in cards.source("dice.yaml").dice]
[('bond', ('angle', 'arc')), ('mutation', ('twice', 'add_line'))]
>>> cards.source("projects.yaml")[0].name
'Project 01'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DIE_FACE_MM = 22.0
"""A die's face on the net: large enough for a bond's drawing and a mutation's words."""


@dataclass(frozen=True)
class BoardSheet:
    """One double-sided Synthesis board (Game Components: "12 double-sided
    Synthesis boards")."""

    id: str
    name: str
    board: str
    sides: tuple[str, ...]


@dataclass(frozen=True)
class DieNet:
    """One die as a paper cube: six faces, in the net's order."""

    colour: str
    """The die's name in file names: ``bond`` or ``mutation``."""
    title: str
    faces: tuple[str, ...]
    count: int = 1


@dataclass(frozen=True)
class DiceSheet:
    face_mm: float
    dice: tuple[DieNet, ...]


def board_sheets(cards: Any) -> list[BoardSheet]:
    letters = sorted({b for b, _ in cards.layouts})
    return [BoardSheet(b.lower(), f"Board {b}", b, tuple(sorted(s for x, s in cards.layouts if x == b)))
            for b in letters]


def dice_sheet(cards: Any) -> DiceSheet:
    return DiceSheet(DIE_FACE_MM, (DieNet("bond", "BOND DIE", tuple(cards.bonds)),
                                   DieNet("mutation", "MUTATION DIE", tuple(cards.mutations))))


def source(cards: Any, name: str) -> Any:
    """What ``name`` holds; a ``KeyError`` for anything else."""
    parts = {
        "rules.yaml": lambda: cards.rules,
        "boards.yaml": lambda: list(cards.sheets),
        "dice.yaml": lambda: cards.dice_sheet,
        "patterns.csv": lambda: [c.row for c in cards.patterns.values()],
        "chains.yaml": lambda: [c.row for c in cards.chains.values()],
        "projects.yaml": lambda: [c.row for c in cards.projects.values()],
    }
    return parts[name]()
