"""The paper tool: a finished volume table and elemental boxes entered as
JSON (docs/synthesis-table-format.md) get the optimal chain score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import InvalidState
from engine.synthesis import GAME
from engine.synthesis.paper import SCORE_TABLE

DOC = Path(__file__).resolve().parents[3] / "docs" / "synthesis-table-format.md"


def test_the_descriptor_offers_the_score_tool():
    assert GAME.tool("score") is SCORE_TABLE
    assert SCORE_TABLE.format == "docs/synthesis-table-format.md"


def test_a_paper_table_gets_the_best_linking(game):
    report = SCORE_TABLE.run(game, {"player": "Ada", "board": "C", "side": "A",
                                    "table": ["ggg", "gg", "", "", "", ""], "elemental": {"circle": 2}})
    assert report.ok and report.title == "Synthesis: Ada"
    rows = dict(report.rows)
    assert rows["Molecular chains"] == "15" and rows["Elemental molecules"] == "16" and rows["Total"] == "31"
    assert report.data["details"]["chains"] == [[[1, 1], [1, 2], [1, 3], [2, 3], [2, 2]]] or \
        len(report.data["details"]["chains"][0]) == 5
    json.dumps(report.to_dict())


def test_colour_names_or_letters(game):
    by_letter = SCORE_TABLE.run(game, {"board": "A", "table": ["ry", "", "", "", "", ""]})
    by_name = SCORE_TABLE.run(game, {"board": "A", "table": [["red", "yellow"], [], [], [], [], []]})
    assert by_letter.rows == by_name.rows


def test_goal_cards_and_the_pattern_points_counted_on_paper(game):
    report = SCORE_TABLE.run(game, {"board": "A", "table": ["gg", "gg", "", "", "", ""],
                                    "chain_card": "twin-pairs", "pattern_card": "first-shell", "pattern_points": 30})
    rows = dict(report.rows)
    assert rows["Molecular Chain card"] == "5" and rows["Molecular chains"] == "6"
    assert rows["Molecular Pattern card"] == "18"  # capped at the red hexagon


def test_a_solo_verdict_on_paper(game):
    won = SCORE_TABLE.run(game, {"board": "A", "table": ["ggg", "bb", "", "", "", ""], "elemental": {"square": 1},
                                 "mode": "predictable", "project": "project-01"})
    assert won.summary.endswith("a win")
    lost = SCORE_TABLE.run(game, {"board": "A", "table": ["ggg", "", "", "", "", ""],
                                  "mode": "predictable", "project": "project-01"})
    assert lost.summary.endswith("a loss")


def test_every_problem_at_once(game):
    with pytest.raises(InvalidState) as err:
        SCORE_TABLE.run(game, {"board": "Z", "table": ["g.g", "x", "", "", "", ""], "elemental": {"star": 1},
                               "colour": "red", "pattern_points": 3, "mode": "first_steps"})
    text = str(err.value)
    assert text.startswith("This board breaks 6 rules:")  # the shapes are unknown without a board
    for words in ("'colour' is not a field", "found 'Z' side 'A'", "coloured above an empty one",
                  "table column 2 (volume 2): expected colours", "pattern_points: given without",
                  "First Steps is played easy, medium or hard"):
        assert words in text


def test_an_elemental_shape_the_board_does_not_show(game):
    with pytest.raises(InvalidState, match="this board has no 'star' pair"):
        SCORE_TABLE.run(game, {"board": "A", "table": [""] * 6, "elemental": {"star": 1}})


def test_a_column_taller_than_the_board_is_refused(game):
    with pytest.raises(InvalidState, match="6 cells coloured, but the column has 5"):
        SCORE_TABLE.run(game, {"board": "A", "table": ["gggggg", "", "", "", "", ""]})


def test_the_format_document_example_scores(game):
    text = DOC.read_text()
    start = text.index("```json") + len("```json")
    example = json.loads(text[start:text.index("```", start)])
    report = SCORE_TABLE.run(game, example)
    assert report.ok
    assert f"{report.data['total']} points" in text
