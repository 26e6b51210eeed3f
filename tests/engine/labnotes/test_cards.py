"""The Lab Notes card set against real chemistry (RDKit) and against the
engine's own reading of it (design doc: Notecards, Tools)."""

from __future__ import annotations

import itertools

import pytest

from engine.hexgrid import embed

Chem = pytest.importorskip("rdkit.Chem")
from rdkit.Chem import rdMolDescriptors  # noqa: E402


def compounds_of(game):
    data = game.data
    return [t for t in data.tools] + [c for c in data.notecards if not c.is_lab_fire]


def test_card_counts_follow_the_rulebook_and_design(game):
    """Components: "20 Notecards ... Lab Fires are also considered Notecards";
    design: 16 compounds and 4 Lab Fires, 6 tools, two of each state."""
    cards = game.data.notecards
    assert len(cards) == 20 and sum(c.is_lab_fire for c in cards) == 4
    states = sorted(t.state for t in game.data.tools)
    assert states == ["gas", "gas", "liquid", "liquid", "solid", "solid"]


def test_every_compound_is_real_neutral_and_complete(game):
    for card in compounds_of(game):
        mol = Chem.MolFromSmiles(card.structure)
        assert mol is not None, card.id
        assert rdMolDescriptors.CalcMolFormula(mol) == card.molecule().formula(), card.id
        full = Chem.AddHs(mol)
        assert {a.GetSymbol() for a in full.GetAtoms()} <= {"H", "O", "N", "C"}, card.id
        assert all(a.GetFormalCharge() == 0 and a.GetNumRadicalElectrons() == 0 for a in full.GetAtoms()), card.id
        assert full.GetNumAtoms() == len(card.molecule().atoms), card.id
        assert card.molecule().missing_bonds() == 0, card.id


def test_no_two_compounds_share_a_structure(game):
    """Design: every notecard "differs from every tool compound, so one compound
    never does two jobs by accident of the deck"."""
    for a, b in itertools.combinations(compounds_of(game), 2):
        assert not a.molecule().is_isomorphic(b.molecule()), (a.id, b.id)


def test_every_compound_can_be_built_on_the_compound_field(game):
    field = game.data.sheet.hexfield
    for card in compounds_of(game):
        m = card.molecule()
        assert embed(m.atoms, m.bonds, field) is not None, card.id
