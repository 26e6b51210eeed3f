"""Recipe cards as a phone draws them (companion/games/organicsoup/cards.py):
the same molecule as the printed card, a double bond's geometry included,
and every atom's label inside its pill."""

from __future__ import annotations

import re
from typing import Any

from rdkit import Chem

from companion.games.organicsoup.cards import face
from engine.organicsoup.cards import parse
from engine.organicsoup.game import OrganicSoup
from tests.engine.organicsoup.conftest import rulebook_files
from tests.engine.organicsoup.stereo import drawn_cis, stereo_double_bonds

# An atom's label in the card's SVG, at the atom's centre (its charge is another text, class="charge").
ATOM = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" fill=')


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


def test_every_label_fits_its_pill_and_is_drawn_over_every_shape(app: Any) -> None:
    """Each pill holds its label as the widest phone font draws it (DejaVu
    Sans Bold, measured from the font file), for every recipe; and the labels
    come after every disc and pill, so a neighbour's pill never covers one.
    The pills were once a guess narrower than their labels ("OH", "NH2")."""
    from companion.games.organicsoup.cards import LABEL_EM, LABEL_SIZE, PILL_PAD, R, structure
    from generator import fonts
    from tests.conftest import ROOT

    css = (ROOT / "companion/games/organicsoup/static/organicsoup.css").read_text()
    assert f"svg.molecule text {{ font-size: {LABEL_SIZE}px;" in css     # the size the pills are made for
    for ch, em in LABEL_EM.items():
        assert abs(fonts.text_width(ch, 1.0, bold=True) - em) < 0.001, ch
    game = OrganicSoup(parse(rulebook_files()))
    labels = 0
    for recipe in game.cards.recipes:
        layout = game.drawing(recipe)
        for atom, drawn in zip(layout.atoms, structure(layout)["atoms"]):
            if atom.hydrogens:
                labels += 1
                assert 2 * drawn["half"] >= fonts.text_width(atom.label, LABEL_SIZE, bold=True) + 2 * PILL_PAD - 0.002, \
                    (recipe.id, atom.label)
            else:
                assert drawn["half"] == R
        with app.app_context():
            svg = str(face(game, recipe.id))
        assert svg.rindex("<rect") < svg.index("<text"), recipe.id
    assert labels > 50                      # the card data has such labels to check
