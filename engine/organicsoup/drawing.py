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
>>> [(a.element, a.x, a.y) for a in h2.atoms], h2.width
([('H', 0.0, 0.0), ('H', 1.0, 0.0)], 1.0)
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine import molecules
from engine.chem import structure
from engine.organicsoup.cards import Recipe

LOOKS = {"basic": "explicit", "simple": "explicit", "complex": "explicit", "amino": "skeletal"}
"""The look of each level's drawing (``engine.molecules`` names them)."""


def look(recipe: Recipe) -> str:
    return LOOKS[recipe.level]


@lru_cache(maxsize=256)
def _layout(smiles: str, style: str) -> molecules.Layout:
    drawn = molecules.explicit(smiles) if style == "explicit" else molecules.skeletal(smiles)
    if all(math.isfinite(v) for a in drawn.atoms for v in (a.x, a.y)):
        return drawn
    # RDKit's CoordGen places the two atoms of H2 at NaN (engine.molecules
    # does not fall back to RDKit's own depictor): lay such a molecule out
    # along a line, one bond length apart, bonded as its structure says.
    s = structure(smiles)
    atoms = [molecules.PlacedAtom(e, float(i), 0.0, charge=s.charges[i]) for i, e in enumerate(s.atoms)]
    bonds = tuple(molecules.PlacedBond(i, j, o, float(i), 0.0, float(j), 0.0) for i, j, o in s.bonds)
    return molecules.Layout(tuple(atoms), bonds, float(max(0, len(atoms) - 1)), 0.0, drawn.look)


def layout(recipe: Recipe) -> molecules.Layout:
    """The drawing of ``recipe``'s molecule in its level's look."""
    return _layout(recipe.smiles, look(recipe))
