"""What the print manifest's ``source:`` names: each data file's rows as
they were read (so that a card's text that will not fit is reported on its
own line), and the pieces of the table that are not rows of their own.

``table.yaml`` describes several printed parts at once; a component names
one of them after a ``#``:

* ``table.yaml#scientists``: one kit per scientist colour (a Workbench in
  that colour and its 8 pieces);
* ``table.yaml#elements``: the element tokens, one kind per element, as many
  as the bag holds (for tables without the gems).

>>> from tests.engine.compounded.helpers import CARDS
>>> [k.name for k in CARDS.source("table.yaml#scientists")][:2]
['White', 'Pink']
>>> [(t.symbol, t.count) for t in CARDS.source("table.yaml#elements")][-1]
('S', 5)
>>> CARDS.source("compounds.csv")[0].name
'Hydrogen'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SHAPES = ("circle", "triangle", "square", "diamond", "hexagon")
"""Each scientist colour also has a shape, so a colour never carries a piece's owner alone."""


@dataclass(frozen=True)
class ScientistKit:
    """One scientist colour: its Workbench and its pieces."""

    id: str
    name: str
    colour: str
    shape: str
    seat: int
    """The colour's place in the table's list (seat order at a companion table)."""
    pieces: int


@dataclass(frozen=True)
class ElementToken:
    """One kind of printed element token, standing in for a gem."""

    id: str
    name: str
    symbol: str
    gem: str
    count: int


def scientist_kits(table: Any) -> list[ScientistKit]:
    sc = table.scientists
    return [ScientistKit(c, c.capitalize(), c, SHAPES[i % len(SHAPES)], i, sc.pieces)
            for i, c in enumerate(sc.colours)]


def element_tokens(table: Any, order: tuple[str, ...]) -> list[ElementToken]:
    rows = sorted(table.elements, key=lambda e: order.index(e.symbol))
    return [ElementToken(e.symbol.lower(), e.name, e.symbol, e.gem, e.count) for e in rows]


def source(cards: Any, name: str) -> Any:
    """What ``name`` holds; a ``KeyError`` for anything else."""
    parts = {
        "compounds.csv": lambda: list(cards.rows["compounds.csv"]),
        "lab_partners.csv": lambda: list(cards.rows["lab_partners.csv"]),
        "tools.csv": lambda: list(cards.rows["tools.csv"]),
        "reactions.csv": lambda: list(cards.rows["reactions.csv"]),
        "workbench.yaml": lambda: cards.workbench,
        "table.yaml": lambda: cards.table,
        "table.yaml#scientists": lambda: scientist_kits(cards.table),
        "table.yaml#elements": lambda: element_tokens(cards.table, tuple(cards.distribution)),
    }
    return parts[name]()
