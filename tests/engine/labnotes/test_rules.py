"""Lab Notes, rule by rule. Each test names the rule it checks and quotes the
rulebook (/work/shared/rules/lab-notes.md) or the design doc's numbered
reading (docs/design/labnotes.md, "Rules the rulebook leaves open")."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.labnotes.setup import choose_tools
from engine.labnotes.state import parse_space_label as sp
from tests.engine.conftest import (DESIGNED, FINISH, FIRST_GAME, arrange_cards, bond, burn, notate, notating,
                                   run, tool, trash)
from tests.engine.labnotes.scene import with_burns

ROLL = {"type": "roll"}
METHANE = "B2:C B1:H B3:H A2:H C2:H B2-B1 B2-B3 B2-A2 B2-C2"
WATER = "A1:H A2:O A3:H A1-A2 A2-A3"
DINITROGEN = "E1:N E2:N E1#E2"


def take(i: int) -> dict:
    return {"type": "take_die", "die": i}


def pool(s) -> list[int]:
    return [i for i, d in enumerate(s.dice) if d.place == "pool"]


def finish_all(game, s, seats=None):
    for seat in seats if seats is not None else range(s.players):
        s = game.apply(s, seat, FINISH)
    return s


# --- Setup: dice -------------------------------------------------------------------
@pytest.mark.parametrize("players,white,yellow", [(2, 2, 1), (3, 2, 2), (4, 3, 2), (5, 3, 3)])
def test_dice_per_player_count(game, players, white, yellow):
    """Setup 1: "2 players - 2 white dice, 1 yellow die. 3 players - 2 white
    dice, 2 yellow dice. 4 players - 3 white dice, 2 yellow dice. 5 players -
    3 white dice, 3 yellow dice." """
    s = game.setup(players, 1)
    cup = [d.colour for d in s.dice if d.place == "cup"]
    assert (cup.count("white"), cup.count("yellow")) == (white, yellow)
    assert len(s.dice) == 6 and sum(d.place == "box" for d in s.dice) == 6 - players - 1


def test_dice_faces_are_the_rulebooks(game):
    """Setup 1: "White dice faces: Hydrogen, Hydrogen, Hydrogen, Oxygen,
    Oxygen, Nitrogen. Yellow dice faces: Carbon, Carbon, Bunsen Burner,
    Nitrogen, Oxygen, Oxygen." """
    assert sorted(game.rules.faces["white"]) == sorted(["H", "H", "H", "O", "O", "N"])
    assert sorted(game.rules.faces["yellow"]) == sorted(["C", "C", "burner", "N", "O", "O"])


def test_rolling_gives_every_die_in_play_a_face_of_its_colour(game):
    """Roll Dice: "The first player rolls all available dice." """
    s = game.setup(5, 3)
    with pytest.raises(IllegalAction, match="lead player"):
        game.apply(s, 1, ROLL)
    s = game.apply(s, 0, ROLL)
    assert s.phase == "select" and len(pool(s)) == 6
    assert all(d.face in game.rules.faces[d.colour] for d in s.dice)


def test_rolling_many_times_shows_every_face(game):
    """The dice are fair six-sided dice with the rulebook's faces."""
    seen = {"white": set(), "yellow": set()}
    s = game.setup(5, 11)
    for seed in range(60):
        s.rng = seed
        for d in game.apply(s, 0, ROLL).dice:
            seen[d.colour].add(d.face)
    assert seen == {"white": {"H", "O", "N"}, "yellow": {"C", "burner", "N", "O"}}


def test_setup_rejects_player_counts_outside_2_to_5(game):
    """Components: dice for 2 to 5 players."""
    for players in (1, 6):
        with pytest.raises(IllegalAction, match="2 to 5 players"):
            game.setup(players, 1)


# --- Setup: notecards and tools ------------------------------------------------------
def test_setup_flips_two_notecards_and_shuffles_lab_fires_back(game):
    """Setup 3: "Flip 2 Notecards face-up next to the deck. If a Lab Fire card
    is revealed during setup, set it aside and draw a new Notecard to replace
    it. Once 2 Notecards are face-up, shuffle any Lab Fires back into the deck." """
    seed = next(n for n in range(500) if _first_card(game, n) in game.rules.lab_fires)
    s = game.setup(2, seed)
    assert len(s.line) == 2 and not set(s.line) & game.rules.lab_fires
    assert game.rules.lab_fires <= set(s.deck) and not s.discard
    game.check(s)


def _first_card(game, seed):
    """The top card of the shuffled deck at setup (the tools are drawn first)."""
    from engine.rng import Rng

    rng = Rng(seed)
    choose_tools(game.rules, rng, {})
    deck = list(game.rules.card_ids)
    rng.shuffle(deck)
    return deck[0]


def test_first_game_tools_are_centrifuge_retort_flask_fire_suppressant(game):
    """Setup 4: "For your first game, we recommend using CENTRIFUGE (Liquid),
    RETORT FLASK (Solid), and FIRE SUPPRESSANT (Gas)." """
    assert game.setup(2, 1, {"first_game": True}).tools == FIRST_GAME


def test_setup_draws_one_liquid_one_solid_and_one_gas_tool(game):
    """Setup 4: "Randomly choose 1 LIQUID, 1 SOLID, and 1 GAS Tool card." """
    drawn = set()
    for seed in range(40):
        tools = game.setup(2, seed).tools
        assert [game.rules.tools[t].state for t in tools] == ["liquid", "solid", "gas"]
        drawn.update(tools)
    assert drawn == set(FIRST_GAME) | set(DESIGNED)


def test_setup_tools_option_needs_one_of_each_state(game):
    """Setup 4: one tool of each state, chosen explicitly."""
    assert game.setup(2, 1, {"tools": list(DESIGNED)}).tools == DESIGNED
    with pytest.raises(IllegalAction, match="one liquid, one solid and one gas"):
        game.setup(2, 1, {"tools": ["centrifuge", "pipette", "fume-hood"]})
    with pytest.raises(IllegalAction, match="not a tool"):
        game.setup(2, 1, {"tools": ["centrifuge", "retort-flask", "bucket"]})
    with pytest.raises(IllegalAction, match="Unknown option"):
        game.setup(2, 1, {"colour": "red"})


# --- Select Element Dice -------------------------------------------------------------
def test_draft_in_turn_order_from_the_lead(game):
    """Select Element Dice: "The first player then selects 1 die ... The second
    player then selects a die from those remaining ... and so on in turn order." """
    s = game.apply(game.setup(3, 5, {"lead": 1}), 1, ROLL)
    assert game.to_move(s) == [1]
    with pytest.raises(IllegalAction, match="not your pick yet"):
        game.apply(s, 0, take(pool(s)[0]))
    s = game.apply(s, 1, take(pool(s)[0]))
    assert game.to_move(s) == [2]
    s = game.apply(s, 2, take(pool(s)[0]))
    assert game.to_move(s) == [0]


def test_last_player_chooses_between_two_dice_and_the_other_is_the_community_die(game):
    """Select Element Dice: "The last player chooses from 2 dice. One die goes
    on their Note Sheet and the last die becomes the Community die." """
    s = game.apply(game.setup(2, 9), 0, ROLL)
    s = game.apply(s, 0, take(pool(s)[0]))
    assert len(pool(s)) == 2 and game.actions(s, 1) == [take(i) for i in pool(s)]
    last, left = pool(s)
    s = game.apply(s, 1, take(last))
    assert s.phase == "notate"
    assert s.dice[last].seat == 1 and s.dice[left].place == "community"


def test_taking_a_die_already_taken_is_illegal(game):
    """Select Element Dice: a die "from those remaining"."""
    s = game.apply(game.setup(2, 9), 0, ROLL)
    first = pool(s)[0]
    s = game.apply(s, 0, take(first))
    with pytest.raises(IllegalAction, match="not available"):
        game.apply(s, 1, take(first))


# --- Notate Elements ---------------------------------------------------------------------
def test_notate_on_any_empty_space_without_connecting(game):
    """Notate Elements: "These elements can be played on any empty space ...
    They do not need to connect to previously notated elements." """
    s = notating(game, ["H", "O"], "O", {0: "A1:H"})
    s = run(game, s, (0, notate("H", "F6")), (0, notate("O", "C3")))
    assert s.seats[0].spaces[sp("F6")] == "H" and s.seats[0].spaces[sp("C3")] == "O"
    assert game.apply(s, 0, FINISH).seats[0].done


def test_notate_own_die_and_community_die_in_either_order(game):
    """Design rule 2: "a player notates their own die and the Community die, in
    either order." """
    s = notating(game, ["H", "N"], "O")
    assert {a["element"] for a in game.actions(s, 0) if a["type"] == "notate"} == {"H", "O"}
    s = run(game, s, (0, notate("O", "A1")), (0, notate("H", "A2")))
    assert s.seats[0].spaces.startswith("OH")


def test_notate_on_a_filled_or_burned_space_is_illegal(game):
    """Notate Elements: "in any empty element space"."""
    s = notating(game, ["H", "O"], "O", {0: "A1:H"})
    with_burns(s, 0, "H" + "x" + "." * 34)
    game.check(s)
    with pytest.raises(IllegalAction, match="A1 holds Hydrogen"):
        game.apply(s, 0, notate("H", "A1"))
    with pytest.raises(IllegalAction, match="A2 is burned"):
        game.apply(s, 0, notate("H", "A2"))
    with pytest.raises(IllegalAction, match="no Nitrogen"):
        game.apply(s, 0, notate("N", "A3"))


def test_finish_only_when_nothing_is_pending(game):
    """Design rule 2: both dice are notated (or trashed) before a player is done."""
    s = notating(game, ["H", "O"], "O")
    assert FINISH not in game.actions(s, 0)
    with pytest.raises(IllegalAction, match="Notate or trash"):
        game.apply(s, 0, FINISH)


# --- Connecting Elements -------------------------------------------------------------------
def test_bonds_only_to_or_from_the_newly_placed_element(game):
    """Connecting Elements: "Players can only create bonds to or from a newly
    placed element." """
    s = notating(game, ["H", "O"], "O", {0: "A1:O B1:H"})
    s = game.apply(s, 0, notate("H", "D4"))
    with pytest.raises(IllegalAction, match=r"placed this turn \(D4\)"):
        game.apply(s, 0, bond("A1", "B1"))
    s = game.apply(s, 0, notate("O", "A2"))
    s = run(game, s, (0, bond("A2", "A1")), (0, bond("B1", "A2")))
    assert s.seats[0].bonds == {(0, 1): 1, (1, 6): 1}


def test_design_rule_2_every_element_placed_this_turn_is_newly_placed(game):
    """Design rule 2: bonds go to or from any element placed this turn, in
    any order, so a paper turn entered in another order is the same turn."""
    s = notating(game, ["H", "O"], "O", {0: "A1:O"})
    s = run(game, s, (0, notate("H", "A2")), (0, notate("O", "E5")))
    assert {"type": "bond", "spaces": [0, 1]} in game.actions(s, 0)
    s = game.apply(s, 0, bond("A1", "A2"))
    assert s.seats[0].bonds == {(0, 1): 1}
    s = game.apply(s, 0, FINISH)
    assert s.seats[0].placed == (1, 28)
    with pytest.raises(IllegalAction, match="finished notating"):
        game.apply(s, 0, bond("A1", "A2"))


def test_bond_between_adjacent_spaces_only(game):
    """Notate Elements: "the new element must be placed adjacent to the previous
    element"; the field is hexagonal, six neighbours a space."""
    s = notating(game, ["H", "O"], "O", {0: "A3:H"})
    s = game.apply(s, 0, notate("O", "A1"))
    with pytest.raises(IllegalAction, match="not next to each other"):
        game.apply(s, 0, bond("A1", "A3"))
    assert not [a for a in game.actions(s, 0) if a["type"] == "bond"]


@pytest.mark.parametrize("element,valence", [("H", 1), ("O", 2), ("N", 3), ("C", 4)])
def test_valence_limits_h1_o2_n3_c4(game, element, valence):
    """Connecting Elements: "Hydrogen (H) has only 1 available covalent bond ...
    Oxygen (O) has 2 ... Nitrogen (N) has a maximum number of 3 ... Carbon (C)
    has a maximum number of 4 bonds." """
    around = ["B1", "B3", "A2", "A3"][:valence]
    for full in (False, True):
        hs = around if full else around[:-1]
        text = f"B2:{element} " + " ".join(f"{h}:H B2-{h}" for h in hs)
        s = notating(game, ["H", "O"], "H", {0: text})
        s = game.apply(s, 0, notate("H", "C2"))
        if full:
            with pytest.raises(IllegalAction, match=f"already has all its {valence} bond"):
                game.apply(s, 0, bond("C2", "B2"))
        else:
            assert game.apply(s, 0, bond("C2", "B2")).seats[0].bonds_used(sp("B2")) == valence


def test_example_h_o_h_is_legal(game):
    """Connecting Elements: "Legal bonds: Hydrogen - Oxygen - Hydrogen, with a
    single bond on each side." """
    s = notating(game, ["H", "O"], "O", {0: "A1:H A3:H"})
    s = run(game, s, (0, notate("O", "A2")), (0, bond("A1", "A2")), (0, bond("A2", "A3")))
    assert s.seats[0].bonds == {(0, 1): 1, (1, 2): 1}


def test_example_o_double_bond_h_is_illegal(game):
    """Connecting Elements: "you cannot double bond Oxygen and Hydrogen since
    Hydrogen can only ever take 1 bond. Illegal bond: Oxygen double bonded to
    Hydrogen." """
    s = notating(game, ["H", "O"], "O", {0: "A1:O"})
    s = run(game, s, (0, notate("H", "A2")), (0, bond("A1", "A2")))
    with pytest.raises(IllegalAction, match="Hydrogen at A2 already has all its 1 bond"):
        game.apply(s, 0, bond("A1", "A2"))


def test_at_most_a_triple_bond_between_two_atoms(game):
    """Connecting Elements: "Carbon cannot connect to itself with more than a
    triple bond." """
    s = notating(game, ["C", "H", "H", "H"], "O", {0: "A1:C"})
    s = run(game, s, (0, notate("C", "A2")), (0, bond("A1", "A2")), (0, bond("A1", "A2")), (0, bond("A1", "A2")))
    assert s.seats[0].bonds == {(0, 1): 3}
    with pytest.raises(IllegalAction, match="triple"):
        game.apply(s, 0, bond("A1", "A2"))


def test_bond_must_be_legal_for_both_atoms(game):
    """Connecting Elements: "the covalent bonds drawn must be legal for all
    elements connected." A new Carbon has room, the old Hydrogen does not."""
    s = notating(game, ["C", "H", "H", "H"], "O", {0: "A1:H B1:H A1-B1"})
    s = game.apply(s, 0, notate("C", "A2"))
    with pytest.raises(IllegalAction, match="legal for both"):
        game.apply(s, 0, bond("A2", "A1"))


# --- Trash ------------------------------------------------------------------------------------
def test_trash_fills_the_next_trash_can(game):
    """Notate Elements: "TRASH the element ... fill in the highest empty trash can." """
    s = game.apply(notating(game, ["H", "O"], "O"), 0, trash("O"))
    assert s.seats[0].trash == "O" and s.seats[0].pending == (("H", "die"),)


def test_filling_the_trash_forces_the_bunsen_burner(game):
    """Notate Elements: "If you trash enough elements, you receive a free Bunsen
    Burner action. Take this action immediately - it is NOT optional." """
    s = notating(game, ["H", "O"], "O")
    s.seats[0].trash = "HHHH"
    s = game.apply(s, 0, trash("H"))
    assert s.seats[0].trash == "HHHHH" and s.seats[0].burns == 1
    assert {a["type"] for a in game.actions(s, 0)} == {"burn"}
    with pytest.raises(IllegalAction, match="Burn a space first"):
        game.apply(s, 0, notate("O", "A1"))
    s = game.apply(s, 0, burn("F6"))
    assert [a["element"] for a in game.actions(s, 0)] == ["H", "O", "N", "C"]
    s = run(game, s, (0, {"type": "choose_element", "element": "C"}), (0, notate("C", "A1")))
    assert s.seats[0].spaces[sp("F6")] == "x" and s.seats[0].spaces[sp("A1")] == "C"


def test_full_trash_takes_no_more_elements(game):
    """Notate Elements: "When the trash is full, you can no longer trash any elements." """
    s = notating(game, ["H", "O"], "O")
    s.seats[0].trash = "HHHHH"
    assert not [a for a in game.actions(s, 0) if a["type"] == "trash"]
    with pytest.raises(IllegalAction, match="trash is full"):
        game.apply(s, 0, trash("H"))


def test_element_with_no_empty_space_must_be_trashed_or_is_lost(game):
    """Design rule 3: "An element that cannot be placed (no empty space) must be
    trashed; if the trash is full too, it is lost." """
    s = with_burns(notating(game, ["H", "O"], "O"), 0, "x" * 35 + ".")
    s = game.apply(s, 0, notate("H", "F6"))
    assert game.actions(s, 0) == [trash("O")]
    s2 = with_burns(notating(game, ["H", "O"], "O"), 0, "x" * 35 + ".")
    s2.seats[0].trash = "NNNNN"
    s2 = game.apply(s2, 0, notate("H", "F6"))
    assert s2.seats[0].pending == () and game.actions(s2, 0) == [FINISH]


# --- Bunsen Burners ---------------------------------------------------------------------------
def test_bunsen_burner_die_burns_a_space_then_gives_any_element(game):
    """Bunsen Burners: "They burn 1 space on their compound field - but in
    return gain any 1 element of their choice to immediately notate." """
    s = notating(game, ["burner", "H"], "O")
    assert s.seats[0].pending == (("O", "community"),) and s.seats[0].burns == 1
    s = run(game, s, (0, burn("A1")), (0, {"type": "choose_element", "element": "N"}))
    assert s.seats[0].pending[0] == ("N", "burner")


def test_bunsen_burner_element_is_notated_at_once(game):
    """Design rule 5: "take any element and notate it at once (it cannot be
    trashed unless no space is empty)"."""
    s = run(game, notating(game, ["burner", "H"], "O"), (0, burn("A1")),
            (0, {"type": "choose_element", "element": "N"}))
    assert {a["element"] for a in game.actions(s, 0)} == {"N"}
    with pytest.raises(IllegalAction, match="at once"):
        game.apply(s, 0, notate("O", "B2"))
    with pytest.raises(IllegalAction, match="must be notated"):
        game.apply(s, 0, trash("N"))


def test_no_tool_prevents_the_bunsen_burner_burn(game):
    """Bunsen Burners: "they may NOT use a tool, or ability, to prevent burning
    a space for this purpose." """
    s = notating(game, ["burner", "H"], "O", {0: DINITROGEN})
    assert "fire-suppressant" in s.seats[0].tools
    assert {a["type"] for a in game.actions(s, 0)} == {"burn"}
    with pytest.raises(IllegalAction):
        game.apply(s, 0, tool("fire-suppressant"))


def test_burner_burn_with_no_space_left_gives_no_element(game):
    """Design rule 18: "If no empty space is left after the burn, no element is gained"."""
    s = with_burns(notating(game, ["burner", "H"], "O"), 0, "x" * 35 + ".")
    s = game.apply(s, 0, burn("F6"))
    assert not s.seats[0].choosing and game.actions(s, 0) == [trash("O")]


def test_unattended_bunsen_burner_is_a_lab_fire_for_everyone(game):
    """Bunsen Burners: "If, by the end of the round, the Bunsen Burner is the
    Community die then it was left unattended and turns into a Lab Fire. Each
    player burns 2 spaces ... An unattended Bunsen Burner does not give players
    an element." Design rule 6."""
    s = notating(game, ["H", "O"], "burner")
    assert s.seats[0].pending == (("H", "die"),) and s.seats[1].pending == (("O", "die"),)
    s = run(game, s, (0, notate("H", "A1")), (1, notate("O", "A1")), (0, FINISH), (1, FINISH))
    assert s.phase == "fire" and s.fires == 1 and game.to_move(s) == [0, 1]
    s = run(game, s, (0, burn("F1")), (0, burn("F2")), (1, burn("F1")))
    assert game.to_move(s) == [1]
    s = game.apply(s, 1, burn("F3"))
    assert s.phase == "roll" and [sh.spaces.count("x") for sh in s.seats] == [2, 2]


# --- Lab Fires ---------------------------------------------------------------------------------
def _claim(card):
    return {"type": "claim", "notecard": card}


def test_lab_fire_revealed_in_the_line_stays_and_burns_two_spaces(game):
    """Lab Fires: "If any Lab Fires are revealed during the end of round refill,
    they remain in the card line. Players may choose to use their fire
    suppression (if available), or fill in 2 empty spaces on their Note Sheet." """
    s = notating(game, ["H", "O"], "O", {0: METHANE, 1: DINITROGEN})
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=["lab-fire-1"])
    s = run(game, s, (0, _claim("methane")), (0, trash("H")), (0, trash("O")),
            (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.line == ["lab-fire-1", "methane", "ammonia"] and s.phase == "fire"
    assert tool("fire-suppressant") not in game.actions(s, 0)
    assert tool("fire-suppressant") in game.actions(s, 1)
    s = run(game, s, (1, tool("fire-suppressant")), (0, burn("F5")))
    with pytest.raises(IllegalAction):
        game.apply(s, 0, tool("fire-suppressant"))
    s = game.apply(s, 0, burn("F6"))
    assert s.phase == "roll" and s.seats[0].spaces.count("x") == 2 and s.seats[1].spaces.count("x") == 0
    assert s.line[0] == "lab-fire-1"  # it stays until it falls off the end


def test_lab_fire_cannot_be_claimed(game):
    """Lab Fires: "Lab Fires cannot be discarded from the line until they fall off the end." """
    s = notating(game, ["H", "O"], "O")
    arrange_cards(game, s, line=["lab-fire-1", "methane"])
    with pytest.raises(IllegalAction, match="Lab Fire cannot be claimed"):
        game.apply(s, 0, _claim("lab-fire-1"))


def test_two_lab_fires_in_the_line_are_discarded_and_the_line_refilled(game):
    """Lab Fires: "If there are more than 1 Lab Fire cards in the line, discard
    all visible Lab Fire cards and refill the Notecard line." Design rules 11
    and 25: the fire that meets another counts once; the line closes up and refills."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    arrange_cards(game, s, line=["lab-fire-2", "methane", "ammonia"],
                  deck_top=["lab-fire-1", "urea", "ethylene", "acetylene"])
    s = run(game, s, (0, _claim("methane")), (0, trash("H")), (0, trash("O")),
            (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.seats[0].claims[0].points == 3
    assert s.line == ["ethylene", "urea", "methane"]
    assert s.discard == ["ammonia", "lab-fire-1", "lab-fire-2"]
    assert s.fires == 1 and s.phase == "fire"


def test_two_lab_fires_at_once_are_resolved_one_by_one(game):
    """Lab Fires: "It is possible to have multiple Lab Fires happen in a single
    round!" Here a revealed fire and an unattended burner: two fires, each two
    burns or one Fire Suppressant use (design rules 19 and 24)."""
    s = notating(game, ["H", "O"], "burner", {0: METHANE, 1: DINITROGEN})
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=["lab-fire-1"])
    s = run(game, s, (0, _claim("methane")), (0, trash("H")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.fires == 2 and [sh.fires for sh in s.seats] == [2, 2]
    s = run(game, s, (1, tool("fire-suppressant")), (1, burn("F1")))
    with pytest.raises(IllegalAction):  # a fire once started burns both spaces
        game.apply(s, 1, tool("fire-suppressant"))
    s = run(game, s, (1, burn("F2")), *[(0, burn(x)) for x in ("F1", "F2", "F3", "F4")])
    assert s.phase == "roll"
    assert [sh.spaces.count("x") for sh in s.seats] == [4, 2] and s.seats[1].tool_marks == 1


def test_burning_with_too_few_empty_spaces_burns_what_is_left(game):
    """Design rule 4: "With fewer empty spaces than required, every empty space
    burns and the rest is ignored." """
    s = with_burns(notating(game, ["H", "O"], "burner"), 1, "x" * 34 + "..")
    s = run(game, s, (0, notate("H", "A1")), (1, notate("O", "F5")), (0, FINISH), (1, FINISH))
    s = run(game, s, (1, burn("F6")), (0, burn("D1")), (0, burn("D2")))
    assert s.phase == "over"


# --- Refill Notecards ----------------------------------------------------------------------------
def test_notecard_line_refills_after_a_claim_6_3_1(game):
    """Refill Notecards: "if any Notecards were completed discard the third
    Notecard (if any) from the track. Reveal a new card ... The new card,
    closest to the Notecard deck, is always worth 6 points, the middle card is
    worth 3, and the oldest 1." Design rule 10."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    arrange_cards(game, s, line=["urea", "ammonia", "methane"], deck_top=["ethylene"])
    s = game.apply(s, 0, _claim("methane"))
    assert s.seats[0].claims[0].points == 1
    s = run(game, s, (0, trash("H")), (0, trash("O")), (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.line == ["ethylene", "urea", "ammonia"] and s.discard == ["methane"]


def test_notecard_line_does_not_refill_without_a_claim(game):
    """Refill Notecards: the line moves only "if any Notecards were completed"."""
    s = notating(game, ["H", "O"], "O")
    line = list(s.line)
    s = run(game, s, (0, trash("H")), (0, trash("O")), (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.line == line and s.phase == "roll"


def test_empty_deck_reshuffles_the_discard_pile_at_once(game):
    """Lab Fires: "If the Notecard deck is ever empty, shuffle the discard pile
    and place it face-down to form a new deck." Design rule 12: at once, the
    moment the last card is drawn, not when the next card is needed."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    others = [c for c in game.rules.card_ids if c not in ("methane", "ammonia")]
    last, rest = others[0], others[1:]
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=[last], discard=rest)
    assert s.deck == [last]
    s = run(game, s, (0, _claim("methane")), (0, trash("H")), (0, trash("O")),
            (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert s.line == [last, "methane", "ammonia"]
    assert s.discard == [] and sorted(s.deck) == sorted(rest)  # already the new deck
    game.check(s)


def test_design_rule_12_a_card_falling_off_after_the_reshuffle_waits(game):
    """Design rule 12: the discard pile became the deck when the deck
    emptied, so the card that falls off the line next waits in the new
    discard pile instead of coming straight back."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    others = [c for c in game.rules.card_ids if c not in ("methane", "ammonia") and c not in game.rules.lab_fires]
    third, rest = others[0], [c for c in game.rules.card_ids if c not in ("methane", "ammonia", others[0])]
    arrange_cards(game, s, line=["methane", "ammonia", third], deck_top=rest)
    s.deck, s.discard = rest, []
    s = run(game, s, (0, _claim("methane")), (0, trash("H")), (0, trash("O")),
            (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH))
    assert third in s.discard and third not in s.deck and third not in s.line


# --- Score & Claim Notecards ---------------------------------------------------------------------
def test_claim_notecard_with_a_complete_compound_of_its_structure(game):
    """Score & Claim Notecards: "If players have created a compound that matches
    a face-up Notecard (A), they check the appropriate box ... and mark the point
    value ... of that Notecard." Design rule 26: the methane was completed in an
    earlier turn and claims now, while notating."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    arrange_cards(game, s, line=["ammonia", "methane"])
    assert _claim("methane") in game.actions(s, 0) and _claim("ammonia") not in game.actions(s, 0)
    s = game.apply(s, 0, _claim("methane"))
    claim = s.seats[0].claims[0]
    assert (claim.notecard, claim.points) == ("methane", 3) and s.claimed
    with pytest.raises(IllegalAction, match="claimed Methane already"):
        game.apply(s, 0, _claim("methane"))
    with pytest.raises(IllegalAction, match="None of your unused complete compounds is Ammonia"):
        game.apply(s, 0, _claim("ammonia"))


def test_claim_needs_a_complete_compound(game):
    """Design rule 9: a complete compound claims; CH3 with an open bond does not."""
    s = notating(game, ["H", "O"], "O", {0: "B2:C B1:H B3:H A2:H B2-B1 B2-B3 B2-A2"})
    arrange_cards(game, s, line=["methane", "ammonia"])
    with pytest.raises(IllegalAction, match="None of your unused complete compounds"):
        game.apply(s, 0, _claim("methane"))
    s = run(game, s, (0, notate("H", "C2")), (0, bond("C2", "B2")), (0, _claim("methane")))
    assert s.seats[0].claims[0].spaces == tuple(sorted(sp(x) for x in ("B2", "B1", "B3", "A2", "C2")))


def test_several_players_may_claim_the_same_notecard_in_a_turn(game):
    """Score & Claim Notecards: "Multiple players can claim the same notecard during a turn." """
    s = notating(game, ["H", "O"], "O", {0: METHANE, 1: METHANE})
    arrange_cards(game, s, line=["methane", "ammonia"])
    s = run(game, s, (0, _claim("methane")), (1, _claim("methane")))
    assert [sh.claims[0].points for sh in s.seats] == [6, 6]


def test_notecard_boxes_limit_claims(game):
    """Design rule 26: "A sheet whose notecard boxes are all checked claims no more." """
    from engine.labnotes.state import Claim

    s = notating(game, ["H", "O"], "O", {0: METHANE})
    s.seats[0].claims = tuple(Claim(f"x{i}", 1, (i,)) for i in range(8))
    arrange_cards(game, s, line=["methane"])
    with pytest.raises(IllegalAction, match="Every notecard box"):
        game.apply(s, 0, _claim("methane"))


# --- Earning & Using Tool Cards ---------------------------------------------------------------
def test_building_a_tools_compound_unlocks_it(game):
    """Earning & Using Tool Cards: "The completed compound can be used towards
    the tool "Centrifuge" ... the ability to use the tool for the rest of the game."
    Design rule 8: a complete compound of the tool's structure unlocks it."""
    s = notating(game, ["H", "O"], "O", {0: "A1:H"})
    s = run(game, s, (0, notate("O", "A2")), (0, bond("A1", "A2")), (0, notate("H", "A3")))
    assert s.seats[0].tools == ()
    s = game.apply(s, 0, bond("A2", "A3"))
    assert s.seats[0].tools == ("centrifuge",)


def test_tools_track_opens_two_spaces_for_each_of_the_first_four_notecards(game):
    """Refill Notecards: "They also unlock additional tool usage for the first 4
    Notecards they complete." Design: 2 open, +2 for each of the first four."""
    from engine.labnotes.state import Claim

    s = notating(game, ["H", "O"], "O")
    opened = []
    for n in range(7):
        s.seats[0].claims = tuple(Claim(f"c{i}", 1, (i,)) for i in range(n))
        opened.append(game.rules.open_track(s.seats[0]))
    track = game.data.sheet.tools_track
    assert opened == [track.open + sum(track.opened_by_notecard[:n]) for n in range(7)]
    assert opened == [2, 4, 6, 8, 10, 10, 10]


def _centrifuge_pick(game, seed=4):
    s = game.setup(2, seed, {"first_game": True})
    from engine.labnotes.state import sheet_from_text

    s.seats[0].spaces, s.seats[0].bonds = sheet_from_text(WATER)
    s.seats[0].tools = ("centrifuge",)
    return game.apply(s, 0, ROLL)


def test_centrifuge_rerolls_available_dice_at_most_twice_per_pick(game):
    """Centrifuge: "Before you select your die, reroll any number of available
    dice up to 2 times." Design rule 19: the two rerolls of a pick are one use,
    marking the card's icons on the tools track."""
    s = _centrifuge_pick(game)
    assert {"type": "reroll", "dice": pool(s)} in game.actions(s, 0)
    assert not [a for a in game.actions(s, 1) if a["type"] == "reroll"]
    before = s.rng
    s = game.apply(s, 0, {"type": "reroll", "dice": pool(s)})
    assert s.rng != before and s.seats[0].tool_marks == game.rules.tools["centrifuge"].icons == 2
    s = game.apply(s, 0, {"type": "reroll", "dice": pool(s)[:1]})
    assert s.seats[0].tool_marks == 2  # one use: the second reroll is free
    with pytest.raises(IllegalAction, match="at most 2 times"):
        game.apply(s, 0, {"type": "reroll", "dice": pool(s)[:1]})
    s = game.apply(s, 0, take(pool(s)[0]))
    assert s.rerolls == 0


def test_tool_without_room_on_the_tools_track_is_illegal(game):
    """Earning & Using Tool Cards: a use marks "available spaces under Tools"; none left, no use."""
    s = _centrifuge_pick(game)
    s.seats[0].tool_marks = 1
    assert not [a for a in game.actions(s, 0) if a["type"] == "reroll"]
    with pytest.raises(IllegalAction, match="tools track has 1 open space"):
        game.apply(s, 0, {"type": "reroll", "dice": pool(s)})


def test_locked_tool_cannot_be_used(game):
    """Setup 4: the tools "remain face-down ... until the compound on the back is built"."""
    s = notating(game, ["C", "H"], "O")
    with pytest.raises(IllegalAction, match=r"Build the Carbon Trioxide \(CO3\) first"):
        game.apply(s, 0, tool("retort-flask"))


def test_retort_flask_notates_your_die_again_instead_of_the_community_die(game):
    """Retort Flask: "If it is an element, ignore the final die and notate your
    die again." Design rule 20; once a turn (design rule 19)."""
    ring = "A2:C A1:O B1:O A3:O A1-A2 A1-B1 A2-B1 A2=A3"
    s = notating(game, ["C", "H"], "O", {0: ring})
    assert "retort-flask" in s.seats[0].tools
    s = game.apply(s, 0, tool("retort-flask"))
    assert s.seats[0].pending == (("C", "die"), ("C", "flask")) and s.seats[0].tool_marks == 1
    with pytest.raises(IllegalAction, match="used the Retort Flask this turn"):
        game.apply(s, 0, tool("retort-flask"))
    burner_die = notating(game, ["burner", "H"], "O", {0: ring})
    burner_die = run(game, burner_die, (0, burn("F6")), (0, {"type": "choose_element", "element": "C"}),
                     (0, notate("C", "E3")))
    with pytest.raises(IllegalAction, match="your die to be an element"):
        game.apply(burner_die, 0, tool("retort-flask"))


def test_fire_suppressant_ignores_a_lab_fire(game):
    """Fire Suppressant: "Ignore a Lab Fire." """
    s = notating(game, ["H", "O"], "burner", {0: DINITROGEN})
    s = run(game, s, (0, trash("H")), (1, trash("O")), (0, FINISH), (1, FINISH))
    s = run(game, s, (0, tool("fire-suppressant")))
    assert s.seats[0].fires == 0 and s.seats[0].tool_marks == 1 and game.to_move(s) == [1]


def test_pipette_draws_one_bond_after_notating(game):
    """Pipette: "After notating, draw one bond between two adjacent elements
    already on your sheet." Design rule 22."""
    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A3:O A4:H A1-A2 A2-A3 A3-A4 D1:O D2:H"},
                 tools=DESIGNED)
    assert "pipette" in s.seats[0].tools
    assert tool("pipette", spaces=[sp("D1"), sp("D2")]) not in game.actions(s, 0)
    s = run(game, s, (0, notate("H", "F1")), (0, notate("O", "F6")))
    with pytest.raises(IllegalAction, match="not next to each other"):
        game.apply(s, 0, tool("pipette", spaces=[sp("D1"), sp("F6")]))
    s = game.apply(s, 0, tool("pipette", spaces=[sp("D1"), sp("D2")]))
    assert s.seats[0].bonds[(sp("D1"), sp("D2"))] == 1 and s.seats[0].tool_marks == 1


def test_mortar_and_pestle_grinds_your_die_one_bond_fewer(game):
    """Mortar and Pestle: "Grind your die down: notate it as the element that
    takes one bond fewer (C to N, N to O, O to H)." Design rule 21."""
    hydroxylamine = "B2:N B1:H A2:H B3:O B4:H B2-B1 B2-A2 B2-B3 B3-B4"
    s = notating(game, ["C", "H"], "O", {0: hydroxylamine}, tools=DESIGNED)
    assert "mortar-and-pestle" in s.seats[0].tools
    with pytest.raises(IllegalAction, match="of your own die"):
        game.apply(s, 0, tool("mortar-and-pestle", element="O"))  # the Community die's
    s = game.apply(s, 0, tool("mortar-and-pestle", element="C"))
    assert s.seats[0].pending == (("N", "die"), ("O", "community"))


def test_fume_hood_erases_the_last_trash_can_unless_full(game):
    """Fume Hood: "Erase your last filled trash can, unless your trash is full."
    Design rule 23."""
    s = notating(game, ["H", "O"], "O", {0: "A1:O A2:C A3:O A1=A2 A2=A3"}, tools=DESIGNED)
    assert tool("fume-hood") not in game.actions(s, 0)  # nothing to erase
    s = game.apply(s, 0, trash("H"))
    s = game.apply(s, 0, tool("fume-hood"))
    assert s.seats[0].trash == "" and s.seats[0].tool_marks == 1
    full = notating(game, ["H", "O"], "O", {0: "A1:O A2:C A3:O A1=A2 A2=A3"}, tools=DESIGNED)
    full.seats[0].trash = "HHHHH"
    with pytest.raises(IllegalAction, match="cannot erase a full trash"):
        game.apply(full, 0, tool("fume-hood"))


# --- The end -------------------------------------------------------------------------------------
def test_lead_passes_left_each_round(game):
    """Lab Fires: "the dice are all passed to the next active player (person on
    the previous active player's left)". Design rule 1: a turn is one round."""
    s = notating(game, ["H", "O", "O"], "O")
    s = run(game, s, *[(i, trash(e)) for i in range(3) for e, _ in s.seats[i].pending],
            *[(i, FINISH) for i in range(3)])
    assert (s.phase, s.lead, s.round) == ("roll", 1, 2) and game.to_move(s) == [1]


def test_game_ends_at_the_end_of_a_turn_in_which_a_sheet_is_full(game):
    """End Game: "The game is over at the end of a turn in which a player's Note
    Sheet is full and they have no more spaces available for elements." Design rule 13."""
    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2"})
    with_burns(s, 0, s.seats[0].spaces[:2] + "x" * 33 + ".")
    s = game.apply(s, 0, notate("H", "F6"))
    assert s.phase == "notate" and not game.is_over(s)
    s = run(game, s, (0, trash("O")), (0, FINISH))
    assert not game.is_over(s)  # the turn ends for everyone first
    s = run(game, s, (1, notate("O", "C3")), (1, notate("O", "C5")), (1, FINISH))
    assert game.is_over(s) and game.to_move(s) == [] and game.actions(s, 0) == []


def test_unconnected_elements_burn_at_the_end(game):
    """End Game: "If any player has any elements in their compound field that are
    not connected to any other element(s), those elements burn ... Players may
    not use any tools or abilities to prevent this." """
    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2", 1: DINITROGEN})
    with_burns(s, 0, s.seats[0].spaces[:2] + "x" * 33 + ".")
    s = run(game, s, (0, notate("H", "F6")), (0, trash("O")), (0, FINISH),
            (1, notate("O", "C3")), (1, notate("O", "C5")), (1, FINISH))
    assert game.is_over(s)
    assert s.seats[0].spaces[sp("F6")] == "x" and s.seats[0].spaces[:2] == "HO"
    assert s.seats[1].spaces[sp("C3")] == "x" and s.seats[1].spaces[sp("C5")] == "x"
    score = game.result(s).scores[1]
    assert score.details["burned_spaces"] == 2 and score.details["final"]
