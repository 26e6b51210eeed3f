"""Lab Notes' bots play toward the face-up notecards, read from the cards
(``engine/labnotes/notecard_reach.py``): evaluation, not a rule."""

from __future__ import annotations

import pytest

from engine.bots.levels import Budget, play_greedy
from engine.labnotes.cards import LabNotesData
from engine.labnotes.game import LabNotes
from engine.labnotes.notecard_reach import reach
from engine.labnotes.state import sheet_from_text
from engine.rng import Rng
from labkit.cardsets import NamedGame


@pytest.fixture(scope="module")
def game():
    return NamedGame("labnotes")()


def select_phase(game, line, dice):
    """Two players, seat 0 to pick first from a pool showing ``dice``; seat
    0's sheet holds NH2 (an N with two H, drawn on earlier turns)."""
    s = game.setup(2, seed=3)
    s = game.apply(s, s.lead, {"type": "roll"})
    s.lead, s.picks = 0, 0
    pool = [d for d in s.dice if d.place == "pool"]
    for d, face in zip(pool, dice):
        d.face = face
    s.line = list(line)
    s.seats[0].spaces, s.seats[0].bonds = sheet_from_text("C3:N C4:H B3:H C3-C4 B3-C3")
    return s, pool


def taken(game, s, pool) -> str:
    action = play_greedy(game, s, 0, Rng(1), Budget())
    assert action["type"] == "take_die"
    return s.dice[action["die"]].face


def test_a_bot_takes_the_die_that_completes_a_face_up_notecard(game):
    """NH2 on the sheet and Ammonia (NH3) face up at 6 points: the H that
    completes it beats an O (which takes more bonds, the evaluation's
    reason to prefer it with no card in sight). The old evaluation, blind
    to notecards, took the O."""
    s, pool = select_phase(game, ["ammonia", "methane"], ["H", "O", "O"])
    assert taken(game, s, pool) == "H"
    s, pool = select_phase(game, ["methane", "acetylene"], ["H", "O", "O"])  # no card an N starts
    assert taken(game, s, pool) == "O"


def test_a_group_is_worth_more_as_it_nears_a_card_and_nothing_once_it_cannot_be_one(game):
    s = game.setup(2, seed=1)
    s.line = ["ammonia", "methane"]
    sh = s.seats[0]
    worth = []
    for text in ("C3:N C4:H C3-C4", "C3:N C4:H B3:H C3-C4 B3-C3"):
        sh.spaces, sh.bonds = sheet_from_text(text)
        worth.append(reach(game.rules, s, sh))
    assert 0 < worth[0] < worth[1] < 6
    sh.spaces, sh.bonds = sheet_from_text("C3:N C4:H B3:H C3-C4 B3-C3 C2:x B2:x D2:x D3:x B4:x C5:x D4:x")
    assert reach(game.rules, s, sh) == 0.0  # no empty space beside the N for the third H
    sh.spaces, sh.bonds = sheet_from_text("C3:N C4:O C3=C4")
    assert reach(game.rules, s, sh) == 0.0  # ammonia has no double bond, methane no N


def test_the_cards_data_decide_what_a_bot_chases():
    """A rulebook-free card set: the same sheet is worth a card's points
    only when the card's compound is one it can grow into, whatever its id."""
    base = NamedGame("labnotes")().data
    rows = [c.model_copy(update={"structure": "NN", "formula": "N2H4"}) if c.id == "ammonia" else c
            for c in base.notecards]
    changed = LabNotes(LabNotesData(dice=base.dice, sheet=base.sheet, tools=base.tools, notecards=rows))
    s = changed.setup(2, seed=1)
    s.line = ["ammonia", "methane"]
    s.seats[0].spaces, s.seats[0].bonds = sheet_from_text("C3:N C4:H B3:H C3-C4 B3-C3")
    original = NamedGame("labnotes")()
    as_ammonia = reach(original.rules, s, s.seats[0])
    as_hydrazine = reach(changed.rules, s, s.seats[0])
    assert as_hydrazine < as_ammonia  # six atoms to reach instead of four
    assert as_hydrazine > 0
