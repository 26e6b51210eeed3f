"""How a recipe's molecule is drawn, decided once for the printed card and
the phone alike (:mod:`engine.molecules` lays it out).

Basic, simple and complex molecules (at most twelve atoms) are drawn with
every atom, hydrogens included: that is how a player lays the atom cards
out on the table, one card per atom. Amino acids and nucleobases have up to
24 atoms; drawn so, each atom would be too small to read, so they are drawn
skeletal, each heavy atom labelled with its hydrogens (``CH2``, ``NH2``),
which still lets a player count every atom card.

>>> from engine.organicsoup.examples import example_cards
>>> cards = example_cards()
>>> layout(cards.recipe("water")).look, len(layout(cards.recipe("water")).atoms)
('explicit', 3)
>>> layout(cards.recipe("glycine")).look
'skeletal'
>>> h2 = layout(cards.recipe("hydrogen"))
>>> sorted((a.element, a.x, a.y) for a in h2.atoms), h2.width
([('H', 0.0, 0.0), ('H', 1.0, 0.0)], 1.0)
"""

from __future__ import annotations

from engine import molecules
from engine.organicsoup.cards import Recipe

LOOKS = {"basic": "explicit", "simple": "explicit", "complex": "explicit", "amino": "skeletal"}
"""The look of each level's drawing (``engine.molecules`` names them)."""


def look(recipe: Recipe) -> str:
    return LOOKS[recipe.level]


def _layout(smiles: str, style: str) -> molecules.Layout:
    return molecules.explicit(smiles) if style == "explicit" else molecules.skeletal(smiles)


def layout(recipe: Recipe) -> molecules.Layout:
    """The drawing of ``recipe``'s molecule in its level's look."""
    return _layout(recipe.smiles, look(recipe))
