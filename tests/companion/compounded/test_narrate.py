"""The Compounded game log in words: each action told from the states before
and after it, with what the agenda then did by itself (points, bonuses, the
refill and its Lab Fires, explosions, a new round's draws, the end), as the
referee calls ``PLUGIN.narrate``; and never a card of the face-down decks."""

from __future__ import annotations

import random
import re
from typing import Any, Iterable

import pytest

from companion.games.compounded import PLUGIN
from companion.games.compounded.narrate import narrate
from companion.games.compounded.telling import ELEMENT_WORDS, gems
from engine.compounded.fires import lab_fire
from engine.compounded.state import total
from tests.engine.compounded.helpers import CARDS, GAME, RULES, at, bench, fill, fresh, gems_from_bag, play, put
from tests.rulebook import follows

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve"]
FIRE = sorted(CARDS.lab_fires)[0]
EXT = {"type": "use_tool", "tool": "fire_extinguisher"}
PASS = {"type": "pass"}
KEEP = {"type": "keep"}
DONE = {"type": "done"}


def told(s, seat, action):
    after = GAME.apply(s, seat, action)
    return list(narrate(GAME, s, seat, action, after, NAMES[:s.players])), after


def draws(before, after) -> list[str]:
    """The Discover draws of a new round, as the log says them."""
    out = []
    for seat in after.order():
        got = {e: after.scientists[seat].bench.get(e, 0) - before.scientists[seat].bench.get(e, 0)
               for e in ELEMENT_WORDS}
        out.append(f"{NAMES[seat]} draws {gems({e: n for e, n in got.items() if n > 0})}.")
    return out


def complete(s, i, card, claimant=None, completer=None, flames=0):
    """A completed compound on space ``i`` (the engine's Lab tests build it so)."""
    s = put(s, i, card, flames=flames)
    s.flame_supply -= flames
    fill(s, i, dict(RULES.compound(card).needs))
    s.grid[i].complete = True
    s.grid[i].completed_by = completer if completer is not None else claimant
    if claimant is not None:
        s.scientists[claimant].tokens = [f"cell:{i}"]
    return s


def lab(s):
    return at(s, {"do": "lab"}, {"do": "end_round"})


def in_lab(s, *tasks):
    """A Lab phase whose agenda is ``tasks`` (then the round's end), run to the first decision."""
    s.phase = "lab"
    return at(s, *tasks, {"do": "end_round"})


def cylinder(s, seat=0):
    """``seat`` holds a Graduated Cylinder and has an experiment to move down."""
    s.scientists[seat].tracks[0] = 1
    return give_tool(s, seat, "graduated_cylinder")


def give_tool(s, seat, tool, filled=True):
    s.scientists[seat].tools[tool] = filled
    s.tool_supply[tool] -= 1
    return s


def test_the_plugin_narrates_its_log():
    assert PLUGIN.narrate is narrate


# --- Study -----------------------------------------------------------------------------
def test_claims_name_the_compound_and_its_place_and_the_research_phase_follows():
    s = fresh(3)
    lines, s = told(s, 0, {"type": "claim", "token": 0, "cell": 7})
    assert lines == ["Ada claimed Water (row 2, column 4)."]
    lines, s = told(s, 1, {"type": "claim", "token": 0, "tool": "pipette"})
    assert lines == ["Bo moved a claim token to the Pipette refresh space: Bo has no Pipette, but it keeps the "
                     "space from the others."]
    lines, s = told(s, 2, KEEP)
    assert lines == ["Cy kept the claim tokens where they are.", "Research phase: scientists place elements in turn."]


def test_a_claim_moved_and_a_tool_refilled_by_its_refresh_space():
    s = fresh(3)
    s.scientists[0].tokens = ["cell:7"]
    lines, s = told(s, 0, {"type": "claim", "token": 0, "cell": 1})
    assert lines == ["Ada moved a claim token from Water (row 2, column 4) to Urea (row 1, column 2)."]
    s.scientists[1].tools["fire_extinguisher"] = False
    lines, s = told(s, 1, {"type": "claim", "token": 0, "tool": "fire_extinguisher"})
    assert lines == ["Bo moved a claim token to the Fire Extinguisher refresh space: Bo's Fire Extinguisher is "
                     "refilled."]


# --- Research ----------------------------------------------------------------------------
def research(players=3):
    s = fresh(players)
    for seat in s.order():
        s = play(s, (seat, KEEP))
    assert s.phase == "research"
    return s


def test_an_exchange_a_placement_and_a_compound_completed_unclaimed():
    s = bench(research(), 0, {"H": 3, "O": 1})
    fill(s, 7, {"H": 2})
    lines, s = told(s, 0, {"type": "exchange", "give": "H", "take": "S"})
    assert lines == ["Ada exchanged 3 Hydrogen for 1 Sulfur from the bag."]
    lines, s = told(s, 0, {"type": "place", "element": "O", "cell": 7})
    assert lines == ["Ada placed Oxygen on Water (row 2, column 4).",
                     "Water (row 2, column 4) is complete: Ada marks it with a claim token from the reserve and "
                     "will score it."]
    lines, s = told(s, 0, DONE)
    assert lines == ["Ada finished placing (1 element)."]


def test_completing_another_scientists_claim_shares_its_bonus():
    """Research 5: "you won't get the points ... but you AND the scientist who claimed it get any bonus"."""
    s = bench(research(), 0, {"O": 1})
    s.scientists[1].tokens = ["cell:7"]
    fill(s, 7, {"H": 2})
    lines, _ = told(s, 0, {"type": "place", "element": "O", "cell": 7})
    assert lines[1] == ("Water (row 2, column 4) is complete: Bo will score it, and Ada shares its bonus "
                        "(Extinguisher Refill).")
    s.scientists[1].tokens = ["bench"]
    s.scientists[0].tokens = ["cell:7"]
    lines, _ = told(s, 0, {"type": "place", "element": "O", "cell": 7})
    assert lines[1] == "Water (row 2, column 4) is complete: Ada will score it in the Lab phase."


@follows("compounded.md",
         "You may complete a compound that someone else has claimed by placing the last element on it. If you do, "
         "you won't get the points or an experiment increase, but you AND the scientist who claimed it get any "
         "bonus reward",
         "Lab Partner cards follow all the same rules as a Compound Card with Lab Fires, explosions, claiming, "
         "abandoning, completed, etc.")
def test_completing_a_claimed_lab_partner_card_is_told_with_who_scores_and_who_shares_the_bonus():
    """Ada holds one of Acetone's two spots; Cy places its last element: Ada will score it, Cy shares the
    Pipette only. In the Lab phase Ada scores it and both take a Pipette; Cy scores nothing."""
    s = put(research(4), 5, "acetone")
    s.options["lab_partners"] = True
    fill(s, 5, {"H": 6, "O": 1, "C": 2})
    s.scientists[0].tokens = ["cell:5"]
    s = bench(s, 2, {"C": 1})
    s = at(s, {"do": "research_turn", "seat": 2, "placed": 0, "exchanged": False, "rate": 3, "goggles": False},
           {"do": "end_round"})
    lines, s = told(s, 2, {"type": "place", "element": "C", "cell": 5})
    assert lines == ["Cy placed Carbon on Acetone (row 2, column 2).",
                     "Acetone (row 2, column 2) is complete: Ada will score it, and Cy shares its bonus (Pipette)."]
    lines, s = told(lab(s), 0, {"type": "score", "cell": 5})
    assert lines == ["Ada scored Acetone (row 2, column 2): 16 points."]
    lines, _ = told(s, 0, {"type": "advance", "track": "lab"})
    assert lines[:5] == ["Ada moved the Lab experiment up 1: Ada now keeps 4 elements on the Workbench.",
                         "Ada scores 1 for the Lab advance: now at 17.",
                         "Acetone (row 2, column 2) is scored and leaves the grid; its bonus: Pipette.",
                         "Ada takes the Pipette.", "Cy takes the Pipette."]
    assert not any(line.startswith("Cy scores") for line in lines)
    s = put(research(4), 5, "acetone")                  # both spots claimed, Cy holding one: both score
    fill(s, 5, {"H": 6, "O": 1, "C": 2})
    s.scientists[0].tokens, s.scientists[2].tokens = ["cell:5"], ["cell:5"]
    s = bench(s, 2, {"C": 1})
    s = at(s, {"do": "research_turn", "seat": 2, "placed": 0, "exchanged": False, "rate": 3, "goggles": False},
           {"do": "end_round"})
    lines, _ = told(s, 2, {"type": "place", "element": "C", "cell": 5})
    assert lines[1] == "Acetone (row 2, column 2) is complete: Ada and Cy will score it in the Lab phase."


def test_the_pipette_and_the_safety_goggles():
    s = give_tool(give_tool(bench(research(), 0, {"H": 2}), 0, "pipette"), 0, "safety_goggles")
    lines, after = told(s, 0, {"type": "use_tool", "tool": "pipette"})
    assert lines == ["Ada used the Pipette: exchanges are 2 for 1 this turn."]
    lines, after = told(s, 0, {"type": "use_tool", "tool": "safety_goggles"})
    assert lines == ["Ada used the Safety Goggles: Ada may place elements from the tray this turn, and exchanges "
                     "none."]
    after.tray = gems_from_bag(after, {"O": 1})
    lines, _ = told(after, 0, {"type": "place", "element": "O", "cell": 7, "from": "tray"})
    assert lines == ["Ada placed Oxygen from the tray on Water (row 2, column 4)."]


def test_the_last_research_turn_runs_the_lab_phase_into_the_next_round():
    s = bench(research(), 0, {"H": 1})
    s = play(s, (0, {"type": "place", "element": "H", "cell": 7}), (0, DONE), (1, DONE))
    lines, after = told(s, 2, DONE)
    assert lines == ["Cy finished placing (0 elements).", "Lab phase: completed compounds are scored.",
                     "Round 2, Discover phase: Bo is the lead scientist.", *draws(s, after)]


# --- Lab: scoring, bonuses, tools ----------------------------------------------------------
def test_scoring_the_points_the_experiment_and_the_bonus():
    """Lab 2-5: points (less 2 a flame), the experiment moved up, the bonus collected, the compound discarded."""
    s = complete(fresh(3), 0, "water", claimant=0)
    s.scientists[0].tools["fire_extinguisher"] = False
    s = lab(s)
    lines, s2 = told(s, 0, {"type": "score", "cell": 0})
    assert lines == ["Ada scored Water (row 1, column 1): 3 points."]
    lines, after = told(s2, 0, {"type": "advance", "track": "lab"})
    refill = f"{RULES.compound(after.grid[0].card).name} (row 1, column 1)"
    assert lines == ["Ada moved the Lab experiment up 1: Ada now keeps 4 elements on the Workbench.",
                     "Ada scores 1 for the Lab advance: now at 4.",
                     "Water (row 1, column 1) is scored and leaves the grid; its bonus: Extinguisher Refill.",
                     "Ada's Fire Extinguisher is refilled.",
                     f"The grid is refilled with {refill}; {len(after.deck)} cards are left to draw.",
                     "Round 2, Discover phase: Bo is the lead scientist.", *draws(s2, after)]


def test_flames_cost_points_and_an_occupied_space_is_skipped():
    """Lab 2 and 3, and Scoring's example: Lilly lands on 30 because Gwen is on 29."""
    s = complete(fresh(3), 0, "methane", claimant=0, flames=1)
    lines, _ = told(lab(s), 0, {"type": "score", "cell": 0})
    assert lines == ["Ada scored Methane (row 1, column 1): 8 points (10, less 2 for 1 flame token)."]
    s = fresh(3)
    s.scientists[0].score, s.scientists[0].lines = 26, {"compounds": 26}
    s.scientists[1].score, s.scientists[1].lines = 29, {"compounds": 29}
    lines, _ = told(lab(complete(s, 0, "water", claimant=0)), 0, {"type": "score", "cell": 0})
    assert lines == ["Ada scored Water (row 1, column 1): 3 points.",
                     "Ada scores 1 for occupied spaces skipped: now at 30."]


def test_reaching_the_end_score_starts_the_last_round():
    s = fresh(3)
    s.scientists[0].score, s.scientists[0].lines = 54, {"compounds": 54}
    lines, _ = told(lab(complete(s, 0, "water", claimant=0)), 0, {"type": "score", "cell": 0})
    assert lines == ["Ada scored Water (row 1, column 1): 3 points.", "Ada reached 56 points: round 2 is the last."]


def test_a_track_top_and_the_study_midpoints_journal():
    s = fresh(3)
    s.scientists[0].tracks = [5, 0, 0, 0]
    s = play(lab(complete(s, 0, "water", claimant=0)), (0, {"type": "score", "cell": 0}))
    lines, _ = told(s, 0, {"type": "advance", "track": "discover"})
    assert lines[:2] == ["Ada moved the Discover experiment up 1: Ada now draws 6 elements in the Discover phase.",
                         "Ada scores 10 for reaching the top of Discover: now at 13."]
    s = fresh(3)
    s.scientists[0].tracks = [0, 2, 0, 0]
    s.scientists[0].tokens = ["bench", "bench"]
    s = play(lab(complete(s, 0, "calcium-oxide", claimant=0)), (0, {"type": "score", "cell": 0}))
    lines, _ = told(s, 0, {"type": "advance", "track": "study"})
    assert lines[:3] == ["Ada moved the Study experiment up 1: Ada now has 2 claim tokens.",
                         "Calcium Oxide (row 1, column 1) is scored and leaves the grid; its bonus: Grant.",
                         "Ada takes the Journal."]


def test_the_journal():
    s = give_tool(bench(complete(fresh(3), 0, "sulfuric-acid", claimant=0), 0, {}), 0, "journal")
    s = play(lab(s), (0, {"type": "score", "cell": 0}))
    lines, _ = told(s, 0, {"type": "use_tool", "tool": "journal", "element": "S"})
    assert lines == ["Ada used the Journal: 1 Sulfur from Sulfuric Acid (row 1, column 1) goes back to Ada's "
                     "Workbench."]
    lines, _ = told(s, 0, PASS)
    assert lines == ["Ada kept the Journal."]


def test_the_grant_goes_to_the_lowest_score():
    """Grant: "a gift to the scientist with the lowest score ... The scientist who scored the compound
    determines which of the tracks is moved up." """
    s = play(lab(complete(fresh(3), 0, "urea", claimant=0)), (0, {"type": "score", "cell": 0}),
             (0, {"type": "advance", "track": "study"}))
    assert s.agenda[0]["do"] == "grant"
    lines, _ = told(s, 0, {"type": "grant", "seat": 1, "track": "research"})
    assert lines[0] == ("Grant: Ada moved Bo's Research experiment up 1 (the lowest score): Bo now places 3 elements "
                        "in the Research phase.")


def test_a_claim_jump():
    s = play(lab(complete(fresh(3), 0, "nitrous-oxide", claimant=0)), (0, {"type": "score", "cell": 0}))
    lines, s = told(s, 0, {"type": "advance", "track": "lab"})
    assert lines[-1] == "Nitrous Oxide (row 1, column 1) is scored and leaves the grid; its bonus: Claim Jump."
    lines, _ = told(s, 0, {"type": "claim", "token": 0, "cell": 7})
    assert lines[0] == "Claim Jump: Ada claimed Water (row 2, column 4)."
    lines, _ = told(s, 0, PASS)
    assert lines[0] == "Ada made no Claim Jump."


def test_the_bunsen_burner():
    s = give_tool(fresh(3), 1, "bunsen_burner")
    s = lab(put(s, 3, "water"))
    lines, _ = told(s, 1, {"type": "use_tool", "tool": "bunsen_burner", "cell": 3})
    assert lines[0] == "Bo used the Bunsen Burner: Water (row 1, column 4) gains a flame token."
    assert not any("burns" in line for line in lines)   # a flame token, not a Lab Fire
    lines, _ = told(s, 1, PASS)
    assert lines[0] == "Bo kept the Bunsen Burner."


def test_the_graduated_cylinder_and_the_journal_given_back():
    """Graduated Cylinder; Journal: "Should an ability reduce your Study level to below the Journal tool
    space, you must return the Journal tool back to the supply." """
    s = give_tool(give_tool(fresh(3), 0, "graduated_cylinder"), 0, "journal")
    s.scientists[0].tracks = [0, 3, 0, 0]
    s.scientists[0].tokens = ["bench", "bench"]
    s = in_lab(s, {"do": "cylinder", "seat": 0})
    lines, _ = told(s, 0, {"type": "use_tool", "tool": "graduated_cylinder", "from": "study", "to": "lab"})
    assert lines[:3] == ["Ada used the Graduated Cylinder: Study down 1, Lab up 1.",
                         "Ada scores 1 for the Lab advance: now at 1.",
                         "Ada returns the Journal to the supply."]
    lines, _ = told(s, 0, PASS)
    assert lines[0] == "Ada kept the Graduated Cylinder."


# --- Lab Fires and explosions --------------------------------------------------------------
def fire_next(s, cell=0):
    """Space ``cell`` empty, and a Lab Fire the next card of the deck."""
    s.discard.append(s.grid[cell].card)
    s.grid[cell] = type(s.grid[cell])()
    s.deck.remove(FIRE)
    s.deck.insert(0, FIRE)
    return s


def test_a_lab_fire_drawn_in_the_refill_and_put_out():
    """Lab Fires: "If any scientist uses a Fire Extinguisher, the Lab Fire is discarded ... a new compound is
    drawn to continue refilling the grid." """
    s = in_lab(cylinder(fire_next(fresh(3))), {"do": "cylinder", "seat": 0}, {"do": "refill"})
    lines, s = told(s, 0, PASS)
    assert lines == ["Ada kept the Graduated Cylinder.", "A Lab Fire is drawn (row 1, column 1)!"]
    lines, s = told(s, 0, PASS)
    assert lines == ["Ada let the Lab Fire burn."]
    lines, after = told(s, 1, EXT)
    assert lines == ["Bo used the Fire Extinguisher: the Lab Fire (row 1, column 1) is discarded.",
                     f"The grid is refilled with {RULES.compound(after.grid[0].card).name} (row 1, column 1); "
                     f"{len(after.deck)} cards are left to draw.",
                     "Round 2, Discover phase: Bo is the lead scientist.", *draws(s, after)]


def test_a_lab_fire_that_burns_and_the_one_of_the_round_before_discarded():
    """"If a Lab Fire is NOT extinguished, all flammable compounds ... gain 1 flame token"; "The Lab Fire
    card remains in the Research Field until the end of the NEXT Lab phase." """
    s = in_lab(put(put(fire_next(fresh(3)), 1, "ammonia"), 2, "water"), {"do": "refill"})
    s = play(s, (0, PASS), (1, PASS))
    lines, after = told(s, 2, PASS)
    caught = [RULES.compound(c.card).name for c in s.grid
              if RULES.compound(c.card) and RULES.compound(c.card).flammable]
    assert "Ammonia" in caught and "Water" not in caught
    assert lines[:2] == ["Cy let the Lab Fire burn.", f"The Lab Fire burns: {', '.join(caught[:-1])} and "
                                                       f"{caught[-1]} gain a flame token."]
    assert after.grid[0].card == FIRE
    s = cylinder(after, after.lead)
    s.round += 1
    s = in_lab(s, {"do": "cylinder", "seat": s.lead}, {"do": "clear_fires"}, {"do": "refill"})
    lines, after = told(s, s.lead, PASS)
    assert lines[:3] == ["Bo kept the Graduated Cylinder.",
                         "The Lab Fire (row 1, column 1) of the round before is discarded.",
                         f"The grid is refilled with {RULES.compound(after.grid[0].card).name} (row 1, column 1); "
                         f"{len(after.deck)} cards are left to draw."]


def test_an_explosion_and_where_its_elements_go():
    """"If a compound does not have any more space for flame tokens, they explode ... If the exploding
    compound is claimed, the scientist with the claim decides where ALL of the elements on it go." """
    s = put(fresh(3), 5, "methane", flames=1)
    s.flame_supply -= 1
    s = fill(s, 5, {"C": 1, "H": 2})
    s = put(put(put(s, 1, "water"), 4, "ethylene"), 6, "ammonia")
    s = put(s, 9, "oxygen")
    s.scientists[2].tokens = ["cell:5"]
    s = in_lab(s, *lab_fire(s, None))
    s = play(s, (0, PASS), (1, PASS))
    lines, s = told(s, 2, PASS)
    assert lines[0] == "Cy let the Lab Fire burn."
    assert lines[1].startswith("The Lab Fire burns: ") and "Ethylene" in lines[1] and "Ammonia" in lines[1]
    assert lines[2] == ("Methane (row 2, column 2) explodes! Cy moves its elements (2 Hydrogen and 1 Carbon) "
                        "to the compounds around it.")
    lines, s = told(s, 2, {"type": "scatter", "element": "H", "cell": 1})
    assert lines == ["Cy moved 1 Hydrogen from the explosion (row 2, column 2) to Water (row 1, column 2)."]


def test_an_explosion_can_complete_a_compound_and_an_element_may_go_to_the_tray():
    """"this can potentially cause a compound to be finished. However, since scoring is over, that compound
    must survive until the next Lab phase!"; an element no neighbour needs goes to the tray."""
    s = fresh(3)
    s.lead = 1
    s = put(s, 0, "hydrogen", flames=1)
    s.flame_supply -= 1
    s = fill(fill(put(put(s, 1, "water"), 4, "oxygen"), 1, {"H": 1, "O": 1}), 0, {"H": 2})
    s = in_lab(s, *lab_fire(s, None))
    s = play(s, (1, PASS), (2, PASS), (0, PASS))
    lines, s = told(s, 1, {"type": "scatter", "element": "H", "cell": 1})
    assert lines == ["Bo moved 1 Hydrogen from the explosion (row 1, column 1) to Water (row 1, column 2).",
                     "Water (row 1, column 2) is complete: it scores in the next Lab phase."]
    action = next(a for a in GAME.actions(s, 1) if a.get("tray"))
    lines, _ = told(s, 1, action)
    assert lines[0] == "Bo moved 1 Hydrogen from the explosion (row 1, column 1) to the tray: no neighbour needs it."


def test_a_compound_with_no_elements_explodes_quietly():
    s = put(fresh(3), 0, "hydrogen", flames=1)
    s.flame_supply -= 1
    s = in_lab(s, *lab_fire(s, None))
    lines, _ = told(play(s, (0, PASS), (1, PASS)), 2, PASS)
    assert "Hydrogen (row 1, column 1) explodes! It held no elements." in lines


def test_a_scored_compounds_lab_fire():
    """Chemical Reactions, Lab Fire: "Some extremely volatile compounds cause a Lab Fire after being scored"."""
    s = play(lab(complete(fresh(3), 0, "hydrogen", claimant=0)), (0, {"type": "score", "cell": 0}))
    lines, s = told(s, 0, {"type": "advance", "track": "lab"})
    assert lines[-1] == "Hydrogen (row 1, column 1) is scored and leaves the grid; its bonus: Lab Fire."
    assert s.agenda[0]["do"] == "extinguish"
    lines, _ = told(s, 0, EXT)
    assert lines[0] == "Ada used the Fire Extinguisher: the Lab Fire is put out."


# --- Discover: trades, the dish, discards --------------------------------------------------
def discover(players=3, **options):
    s = fresh(players, **options)
    s.round = 2
    return at(s, {"do": "discover"}, {"do": "study"}, {"do": "research"})


def test_a_trade_from_offer_to_answer():
    s = discover()
    s = bench(bench(bench(s, 0, {"H": 2}), 1, {"S": 1}), 2, {"O": 1})
    # Writing an offer is seen on the phones' panels, not in the log: the offer is told whole.
    lines, s = told(s, 0, {"type": "trade_with", "seat": 1})
    assert lines == []
    lines, s = told(s, 0, {"type": "offer_give", "element": "H"})
    assert lines == []
    s = play(s, (0, {"type": "offer_give", "element": "H"}))
    lines, s = told(s, 0, {"type": "offer_ask", "element": "S"})
    assert lines == []
    lines, s = told(s, 0, {"type": "propose"})
    assert lines == ["Ada proposed a trade to Bo: 2 Hydrogen for 1 Sulfur."]
    lines, declined = told(s, 1, {"type": "decline", "seat": 0})
    assert lines == ["Bo declined Ada's offer."]
    lines, s = told(s, 1, {"type": "accept", "seat": 0})
    assert lines == ["Bo accepted Ada's trade: Ada's 2 Hydrogen for Bo's 1 Sulfur."]
    lines, s = told(s, 2, {"type": "trade_with", "seat": 0})
    lines, _ = told(s, 2, {"type": "cancel_offer"})
    assert lines == []                                     # dropped before anyone saw it
    s = play(s, (2, {"type": "offer_give", "element": "O"}), (2, {"type": "offer_ask", "element": "S"}),
             (2, {"type": "propose"}))
    lines, s = told(s, 2, {"type": "cancel_offer"})
    assert lines == ["Cy withdrew the offer to Ada."]
    s = play(s, (0, {"type": "done_trading"}), (1, {"type": "done_trading"}))
    lines, _ = told(s, 2, {"type": "done_trading"})
    assert lines == ["Cy finished trading.", "Study phase: scientists claim compounds in turn."]


def test_discards_down_to_the_lab_number():
    s = bench(bench(bench(discover(), 0, {}), 1, {"H": 2, "O": 2}), 2, {})
    s = play(s, (0, {"type": "done_trading"}), (1, {"type": "done_trading"}), (2, {"type": "done_trading"}))
    assert s.agenda[0]["do"] == "discard" and GAME.to_move(s) == [1]
    lines, _ = told(s, 1, {"type": "discard", "element": "O"})
    assert lines == ["Bo discarded 1 Oxygen to the Lead Scientist tray.",
                     "Study phase: scientists claim compounds in turn."]


def test_the_evaporating_trade_dish():
    """2 Player Games: "trade 1 for 1 for elements on the trade dish ... If at any time the Evaporating dish
    shows 3 of the same element, the elements are all discarded and 4 new elements are drawn"."""
    s = discover(2)
    for e, n in s.dish.items():
        s.bag[e] = s.bag.get(e, 0) + n
    s.dish = gems_from_bag(s, {"H": 2, "O": 2})
    s = bench(s, 0, {"H": 1})
    lines, after = told(s, 0, {"type": "dish_trade", "give": "H", "take": "O"})
    assert lines == ["Ada traded 1 Hydrogen for the dish's Oxygen.",
                     "The dish shows three of a kind: its elements evaporate to the tray and new ones are drawn: "
                     f"{gems(after.dish)}."]
    assert total(after.dish) == 4
    lines, _ = told(s, 0, PASS)
    assert lines == ["Ada passed: no more dish trades this phase."]


# --- the end -----------------------------------------------------------------------------------
@follows("compounded.md",
         "After ALL compounds have been scored, the grid is refilled entirely from the compound deck.",
         "Any elements remaining on a scientist's workbench are worth 1 point for every 2 elements. Any unfinished "
         "compounds they have claimed, are worth 1 point for each element on them")
def test_the_last_round_ends_with_the_refill_the_final_scoring_and_the_winner():
    """End Game: "There is 1 more round": its Lab phase refills the grid like every round's, then the
    final scoring and the winner."""
    s = fresh(3)
    s.final_round = 1
    s = complete(s, 0, "water", claimant=0)
    s = bench(bench(s, 0, {}), 1, {"C": 3})
    s = bench(s, 2, {})
    s = fill(put(s, 7, "methane"), 7, {"H": 2})
    s.scientists[2].tokens = ["cell:7"]
    s.deck.remove("ammonia")
    s.deck.insert(0, "ammonia")
    s = play(lab(s), (0, {"type": "score", "cell": 0}))
    lines, after = told(s, 0, {"type": "advance", "track": "lab"})
    assert lines[-4:] == [f"The grid is refilled with Ammonia (row 1, column 1); {len(after.deck)} cards are left to "
                          "draw.",
                          "Final scoring: Bo scores 1 for elements left: now at 1.",
                          "Final scoring: Cy scores 2 for claimed unfinished compounds: now at 2.",
                          "The game is over: the last round, after someone reached the end score, is over. "
                          "Ada wins with 4 points."]


@follows("compounded.md", "Deal with any existing Lab Fires, if any.",
         "If the exploding compound is claimed, the scientist with the claim decides where ALL of the elements on "
         "it go.")
def test_a_lab_fire_in_the_last_round_is_told_before_the_end():
    """A Lab Fire drawn in the last round's refill is offered to the Fire Extinguishers and, let burn,
    explodes Cy's claimed Methane: the log tells the fire, the explosion and Cy's moves, then the end, in
    which Cy's exploded work no longer counts."""
    s = fresh(3)
    s.final_round = 1
    s = complete(s, 0, "water", claimant=0)
    s = put(s, 5, "methane", flames=1)
    s.flame_supply -= 1
    s = fill(s, 5, {"C": 1, "H": 2})
    s.scientists[2].tokens = ["cell:5"]
    s.deck.remove(FIRE)
    s.deck.insert(0, FIRE)
    s = play(lab(s), (0, {"type": "score", "cell": 0}))
    lines, s = told(s, 0, {"type": "advance", "track": "lab"})
    assert lines[-1] == "A Lab Fire is drawn (row 1, column 1)!" and not GAME.is_over(s)
    s = play(s, (0, PASS), (1, PASS))
    lines, s = told(s, 2, PASS)
    assert lines[0] == "Cy let the Lab Fire burn."
    assert ("Methane (row 2, column 2) explodes! Cy moves its elements (2 Hydrogen and 1 Carbon) to the "
            "compounds around it.") in lines
    told_all = []
    while not GAME.is_over(s):
        assert s.agenda[0]["do"] == "scatter"
        lines, s = told(s, 2, GAME.actions(s, 2)[0])
        told_all += lines
    assert told_all[0].startswith("Cy moved 1 ")
    assert told_all[-1].startswith("The game is over: the last round, after someone reached the end score, is over.")
    assert not any("Cy scores" in line and "unfinished" in line for line in told_all)


def test_the_game_ends_when_the_grid_cannot_be_refilled():
    """"The game ends immediately if the compound grid cannot be fully refilled." """
    s = cylinder(fresh(3))
    s.discard += s.deck
    s.deck = []
    s.discard.append(s.grid[0].card)
    s.grid[0] = type(s.grid[0])()
    s = in_lab(s, {"do": "cylinder", "seat": 0}, {"do": "refill"})
    lines, _ = told(s, 0, PASS)
    assert lines[-1].startswith("The game is over: the compound grid cannot be fully refilled. ")


# --- whole games: every action in words, no deck card named ---------------------------------
def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _spans(name: str, line: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line)]


def untold(line: str, hidden: set[str], seen: set[str]) -> list[str]:
    """Hidden names ``line`` says, unless only inside a name the viewer may see."""
    covers = [span for name in seen for span in _spans(name, line)]
    return [name for name in hidden for a, b in _spans(name, line)
            if not any(c <= a and b <= d and d - c > b - a for c, d in covers)]


CARD_NAMES = {c.id: c.name for c in CARDS.compounds.values()}
PUBLIC_WORDS = ({*ELEMENT_WORDS.values()} | {t.name for t in CARDS.tools.values()}
                | {r.name for r in CARDS.reactions.values()} | {t.name for t in RULES.tracks.values()})
"""Words every Compounded player knows, whatever lies in the decks: a compound named like an element
(Hydrogen) is read as the element."""


def check_no_deck_card_told(before, after, lines) -> None:
    """The view hides only the decks (the same for every seat and a watcher):
    no line names a card that lies in a deck both before and after the action."""
    views = [GAME.view(before, None), GAME.view(after, None)]
    assert all(GAME.view(before, seat) | {"viewer": None} == views[0] for seat in range(before.players))
    shown = set().union(*(set(_strings(v)) for v in views))
    seen = {CARD_NAMES[c] for c in CARD_NAMES if c in shown} | PUBLIC_WORDS
    decks = set(before.deck) | set(before.lab_partner_deck) | set(after.deck) | set(after.lab_partner_deck)
    hidden = {CARD_NAMES[c] for c in decks if c not in shown and c in CARD_NAMES} - seen
    for line in lines:
        said = untold(line, hidden, seen)
        assert not said, f"{line!r} names {said}, still face down in a deck"


def test_the_secret_check_reads_a_deck_card_and_spares_what_is_seen():
    hidden, seen = {"Urea", "Methane", "Hydrogen"} - PUBLIC_WORDS, {"Methanethiol"} | PUBLIC_WORDS
    assert untold("The next card is Urea.", hidden, seen) == ["Urea"]
    assert untold("Ada claimed Methanethiol (row 1, column 1).", hidden, seen) == []
    assert untold("Ada draws 2 Hydrogen.", hidden, seen) == []


# Seeds whose random game ends: about half of random Lab Partners games stall (elements stuck on compounds
# nobody can finish, which no rule ends: reading 14), so a seed is chosen that reaches an end.
@pytest.mark.parametrize("players,seed,options", [(2, 1, None), (3, 2, None), (4, 3, None), (5, 4, None),
                                                  (3, 5, {"no_trade": True}), (4, 8, {"lab_partners": True}),
                                                  (5, 14, {"lab_partners": True, "lead": 2})])
def test_random_games_are_told_in_words_and_name_no_deck_card(players, seed, options):
    """Whole seeded games: every action's first line names its scientist
    (but the writing of an offer, told once it is proposed),
    every line reads as a sentence, no line falls back to the action's raw
    type, and no line names a card still face down in a deck."""
    rng = random.Random(seed)
    s = GAME.setup(players, seed, options)
    kinds: set[tuple[str, str]] = set()
    while not GAME.is_over(s):
        seat = rng.choice(GAME.to_move(s))
        actions = GAME.actions(s, seat)
        quiet = [a for a in actions if a["type"] not in ("trade_with", "offer_give", "offer_ask", "use_tool")]
        action = rng.choice(actions if rng.random() < 0.3 or not quiet else quiet)
        if s.agenda[0]["do"] == "extinguish" and rng.random() < 0.7:
            action = PASS  # let fires burn: flames and explosions are told too
        lines, after = told(s, seat, action)
        kinds.add((s.agenda[0]["do"], action["type"]))
        writing = action["type"] in ("trade_with", "offer_give", "offer_ask") or (
            action["type"] == "cancel_offer" and not next(o for o in s.agenda[0]["offers"] if o["from"] == seat)["proposed"])
        if writing:   # an offer being written is told once proposed
            assert lines == [], lines
            s = after
            continue
        assert lines and NAMES[seat] in lines[0], (action, lines)
        assert all(line.endswith((".", "!")) and "None" not in line and f": {action['type']}." not in line
                   for line in lines), lines
        check_no_deck_card_told(s, after, lines)
        s = after
    assert ("research_turn", "place") in kinds and ("score_turn", "score") in kinds


def test_a_claim_on_the_journal_that_ends_the_round_tells_the_new_round():
    """Found by a random game (two players, seed 2 before an exchange could
    take the element given; now seed 66): the last claim of a round, a
    token put on the Journal's slot, starts the next round. Its
    draws are told as draws (only the Journal used as a tool takes an
    element back, which is not one)."""
    rng = random.Random(66)
    s = GAME.setup(2, 66, {})
    while True:
        seat = rng.choice(list(GAME.to_move(s)))
        action = rng.choice(list(GAME.actions(s, seat)))
        if action == {"type": "claim", "token": 0, "tool": "journal"} and GAME.apply(s, seat, action).round > s.round:
            break
        s = GAME.apply(s, seat, action)
    lines, after = told(s, seat, action)
    assert f"Round {after.round}, Discover phase: {NAMES[after.lead]} is the lead scientist." in lines
    assert lines[-2:] == draws(s, after)
