"""Automated scoring of a paper Lab Notes sheet (docs/labnotes-sheet-format.md)."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.core import InvalidState
from engine.labnotes import paper
from engine.labnotes.paper import sheet_to_dict
from labkit.paper import run_file
from labkit.registry import find
from tests.engine.conftest import _GAME, builder


def score_sheet(data):
    return paper.score_sheet(data, _GAME.rules)


def score_sheet_file(path):
    return run_file(find("labnotes"), "score", path).data


@pytest.fixture(scope="module")
def example(root):
    return root / "docs" / "examples" / "labnotes-sheet.json"


def test_documented_example_scores_as_the_doc_says(root, example):
    """The doc shows the example file verbatim and its score boxes."""
    doc = (root / "docs" / "labnotes-sheet-format.md").read_text(encoding="utf-8")
    shown = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    assert json.loads(shown) == json.loads(example.read_text(encoding="utf-8"))
    score = score_sheet_file(example)
    for line in score["lines"]:
        assert f"| {line['label']} | {line['points']} |" in doc
    assert f"| **Total** | **{score['total']}** |" in doc
    assert (score["total"], score["details"]["unconnected_burned"]) == (25, ["A4"])
    assert score["total"] == sum(line["points"] for line in score["lines"])


def test_sheet_bond_over_valence_is_reported():
    """Connecting Elements: "you cannot double bond Oxygen and Hydrogen"."""
    with pytest.raises(InvalidState, match="the Hydrogen at A2 has 2 bonds; Hydrogen takes only 1"):
        score_sheet({"elements": {"A1": "O", "A2": "H"}, "bonds": [["A1", "A2", 2]]})
    with pytest.raises(InvalidState, match="the Carbon at B2 has 5 bonds"):
        score_sheet({"elements": {"B2": "C", "B1": "O", "B3": "O", "A2": "H"},
                     "bonds": [["B2", "B1", 2], ["B2", "B3", 2], ["B2", "A2", 1]]})


def test_sheet_element_off_the_sheet_is_reported():
    with pytest.raises(InvalidState, match="'G1' is not a space on the sheet"):
        score_sheet({"elements": {"G1": "H"}, "bonds": []})


def test_sheet_reports_every_problem_at_once():
    bad = {"elements": {"A1": "H", "A7": "O", "B2": "X", "C3": "N"},
           "bonds": [["A1", "C3", 1], ["A1", "A2", 1], ["C3", "C4", 5]],
           "burned": ["C3"], "trash": ["H"] * 6, "notecards": [{"points": 5}], "colour": "blue"}
    with pytest.raises(InvalidState) as err:
        score_sheet(bad)
    message = str(err.value)
    assert message.startswith("This sheet breaks 9 rules:\n- ")
    for part in ("'colour' is not a field", "'A7' is not a space", "'X' is not an element",
                 "C3 holds Nitrogen and cannot be burned", "bond A1-C3: the spaces are not next to each other",
                 "bond A1-A2: A2 holds no element", "bond C3-C4: order 5", "6 elements, but the sheet has 5",
                 "5 points; a notecard is worth 6, 3 or 1"):
        assert part in message


def test_sheet_bond_written_twice_is_reported():
    with pytest.raises(InvalidState, match="written twice"):
        score_sheet({"elements": {"A1": "O", "A2": "O"}, "bonds": [["A1", "A2", 1], ["A2", "A1", 1]]})


def test_sheet_claimed_notecard_needs_its_compound():
    """Score & Claim Notecards: a claimed card matches a completed compound (design rule 27)."""
    water = {"elements": {"A1": "H", "A2": "O", "A3": "H"}, "bonds": [["A1", "A2", 1], ["A2", "A3", 1]]}
    with pytest.raises(InvalidState, match="no unused complete compound on the sheet is Methane"):
        score_sheet({**water, "notecards": [{"notecard": "methane", "points": 6}]})
    with pytest.raises(InvalidState, match="'sugar' is not a compound notecard"):
        score_sheet({**water, "notecards": [{"notecard": "sugar", "points": 6}]})
    assert score_sheet({**water, "notecards": [{"points": 6}]}).lines[1].points == 6


def test_sheet_tool_marks_beyond_the_open_track_are_reported():
    with pytest.raises(InvalidState, match="only 2 tools-track spaces are open"):
        score_sheet({"elements": {}, "bonds": [], "tool_marks": 3})


def test_sheet_unconnected_elements_burn_before_scoring():
    """End Game: "elements ... that are not connected to any other element(s),
    those elements burn". Design rule 27."""
    s = score_sheet({"elements": {"A1": "H", "A2": "H", "F6": "C"}, "bonds": [["A1", "A2", 1]], "burned": ["E1"]})
    assert [l.points for l in s.lines] == [1, 0, -4] and s.details["unconnected_burned"] == ["F6"]


def test_score_sheet_file_reports_bad_json(tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(InvalidState, match="not valid JSON: line 1"):
        score_sheet_file(path)
    with pytest.raises(InvalidState, match="no such file"):
        score_sheet_file(tmp_path / "missing.json")
    path.write_text(json.dumps({"elements": {"A1": "H"}}), encoding="utf-8")
    with pytest.raises(InvalidState, match=r"sheet.json: This sheet breaks 1 rule:\n- 'bonds' is missing"):
        score_sheet_file(path)


@pytest.mark.parametrize("seed", range(4))
def test_engine_and_paper_scores_agree(game, seed):
    """A sheet played through the engine, written down as paper JSON, scores the same."""
    rng = random.Random(seed)
    s = game.setup(2 + seed % 4, seed, {"first_game": True})
    while not game.is_over(s):
        seat = rng.choice(game.to_move(s))
        s = game.apply(s, seat, builder(rng, game, s, seat, game.actions(s, seat)))
    for i, sh in enumerate(s.seats):
        live = game.result(s).scores[i]
        paper = score_sheet(json.loads(json.dumps(sheet_to_dict(sh, player=f"P{i}"))))
        assert paper.lines == live.lines and paper.total == live.total
