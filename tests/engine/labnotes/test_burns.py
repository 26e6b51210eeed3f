"""Where each burned space came from (design rule 28): the rules record
the cause of every burn as it happens, the invariants keep one cause per
burned space, and the result hands them to the breakdown."""

from __future__ import annotations

import random

import pytest

from engine.core import InvalidState
from engine.labnotes.state import Burn
from engine.labnotes.state import parse_space_label as sp
from tests.engine.conftest import FINISH, arrange_cards, burn, notate, notating, run, tool, trash
from tests.engine.labnotes.scene import with_burns

METHANE = "B2:C B1:H B3:H A2:H C2:H B2-B1 B2-B3 B2-A2 B2-C2"
DINITROGEN = "E1:N E2:N E1#E2"
CHOOSE_N = {"type": "choose_element", "element": "N"}


def causes(s, seat):
    return [(b.cause, b.round) for b in s.seats[seat].burned]


def test_design_rule_28_a_bunsen_burner_die_burn_is_the_dies(game):
    """Bunsen Burners: "A player can take the Bunsen Burner die ... They burn 1
    space on their compound field"; design rule 28: the space remembers the die."""
    s = run(game, notating(game, ["burner", "H"], "O"), (0, burn("C3")))
    assert s.seats[0].burned == (Burn(sp("C3"), "burner", 1),)
    game.check(s)


def test_design_rule_28_a_full_trash_burn_is_the_trashs(game):
    """Notate Elements: "Filling in this trash can will immediately trigger the
    Bunsen Burner!" With the burner die taken the same round, the die's burn
    comes first (rule 18) and the trash's after it."""
    s = notating(game, ["burner", "H"], "O")
    s.seats[0].trash = "HHHH"
    s = run(game, s, (0, burn("A1")), (0, CHOOSE_N), (0, notate("N", "A2")), (0, trash("O")), (0, burn("A3")))
    assert causes(s, 0) == [("burner", 1), ("trash", 1)]
    assert [b.space for b in s.seats[0].burned] == [sp("A1"), sp("A3")]
    game.check(s)


def test_design_rule_28_a_lab_fire_from_the_line_names_its_round(game):
    """Lab Fires: a fire revealed in the refill burns 2 spaces; both remember
    the Lab Fire and the round it came in."""
    s = notating(game, ["H", "O"], "O", {0: METHANE})
    s.round = 4
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=["lab-fire-1"])
    s = run(game, s, (0, {"type": "claim", "notecard": "methane"}), (0, trash("H")), (0, trash("O")),
            (1, trash("O")), (1, trash("O")), (0, FINISH), (1, FINISH), (0, burn("F5")), (0, burn("F6")),
            (1, burn("F1")), (1, burn("F2")))
    assert s.phase == "roll" and s.round == 5
    assert causes(s, 0) == causes(s, 1) == [("fire", 4), ("fire", 4)]


def test_design_rule_28_an_unattended_burner_is_not_a_line_fire(game):
    """Bunsen Burners: "If, by the end of the round, the Bunsen Burner is the
    Community die then it was left unattended and turns into a Lab Fire." """
    s = notating(game, ["H", "O"], "burner")
    s = run(game, s, (0, notate("H", "A1")), (1, notate("O", "A1")), (0, FINISH), (1, FINISH),
            (0, burn("F1")), (0, burn("F2")), (1, burn("F1")), (1, burn("F3")))
    assert causes(s, 0) == causes(s, 1) == [("unattended", 1), ("unattended", 1)]


def test_design_rule_28_two_fires_in_a_round_are_faced_line_first(game):
    """Design rule 24: each fire is two burns or one Fire Suppressant use.
    Rule 28: the line's fires come first, the unattended burner last, so a
    player who suppresses one fire and burns for the other burns for the burner."""
    s = notating(game, ["H", "O"], "burner", {0: METHANE, 1: DINITROGEN})
    arrange_cards(game, s, line=["methane", "ammonia"], deck_top=["lab-fire-1"])
    s = run(game, s, (0, {"type": "claim", "notecard": "methane"}), (0, trash("H")), (1, trash("O")),
            (0, FINISH), (1, FINISH))
    assert s.fires == 2
    s = run(game, s, (1, tool("fire-suppressant")), (1, burn("F1")), (1, burn("F2")),
            *[(0, burn(x)) for x in ("F1", "F2", "F3", "F4")])
    assert causes(s, 0) == [("fire", 1), ("fire", 1), ("unattended", 1), ("unattended", 1)]
    assert causes(s, 1) == [("unattended", 1), ("unattended", 1)]


def test_design_rule_28_unconnected_elements_burn_at_the_end_with_their_cause(game):
    """End Game: "those elements burn (fill in the space and treat it as a Lab Fire space)"."""
    s = notating(game, ["H", "O"], "O", {0: "A1:H A2:O A1-A2", 1: DINITROGEN})
    with_burns(s, 0, s.seats[0].spaces[:2] + "x" * 33 + ".", cause="fire", round=3)
    s.round = 9
    s = run(game, s, (0, notate("H", "F6")), (0, trash("O")), (0, FINISH),
            (1, notate("O", "C3")), (1, notate("O", "C5")), (1, FINISH))
    assert game.is_over(s)
    assert s.seats[0].burned[0] == Burn(sp("A3"), "fire", 3)
    assert s.seats[0].burned[-1] == Burn(sp("F6"), "unconnected", 9)
    assert s.seats[1].burned == (Burn(sp("C3"), "unconnected", 9), Burn(sp("C5"), "unconnected", 9))
    details = game.result(s).scores[1].details
    assert details["burns"] == [{"space": "C3", "cause": "unconnected", "round": 9},
                                {"space": "C5", "cause": "unconnected", "round": 9}]
    game.check(s)


def test_burns_are_written_and_read_back_in_json(game):
    s = with_burns(notating(game, ["H", "O"], "O"), 0, "." * 35 + "x", cause="unattended")
    data = game.to_dict(s)
    assert data["seats"][0]["burned"] == [{"space": 35, "cause": "unattended", "round": 1}]
    assert game.from_dict(data) == s


@pytest.mark.parametrize("change,message", [
    (lambda sh: sh.update(spaces="x" + sh["spaces"][1:]), r"seats.0.burned: 1 causes for 2 burned spaces \(A1\)"),
    (lambda sh: sh.update(burned=sh["burned"] * 2), "seats.0.burned: 2 causes for 1 burned spaces"),
    (lambda sh: sh.update(burned=[{"space": 0, "cause": "fire", "round": 1}]), r"\(A1, F6\)"),
    (lambda sh: sh["burned"][0].update(cause="unconnected"), "unconnected elements burn only when the game ends"),
    (lambda sh: sh["burned"][0].update(cause="trash"), "a full trash's burn, but the trash is not full"),
    (lambda sh: sh["burned"][0].update(round=2), "a burn in round 2, after this round"),
    (lambda sh: sh["burned"][0].update(cause="spill"), "seats.0.burned.0.cause"),
])
def test_every_burned_space_has_exactly_one_cause(game, change, message):
    """The invariant (design doc, rule 28): from_dict refuses a sheet whose
    burned spaces and causes do not match one to one."""
    data = game.to_dict(with_burns(notating(game, ["H", "O"], "O"), 0, "." * 35 + "x"))
    change(data["seats"][0])
    with pytest.raises(InvalidState, match=message):
        game.from_dict(data)


def test_random_games_give_every_burned_space_one_cause(game):
    """Playouts to the end: each burned space has one cause; the die's burns
    and the trash's are few; the details name them all."""
    for seed in range(6):
        rng = random.Random(seed)
        s = game.setup(2 + seed % 4, seed)
        while not game.is_over(s):
            seat = rng.choice(game.to_move(s))
            s = game.apply(s, seat, rng.choice(game.actions(s, seat)))
        game.check(s)
        for seat, (sh, score) in enumerate(zip(s.seats, game.result(s).scores)):
            assert sorted(b.space for b in sh.burned) == [k for k, c in enumerate(sh.spaces) if c == "x"]
            assert len(score.details["burns"]) == score.details["burned_spaces"]
            assert sum(b.cause == "trash" for b in sh.burned) <= 1
