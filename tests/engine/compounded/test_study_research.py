"""The Study and Research phases, each test citing the rulebook."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.engine.compounded.helpers import GAME, RULES, at, bench, fill, fresh, play, put
from tests.rulebook import follows


def _study(players=3, seed=1):
    s = fresh(players, seed=seed)
    return at(s, {"do": "study"}, {"do": "research"})


def test_claims_go_in_turn_order_one_token_at_a_time():
    """Study 1-2: "Each scientist (starting with the lead scientist ...) may ... move their claim token
    ... After every scientist has moved ... scientists with more than 1 claim token ... may move another" """
    s = fresh(3, seed=1)
    s.scientists[2].tracks[1] = 1  # Study level 1: two claim tokens
    s.scientists[2].tokens = ["bench", "bench"]
    s = at(s, {"do": "study"}, {"do": "research"})
    order = []
    for _ in range(4):
        seat = GAME.to_move(s)[0]
        order.append(seat)
        s = GAME.apply(s, seat, GAME.actions(s, seat)[0])
    assert order == [0, 1, 2, 2]
    assert s.phase == "research"


def test_a_claimed_compound_cannot_be_claimed_again_but_claims_can_move():
    """Study 1: "may move their claim token from 1 compound to an unclaimed compound"; "only 1 scientist
    can claim a given compound or tool at a time"."""
    s = _study()
    s = play(s, (0, {"type": "claim", "token": 0, "cell": 3}))
    with pytest.raises(IllegalAction, match="already claimed"):
        GAME.apply(s, 1, {"type": "claim", "token": 0, "cell": 3})
    s = play(s, (1, {"type": "claim", "token": 0, "cell": 4}), (2, {"type": "keep"}))
    s.agenda.insert(0, {"do": "claims", "pass": 0, "turn": 0, "moved": [[], [], []]})
    s = play(s, (0, {"type": "claim", "token": 0, "cell": 5}))
    assert s.scientists[0].tokens == ["cell:5"]
    assert {"type": "claim", "token": 0, "cell": 3} in GAME.actions(s, 1)


def test_claiming_a_tool_refresh_space_refreshes_it_and_blocks_it():
    """Study 1 and Tools: "move their claim token to a tool icon ... to immediately refresh a tool that
    they have. You MAY move your claim token to a tool even if you haven't unlocked it." """
    s = _study()
    s.scientists[0].tools["fire_extinguisher"] = False
    s = play(s, (0, {"type": "claim", "token": 0, "tool": "fire_extinguisher"}),
             (1, {"type": "claim", "token": 0, "tool": "pipette"}))
    assert s.scientists[0].tools["fire_extinguisher"] is True
    assert "pipette" not in s.scientists[1].tools
    with pytest.raises(IllegalAction, match="already on that tool refresh space"):
        GAME.apply(s, 2, {"type": "claim", "token": 0, "tool": "pipette"})


def _research(s, seat=0):
    return at(s, {"do": "research_turn", "seat": seat, "placed": 0, "exchanged": False, "rate": 3,
                  "goggles": False}, {"do": "end_round"})


def test_exchange_three_of_a_kind_for_an_element_still_in_the_bag():
    """Research 1: "Scientists may trade 3 of a kind for any element in the bag ... if ... all 5 [Sulfur]
    are on Workbenches, compounds, or ... the tray ... you would be out of luck"."""
    s = fresh(3)
    s = bench(s, 0, {"H": 3})
    s = _research(s)
    s = play(s, (0, {"type": "exchange", "give": "H", "take": "O"}))
    assert s.scientists[0].bench == {"O": 1} and s.tray == {"H": 3}
    s = fresh(3)
    s = bench(s, 0, {"H": 3})
    s.tray["S"] = s.bag.pop("S")
    s = _research(s)
    with pytest.raises(IllegalAction, match="no Sulfur left in the bag"):
        GAME.apply(s, 0, {"type": "exchange", "give": "H", "take": "S"})


@follows("compounded.md", "Scientists may trade 3 of a kind for any element in the bag.")
def test_an_exchange_may_take_the_element_given():
    """"any element in the bag": the booklet said the new element "must be a different element"; the
    rulebook does not, so three Sulfur may buy a Sulfur (the bag still has one)."""
    s = fresh(3)
    s = bench(s, 0, {"S": 3})
    s = _research(s)
    assert {"type": "exchange", "give": "S", "take": "S"} in GAME.actions(s, 0)
    s = play(s, (0, {"type": "exchange", "give": "S", "take": "S"}))
    assert s.scientists[0].bench == {"S": 1} and s.tray == {"S": 3}


def test_pipette_exchanges_two_for_one():
    """Pipette: "exchange any number of elements at a 2:1 ratio rather than the typical 3:1"."""
    s = fresh(3)
    s = bench(s, 0, {"H": 2, "O": 2})
    s.scientists[0].tools["pipette"] = True
    s.tool_supply["pipette"] -= 1
    s = _research(s)
    assert not any(a["type"] == "exchange" for a in GAME.actions(s, 0))
    s = play(s, (0, {"type": "use_tool", "tool": "pipette"}), (0, {"type": "exchange", "give": "H", "take": "S"}),
             (0, {"type": "exchange", "give": "O", "take": "S"}))
    assert s.scientists[0].bench == {"S": 2} and s.scientists[0].tools["pipette"] is False


def test_safety_goggles_place_from_the_tray_and_forbid_exchanges():
    """Safety Goggles: "use the elements in the discard tray as if they were stored on your Workbench ...
    Scientists using Safety Goggles may NOT trade elements during the Research phase." """
    s = fresh(3)
    s = put(s, 0, "water")
    s = bench(s, 0, {"C": 3})
    s.tray = {"O": 1}
    s.bag["O"] -= 1
    s.scientists[0].tools["safety_goggles"] = True
    s.tool_supply["safety_goggles"] -= 1
    s = _research(s)
    s = play(s, (0, {"type": "use_tool", "tool": "safety_goggles"}))
    with pytest.raises(IllegalAction, match="Safety Goggles may not trade"):
        GAME.apply(s, 0, {"type": "exchange", "give": "C", "take": "H"})
    s = play(s, (0, {"type": "place", "element": "O", "cell": 0, "from": "tray"}))
    assert s.grid[0].elements == {"O": 1} and not s.tray


def test_placing_is_limited_by_the_research_level_and_goes_on_any_compound():
    """Research 2: "may place elements on ANY compound on the board, even those claimed by another ...
    Everyone starts being able to place 2 elements." """
    s = fresh(3)
    s = put(s, 0, "water")
    s = put(s, 1, "methane")
    s.scientists[1].tokens = ["cell:1"]
    s = bench(s, 0, {"H": 3})
    s = _research(s)
    s = play(s, (0, {"type": "place", "element": "H", "cell": 0}), (0, {"type": "place", "element": "H", "cell": 1}))
    with pytest.raises(IllegalAction, match="placed your 2 elements"):
        GAME.apply(s, 0, {"type": "place", "element": "H", "cell": 0})
    assert GAME.actions(s, 0) == [{"type": "done"}]


def test_a_compound_takes_only_the_elements_it_needs():
    s = fresh(3)
    s = put(s, 0, "water")
    s = bench(s, 0, {"C": 1})
    s = _research(s)
    with pytest.raises(IllegalAction, match="does not need Carbon"):
        GAME.apply(s, 0, {"type": "place", "element": "C", "cell": 0})


def test_completing_an_unclaimed_compound_marks_it_for_the_completer():
    """Research 3: "If you complete an unclaimed compound by placing the last element on it, use 1 of your
    reserved claim tokens to indicate that you have completed it." """
    s = fresh(3)
    s = put(s, 0, "water")
    s = fill(s, 0, {"H": 2})
    s = bench(s, 1, {"O": 1})
    s = _research(s, seat=1)
    s = play(s, (1, {"type": "place", "element": "O", "cell": 0}))
    assert s.grid[0].complete and s.grid[0].marks == [1] and RULES.claimants(s, 0) == [1]


def test_completing_another_scientists_claim_leaves_it_theirs():
    """Research 5: "You may complete a compound that someone else has claimed ... you won't get the points
    or an experiment increase"."""
    s = fresh(3)
    s = put(s, 0, "water")
    s = fill(s, 0, {"H": 2})
    s.scientists[2].tokens = ["cell:0"]
    s = bench(s, 1, {"O": 1})
    s = _research(s, seat=1)
    s = play(s, (1, {"type": "place", "element": "O", "cell": 0}))
    assert s.grid[0].complete and s.grid[0].completed_by == 1 and RULES.claimants(s, 0) == [2]
