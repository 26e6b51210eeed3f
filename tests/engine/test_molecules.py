"""Molecule drawings: a charge is written beside its atom where no bond runs."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest

from engine.molecules import lattice, skeletal

ROOT = Path(__file__).resolve().parents[2]
CHARGED = re.compile(r"\[[A-Z][a-z]?H?\d*[+-]\d*\]")


def charged_smiles() -> list[str]:
    """Every SMILES with a charged atom in the card data of every game."""
    found = set()
    for path in sorted((ROOT / "cardsdata").rglob("*.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                found.update(cell for cell in row if CHARGED.search(cell) and " " not in cell)
    return sorted(found)


def test_the_decks_have_charged_molecules_to_check() -> None:
    assert {"[O-][O+]=O", "[C-]#[O+]", "[N-]=[N+]=O"} <= set(charged_smiles())


@pytest.mark.parametrize("smiles", charged_smiles())
@pytest.mark.parametrize("look", [lattice, skeletal])
def test_a_charge_sits_clear_of_its_atoms_bonds(smiles: str, look) -> None:
    layout = look(smiles)
    for i, atom in enumerate(layout.atoms):
        if not atom.charge:
            continue
        dx, dy = layout.charge_side(i)
        assert math.isclose(math.hypot(dx, dy), 1.0, abs_tol=1e-3)
        bonds = [math.atan2(o.y - atom.y, o.x - atom.x) for b in layout.bonds if i in (b.a, b.b)
                 for o in (layout.atoms[b.b if b.a == i else b.a],)]

        def clearance(angle: float) -> float:
            return min((abs(math.remainder(angle - t, 2 * math.pi)) for t in bonds), default=math.pi)

        chosen = math.degrees(clearance(math.atan2(dy, dx)))
        possible = max(math.degrees(clearance(math.radians(d))) for d in range(360))
        # clear of every bond by 67.5 degrees, or (a nitrogen with three
        # bonds) as clear as one of eight directions can be
        assert chosen >= min(67.5, possible - 22.5) - 1e-6, (smiles, look.__name__, atom, chosen, possible)
        assert chosen >= 37.5, (smiles, look.__name__, atom, chosen)


def test_a_charge_with_nothing_in_the_way_is_written_upper_right() -> None:
    assert skeletal("[Ca+2]").charge_side(0) == (0.7071, -0.7071)
    water_ion = skeletal("[OH-]")
    assert water_ion.charge_side(0) == (0.7071, -0.7071)
