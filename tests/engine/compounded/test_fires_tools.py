"""Lab Fires, explosions, every tool and every chemical reaction, each test citing the rulebook."""

from __future__ import annotations

import pytest

from engine.compounded.fires import lab_fire
from engine.core import IllegalAction
from tests.engine.compounded.helpers import CARDS, GAME, RULES, at, fill, fresh, play, put
from tests.rulebook import follows

FIRE = sorted(CARDS.lab_fires)[0]
EXT = {"type": "use_tool", "tool": "fire_extinguisher"}
PASS = {"type": "pass"}


def _refill_with_fire(players=3, seed=1):
    """A Lab phase refill whose next card is a Lab Fire, space 0 empty."""
    s = fresh(players, seed=seed)
    s.discard.append(s.grid[0].card)
    s.grid[0] = type(s.grid[0])()
    s.deck.remove(FIRE)
    s.deck.insert(0, FIRE)
    return at(s, {"do": "refill"}, {"do": "end_round"})


def test_extinguishers_are_offered_in_turn_order_from_the_lead():
    """Lab Fires: "Scientists may then choose to use their Fire Extinguishers (starting with the lead
    scientist and moving to the left)." """
    s = _refill_with_fire()
    assert s.grid[0].card == FIRE and GAME.to_move(s) == [0]
    assert GAME.actions(s, 0) == [EXT, PASS]
    s = play(s, (0, PASS))
    assert GAME.to_move(s) == [1]


def test_an_extinguished_fire_is_discarded_and_the_refill_goes_on():
    """"If any scientist uses a Fire Extinguisher, the Lab Fire is discarded and that scientist flips their
    Fire Extinguisher ... Once a Lab Fire is discarded, a new compound is drawn to continue refilling." """
    s = _refill_with_fire()
    flames = [c.flames for c in s.grid]
    s = play(s, (0, PASS), (1, EXT))
    assert FIRE in s.discard and s.scientists[1].tools["fire_extinguisher"] is False
    assert RULES.compound(s.grid[0].card) and [c.flames for c in s.grid[1:]] == flames[1:]


def test_an_unextinguished_fire_adds_a_flame_to_every_flammable_compound_and_stays():
    """"If a Lab Fire is NOT extinguished, all flammable compounds ... in the grid gain 1 flame token";
    "The Lab Fire card remains in the Research Field until the end of the NEXT Lab phase." """
    s = fresh(3)
    s = put(s, 1, "ammonia")
    s = put(s, 2, "water")
    s.discard.append(s.grid[0].card)
    s.grid[0] = type(s.grid[0])()
    s.deck.remove(FIRE)
    s.deck.insert(0, FIRE)
    s = at(s, {"do": "refill"}, {"do": "end_round"})
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert s.grid[0].card == FIRE and s.grid[1].flames == 1 and s.grid[2].flames == 0
    assert s.flame_supply == 30 - sum(c.flames for c in s.grid)
    fire_round = s.grid[0].since
    s.round = fire_round + 1
    s = at(s, {"do": "clear_fires"}, {"do": "end_round"})
    assert s.grid[0].card != FIRE and FIRE in s.discard and RULES.compound(s.grid[0].card)


@follows("compounded.md", "The Lab Fire card remains in the Research Field until the end of the NEXT Lab phase.")
def test_a_lab_fire_stays_through_the_next_lab_phase_and_leaves_at_its_end():
    """A fire that burnt in one round is still in the grid while the next round's Lab phase refills and a
    new Lab Fire is offered to the extinguishers; it leaves only after that, and its space is refilled at
    once (reading 22). The booklet used to say it left "just before this refill"."""
    s = fresh(3)
    s = put(s, 0, FIRE)
    s.grid[0].since = s.round
    s.round += 1
    s.discard.append(s.grid[5].card)
    s.grid[5] = type(s.grid[5])()
    second = sorted(CARDS.lab_fires)[1]
    s.deck.remove(second)
    s.deck.insert(0, second)
    s = at(s, {"do": "lab_tail"}, {"do": "end_round"})
    assert s.agenda[0]["do"] == "extinguish" and s.grid[5].card == second
    assert s.grid[0].card == FIRE, "the old fire must still be in the grid during the next Lab phase's refill"
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert FIRE in s.discard and RULES.compound(s.grid[0].card) and s.grid[5].card == second
    assert all(c.card is not None for c in s.grid)
    GAME.check(s)


def test_a_full_compound_explodes_and_its_claimant_moves_its_elements_to_neighbours():
    """"If a compound does not have any more space for flame tokens, they explode ... the elements on it
    are moved to ANY compound above, below, left, or right ... If the exploding compound is claimed, the
    scientist with the claim decides where ALL of the elements on it go." """
    s = fresh(3)
    s = put(s, 5, "methane", flames=1)  # rating 4: one flame slot, full
    s.flame_supply -= 1
    s = fill(s, 5, {"C": 1, "H": 2})
    s = put(s, 1, "water")
    s = put(s, 4, "ethylene")
    s = put(s, 6, "ammonia")
    s = put(s, 9, "oxygen")
    s.scientists[2].tokens = ["cell:5"]
    s = at(s, *lab_fire(s, None), {"do": "end_round"})
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert s.grid[5].card is None and "methane" in s.discard and s.scientists[2].tokens == ["bench"]
    assert GAME.to_move(s) == [2]
    moves = GAME.actions(s, 2)
    assert {"type": "scatter", "element": "H", "cell": 1} in moves and {"type": "scatter", "element": "C", "cell": 4} in moves
    assert all(m.get("cell") in (1, 4, 6, 9) for m in moves)
    with pytest.raises(IllegalAction, match="above, below, left or right"):
        GAME.apply(s, 2, {"type": "scatter", "element": "H", "cell": 0})
    s = play(s, (2, {"type": "scatter", "element": "H", "cell": 1}), (2, {"type": "scatter", "element": "H", "cell": 1}))
    assert s.grid[1].elements == {"H": 2}
    s = play(s, (2, {"type": "scatter", "element": "C", "cell": 4}))
    GAME.check(s)


def test_an_unclaimed_explosion_is_decided_by_the_lead_and_can_finish_a_compound_for_the_next_lab():
    """"If the exploding compound is not claimed, the lead scientist decides"; "this can potentially cause a
    compound to be finished. However, since scoring is over, that compound must survive until the next Lab
    phase!" """
    s = fresh(3)
    s.lead = 1
    s = put(s, 0, "hydrogen", flames=1)
    s.flame_supply -= 1
    s = fill(s, 0, {"H": 1})
    s = put(s, 1, "water")
    s = fill(s, 1, {"H": 1, "O": 1})
    s.scientists[0].tokens = ["cell:1"]
    s = at(s, *lab_fire(s, None), {"do": "end_round"})
    s = play(s, (1, PASS), (2, PASS), (0, PASS))
    assert GAME.to_move(s) == [1]
    s = play(s, (1, {"type": "scatter", "element": "H", "cell": 1}))
    assert s.grid[1].complete and s.grid[1].completed_by is None and not s.grid[1].ready


def test_an_empty_compound_explodes_quietly():
    """"If a compound explodes with NO elements on it, nothing happens. It opens an empty space" """
    s = fresh(3)
    s = put(s, 0, "hydrogen", flames=1)
    s.flame_supply -= 1
    s = at(s, *lab_fire(s, None), {"do": "end_round"})
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert s.grid[0].card is None and "hydrogen" in s.discard and s.round == 2


def test_the_game_ends_at_once_when_the_grid_cannot_be_refilled():
    """"Note: The game ends immediately if the compound grid cannot be fully refilled." """
    s = fresh(3)
    s.discard += s.deck
    s.deck = []
    s.discard.append(s.grid[0].card)
    s.grid[0] = type(s.grid[0])()
    s = at(s, {"do": "refill"}, {"do": "end_round"})
    assert GAME.is_over(s) and "refilled" in s.over


def test_bunsen_burner_adds_a_flame_at_the_start_of_the_lab_phase():
    """Bunsen Burner: "flip this tool during the Lab Phase to add 1 flame token to any compound without flame
    tokens. Fire Extinguishers may not prevent this action." """
    s = fresh(3)
    s.scientists[1].tools["bunsen_burner"] = True
    s.tool_supply["bunsen_burner"] -= 1
    s = put(s, 3, "water", flames=0)
    s = put(s, 4, "methane", flames=1)
    s.flame_supply -= 1
    s = at(s, {"do": "lab"}, {"do": "end_round"})
    assert GAME.to_move(s) == [1]
    assert {"type": "use_tool", "tool": "bunsen_burner", "cell": 4} not in GAME.actions(s, 1)
    s = play(s, (1, {"type": "use_tool", "tool": "bunsen_burner", "cell": 3}))
    assert s.grid[3].flames == 1 and s.scientists[1].tools["bunsen_burner"] is False


def test_graduated_cylinder_moves_one_experiment_down_and_another_up_but_never_a_scoring_one():
    """Graduated Cylinder: "reduce one of your experiments by 1 and increase a different experiment by 1 ...
    You may not reduce any experiment that has scored points ... nor can the Lab Experiment track" """
    s = fresh(3)
    s.scientists[0].tools["graduated_cylinder"] = True
    s.tool_supply["graduated_cylinder"] -= 1
    s.scientists[0].tracks = [6, 1, 0, 2]
    s = at(s, {"do": "cylinder", "seat": 0}, {"do": "end_round"})
    moves = {(a.get("from"), a.get("to")) for a in GAME.actions(s, 0) if a["type"] == "use_tool"}
    assert moves == {("study", "research"), ("study", "lab")}
    s = play(s, (0, {"type": "use_tool", "tool": "graduated_cylinder", "from": "study", "to": "lab"}))
    assert s.scientists[0].tracks == [6, 0, 0, 3] and s.scientists[0].tokens == ["bench"]
    assert s.scientists[0].lines["lab"] == RULES.tracks["lab"].advance_points[3]


def test_dropping_below_the_journal_space_returns_the_journal():
    """Journal: "Should an ability reduce your Study level to below the Journal tool space, you must return
    the Journal tool back to the supply." """
    s = fresh(3)
    s.scientists[0].tools.update(graduated_cylinder=True, journal=True)
    s.tool_supply["graduated_cylinder"] -= 1
    s.tool_supply["journal"] -= 1
    s.scientists[0].tracks = [0, 3, 0, 0]
    s.scientists[0].tokens = ["bench", "cell:2"]
    s = at(s, {"do": "cylinder", "seat": 0}, {"do": "end_round"})
    s = play(s, (0, {"type": "use_tool", "tool": "graduated_cylinder", "from": "study", "to": "discover"}))
    assert "journal" not in s.scientists[0].tools and s.tool_supply["journal"] == 6
    GAME.check(s)


def _reward(s, reward, scorer=0, seats=(0,)):
    return at(s, {"do": "reward", "reward": reward, "scorer": scorer, "seats": list(seats)}, {"do": "end_round"})


def test_tool_rewards_are_taken_or_refilled():
    """Tools: "All lab tools are single use and can be refilled by completing another compound with that tool
    on it as a reward". The completer of someone else's claim gets it too."""
    s = fresh(3)
    s.scientists[1].tools["pipette"] = False
    s.tool_supply["pipette"] -= 1
    s = _reward(s, "pipette", seats=(0, 1))
    assert s.scientists[0].tools["pipette"] and s.scientists[1].tools["pipette"]
    assert s.tool_supply["pipette"] == 4


def test_lab_fire_reaction_burns_as_if_drawn():
    """Lab Fire: "Some extremely volatile compounds cause a Lab Fire after being scored as if it had been drawn
    from the deck." """
    s = fresh(3)
    s = put(s, 2, "methane")
    s = _reward(s, "lab_fire")
    assert GAME.to_move(s) == [0] and GAME.actions(s, 0) == [EXT, PASS]
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert s.grid[2].flames == 1


def test_grant_goes_to_the_lowest_score_and_the_scorer_chooses_the_track():
    """Grant: "the scientist with the lowest score ... move one of their experiments up by 1. The scientist who
    scored the compound determines which of the tracks is moved up." """
    s = fresh(3)
    for seat, score in enumerate((10, 4, 7)):
        s.scientists[seat].score = score
        s.scientists[seat].lines = {"compounds": score}
    s = _reward(s, "grant", scorer=0)
    assert GAME.to_move(s) == [0] and {a["seat"] for a in GAME.actions(s, 0)} == {1}
    s = play(s, (0, {"type": "grant", "seat": 1, "track": "research"}))
    assert s.scientists[1].tracks == [0, 0, 1, 0]
    with pytest.raises(IllegalAction):
        GAME.apply(fresh(3), 0, {"type": "grant", "seat": 1, "track": "lab"})


def test_claim_jump_moves_a_claim_token_at_once():
    """Claim Jump: "Immediately move a claim token to a new compound or tool refresh." """
    s = fresh(3)
    s = _reward(s, "claim_jump", seats=(0, 2))
    assert GAME.to_move(s) == [0]
    s = play(s, (0, {"type": "claim", "token": 0, "cell": 7}))
    assert s.scientists[0].tokens == ["cell:7"] and GAME.to_move(s) == [2]
    with pytest.raises(IllegalAction, match="already claimed"):
        GAME.apply(s, 2, {"type": "claim", "token": 0, "cell": 7})


def test_extinguisher_refill_flips_the_extinguisher_back():
    """Extinguisher Refill: "Immediately flip over your spent Fire Extinguisher to the filled side." """
    s = fresh(3)
    s.scientists[0].tools["fire_extinguisher"] = False
    s = _reward(s, "extinguisher_refill")
    assert s.scientists[0].tools["fire_extinguisher"] is True


def test_flame_tokens_run_out_at_thirty():
    """Components: 30 flame tokens; with all of them out, no compound gains another."""
    s = fresh(4)
    s.flame_supply = 0
    s = put(s, 0, "ammonia")
    s = at(s, *lab_fire(s, None), {"do": "end_round"})
    s = play(s, *[(seat, PASS) for seat in range(4)])
    assert s.grid[0].flames == 0
