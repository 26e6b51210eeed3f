"""Recipe cards as a phone draws them (companion/games/organicsoup/cards.py):
the same molecule as the printed card, a double bond's geometry included."""

from __future__ import annotations

import re
from typing import Any

from rdkit import Chem

from companion.games.organicsoup.cards import face
from engine.organicsoup.cards import parse
from engine.organicsoup.game import OrganicSoup
from tests.engine.organicsoup.conftest import rulebook_files
from tests.engine.organicsoup.stereo import drawn_cis, stereo_double_bonds

# An atom of the card's SVG: its disc or pill, then its label at its centre.
ATOM = re.compile(r'<g><rect [^>]*/><text x="([-\d.]+)" y="([-\d.]+)"')


def test_the_phone_draws_diaminomaleonitrile_as_the_z_isomer(app: Any) -> None:
    """Both amino groups on one side of the C=C, both nitriles on the other,
    as its SMILES says (tests/engine/organicsoup/test_cards.py checks that
    the SMILES is the Z isomer)."""
    game = OrganicSoup(parse(rulebook_files()))
    recipe = game.cards.recipe("diaminomaleonitrile")
    with app.app_context():
        svg = str(face(game, recipe.id))
    points = [(float(x), float(y)) for x, y in ATOM.findall(svg)]
    assert len(points) == len(game.drawing(recipe).atoms) == 12
    (a, b, c, d, cis), = stereo_double_bonds(recipe.smiles)
    assert drawn_cis(points, a, b, c, d) == cis
    mol = Chem.MolFromSmiles(recipe.smiles)
    amino = [x.GetIdx() for x in mol.GetAtoms() if x.GetSymbol() == "N" and x.GetTotalNumHs() == 2]
    nitrile = [x.GetIdx() for x in mol.GetAtoms() if x.GetSymbol() == "C" and x.GetDegree() == 2
               and x.GetIdx() not in (b, c)]
    assert drawn_cis(points, amino[0], b, c, amino[1]) and drawn_cis(points, nitrile[0], b, c, nitrile[1])
