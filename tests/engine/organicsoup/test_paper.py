"""The paper referee (engine/organicsoup/paper.py) and its format doc
(docs/organicsoup-reaction-format.md): every example in the doc is checked."""

from __future__ import annotations

import json
import re

import pytest

from engine.core import InvalidState
from engine.organicsoup import GAME
from engine.organicsoup.paper import check_reaction
from tests.engine.organicsoup.conftest import ROOT

FORMAT = ROOT / "docs" / "organicsoup-reaction-format.md"
NITRIC = {
    "players": [{"name": "Ana", "molecules": {"Oxygen": 2}, "recipes": ["Oxygen"], "hand": ["Nitric Oxide"]},
                {"name": "Ben", "molecules": {"Nitrogen": 2}, "recipes": ["Nitrogen"]},
                {"name": "Cy", "molecules": {"Nitrogen": 1}}],
    "player": "Ana",
    "ingredients": [{"player": "Ana", "molecule": "Oxygen", "count": 1},
                    {"player": "Cy", "molecule": "Nitrogen", "count": 1}],
    "products": {"Nitric Oxide": 2}}


def examples() -> list[tuple[bool, dict]]:
    text = FORMAT.read_text(encoding="utf-8")
    found = re.findall(r"\*\*(Legal|Illegal)[^*]*\*\*.*?```json\n(.*?)```", text, re.S)
    return [(verdict == "Legal", json.loads(block)) for verdict, block in found]


def test_the_descriptor_offers_the_check(game):
    tool = GAME.tool("check")
    assert tool is not None and tool.run is check_reaction
    assert (ROOT / tool.format).is_file()


def test_every_example_in_the_format_doc(game):
    found = examples()
    assert len(found) == 4
    for legal, data in found:
        report = check_reaction(game, data)
        assert report.ok == legal, report.summary
        json.dumps(report.to_dict())
        if not legal:
            assert report.data["suggestion"] is not None
            again = check_reaction(game, {**data, **report.data["suggestion"]})
            assert again.ok, again.summary


def test_a_legal_reaction_reports_what_changes(game):
    report = check_reaction(game, NITRIC)
    assert report.ok and report.title == "Legal reaction"
    assert report.summary == "Ana may react 1 Oxygen (Ana), 1 Nitrogen (Cy) into 2 Nitric Oxide."
    assert ("Recipes from hand", "Nitric Oxide (simple)") in report.rows
    assert report.data["after"][0] == {"name": "Ana", "molecules": {"Nitric Oxide": 2, "Oxygen": 1},
                                       "recipes": ["Oxygen", "Nitric Oxide"]}
    assert report.data["wins"] is False


def test_every_reason_at_once(game):
    data = {**NITRIC, "ingredients": [{"player": "Ana", "molecule": "Oxygen", "count": 2},
                                      {"player": "Ben", "molecule": "Nitrogen"},
                                      {"player": "Cy", "molecule": "Nitrogen"}],
            "products": {"Nitric Oxide": 2, "Oxygen": 1}}
    report = check_reaction(game, data)
    assert not report.ok
    assert report.data["reasons"] == [
        "Your ingredients come from 2 opponents (Ben and Cy): a reaction may take from only one other player.",
        "Ben's Nitrogen molecules are guarded: the Nitrogen recipe is in front of Ben.",
        "Oxygen is both an ingredient and a product: a molecule type cannot be both.",
        "2 Nitrogen atoms are left over: the products must use every atom of the ingredients.",
    ]
    assert [row for row in report.rows if row[0] == "Why not"] == [("Why not", r) for r in report.data["reasons"]]


def test_the_level_at_the_start_of_the_turn(game):
    data = {"players": [{"name": "Ana", "molecules": {"Graphite": 3, "Hydrogen": 4}, "recipes": ["Graphite"],
                         "hand": ["propane"]}, {"name": "Ben"}],
            "player": "Ana",
            "ingredients": [{"player": 0, "molecule": "graphite", "count": 3},
                            {"player": 0, "molecule": "HYDROGEN", "count": 4}],
            "products": {"Propane": 1}}
    report = check_reaction(game, data)
    assert report.data["reasons"] == ["Propane is a complex recipe: you may form it from your hand only if a "
                                      "simple recipe was in front of you at the start of your turn."]


def test_creating_life_is_reported(game):
    data = {"players": [{"name": "Ana", "molecules": {"Graphite": 5, "Hydrogen": 3, "Oxygen": 2, "Ammonia": 1},
                         "recipes": ["Propane", "Ammonia"], "hand": ["Glutamic Acid"]}, {"name": "Ben"}],
            "player": "Ana",
            "ingredients": [{"player": "Ana", "molecule": m, "count": k}
                            for m, k in (("Graphite", 5), ("Hydrogen", 3), ("Oxygen", 2), ("Ammonia", 1))],
            "products": {"Glutamic Acid": 1}}
    report = check_reaction(game, data)
    assert report.ok and report.data["wins"]
    assert report.summary.endswith("Glutamic Acid is amino/nucleic: Ana creates life and wins.")


def test_a_table_the_cards_cannot_make(game):
    data = {"players": [{"name": "Ana", "molecules": {"Water": 40, "Mud": 1}, "recipes": ["Water"]},
                        {"name": "Ana", "recipes": ["Water"]}],
            "player": "Zoe",
            "ingredients": [{"player": "Ana", "molecule": "Water"}],
            "products": {"Hydrogen": 1}}
    with pytest.raises(InvalidState) as exc:
        check_reaction(game, data)
    text = str(exc.value)
    assert "players: two players have the same name (Ana, Ana)" in text
    assert "players.0.molecules: there is no recipe called 'Mud'" in text
    assert "player: 'Zoe' is not one of the players (Ana, Ana)" in text


def test_too_many_atoms_and_bad_fields(game):
    data = {"players": [{"name": "Ana", "molecules": {"Water": 40}, "recipes": ["Water"]}, {"name": "Ben"}],
            "player": "Ana", "ingredients": [{"player": "Ana", "molecule": "Water"}], "products": {"Hydrogen": 1}}
    with pytest.raises(InvalidState, match="the molecules hold 38 Hydrogen atoms and 13 Oxygen atoms more than the atom deck has"):
        check_reaction(game, data)
    with pytest.raises(InvalidState, match=r"ingredients: .*at least 1|ingredients"):
        check_reaction(game, {**data, "ingredients": []})
    with pytest.raises(InvalidState, match="colour"):
        check_reaction(game, {**data, "colour": "blue"})
    with pytest.raises(InvalidState, match="JSON object"):
        check_reaction(game, [1, 2])
