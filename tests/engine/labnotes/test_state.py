"""The Lab Notes state as data: labels, JSON round trips, validation, views,
purity, and the errors a player reads."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core import IllegalAction, InvalidState
from engine.labnotes.state import parse_space_label, sheet_from_text, space_label
from tests.engine.conftest import FINISH, notate, notating
from tests.engine.labnotes.scene import with_burns


def midgame(game, seed=3, steps=40):
    import random

    rng = random.Random(seed)
    s = game.setup(3, seed)
    for _ in range(steps):
        seat = rng.choice(game.to_move(s))
        s = game.apply(s, seat, rng.choice(game.actions(s, seat)))
    return s


def test_space_labels_name_every_space_once():
    labels = [space_label(i) for i in range(36)]
    assert labels[:7] == ["A1", "A2", "A3", "A4", "A5", "A6", "B1"] and labels[-1] == "F6"
    assert [parse_space_label(x) for x in labels] == list(range(36))
    for bad in ("A0", "A7", "G1", "", "11", None):
        with pytest.raises(ValueError):
            parse_space_label(bad)


def test_sheet_text_form_reads_elements_bonds_and_burns():
    spaces, bonds = sheet_from_text("A1:N A2:N A1#A2 F6:x")
    assert spaces[:2] == "NN" and spaces[35] == "x" and bonds == {(0, 1): 3}
    with pytest.raises(ValueError, match="cannot read"):
        sheet_from_text("A1=C")


def test_json_round_trip_is_exact(game):
    s = midgame(game)
    data = game.to_dict(s)
    text = json.dumps(data)
    back = game.from_dict(json.loads(text))
    assert game.to_dict(back) == data and back == s


def test_state_json_is_readable(game):
    """Sheets read like a FEN: rows of six joined by '/'."""
    s = with_burns(notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2"}), 0, "HO" + "." * 33 + "x")
    seat = game.to_dict(s)["seats"][0]
    assert seat["spaces"] == "HO..../....../....../....../....../.....x"
    assert seat["bonds"] == [[0, 1, 1]]


@pytest.mark.parametrize("path,value,field", [
    (("players",), "three", "players"),
    (("phase",), "lunch", "phase"),
    (("seats", 0, "spaces"), "Q" * 36, "seats.0.spaces"),
    (("seats", 1, "trash"), "HZ", "seats.1.trash"),
    (("dice", 2, "place"), "pocket", "dice.2.place"),
    (("rng",), -1, "rng"),
])
def test_from_dict_names_the_bad_field(game, path, value, field):
    data = game.to_dict(midgame(game))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InvalidState, match=f"^{field}: |\n{field}: "):
        game.from_dict(data)


def test_from_dict_names_a_missing_field(game):
    data = game.to_dict(midgame(game))
    del data["seats"][0]["bonds"]
    with pytest.raises(InvalidState, match="seats.0.bonds: expected a value, found nothing"):
        game.from_dict(data)


def test_from_dict_rejects_a_lost_notecard(game):
    """Every notecard is in exactly one of deck, line and discard."""
    data = game.to_dict(midgame(game))
    data["deck"].pop()
    with pytest.raises(InvalidState, match="notecards: every card"):
        game.from_dict(data)
    data = game.to_dict(midgame(game))
    data["discard"].append(data["line"][0])
    with pytest.raises(InvalidState, match="notecards: every card"):
        game.from_dict(data)


def test_from_dict_rejects_a_die_held_twice(game):
    s = notating(game, ["H", "O"], "O")
    data = game.to_dict(s)
    community = next(d for d in data["dice"] if d["place"] == "community")
    community.update(place="seat", seat=0)
    with pytest.raises(InvalidState, match="a seat holds two dice"):
        game.from_dict(data)


def test_from_dict_rejects_a_bond_over_valence(game):
    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2"})
    data = game.to_dict(s)
    data["seats"][0]["bonds"] = [[0, 1, 2]]
    with pytest.raises(InvalidState, match="seats.0.bonds: the Hydrogen at A1 has 2 bonds"):
        game.from_dict(data)


def test_from_dict_rejects_overfull_tools_track_and_stray_unlocks(game):
    s = notating(game, ["H", "O"], "O")
    data = game.to_dict(s)
    data["seats"][0]["tool_marks"] = 3
    data["seats"][1]["tools"] = ["centrifuge"]
    with pytest.raises(InvalidState) as err:
        game.from_dict(data)
    assert "seats.0.tool_marks: 3 marks on 2 open spaces" in str(err.value)
    assert "seats.1.tools: centrifuge unlocked but not built" in str(err.value)


def test_from_dict_rejects_what_is_not_a_state(game):
    for bad in ([], "state", {"game": "chess"}):
        with pytest.raises(InvalidState):
            game.from_dict(bad)


def test_apply_is_pure(game):
    s = notating(game, ["H", "O"], "O")
    before, kept = game.to_dict(s), copy.deepcopy(s)
    after = game.apply(s, 0, notate("H", "A1"))
    assert game.to_dict(s) == before and s == kept and after is not s
    assert after.seats[0].spaces[0] == "H"


@pytest.mark.parametrize("seat,action,message", [
    (0, {"type": "fly"}, "Unknown action 'fly'"),
    (0, "notate", 'An action is a JSON object with a "type"'),
    (0, {"type": "notate", "element": "H"}, "needs 'space'"),
    (0, {"type": "notate", "element": "H", "space": 0, "colour": "red"}, "has no field 'colour'"),
    (0, {"type": "notate", "element": "H", "space": "A1"}, "A space must be a whole number"),
    (0, {"type": "notate", "element": "H", "space": True}, "A space must be a whole number"),
    (0, {"type": "notate", "element": "H", "space": 36}, "not on the compound field"),
    (0, {"type": "notate", "element": "Ca", "space": 0}, "not an element of Lab Notes"),
    (7, {"type": "finish"}, "There is no seat 7"),
    (0, {"type": "roll"}, "only at the start of a round"),
    (0, {"type": "use_tool", "tool": "hammer"}, "not a tool of this game"),
    (0, {"type": ["list"]}, "Unknown action"),
])
def test_illegal_actions_explain_themselves_and_change_nothing(game, seat, action, message):
    s = notating(game, ["H", "O"], "O")
    before = game.to_dict(s)
    with pytest.raises(IllegalAction, match=message):
        game.apply(s, seat, action)
    assert game.to_dict(s) == before


def test_view_hides_the_deck_order_and_the_generator(game):
    """The issue: "no seat's view shows another seat's secrets"; the deck order
    and the generator are Lab Notes' only secrets (the rest is on the table)."""
    s = midgame(game)
    view = game.view(s, 1)
    assert "rng" not in view and view["deck"] == len(s.deck) and view["viewer"] == 1
    assert view["seats"][0]["spaces"] == game.to_dict(s)["seats"][0]["spaces"]
    json.dumps(view)
    other = game.resample_hidden(s, 1, 99)
    assert game.view(other, 1) == view and (other.deck != s.deck or other.rng != s.rng)
    assert game.view(s, None)["viewer"] is None


def test_game_over_refuses_actions(game):
    s = notating(game, ["H", "O"], "O")
    with_burns(s, 0, "x" * 35 + ".")
    s = game.apply(s, 0, notate("H", "F6"))
    s = game.apply(s, 0, {"type": "trash", "element": "O"})
    for seat, acts in ((0, [FINISH]), (1, [{"type": "trash", "element": "O"}] * 2 + [FINISH])):
        for a in acts:
            s = game.apply(s, seat, a)
    assert game.is_over(s)
    with pytest.raises(IllegalAction, match="The game is over"):
        game.apply(s, 0, FINISH)


def test_every_state_field_is_declared_once(game):
    """state.py declares each field once: the JSON form has exactly the
    dataclasses' fields, and reads back to an equal state."""
    from dataclasses import fields

    from engine.labnotes.state import Claim, Die, Sheet, State

    s = midgame(game, seed=5, steps=120)
    data = json.loads(json.dumps(game.to_dict(s)))
    assert set(data) == {f.name for f in fields(State)}
    assert set(data["seats"][0]) == {f.name for f in fields(Sheet)}
    assert set(data["dice"][0]) == {f.name for f in fields(Die)}
    claims = [c for seat in data["seats"] for c in seat["claims"]]
    assert all(set(c) == {f.name for f in fields(Claim)} for c in claims)
    assert game.from_dict(data) == s


def test_setup_options_are_checked(game):
    with pytest.raises(IllegalAction, match="true or false"):
        game.setup(2, 1, {"first_game": "yes"})
    with pytest.raises(IllegalAction, match="JSON object"):
        game.setup(2, 1, ["first_game"])
