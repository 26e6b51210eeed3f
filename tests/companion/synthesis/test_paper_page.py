"""The page that scores a paper Synthesis board tapped in (the issue's
"a table playing on paper should never have to type JSON"): the board's
volume table and elemental boxes as tap targets, what a tap does, the JSON
it builds (docs/synthesis-table-format.md), and the finding the engine
gives, drawn (the best linking on the volume table, every score box, the
solo verdict). Read as a phone without JavaScript reads it; the browser test
beside it taps it with a script."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.synthesis.paper import board_json, read, tap
from engine.synthesis import GAME
from engine.synthesis.paper import score_table
from labkit.cardsets import new_game

URL = "/synthesis/board"
CARDS = new_game(GAME).cards
DOC_EXAMPLE = {"board": "C", "side": "A", "drawn": "CA", "player": "Ada",
               "t1": "bbrg", "t2": "brgyy", "t3": "bgryy", "t4": "bgg", "t5": "rrb", "t6": "yb",
               "e_circle": "bb", "e_triangle": "r", "chain_card": "twin-pairs", "pattern_card": "first-shell",
               "pattern_points": "9"}
"""The format doc's example ("scores 76 points"), as the page's fields hold it."""


def cells(html: str) -> list[str]:
    return re.findall(r'data-cell="(\d+:\d+)"', html)


def test_the_page_shows_the_boards_table_to_tap(phones: Any) -> None:
    """Board A side A prints columns of 5, 6, 6, 6, 4, 3 cells and three pairs;
    side B 4, 6, 7, 7, 4, 2 and four (cardsdata/synthesis/boards.yaml)."""
    phone = phones()
    page = phone.get(URL).get_data(as_text=True)
    assert len(cells(page)) == 5 + 6 + 6 + 6 + 4 + 3
    assert "7:1" not in cells(page) and "1:6" not in cells(page) and "1:5" in cells(page)
    assert re.findall(r'data-box="(\w+):1"', page) == list(CARDS.layouts[("A", "A")].pairs)
    assert 'aria-label="Volume 3, row 2: empty"' in page
    # every cell is a button that paints itself: its label says which cell it is and what it holds
    assert page.count('name="tap"') == 30 + 2 * 3
    assert page.count('name="brush"') == 5 and 'value="r" data-colour="red"' in page
    side_b = phone.get(URL + "?board=C&side=B").get_data(as_text=True)
    assert len(cells(side_b)) == 4 + 6 + 7 + 7 + 4 + 2 and "3:7" in cells(side_b)
    assert len(re.findall(r'data-box="(\w+):1"', side_b)) == 4
    # the house's JSON form is one small link away, for pasting
    assert 'href="/paper/synthesis/score">Paste JSON instead</a>' in page


def test_a_tap_paints_a_cell_and_a_second_tap_clears_it() -> None:
    t = read({"board": "A", "side": "A", "brush": "g"}, CARDS)
    t = tap(t, "t:1:1")
    t = tap(t, "t:1:2")
    t = tap(t, "t:2:1")
    assert board_json(t, CARDS)["table"] == ["gg", "g", "", "", "", ""]
    t = tap(t, "t:1:2")                               # the same colour again: cleared
    assert board_json(t, CARDS)["table"][0] == "g"
    t = tap(replace_brush(t, "r"), "t:2:1")            # another colour: repainted
    assert board_json(t, CARDS)["table"][1] == "r"
    t = tap(replace_brush(t, "."), "t:2:1")            # the clearing marker
    assert board_json(t, CARDS)["table"][1] == ""
    # a cell left empty under a coloured one stays as tapped: the scorer says it is out of order
    t = tap(replace_brush(t, "b"), "t:4:3")
    assert board_json(t, CARDS)["table"][3] == "..b"
    # taps on no cell of this board change nothing
    for where in ("t:1:6", "t:7:1", "t:0:1", "t:x:1", "t:\u00b2:1", "t:1:\u0663", "e:diamond:1", "e:circle:3",
                  "nonsense", ""):
        assert tap(t, where) == t


def replace_brush(t: Any, brush: str) -> Any:
    from dataclasses import replace

    return replace(t, brush=brush)


def test_the_json_is_the_documented_format() -> None:
    t = read(DOC_EXAMPLE, CARDS)
    sent = board_json(t, CARDS)
    assert sent == {"game": "synthesis", "player": "Ada", "board": "C", "side": "A",
                    "table": ["bbrg", "brgyy", "bgryy", "bgg", "rrb", "yb"],
                    "elemental": {"circle": ["blue", "blue"], "triangle": ["red"]},
                    "chain_card": "twin-pairs", "pattern_card": "first-shell", "pattern_points": 9}
    assert score_table(new_game(GAME), sent).data["total"] == 76          # the doc's own number
    # only the fields the mode is played with
    solo = board_json(read({**DOC_EXAMPLE, "mode": "first_steps", "difficulty": "hard", "project": "project-01"},
                           CARDS), CARDS)
    assert solo["mode"] == "first_steps" and solo["difficulty"] == "hard" and "project" not in solo
    assert solo["chain_card"] == "twin-pairs" and solo["pattern_card"] == "first-shell"   # First Steps needs them
    unpredictable = board_json(read({**DOC_EXAMPLE, "mode": "unpredictable", "difficulty": "hard",
                                     "project": "project-01"}, CARDS), CARDS)
    assert unpredictable["project"] == "project-01" and "difficulty" not in unpredictable
    assert unpredictable["chain_card"] == "twin-pairs" and unpredictable["pattern_points"] == 9
    predictable = board_json(read({**DOC_EXAMPLE, "mode": "predictable", "project": "project-01"}, CARDS), CARDS)
    assert predictable["project"] == "project-01"
    assert not {"chain_card", "pattern_card", "pattern_points", "difficulty"} & set(predictable)
    # what the page never writes is an empty cell, not a colour
    assert board_json(read({"board": "A", "t1": "gxG<", "e_square": "?g"}, CARDS), CARDS)["table"][0] == "g"


def test_a_board_changed_to_a_shorter_one_names_the_cells_left_out() -> None:
    t = read({"board": "C", "side": "A", "t3": "rrrrrrr", "t6": "yyyy", "e_diamond": "rr"}, CARDS)
    assert t.dropped == ("volume 3, row 7", "volume 6, row 4")
    assert board_json(t, CARDS)["table"] == ["", "", "rrrrrr", "", "", "yyy"]
    assert "elemental" not in board_json(t, CARDS)                      # side A prints no diamond pair


def test_a_board_is_scored_and_drawn(phones: Any) -> None:
    phone = phones()
    phone.get(URL)
    response = phone.post(URL, DOC_EXAMPLE)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Ada: 76 points" in html
    expected = score_table(new_game(GAME), board_json(read(DOC_EXAMPLE, CARDS), CARDS)).data
    # every score box, drawn as on the board and in the table of words
    for line in expected["lines"]:
        assert re.search(rf'data-score="{line["key"]}".*?class="value"[^>]*>{line["points"]}<', html, re.S), line
        assert re.search(rf'data-line="{line["key"]}".*?<td>{line["points"]}</td>', html, re.S), line
    assert re.search(r'data-score="total".*?class="value"[^>]*>76<', html, re.S)
    # the best linking drawn on the volume table: a bar per link of each chain
    links = sum(len(chain) - 1 for chain in expected["details"]["chains"])
    drawn = re.search(r'<svg class="syn-panel syn-paper-panel syn-paper-chains".*?</svg>', html, re.S).group(0)
    assert drawn.count('<g class="chain">') == len(expected["details"]["chains"])
    assert sum(len(re.findall(r"<line ", g)) for g in re.findall(r'<g class="chain">(.*?)</g>', drawn, re.S)) == links
    assert "First Shell: 9 counted on your formula, 9 scored" in html
    # htmx swaps the finding and the line under the board; the board's cells stay (the board is the one drawn)
    assert 'id="syn-paper-total" hx-swap-oob="true"' in html and "<b>76 points</b>" in html
    assert 'id="syn-tapin"' not in html
    # the JSON it was scored from is there to keep, the documented format
    text = re.search(r'aria-label="This board as JSON">(.*?)</textarea>', html, re.S).group(1)
    assert json.loads(text.replace("&#34;", '"'))["table"][0] == "bbrg"


def test_a_solo_board_shows_its_verdict(phones: Any) -> None:
    phone = phones()
    phone.get(URL)
    fields = {**DOC_EXAMPLE, "mode": "first_steps", "difficulty": "easy"}
    expected = score_table(new_game(GAME), board_json(read(fields, CARDS), CARDS))
    html = phone.post(URL, fields).get_data(as_text=True)
    won = expected.data["details"]["solo"]["won"]
    assert ("Won: every goal met." if won else "Lost: a goal is missed.") in html
    assert html.count('class="met"') + html.count('class="missed"') == len(expected.data["details"]["solo"]["goals"])
    project = {**DOC_EXAMPLE, "mode": "predictable", "project": "project-01"}
    html = phone.post(URL, project).get_data(as_text=True)
    assert "Project 01: its chains" in html and "solo-verdict" in html
    missing = phone.post(URL, {**DOC_EXAMPLE, "mode": "predictable"})
    assert missing.status_code in (400, 422) and "project" in missing.get_data(as_text=True)


def test_a_board_that_breaks_a_rule_says_which(phones: Any) -> None:
    phone = phones()
    phone.get(URL)
    response = phone.post(URL, {**DOC_EXAMPLE, "t4": "b.g"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "This board breaks 1 rule" in html
    assert "table column 4 (volume 4): a cell is coloured above an empty one" in html
    assert "Not scored" in html and "syn-paper-score" not in html


def test_without_javascript_a_tap_is_a_page(phones: Any) -> None:
    """No script: the cell is a submit button, the server paints it and
    sends the whole page back, scrolled to the board (the form's #syn-tapin)."""
    phone = phones()
    phone.get(URL)
    response = phone.post(URL, {"board": "A", "side": "A", "drawn": "AA", "t1": "r", "brush": "g", "tap": "t:1:2"},
                          htmx=False)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.startswith("<!doctype html>")
    assert 'name="t1" value="rg"' in html and 'aria-label="Volume 1, row 2: green"' in html
    assert 'action="/synthesis/board#syn-tapin"' in html
    assert re.search(r'value="g"[^>]*checked', html)                       # the marker stays chosen
    # the script paints the cell itself and says so: the tap htmx still sends is not applied again
    again = phone.post(URL, {"board": "A", "side": "A", "drawn": "AA", "t1": "rg", "brush": "g", "tap": "t:1:2",
                             "painted": "1"}).get_data(as_text=True)
    assert 'id="syn-tapin"' not in again
    assert json.loads(re.search(r'aria-label="This board as JSON">(.*?)</textarea>', again, re.S).group(1)
                      .replace("&#34;", '"'))["table"][0] == "rg"


def test_a_board_changed_is_drawn_again(phones: Any) -> None:
    phone = phones()
    phone.get(URL)
    html = phone.post(URL, {"board": "C", "side": "B", "drawn": "AA", "t3": "rrrrrrr"}).get_data(as_text=True)
    assert 'id="syn-tapin" hx-swap-oob="true"' in html and len(cells(html)) == 30
    html = phone.post(URL, {"board": "C", "side": "A", "drawn": "CB", "t3": "rrrrrrr"}).get_data(as_text=True)
    assert "has no cell at volume 3, row 7: left out" in html and 'name="t3" value="rrrrrr"' in html


def test_the_page_is_for_phones_of_this_table_only(phones: Any) -> None:
    phone = phones()
    assert phone.client.post(URL, data=DOC_EXAMPLE).status_code == 403        # no CSRF token


fields = st.sampled_from(["board", "side", "player", "t1", "t3", "t6", "e_circle", "e_square", "e_diamond", "brush",
                          "tap", "drawn", "mode", "difficulty", "project", "chain_card", "pattern_card",
                          "pattern_points", "painted", "x"])
values = st.text(max_size=12) | st.sampled_from(["A", "B", "C", "L", "r", "g.", "t:1:1", "e:circle:2", "first_steps",
                                                  "predictable", "unpredictable", "easy", "project-01",
                                                  "twin-pairs", "first-shell", "7", "-1", "99999", "1e9", "²",
                                                  "t:²:1", "t:1:٣", "t:9:9"])


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(form=st.dictionaries(fields, values, max_size=8))
def test_no_form_makes_the_page_answer_500(phones: Any, form: dict[str, str]) -> None:
    phone = phones()
    response = phone.post(URL, form)
    assert response.status_code in (200, 400, 422), (form, response.get_data(as_text=True)[:300])
