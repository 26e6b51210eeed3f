"""The paper tool: a finished volume table and elemental boxes entered as
JSON (docs/synthesis-table-format.md) get the optimal chain score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import InvalidState, MalformedInput
from engine.synthesis import GAME, chain_search
from engine.synthesis.paper import SCORE_TABLE, TEXTS
from tests.rulebook import follows

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
    assert text.startswith("This board breaks 8 rules:")  # the shapes are unknown without a board
    for words in ("'colour' is not a field", "found 'Z' side 'A'", "coloured above an empty one",
                  "table column 2 (volume 2): expected colours", "pattern_points: given without",
                  "First Steps is played easy, medium or hard", "chain_card: First Steps is played with",
                  "pattern_card: First Steps is played with"):
        assert words in text


SOLO = {"board": "A", "table": ["ggg", "bb", "", "", "", ""], "elemental": {"square": 1}}


@follows("synthesis.md", "Then, place one card from each deck on the table.",
         "instead of drawing Molecular Chain and Molecular Pattern cards, take a solo Project card",
         "You will have a set consisting of one Project card, one Molecular Pattern card and one Molecular Chain "
         "card, which you must all complete.")
def test_each_solo_mode_is_scored_with_exactly_its_cards(game):
    """First Steps: a Chain card and a Pattern card. Predictable Results: a
    Project card instead. Unpredictable Consequences: all three. A mode
    without its cards is refused (it was a win at 0 points), and so are
    cards the mode does not deal, and a Project card outside the solo modes."""
    chain, pattern, project = {"chain_card": "triplet"}, {"pattern_card": "first-shell", "pattern_points": 0}, \
        {"project": "project-01"}
    refused = [
        ("first_steps", {"difficulty": "easy"}, ["chain_card: First Steps", "pattern_card: First Steps"]),
        ("first_steps", {"difficulty": "easy", **chain}, ["pattern_card: First Steps"]),
        ("first_steps", {"difficulty": "easy", **chain, **pattern, **project}, ["project: First Steps"]),
        ("unpredictable", project, ["chain_card: Unpredictable Consequences", "pattern_card: Unpredictable"]),
        ("unpredictable", {**chain, **pattern}, ["project: Unpredictable Consequences is played with one Project"]),
        ("predictable", {**project, **chain}, ["chain_card: Predictable Results is played with a Project card "
                                               "instead"]),
        ("predictable", {}, ["project: Predictable Results"]),
        ("standard", project, ["project: a Project card is played only in the solo modes"]),
    ]
    for mode, cards, words in refused:
        with pytest.raises(InvalidState) as err:
            SCORE_TABLE.run(game, {**SOLO, "mode": mode, **cards})
        assert not isinstance(err.value, MalformedInput)
        assert all(w in str(err.value) for w in words), (mode, cards, str(err.value))
        assert f"breaks {len(words)} rule" in str(err.value), str(err.value)
    lost = SCORE_TABLE.run(game, {**SOLO, "mode": "first_steps", "difficulty": "easy", **chain, **pattern})
    assert lost.summary.endswith("goals not met, a loss")  # Triplet needs two chains of three; First Shell 6 points
    goals = [g["goal"] for g in lost.data["details"]["solo"]["goals"]]
    assert goals == ["Triplet: 10", "First Shell: 6"]
    full = SCORE_TABLE.run(game, {**SOLO, "mode": "unpredictable", **chain, **pattern, **project})
    assert [g["goal"] for g in full.data["details"]["solo"]["goals"]] == [
        "project chains", "1 elemental molecule", "Triplet: 10", "First Shell: 6"]
    assert SCORE_TABLE.run(game, {**SOLO, "mode": "predictable", **project}).summary.endswith("a win")


@pytest.mark.parametrize("field", sorted(TEXTS))
def test_a_list_or_an_object_where_a_text_belongs_is_malformed_and_names_the_field(game, field):
    """A card is named by its name: a list there is not a card at all (it
    was a TypeError). The scorer says which field, so the server answers 400."""
    good = {"player": "Ada", "board": "A", "side": "A", "mode": "standard", "chain_card": "triplet",
            "pattern_card": "first-shell", "pattern_points": 3, "game": "synthesis",
            "table": ["ggg", "", "", "", "", ""]}
    for value, kind in ((["triplet"], "a list"), ({"id": "triplet"}, "an object"), (3, "a number"),
                        (True, "true or false")):
        with pytest.raises(MalformedInput) as err:
            SCORE_TABLE.run(game, {**good, field: value})
        assert str(err.value).startswith(f"{field}: expected {TEXTS[field]} as text, found {kind}")
    with pytest.raises(MalformedInput, match="^chain_card: expected a card's name as text, found a list"):
        SCORE_TABLE.run(game, {**good, "chain_card": ["twin-pairs"]})
    assert SCORE_TABLE.run(game, good).ok


def test_a_board_that_is_not_an_object_is_malformed(game):
    for body, kind in (([], "a list"), ("A", "str"), (None, "null")):
        with pytest.raises(MalformedInput, match=f"A board is a JSON object with board and table, found {kind}"):
            SCORE_TABLE.run(game, body)


def test_a_table_the_search_cannot_finish_is_refused_with_a_sentence(game, monkeypatch):
    """Never a worker held, never an unproven optimum shown as the best:
    past the search's bound on work, the board is refused, saying why."""
    monkeypatch.setattr(chain_search, "WORK", 5)
    with pytest.raises(InvalidState) as err:
        SCORE_TABLE.run(game, {"board": "A", "table": ["ggggg", "gggggg", "gggggg", "gggggg", "gggg", "gg"],
                               "chain_card": "parallel-trios"})
    assert "could not be linked for certain: the best linking was not proven within 5 steps" in str(err.value)
    assert "No score is given rather than one that may not be the best" in str(err.value)


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
