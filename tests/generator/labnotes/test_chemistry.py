"""Card data that claims real chemistry, checked against RDKit."""

from __future__ import annotations

from pathlib import Path

import pytest

Chem = pytest.importorskip("rdkit.Chem")
from rdkit.Chem import rdMolDescriptors  # noqa: E402

from engine.chem import Molecule, formula_counts  # noqa: E402
from tests.conftest import load_cards as load  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "cardsdata" / "labnotes"


def compounds():
    data = load(DATA)
    out = [(f"tool {t.id}", t.compound, t.formula, t.structure) for t in data.tools]
    out += [(f"notecard {c.id}", c.name, c.formula, c.structure) for c in data.notecards if not c.is_lab_fire]
    return out


def rdkit_counts(smiles: str) -> dict[str, int]:
    mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
    counts: dict[str, int] = {}
    for atom in mol.GetAtoms():
        counts[atom.GetSymbol()] = counts.get(atom.GetSymbol(), 0) + 1
    return dict(sorted(counts.items()))


@pytest.mark.parametrize("where,name,formula,smiles", compounds())
def test_compound_is_real_chemistry(where, name, formula, smiles):
    mol = Chem.MolFromSmiles(smiles)
    assert mol is not None, f"{where}: RDKit cannot read {smiles}"
    Chem.SanitizeMol(mol)  # valence and bond orders are chemically possible
    assert {a.GetSymbol() for a in mol.GetAtoms()} <= {"H", "C", "N", "O"}
    assert all(a.GetFormalCharge() == 0 for a in mol.GetAtoms()), f"{where}: charged"
    assert all(a.GetNumRadicalElectrons() == 0 for a in mol.GetAtoms()), f"{where}: a radical"
    assert not mol.GetIsAromatic() if hasattr(mol, "GetIsAromatic") else True
    # The printed formula is the real one...
    assert formula_counts(formula) == rdkit_counts(smiles), f"{where}: {formula} is not {rdMolDescriptors.CalcMolFormula(mol)}"
    # ...and our own reader agrees with RDKit on the whole structure.
    ours = Molecule.from_smiles(smiles)
    assert ours.counts() == rdkit_counts(smiles)
    assert sorted(ours.bond_orders()) == sorted(int(b.GetBondTypeAsDouble()) for b in Chem.AddHs(mol).GetBonds())


def test_cards_name_distinct_molecules():
    """No two cards ask for the same molecule (one compound never does two
    jobs by accident of the deck)."""
    seen = {}
    for where, name, _, smiles in compounds():
        key = Chem.MolToSmiles(Chem.MolFromSmiles(smiles))
        assert key not in seen, f"{where} and {seen.get(key)} are both {key}"
        seen[key] = where


def test_rdkit_reference_example():
    # From the shared notes: glutamic acid gives C5H9NO4.
    mol = Chem.MolFromSmiles("N[C@@H](CCC(=O)O)C(=O)O")
    assert rdMolDescriptors.CalcMolFormula(mol) == "C5H9NO4"
    assert Molecule.from_smiles("NC(CCC(=O)O)C(=O)O").formula() == "C5H9NO4"
