"""The Lab phase, scoring and the end of the game, each test citing the rulebook."""

from __future__ import annotations

import pytest

from engine.compounded.fires import lab_fire
from engine.compounded.lab import end_game
from engine.compounded.scoring import final_scoring, move_marker
from engine.core import IllegalAction
from tests.engine.compounded.helpers import CARDS, GAME, RULES, at, bench, fill, fresh, play, put
from tests.rulebook import follows

FIRE = sorted(CARDS.lab_fires)[0]
PASS = {"type": "pass"}


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


@follows("compounded.md",
         "After ALL compounds have been scored, the grid is refilled entirely from the compound deck.",
         "Deal with any existing Lab Fires, if any.",
         "Any unfinished compounds they have claimed, are worth 1 point for each element on them")
def test_the_last_round_refills_the_grid_and_its_lab_fires_burn():
    """The last round's Lab phase is a Lab phase like any other: the grid is refilled, and a Lab Fire drawn
    then is offered to the Fire Extinguishers and, let burn, explodes Bo's claimed methane, full of flames:
    its 3 elements no longer count for Bo at the end (reading 26)."""
    bo = 1
    s = fresh(3)
    s.final_round = 1
    s = _complete(s, 0, "water", claimant=0)
    s = put(s, 5, "methane", flames=1)  # one flame slot, full: the next fire explodes it
    s.flame_supply -= 1
    s = fill(s, 5, {"C": 1, "H": 2})
    s.scientists[bo].tokens = ["cell:5"]
    s.deck.remove(FIRE)
    s.deck.insert(0, FIRE)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}), (0, {"type": "advance", "track": "lab"}))
    assert not GAME.is_over(s) and s.grid[0].card == FIRE
    asked = []
    for _ in range(50):
        if GAME.is_over(s):
            break
        seat = GAME.to_move(s)[0]
        if s.agenda[0]["do"] == "extinguish":
            asked.append(seat)
            s = play(s, (seat, PASS))
        else:
            assert s.agenda[0]["do"] == "scatter" and seat == bo
            s = play(s, (seat, GAME.actions(s, seat)[0]))
    assert asked == [0, 1, 2] and GAME.is_over(s) and "last round" in s.over
    assert s.grid[0].card == FIRE and "methane" in s.discard
    assert all(c.card for c in s.grid)  # refilled entirely, the exploded space too
    assert s.scientists[bo].lines.get("unfinished", 0) == 0


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


QUIET = ("keep", "done", "done_trading", "pass")


@follows("compounded.md",
         "The first scientist to reach 56 points triggers the end game. There is 1 more round, after which the "
         "scientist with the highest score wins.",
         "Note: The game ends immediately if the compound grid cannot be fully refilled.")
def test_rounds_in_which_nobody_places_do_not_end_the_game():
    """The rulebook ends a game two ways only. Two scientists who place nothing round after round (they
    keep, pass and discard) are still playing: a table that wants to stop ends it by agreement (reading 14)."""
    s = fresh(2, two_player_dish=False)
    for _ in range(2000):
        if s.round == 4 and s.phase == "research":
            break
        seat = GAME.to_move(s)[0]
        acts = GAME.actions(s, seat)
        quiet = [a for a in acts if a["type"] in QUIET]
        s = GAME.apply(s, seat, quiet[0] if quiet else acts[0])
        assert not GAME.is_over(s), f"the game ended in round {s.round}: {s.over}"
    assert (s.round, s.phase) == (4, "research") and not any(c.elements for c in s.grid)


def test_the_table_may_end_a_game_by_agreement_scored_as_it_stands():
    """Reading 14: not a rule of the game but the table's way out, offered to the host at the table
    (``Game.end_by_agreement``). The end scoring is the rulebook's, on the table as it stands."""
    caitlyn = 1
    s = fresh(3)
    s = put(s, 0, "water")
    s = fill(s, 0, {"H": 2})
    s.scientists[caitlyn].tokens = ["cell:0"]
    s = bench(s, caitlyn, {"C": 3})
    before = GAME.to_dict(s)
    assert GAME.ends_by_agreement
    over = GAME.end_by_agreement(s)
    assert GAME.to_dict(s) == before and not GAME.is_over(s)          # pure, like apply
    assert GAME.is_over(over) and GAME.to_move(over) == [] and "agreed" in over.over
    lines = over.scientists[caitlyn].lines
    assert (lines["elements"], lines["unfinished"]) == (1, 2)
    GAME.check(over)
    with pytest.raises(IllegalAction, match="over"):
        GAME.end_by_agreement(over)


def test_an_end_by_agreement_during_an_explosion_loses_no_element():
    """Elements in the air (an explosion's, not yet moved) land in the tray: every gem is kept."""
    s = fresh(3)
    s = put(s, 5, "methane", flames=1)
    s.flame_supply -= 1
    s = fill(s, 5, {"C": 1, "H": 2})
    s.scientists[2].tokens = ["cell:5"]
    s = at(s, *lab_fire(s, None), {"do": "end_round"})
    s = play(s, (0, PASS), (1, PASS), (2, PASS))
    assert s.agenda[0]["do"] == "scatter"
    tray = sum(s.tray.values())
    over = GAME.end_by_agreement(s)
    GAME.check(over)
    assert sum(over.tray.values()) == tray + 3 and over.agenda == []


@follows("compounded.md", "You score the indicated number of points. Each Flame token on the compound reduces "
         "the score by 2.")
def test_a_burnt_compound_can_cost_points():
    """Ammonia is worth 6 and holds 4 flames: scored with all four, it costs 2 points. The rulebook has no
    floor ("never less than 0" was ours); the marker moves back, never past the start (reading 3)."""
    s = fresh(3)
    s.scientists[0].score, s.scientists[0].lines = 10, {"compounds": 10}
    s = _complete(s, 0, "ammonia", claimant=0, flames=4)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert s.scientists[0].lines["compounds"] == 8 and s.scientists[0].score == 8
    GAME.check(s)
    s = fresh(3)
    s.scientists[0].score, s.scientists[0].lines = 1, {"lab": 1}
    s = _complete(s, 0, "ammonia", claimant=0, flames=4)
    s = play(_lab(s), (0, {"type": "score", "cell": 0}))
    assert s.scientists[0].score == 0 and sum(s.scientists[0].lines.values()) == 0


def test_a_journal_bonus_only_refills_a_journal_held():
    """Reading 17: the Journal belongs to the Study midpoint."""
    s = fresh(3)
    s.scientists[1].tools["journal"] = False
    s.tool_supply["journal"] -= 1
    s = at(s, {"do": "reward", "reward": "journal", "scorer": 0, "seats": [0, 1]}, {"do": "end_round"})
    assert "journal" not in s.scientists[0].tools and s.scientists[1].tools["journal"] is True


@follows("compounded.md",
         "You may complete a compound that someone else has claimed by placing the last element on it. If you do, "
         "you won't get the points or an experiment increase, but you AND the scientist who claimed it get any "
         "bonus reward",
         "Lab Partner cards follow all the same rules as a Compound Card with Lab Fires, explosions, claiming, "
         "abandoning, completed, etc.")
def test_completing_a_claimed_lab_partner_card_gives_the_completer_the_bonus_only():
    """Ada claims one spot of Acetone (16 points, a Pipette); Cy places its last element. The free spot stays
    free: Ada scores it once, Cy gets neither points nor an experiment step, and both take a Pipette
    (reading 13)."""
    ada, cy = 0, 2
    s = fresh(4, lab_partners=True)
    s = put(s, 5, "acetone")
    fill(s, 5, {"H": 6, "O": 1, "C": 2})
    s.scientists[ada].tokens = ["cell:5"]
    s = bench(s, cy, {"C": 1})
    s = at(s, {"do": "research_turn", "seat": cy, "placed": 0, "exchanged": False, "rate": 3, "goggles": False},
           {"do": "end_round"})
    s = play(s, (cy, {"type": "place", "element": "C", "cell": 5}))
    assert s.grid[5].complete and s.grid[5].completed_by == cy
    assert RULES.claimants(s, 5) == [ada] and s.grid[5].marks == []
    s = play(_lab(s), (ada, {"type": "score", "cell": 5}))
    assert GAME.to_move(s) == [ada] and s.agenda[0]["do"] == "advance"
    s = play(s, (ada, {"type": "advance", "track": "discover"}))
    assert s.scientists[ada].lines == {"compounds": 16} and s.scientists[ada].tracks == [1, 0, 0, 0]
    assert s.scientists[cy].score == 0 and s.scientists[cy].tracks == [0, 0, 0, 0]
    assert s.scientists[ada].tools["pipette"] and s.scientists[cy].tools["pipette"]
