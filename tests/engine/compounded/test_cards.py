"""The card set: what the rulebook's Components list asks for, real
chemistry checked with RDKit directly, and the point formula."""

from __future__ import annotations

import pytest
from rdkit import Chem
from rdkit.Chem.rdMolDescriptors import CalcMolFormula

from engine.compounded.cards import ELEMENTS, parse
from engine.compounded.chemistry import element_values, flame_slots, formula_points, states_at_room_temperature
from engine.chem import formula_counts
from engine.data import DataError
from tests.engine.compounded.helpers import CARDS, card_files

ALL = sorted(CARDS.compounds.values(), key=lambda c: c.id)


def test_components_are_the_rulebook_counts():
    """Components: "55 Compound cards ... 90 Element gems ... 35 Tool tiles ... 30 Flame tokens ...
    40 Scientist pieces (8 in each scientist color) ... 5 Reminder cards ... 20 Lab Partner Cards"."""
    assert len(CARDS.deck) == 55 and CARDS.lab_fires and len(CARDS.lab_partners) == 20
    assert CARDS.distribution == {"H": 25, "O": 20, "N": 15, "C": 15, "Ca": 10, "S": 5}
    assert sum(t.count for t in CARDS.tools.values()) == 35 and CARDS.tools["fire_extinguisher"].count == 5
    assert CARDS.table.flame_tokens == 30
    assert len(CARDS.table.scientists.colours) * CARDS.table.scientists.pieces == 40
    assert CARDS.table.reminder_cards.count == 5
    assert {e.gem for e in CARDS.table.elements} == {"clear", "red", "blue", "black", "green", "yellow"}


def test_score_track_reaches_past_88():
    """The scoreboard holds an 88-point game "and past it"."""
    assert CARDS.table.scoreboard.score_spaces > 88
    assert CARDS.table.scoreboard.end_at == {2: 56, 3: 56, 4: 88, 5: 88}


@pytest.mark.parametrize("card", ALL, ids=lambda c: c.id)
def test_every_compound_is_real_chemistry_checked_with_rdkit(card):
    """Every formula is RDKit's own reading of the card's SMILES, of H, O, N, C, Ca and S only."""
    mol = Chem.MolFromSmiles(card.smiles)
    assert mol is not None
    assert Chem.GetFormalCharge(mol) == 0
    assert formula_counts(CalcMolFormula(mol)) == dict(card.needs)
    assert set(dict(card.needs)) <= set(ELEMENTS)


@pytest.mark.parametrize("card", ALL, ids=lambda c: c.id)
def test_every_card_follows_the_point_formula(card):
    """"Compounds are generally worth more if they require rarer elements or are volatile":
    points = sum of element values (25 / count, rounded: H 1, O 1, N 2, C 2, Ca 3, S 5) + flammability."""
    assert card.points == formula_points(dict(card.needs), card.rating, element_values(CARDS.distribution))


def test_water_is_worth_three_as_in_the_lilly_example():
    """"Lilly scores 3 points this turn for completing Water." """
    assert CARDS.compounds["water"].points == 3


def test_rarer_elements_and_volatility_are_worth_more():
    values = element_values(CARDS.distribution)
    assert values["H"] <= values["O"] <= values["N"] <= values["Ca"] <= values["S"]
    assert CARDS.compounds["hydrogen-sulfide"].points > CARDS.compounds["water"].points  # S for O, and it burns


def test_states_follow_melting_and_boiling_points():
    """"Some compounds can be multiple states": those that melt or boil between 15 and 25 degrees."""
    c = CARDS.compounds
    assert c["water"].states == ("liquid",) and c["carbon-dioxide"].states == ("gas",)
    assert c["calcium-carbonate"].states == ("solid",)
    assert c["acetic-acid"].states == ("solid", "liquid")
    assert c["dinitrogen-tetroxide"].states == ("liquid", "gas")
    assert states_at_room_temperature(30.0, 200.0) == ("solid",)
    every = {s for card in ALL for s in card.states}
    assert every == {"solid", "liquid", "gas"}


def test_flame_slots_follow_the_nfpa_rating():
    """Flammable compounds (red header) hold 5 - rating flame tokens; the rest none."""
    assert [flame_slots(r) for r in range(5)] == [0, 4, 3, 2, 1]
    assert CARDS.compounds["hydrogen"].flame_slots == 1 and not CARDS.compounds["water"].flammable
    assert sum(c.flammable for c in ALL) >= 20


def test_every_reward_kind_is_on_some_card():
    """Bonus rewards: every tool but the extinguisher, and every chemical reaction."""
    rewards = {c.reward for c in ALL if c.reward}
    assert rewards == {"pipette", "safety_goggles", "journal", "graduated_cylinder", "bunsen_burner",
                       "lab_fire", "grant", "claim_jump", "extinguisher_refill"}


def test_lab_partner_cards_are_larger():
    squares = [CARDS.compounds[i].size for i in CARDS.deck if i in CARDS.compounds]
    partners = [CARDS.compounds[i].size for i in CARDS.lab_partners]
    assert min(partners) > sum(squares) / len(squares)


def test_parse_reports_every_problem_with_file_line_and_column():
    bad = (CARDS_CSV.replace("water,compound,Water,O,", "water,compound,Water,O(,")
           .replace("ozone,compound,Ozone,[O-][O+]=O,O3,-192.2,-112,0,3", "ozone,compound,Ozone,[O-][O+]=O,O3,-192.2,-112,nine,3")
           + "salt,compound,Salt,[Na+].[Cl-],NaCl,801,1465,0,2,,\n")
    with pytest.raises(DataError) as err:
        parse(card_files(compounds__csv=bad, tools__csv="id,name,count,phase,text\npipette,Pipette,x,research,t\n"))
    text = str(err.value)
    assert "cardsdata/compounded/compounds.csv:" in text
    lines = {p.column: p for p in err.value.problems}
    assert lines["nfpa_fire"].line == 5 and "whole number" in str(lines["nfpa_fire"])
    assert "brackets" in text and "Sodium" in text
    assert "tools.csv:2: column 'count'" in text
    assert "expected a row for 'fire_extinguisher'" in text


def test_parse_refuses_more_of_an_element_than_the_bag_holds():
    bad = CARDS_CSV + "brimstone,compound,Hexasulfur,S1SSSSS1,S6,100,400,1,31,,\n"
    with pytest.raises(DataError, match="needs 6 Sulfur but the game has only 5"):
        parse(card_files(compounds__csv=bad))


CARDS_CSV = card_files().files["compounds.csv"].decode()
