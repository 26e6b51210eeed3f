"""A small card set for the ``>>>`` examples in these modules and for
one-line test scenarios.

The engine reads no files, so its examples cannot open
``cardsdata/synthesis``; they use this set instead: the rulebook's figures
and dice (the same text as the real files: a test checks it), one board
with a small formula on both sides, and one card of each kind. It goes
through :func:`~engine.synthesis.cards.parse` like any other card set.

The example board, side A (``o`` a hexagon, ``S`` the starting molecule)::

    A  . o o o .         active: B2 x2, D4 arc
    B   o o o o          elemental: A2, E3 circle; B4, D1 triangle
    C  o o S o o         printed line: C5:SE
    D   o o o o
    E  . o o o .

>>> cards = example_cards()
>>> sorted(cards.layouts), len(cards.layouts[("A", "A")].lattice.hexes)
([('A', 'A'), ('A', 'B'), ('B', 'A'), ('B', 'B')], 19)
"""

from __future__ import annotations

from functools import lru_cache

from engine.data import CardFiles
from engine.synthesis.cards import SynthesisCards, parse

RULES = """\
turns: 28
colours:
  - {id: red, letter: r, ink: "#d62839"}
  - {id: yellow, letter: y, ink: "#f2c200"}
  - {id: green, letter: g, ink: "#2e9e4f"}
  - {id: blue, letter: b, ink: "#2a6fdb"}
disc:
  ring: [red, yellow, green, blue]
  roller: yellow
  names_per_box: 2
chain_points: {2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28}
elemental_points: {one: 6, pair: 16}
line_points: 5
elemental_shapes: [circle, triangle, square, diamond]
score_boxes:
  - {key: elemental, label: Elemental molecules}
  - {key: chains, label: Molecular chains}
  - {key: lines, label: Rows and columns}
  - {key: chain_card, label: Molecular Chain card}
  - {key: pattern_card, label: Molecular Pattern card}
"""

DICE = """\
bond_die:
  - {id: angle, name: Angle, lines: "A1:NE A1:E"}
  - {id: arc, name: Arc, lines: "A1:NE A1:E A1:SE"}
  - {id: zigzag, name: Zigzag, lines: "A1:NW A1:NE A2:NW"}
  - {id: branch, name: Branch, lines: "B1:NW B1:NE A1:E"}
  - {id: chain, name: Chain, lines: "A1:NW A1:NE A2:NW A2:NE"}
  - {id: bay, name: Bay, lines: "A1:NW A1:NE A1:E A1:SE"}
mutation_die:
  - {id: twice, name: Twice, kind: mandatory, text: Draw the rolled bond twice.}
  - {id: add_line, name: Add a line, kind: mandatory, text: Add one line touching the bond.}
  - {id: remove_line, name: Remove a line, kind: mandatory, text: Leave one line out.}
  - {id: no_connect, name: Free floating, kind: optional, text: The bond need not touch.}
  - {id: remove_lines, name: Thin out, kind: optional, text: Leave out lines.}
  - {id: move_line, name: Move a line, kind: optional, text: Move one line.}
"""

_FORMULA = '[". o o o .", " o o o o", "o o S o o", " o o o o", ". o o o ."]'
BOARDS = "layouts:\n" + "".join(
    f"""  - board: {b}
    side: {s}
    formula: {_FORMULA}
    active: {{B2: x2, D4: arc}}
    elemental: {{A2: circle, E3: circle, B4: triangle, D1: triangle}}
    lines: [C5:SE]
    table: [3, 3, 3, 3, 3, 3]
""" for b in "AB" for s in "AB")

PATTERNS = """\
id,name,rule,points,maximum,green,yellow,red,group,text,example
first-shell,First Shell,colour_at_start,3,18,6,10,15,,"Choose a colour. 3 points for each molecule of that colour next to S.",
"""

CHAINS = """\
cards:
  - {id: twin-pairs, name: Twin Pairs, points: 5, maximum: 15, green: 5, yellow: 10, red: 15,
     shape: ["o-o", "", "o-o"]}
"""

PROJECTS = """\
cards:
  - {id: project-01, difficulty: 1, elemental: 1, chains: [["o-o-o"], ["o-o"]]}
"""

TEXTS = {"rules.yaml": RULES, "dice.yaml": DICE, "boards.yaml": BOARDS, "patterns.csv": PATTERNS,
         "chains.yaml": CHAINS, "projects.yaml": PROJECTS}


@lru_cache(maxsize=1)
def example_cards() -> SynthesisCards:
    return parse(CardFiles(TEXTS, "examples"))
