"""The Lab Notes game log in words: each action told from the states before
and after it, as the referee calls ``PLUGIN.narrate``."""

from __future__ import annotations

import random

import pytest

from companion.games.labnotes import PLUGIN
from companion.games.labnotes.narrate import narrate
from engine.labnotes.state import parse_space_label as sp
from tests.engine.conftest import (DESIGNED, FINISH, arrange_cards, bond, burn, notate, notating, tool,
                                   trash)

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve"]
METHANE = "B2:C B1:H B3:H A2:H C2:H B2-B1 B2-B3 B2-A2 B2-C2"


@pytest.fixture(scope="module")
def game():
    from tests.engine.conftest import _GAME

    return _GAME


def told(game, state, seat, action):
    after = game.apply(state, seat, action)
    return narrate(game, state, seat, action, after, NAMES[:state.players]), after


def test_the_plugin_narrates_its_log():
    assert PLUGIN.narrate is narrate


def test_taking_a_die_names_its_colour_and_face(game):
    s = game.setup(3, 4, {"first_game": True})
    lines, s = told(game, s, 0, {"type": "roll"})
    faces = ", ".join(f"{d.colour} {'Bunsen Burner' if d.face == 'burner' else d.face}"
                      for d in s.dice if d.place == "pool")
    assert lines == [f"Ada rolled the dice: {faces}."]
    white = next(i for i, d in enumerate(s.dice) if d.place == "pool" and d.colour == "white")
    lines, s = told(game, s, 0, {"type": "take_die", "die": white})
    assert lines == [f"Ada took the white die {s.dice[white].face}."]
    lines, s = told(game, s, 1, {"type": "take_die", "die": next(i for i, d in enumerate(s.dice) if d.place == "pool")})
    lines, s = told(game, s, 2, {"type": "take_die", "die": next(i for i, d in enumerate(s.dice) if d.place == "pool")})
    community = s.community()
    assert lines[-1].startswith(f"The {community.colour} ") and "is the Community die" in lines[-1]


def test_notating_and_bonding_name_the_spaces(game):
    s = notating(game, ["H", "C", "O"], "C")
    lines, s = told(game, s, 1, notate("C", "B3"))
    assert lines == ["Bo notated C on B3."]
    lines, s = told(game, s, 1, notate("C", "B4"))
    lines, s = told(game, s, 1, bond("B3", "B4"))
    assert lines == ["Bo drew a single bond B3-B4."]
    lines, s = told(game, s, 1, bond("B4", "B3"))
    assert lines == ["Bo drew a double bond B3=B4."]
    lines, s = told(game, s, 1, bond("B3", "B4"))
    assert lines == ["Bo drew a triple bond B3\u2261B4."]


def test_building_a_tools_compound_is_told(game):
    s = notating(game, ["H", "H"], "O", {0: "A1:H"})
    s = game.apply(s, 0, notate("O", "A2"))
    s = game.apply(s, 0, notate("H", "A3"))
    s = game.apply(s, 0, bond("A1", "A2"))
    lines, s = told(game, s, 0, bond("A2", "A3"))
    assert lines == ["Ada drew a single bond A2-A3.", "Ada built Water and unlocked the Centrifuge."]


def test_a_claim_says_its_points_and_the_tools_it_opens(game):
    s = notating(game, ["H", "O", "O"], "H", {2: METHANE.replace(" C2:H", "").replace(" B2-C2", "")})
    arrange_cards(game, s, line=["methane", "ammonia"])
    s = game.apply(s, 2, notate("H", "C2"))
    s = game.apply(s, 2, bond("B2", "C2"))
    lines, s = told(game, s, 2, {"type": "claim", "notecard": "methane"})
    assert lines == ["Cy claimed Methane for 6 points.", "Cy's tools track opens 2 more spaces."]


def test_a_lab_fire_is_told_to_everyone_and_each_burn_names_its_cause(game):
    s = notating(game, ["H", "O"], "burner")
    for seat, action in ((0, notate("H", "A1")), (1, notate("O", "A1")), (0, FINISH)):
        s = game.apply(s, seat, action)
    lines, s = told(game, s, 1, FINISH)
    assert lines == ["Bo finished notating.", "The Bunsen Burner was left unattended: it is a Lab Fire.",
                     "Lab Fire: everyone burns 2 spaces (or uses the Fire Suppressant)."]
    lines, s = told(game, s, 0, burn("F1"))
    assert lines == ["Ada burned F1 (unattended Bunsen Burner)."]
    for seat, label in ((0, "F2"), (1, "F1")):
        s = game.apply(s, seat, burn(label))
    lines, s = told(game, s, 1, burn("F2"))
    assert lines == ["Bo burned F2 (unattended Bunsen Burner).", "Round 2: Bo leads and rolls the dice."]


def test_a_full_trash_and_a_revealed_notecard_are_told(game):
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    fresh = next(c for c in game.rules.card_ids if c not in game.rules.lab_fires and c not in ("methane", "ammonia"))
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=[fresh])
    s.seats[1].trash = "HHHH"
    s = game.apply(s, 0, {"type": "claim", "notecard": "methane"})
    lines, s = told(game, s, 1, trash("O"))
    assert lines == ["Bo trashed O.", "Bo's trash is full: the Bunsen Burner burns a space."]
    lines, s = told(game, s, 1, burn("F6"))
    assert lines == ["Bo burned F6 (full trash)."]
    lines, s = told(game, s, 1, {"type": "choose_element", "element": "N"})
    assert lines == ["Bo chose Nitrogen from the Bunsen Burner."]
    for seat, action in ((1, notate("N", "A1")), (1, notate("O", "A2")), (1, FINISH), (0, trash("H")),
                         (0, trash("O"))):
        s = game.apply(s, seat, action)
    lines, s = told(game, s, 0, FINISH)
    assert lines[:2] == ["Ada finished notating.",
                         f"{game.rules.cards[fresh].name} is revealed in the notecard line (6 points)."]


def test_the_designed_tools_are_told(game):
    s = notating(game, ["C", "O"], "O", {0: "A1:O A2:O A1-A2 D1:O"}, tools=DESIGNED)
    s.seats[0].trash = "H"
    s.seats[0].tools += ("mortar-and-pestle", "fume-hood")
    lines, s = told(game, s, 0, tool("mortar-and-pestle", element="C"))
    assert lines == ["Ada ground C to N with the Mortar and Pestle."]
    lines, s = told(game, s, 0, tool("fume-hood"))
    assert lines == ["Ada used the Fume Hood: the last trash can (H) is erased."]


def test_the_end_names_the_burned_lone_elements_and_the_winner(game):
    from tests.engine.labnotes.scene import with_burns

    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2"})
    with_burns(s, 0, s.seats[0].spaces[:2] + "x" * 33 + ".")
    for seat, action in ((0, notate("H", "F6")), (0, trash("O")), (0, FINISH), (1, notate("O", "C3")),
                         (1, notate("O", "C5"))):
        s = game.apply(s, seat, action)
    lines, s = told(game, s, 1, FINISH)
    result = game.result(s)
    winner = NAMES[result.winners[0]] if len(result.winners) == 1 else None
    assert lines[:3] == ["Bo finished notating.", "Ada's elements with no bond burn: F6.",
                         "Bo's elements with no bond burn: C3, C5."]
    assert lines[3].startswith("The game is over: ") and (winner is None or winner in lines[3])
    assert s.seats[1].spaces[sp("C3")] == "x"


def test_every_action_of_random_games_is_told_in_words(game):
    """Whole games, every tool set: each action gives at least one sentence
    naming its player, and never a placeholder."""
    for seed in range(9):
        rng = random.Random(seed)
        options = [{"first_game": True}, {"tools": list(DESIGNED)}, {}][seed % 3]
        s = game.setup(2 + seed % 3, seed, options)
        while not game.is_over(s):
            seat = rng.choice(game.to_move(s))
            actions = game.actions(s, seat)
            rich = [a for a in actions if a["type"] in ("bond", "claim", "use_tool", "reroll")]
            action = rng.choice(rich) if rich and rng.random() < 0.6 else rng.choice(actions)
            lines, s = told(game, s, seat, action)
            assert lines and lines[0].startswith(NAMES[seat] + " "), (action, lines)
            assert all(line.endswith((".", "!")) and "None" not in line and "?" not in line for line in lines)


def test_the_first_game_tools_are_told(game):
    s = notating(game, ["H", "O"], "O", {0: "B2:C A2:O A3:O B3:O B2-A2 B2-A3 A2-A3 B2=B3"})
    assert "retort-flask" in s.seats[0].tools
    lines, s = told(game, s, 0, tool("retort-flask"))
    assert lines == ["Ada used the Retort Flask: H again instead of the Community die."]


def test_the_words_examples_hold():
    import doctest

    from companion.games.labnotes import words

    assert doctest.testmod(words).failed == 0


def test_each_burn_is_told_with_the_cause_the_score_breakdown_gives_it(game):
    """Found at a table: the log said "Cy burned B3 (no bond at the end)"
    where the breakdown said an unattended Bunsen Burner: the burn that
    ended the game was told with the cause of the end's own burns."""
    from companion.games.labnotes.words import SHORT

    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = game.setup(3, seed)
        while not game.is_over(s):
            seat = rng.choice(game.to_move(s))
            action = rng.choice(game.actions(s, seat))
            lines, after = told(game, s, seat, action)
            if action["type"] == "burn":
                (burn,) = [b for b in after.seats[seat].burned[len(s.seats[seat].burned):]
                           if b.space == action["space"]]
                assert f"({SHORT[burn.cause]})" in lines[0], (seed, lines, burn)
                checked += 1
            s = after
    assert checked > 100
