"""The Lab phase, scoring and the end of the game, each test citing the rulebook."""

from __future__ import annotations

import pytest

from engine.compounded.lab import end_game
from engine.compounded.scoring import final_scoring, move_marker
from engine.core import IllegalAction
from tests.engine.compounded.helpers import GAME, RULES, at, bench, fill, fresh, play, put


def _complete(s, i, card, claimant=None, completer=None, flames=0):
    s = put(s, i, card, flames=flames)
    s.flame_supply -= flames
    fill(s, i, dict(RULES.compound(card).needs))
    s.grid[i].complete = True
    s.grid[i].completed_by = completer if completer is not None else claimant
    if claimant is not None:
        s.scientists[claimant].tokens = [f"cell:{i}"]
    return s


def _lab(s):
    s.placed = 1  # not a standstill
    return at(s, {"do": "lab"}, {"do": "end_round"})


def test_lilly_skips_gwens_space():
    """Scoring: "Lilly scores 3 points this turn for completing Water. She moves her player piece ahead 3
    spaces, but Gwen's player piece is currently spot 29, therefore Lilly gets 1 additional point and lands
    on spot 30. If there was another scientist in spot 30, Lilly would move to 31, etc." """
    lilly, gwen, third = 0, 1, 2
    s = fresh(3)
    s.scientists[lilly].score, s.scientists[lilly].lines = 26, {"compounds": 26}
    s.scientists[gwen].score, s.scientists[gwen].lines = 29, {"compounds": 29}
    s = _complete(s, 0, "water", claimant=lilly)
    s = _lab(s)
    s = play(s, (lilly, {"type": "score", "cell": 0}))
    assert s.scientists[lilly].score == 30 and s.scientists[lilly].lines == {"compounds": 29, "skips": 1}
    s = fresh(3)
    s.scientists[gwen].score, s.scientists[third].score = 29, 30
    s.scientists[lilly].score = 26
    assert move_marker(RULES, s, lilly, 3, "compounds") == 5 and s.scientists[lilly].score == 31


def test_each_flame_token_costs_two_points():
    """Lab 2: "You score the indicated number of points. Each Flame token on the compound reduces the score by 2." """
    s = fresh(3)
    s = _complete(s, 0, "methane", claimant=0, flames=1)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert s.scientists[0].lines["compounds"] == RULES.compound("methane").points - 2


def test_scoring_advances_the_state_track_or_lab_and_returns_the_claim_token():
    """Lab 4 and 6, and Compound Cards: "advance the piece in the corresponding experiment ... You may always
    move the Lab (purple) experiment piece instead"; "Your claim token moves back to your board"."""
    s = fresh(3)
    s = _complete(s, 0, "water", claimant=0)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert GAME.actions(s, 0) == [{"type": "advance", "track": "discover"}, {"type": "advance", "track": "lab"}]
    s = play(s, (0, {"type": "advance", "track": "lab"}))
    assert s.scientists[0].tracks == [0, 0, 0, 1] and s.scientists[0].lines["lab"] == 1
    assert s.scientists[0].tokens == ["bench"] and s.grid[0].card != "water" and "water" in s.discard


def test_a_compound_of_two_states_offers_both_tracks():
    """"Some compounds can be multiple states. In these instances the scientist may choose which 1 experiment." """
    s = fresh(3)
    s = _complete(s, 0, "acetic-acid", claimant=0)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert [a["track"] for a in GAME.actions(s, 0)] == ["discover", "study", "lab"]


def test_scientists_score_in_turn_order_and_choose_their_own_order():
    """Lab 1 and 7: "After the lead scientist finishes scoring ALL of their completed compounds, the
    scientist to the left scores." """
    s = fresh(3)
    s.lead = 1
    s = _complete(s, 0, "water", claimant=0)
    s = _complete(s, 1, "oxygen", claimant=1)
    s = _complete(s, 2, "nitrogen", completer=1)
    s.grid[2].marks = [1]
    s = _lab(s)
    assert GAME.to_move(s) == [1]
    assert GAME.actions(s, 1) == [{"type": "score", "cell": 1}, {"type": "score", "cell": 2}]
    s = play(s, (1, {"type": "score", "cell": 2}), (1, {"type": "advance", "track": "research"}))
    s = play(s, (1, {"type": "score", "cell": 1}), (1, {"type": "advance", "track": "research"}))
    assert GAME.to_move(s) == [0]


def test_completing_someone_elses_claim_gives_both_the_bonus_but_only_them_the_points():
    """Research 5: "you won't get the points or an experiment increase, but you AND the scientist who claimed
    it get any bonus reward". Water's bonus is Extinguisher Refill."""
    s = fresh(3)
    s.scientists[0].tools["fire_extinguisher"] = False
    s.scientists[1].tools["fire_extinguisher"] = False
    s = _complete(s, 0, "water", claimant=0, completer=1)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}), (0, {"type": "advance", "track": "discover"}))
    assert s.scientists[0].score == 3 and s.scientists[1].score == 0
    assert s.scientists[0].tools["fire_extinguisher"] and s.scientists[1].tools["fire_extinguisher"]


def test_discover_top_scores_ten_and_every_lab_advance_scores():
    """Tracks: "If you reach the top, you immediately score 10 points!"; Lab: "each time you progress your
    Lab experiment, you'll get points!" """
    s = fresh(3)
    s.scientists[0].tracks = [5, 0, 0, 0]
    s = _complete(s, 0, "water", claimant=0)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}), (0, {"type": "advance", "track": "discover"}))
    assert s.scientists[0].lines["tops"] == 10 and RULES.value(s, 0, "discover") == 6
    lab = RULES.tracks["lab"].advance_points
    assert all(p > 0 for p in lab[1:])


def test_study_midpoint_gives_the_journal_and_a_claim_token_unlocks():
    """Study: "getting to the midpoint gets you the Journal"; more claim tokens come from the reserve."""
    s = fresh(3)
    s.scientists[0].tracks = [0, 2, 0, 0]
    s.scientists[0].tokens = ["bench", "bench"]
    s = _complete(s, 0, "calcium-oxide", claimant=0)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}), (0, {"type": "advance", "track": "study"}))
    assert s.scientists[0].tools.get("journal") is True
    assert RULES.journal_at == 3 and s.scientists[0].level("study") == 3


def test_journal_takes_an_element_back_when_scoring():
    """Journal: "flip this tool when scoring a compound ... to move one of the elements from that compound
    to your workbench"."""
    s = fresh(3)
    s.scientists[0].tools["journal"] = True
    s.tool_supply["journal"] -= 1
    s = _complete(s, 0, "sulfuric-acid", claimant=0)
    s = bench(s, 0, {})
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert {"type": "use_tool", "tool": "journal", "element": "S"} in GAME.actions(s, 0)
    s = play(s, (0, {"type": "use_tool", "tool": "journal", "element": "S"}))
    assert s.scientists[0].bench == {"S": 1} and s.scientists[0].tools["journal"] is False


def test_lab_partners_score_for_each_claim_token_and_share_the_bonus_once():
    """Lab Partners: "each scientist scores points equal to the value of the Lab Partner card for each of
    their claim tokens on the card"; "if a scientist has both claim spots they only gain the bonus effect
    (if any) once"."""
    s = fresh(4, lab_partners=True)
    i = 5
    card = s.grid[i].card
    pts = RULES.compound(card).points
    fill(s, i, dict(RULES.compound(card).needs))
    s.grid[i].complete, s.grid[i].completed_by = True, 0
    s.scientists[0].tokens = [f"cell:{i}"]
    s.scientists[2].tokens = [f"cell:{i}"]
    s = _lab(s)
    s = play(s, (0, {"type": "score", "cell": i}))
    s = play(s, *[(0, GAME.actions(s, 0)[-1])])  # advance Lab
    assert GAME.to_move(s) == [2]
    s = play(s, (2, GAME.actions(s, 2)[-1]))
    assert s.scientists[0].lines["compounds"] == pts and s.scientists[2].lines["compounds"] == pts
    s = fresh(4, lab_partners=True)
    card = s.grid[i].card
    fill(s, i, dict(RULES.compound(card).needs))
    s.grid[i].complete, s.grid[i].completed_by = True, 0
    s.scientists[0].tracks[1] = 1
    s.scientists[0].tokens = [f"cell:{i}", f"cell:{i}"]
    s = play(_lab(s), (0, {"type": "score", "cell": i}))
    assert s.scientists[0].lines["compounds"] == 2 * RULES.compound(card).points


def test_end_is_triggered_at_56_or_88_with_one_more_round():
    """End Game: "The first scientist to reach 56 points triggers the end game. There is 1 more round";
    "[4 or 5] scientists: ... 88 points"."""
    s = fresh(3)
    move_marker(RULES, s, 0, 56, "compounds")
    assert s.final_round == 2
    s = fresh(4)
    move_marker(RULES, s, 0, 87, "compounds")
    assert s.final_round is None
    move_marker(RULES, s, 0, 1, "compounds")
    assert s.final_round == 2


def test_the_game_ends_after_the_final_round_without_a_refill():
    s = fresh(3)
    s.final_round = 1
    s = _complete(s, 0, "water", claimant=0)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}), (0, {"type": "advance", "track": "lab"}))
    assert GAME.is_over(s) and s.grid[0].card is None


def test_end_scoring_counts_leftover_elements_and_claimed_unfinished_compounds():
    """End Game: "Any elements remaining on a scientist's workbench are worth 1 point for every 2 elements.
    Any unfinished compounds they have claimed, are worth 1 point for each element on them (... Caitlyn only
    had 2 Oxygen elements on the water compound ... Caitlyn would score 2 points)". Water needs one Oxygen,
    so the example is checked with its two Hydrogens."""
    caitlyn = 1
    s = fresh(3)
    s = put(s, 0, "water")
    s = fill(s, 0, {"H": 2})
    s.scientists[caitlyn].tokens = ["cell:0"]
    s = bench(s, caitlyn, {"C": 3})
    end_game(RULES, s, "test")
    lines = s.scientists[caitlyn].lines
    assert (lines["elements"], lines["unfinished"]) == (1, 2)
    assert GAME.is_over(s) and GAME.to_move(s) == []


def test_a_standstill_ends_the_game():
    """Reading 14: a whole round with no element placed ends the game."""
    s = fresh(2, two_player_dish=False)
    while not GAME.is_over(s):
        seat = GAME.to_move(s)[0]
        acts = GAME.actions(s, seat)
        quiet = [a for a in acts if a["type"] in ("keep", "done", "done_trading", "pass")]
        s = GAME.apply(s, seat, quiet[0] if quiet else acts[0])
    assert "standstill" in s.over and s.round == 1


def test_a_burnt_compound_scores_no_less_than_nothing():
    """Reading 3: flame tokens never make a compound score below 0."""
    s = fresh(3)
    s = _complete(s, 0, "ammonia", claimant=0, flames=4)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert s.scientists[0].lines.get("compounds", 0) == 0 and s.scientists[0].score == 0


def test_a_journal_bonus_only_refills_a_journal_held():
    """Reading 17: the Journal belongs to the Study midpoint."""
    s = fresh(3)
    s.scientists[1].tools["journal"] = False
    s.tool_supply["journal"] -= 1
    s = at(s, {"do": "reward", "reward": "journal", "scorer": 0, "seats": [0, 1]}, {"do": "end_round"})
    assert "journal" not in s.scientists[0].tools and s.scientists[1].tools["journal"] is True


def test_a_lab_partner_completer_takes_the_free_spot():
    """Reading 13: completing a Lab Partner card with a free spot takes that spot."""
    s = fresh(4, lab_partners=True)
    card = RULES.compound(s.grid[5].card)
    needs = dict(card.needs)
    last = next(iter(needs))
    needs[last] -= 1
    fill(s, 5, {e: n for e, n in needs.items() if n})
    s.scientists[0].tokens = ["cell:5"]
    s = bench(s, 2, {last: 1})
    s = at(s, {"do": "research_turn", "seat": 2, "placed": 0, "exchanged": False, "rate": 3, "goggles": False},
           {"do": "end_round"})
    s = play(s, (2, {"type": "place", "element": last, "cell": 5}))
    assert RULES.claimants(s, 5) == [0, 2]
