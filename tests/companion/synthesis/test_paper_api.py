"""The Synthesis paper scorer through the API route
(``/api/games/synthesis/paper/score``): a value of the wrong kind where a
text belongs is a 400 naming its field (it was a 500: ``value not in deck``
raised TypeError on a list), a board that breaks a rule a 422 with every
problem, and no value anywhere makes it answer 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.companion.test_api import check

URL = "/api/games/synthesis/paper/score"
GOOD = {"game": "synthesis", "player": "Ada", "board": "C", "side": "A", "mode": "first_steps",
        "difficulty": "easy", "table": ["bbrg", "brgyy", "bgryy", "bgg", "rrb", "yb"],
        "elemental": {"circle": 2, "triangle": 1}, "chain_card": "twin-pairs", "pattern_card": "first-shell",
        "pattern_points": 9}
TEXT_FIELDS = ("chain_card", "pattern_card", "project", "board", "side", "mode", "difficulty", "player", "game")


def post(app: Any, body: Any) -> Any:
    return check(app, "POST", "/api/games/{game}/paper/{verb}", app.test_client().post(URL, json=body))


def test_a_good_board_is_scored(app: Any) -> None:
    response = post(app, GOOD)
    assert response.status_code == 200, response.json
    assert response.json["data"]["total"] == 76 and response.json["summary"].startswith("76 points")


@pytest.mark.parametrize("field", TEXT_FIELDS)
@pytest.mark.parametrize("value", [["twin-pairs"], {"id": "twin-pairs"}], ids=["a list", "an object"])
def test_a_list_or_an_object_where_a_text_belongs_is_a_400_naming_the_field(app: Any, field: str, value: Any) -> None:
    response = post(app, {**GOOD, field: value})
    assert response.status_code == 400, response.json
    assert response.json["error"].startswith(f"{field}: expected "), response.json
    assert f"as text, found {'a list' if isinstance(value, list) else 'an object'}" in response.json["error"]


def test_the_issues_case_a_chain_card_given_as_a_list(app: Any) -> None:
    response = post(app, {**GOOD, "chain_card": ["twin-pairs", "corner"]})
    assert response.status_code == 400
    assert response.json["error"] == "chain_card: expected a card's name as text, found a list"
    assert post(app, ["board", "table"]).status_code == 400  # not an object at all


def test_a_board_that_breaks_rules_is_a_422_listing_them(app: Any) -> None:
    """Right kinds, wrong values: First Steps without its cards, an unknown board."""
    body = {**GOOD, "board": "Z"}
    del body["chain_card"]
    response = post(app, body)
    assert response.status_code == 422, response.json
    problems = response.json["problems"]
    assert any(p.startswith("board and side:") for p in problems)
    assert any(p.startswith("chain_card: First Steps is played with") for p in problems), problems


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["A", "B", "C", "r", "g", "twin-pairs", "project-01", "first_steps", "easy", "circle"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["circle", "square", "x", "board", "id"]), children, max_size=3),
    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(field=st.sampled_from(sorted(GOOD) + ["project", "colour"]), new=json_values,
       inner=st.integers(0, 7))
def test_no_value_anywhere_makes_the_scorer_answer_500(app: Any, field: str, new: Any, inner: int) -> None:
    body = json.loads(json.dumps(GOOD))
    target = body.get(field)
    if isinstance(target, list) and target:
        target[inner % len(target)] = new  # one column of the table
    elif isinstance(target, dict) and target:
        target[sorted(target)[inner % len(target)]] = new  # one pair of elemental boxes
    else:
        body[field] = new
    response = app.test_client().post(URL, data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400, 422), (body, response.get_data(as_text=True)[:300])
