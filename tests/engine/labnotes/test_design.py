"""The design doc's readings of what the rulebook leaves open
(docs/design/labnotes.md, "Rules the rulebook leaves open"): each numbered
rule has a test that names it. The rules not tested elsewhere are here, and
the last test checks that none is forgotten."""

from __future__ import annotations

import re

import pytest

from engine.core import IllegalAction
from engine.labnotes import LabNotes
from engine.labnotes.setup import choose_tools
from engine.rng import Rng
from tests.engine.conftest import FINISH, arrange_cards, notating, run, tool, trash
from tests.rulebook import follows

METHANE = "B2:C B1:H B3:H A2:H C2:H B2-B1 B2-B3 B2-A2 B2-C2"
CLAIM_METHANE = {"type": "claim", "notecard": "methane"}


def _trash_all_and_finish(game, s):
    steps = [(i, trash(e)) for i in range(s.players) for e, _ in s.seats[i].pending]
    return run(game, s, *steps, *[(i, FINISH) for i in range(s.players)])


def test_design_rule_12_no_card_is_revealed_when_deck_and_discard_are_empty(game):
    """Design rule 12: "If both are empty, no card is revealed." (Possible only
    with a small card set: here two notecards.)"""
    cards = [c for c in game.data.notecards if c.id in ("methane", "ammonia")]
    small = LabNotes(game.data.model_copy(update={"notecards": cards}))
    s = notating(small, ["H", "O"], "O", {0: METHANE})
    assert sorted(s.line) == ["ammonia", "methane"] and s.deck == [] == s.discard
    s = _trash_all_and_finish(small, small.apply(s, 0, CLAIM_METHANE))
    assert sorted(s.line) == ["ammonia", "methane"] and s.phase == "roll"
    small.check(s)


def test_design_rule_16_setup_flips_two_notecards_the_second_next_to_the_deck(game):
    """Design rule 16: "the second sits next to the deck (6 points), the first beside it (3)"."""
    for seed in range(5):
        rng = Rng(seed)
        choose_tools(game.rules, rng, {})
        deck = list(game.rules.card_ids)
        rng.shuffle(deck)
        first, second = [c for c in deck if c not in game.rules.lab_fires][:2]
        assert game.setup(2, seed).line == [second, first]


def test_design_rule_17_the_lead_player_is_the_first_seat_unless_named(game):
    """Design rule 17: the first seat leads "unless the table names another
    (setup option lead); after each turn it passes left"."""
    assert game.setup(3, 1).lead == 0
    s = game.setup(3, 1, {"lead": 2})
    assert game.to_move(s) == [2] and game.actions(s, 0) == []
    with pytest.raises(IllegalAction, match="lead player must be a seat from 0 to 2"):
        game.setup(3, 1, {"lead": 3})
    s = notating(game, ["H", "O", "O"], "O")
    s.lead = 2
    assert _trash_all_and_finish(game, s).lead == 0


def test_design_rule_18_a_bunsen_burner_comes_first(game):
    """Design rule 18: "the burn, the choice of element and its notation come
    before anything else that player does"."""
    s = notating(game, ["burner", "H"], "O", {0: METHANE})
    arrange_cards(game, s, line=["methane", "ammonia"])
    for action in (CLAIM_METHANE, trash("O"), FINISH):
        with pytest.raises(IllegalAction, match="Burn a space first"):
            game.apply(s, 0, action)


def test_design_rule_20_no_retort_flask_when_the_community_die_is_the_burner(game):
    """Design rule 20: "When the Community die is the Bunsen Burner there is no
    element to ignore, so the flask cannot be used, and the unattended burner's
    Lab Fire still comes." """
    ring = "A2:C A1:O B1:O A3:O A1-A2 A1-B1 A2-B1 A2=A3"
    s = notating(game, ["C", "H", "O"], "burner", {0: ring})
    assert tool("retort-flask") not in game.actions(s, 0)
    with pytest.raises(IllegalAction, match="Community element still to notate"):
        game.apply(s, 0, tool("retort-flask"))
    assert _trash_all_and_finish(game, s).phase == "fire"


def test_design_rule_24_a_fire_left_in_the_line_does_not_burn_again(game):
    """Design rule 24: "a fire left in the line from an earlier turn does not burn again"."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    arrange_cards(game, s, line=["lab-fire-2", "methane"], deck_top=["ammonia"])
    s = _trash_all_and_finish(game, game.apply(s, 0, CLAIM_METHANE))
    assert s.line == ["ammonia", "lab-fire-2", "methane"] and s.fires == 0 and s.phase == "roll"


@follows("lab-notes.md", "They also unlock additional tool usage for the first 4 Notecards they complete.")
def test_design_rule_29_the_note_sheets_numbers_are_ours(game):
    """Design rule 29: the rulebook counts the first 4 notecards and nothing else of the sheet; the data
    holds our 5 trash cans, 10 Tools spaces (2 open, 2 more for each of 4 notecards) and 8 notecard boxes,
    and the rules read them from there."""
    sheet = game.data.sheet
    assert (sheet.trash_cans, sheet.tools_track.open, sheet.tools_track.opened_by_notecard, sheet.notecard_boxes) \
        == (5, 2, [2, 2, 2, 2], 8)
    assert (game.rules.trash_cans, game.rules.boxes) == (sheet.trash_cans, sheet.notecard_boxes)


@follows("lab-notes.md", "Centrifuge (Liquid; compound Water - H2O): Before you select your die, reroll any "
         "number of available dice up to 2 times.", "Fire Suppressant (Gas; compound Dinitrogen - N2): Ignore a Lab Fire.")
def test_design_rule_30_six_tools_three_of_them_the_rulebooks(game):
    """Design rule 30: the rulebook's three tools with its words, three of ours, two of each state; the
    icons (no count in the rulebook) 2 for the Centrifuge, 1 for the others."""
    tools = {t.id: t for t in game.data.tools}
    assert len(tools) == 6 and sorted(t.state for t in tools.values()) == ["gas", "gas", "liquid", "liquid",
                                                                            "solid", "solid"]
    assert {t.id for t in tools.values() if t.first_game} == {"centrifuge", "retort-flask", "fire-suppressant"}
    assert {i: t.icons for i, t in tools.items()} == {"centrifuge": 2, "retort-flask": 1, "fire-suppressant": 1,
                                                       "pipette": 1, "mortar-and-pestle": 1, "fume-hood": 1}


def test_every_design_rule_has_a_test_that_names_it(root):
    doc = (root / "docs" / "design" / "labnotes.md").read_text(encoding="utf-8")
    section = doc.split("## Rules the rulebook leaves open", 1)[1].split("\n## ", 1)[0]
    numbered = {int(n) for n in re.findall(r"^(\d+)\. \*\*", section, re.M)}
    assert numbered == set(range(1, max(numbered) + 1))
    cited: set[int] = set()
    for path in (root / "tests" / "engine" / "labnotes").glob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        for group in re.findall(r"[Dd]esign rules? (\d+(?:(?:,|\s+and)\s*\d+)*)", text):
            cited.update(int(n) for n in re.findall(r"\d+", group))
    assert sorted(numbered - cited) == []
