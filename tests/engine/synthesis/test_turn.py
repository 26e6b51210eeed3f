"""Setup, the Active Element disc and the turn: Preparation, Synthesis, the
28 turns and the end (Setup; The Game; End of the Game)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.synthesis.disc import Disc
from tests.engine.synthesis.conftest import painted, playout, rolled

DISC = Disc(("red", "yellow", "green", "blue"), "yellow", 2)


def test_denis_holds_red_blue_green_then_yellow():
    """Denis has red on his first turn, blue on his second, green on his
    third, then yellow (the rulebook's examples): the ring turns clockwise."""
    assert [DISC.colour(0, t) for t in range(1, 6)] == ["red", "blue", "green", "yellow", "red"]


def test_the_ring_turns_one_step_clockwise_each_turn_after_the_first():
    """"Rotate the outer part of the Active Element disc clockwise. (Skip this
    step on the first turn.)": each colour moves on to the next box."""
    for t in range(1, 28):
        for box in range(4):
            assert DISC.colour((box + 1) % 4, t + 1) == DISC.colour(box, t)
    assert [DISC.colour(b, 1) for b in range(4)] == ["red", "yellow", "green", "blue"]


def test_one_name_per_box_up_to_four_players_two_from_five():
    """Setup 2: "Only one name per box is allowed in a game of 1 to 4 players.
    In games with 5 or more players, up to two names can share a box.\""""
    assert DISC.check_boxes([0, 0], 2) is not None
    assert DISC.check_boxes([0, 1, 2, 3], 4) is None
    assert DISC.check_boxes([0, 0, 1, 2, 3], 5) is None
    assert DISC.check_boxes([0, 0, 0, 1, 2], 5) is not None
    assert DISC.default_boxes(8) == (0, 1, 2, 3, 0, 1, 2, 3)
    assert DISC.max_players == 8


def test_players_sharing_a_box_share_its_colour(game):
    s = game.setup(8, 3)
    for t in (1, 2, 3):
        s.turn = t
        assert game.rules.marker(s, 0) == game.rules.marker(s, 4)
        assert len({game.rules.marker(s, i) for i in range(4)}) == 4


def test_the_player_aligned_with_yellow_rolls(game):
    """Synthesis 1: "The player whose name is aligned with yellow rolls the two dice.\""""
    s = game.setup(4, 5)
    for turn in range(1, 5):
        s.turn = turn
        roller = game.rules.roller(s)
        assert game.rules.disc.colour(s.seats[roller].box, turn) == "yellow"
        assert game.to_move(s) == [roller]
        assert game.actions(s, roller) == [{"type": "roll"}]
        other = (roller + 1) % 4
        assert game.actions(s, other) == []
        with pytest.raises(IllegalAction, match="beside yellow rolls"):
            game.apply(s, other, {"type": "roll"})


def test_with_an_empty_yellow_box_the_next_name_clockwise_rolls(game):
    s = game.setup(2, 5)  # boxes 0 and 1; yellow sits beside box 1 on turn 1, box 2 on turn 2
    assert game.rules.roller(s) == 1
    s.turn = 2
    assert game.rules.roller(s) == 0  # boxes 2 and 3 are empty: round to box 0


def test_everyone_draws_at_once_and_the_next_turn_begins_when_all_are_done(small):
    s = small.setup(2, 2, {"first_game": True})
    s = small.apply(s, small.rules.roller(s), {"type": "roll"})
    assert small.to_move(s) == [0, 1]
    order = [1, 0]
    for seat in order:
        while not s.seats[seat].done:
            s = small.apply(s, seat, small.actions(s, seat)[0])
        if seat != order[-1]:
            assert s.phase == "synthesis" and s.turn == 1
    assert s.phase == "roll" and s.turn == 2 and s.roll is None


def test_the_turn_number_is_coloured_with_the_marker(game):
    s = game.setup(3, 1)
    s.turn = 4
    view = game.view(s, 0)
    assert [seat["turn_track"] for seat in view["seats"]][0] == ["red", "blue", "green", "yellow"]
    assert view["seats"][1]["colour"] == game.rules.disc.colour(1, 4)


def test_twenty_eight_turns_then_free_bonds_then_the_end(small):
    s, log = playout(small, 2, 4, {"first_game": True})
    assert s.turn == 28 and s.phase == "over"
    assert sum(1 for _, a in log if a["type"] == "roll") == 28


def test_the_final_phase_is_for_unused_free_bonds(small):
    """End of the Game 1: "Add any unused free bond to their formula.\""""
    s = small.setup(1, 1, {"first_game": True})
    from tests.engine.synthesis.conftest import hex_lines
    for h in ("A3", "A4", "B1"):
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six[:5]), "y")
        s = painted(small, s, 0, six[5], "r")
    s = rolled(small, s, "angle", "twice", turn=28)
    s.seats[0].todo = 0
    s.seats[0].free_used = 0
    s = small.apply(s, 0, {"type": "finish"})
    assert s.phase == "final" and small.to_move(s) == [0]
    kinds = {a["type"] for a in small.actions(s, 0)}
    assert kinds == {"free_bond", "finish"}
    s = small.apply(s, 0, next(a for a in small.actions(s, 0) if a["type"] == "free_bond"))
    assert s.phase == "over"


def test_a_turn_cannot_be_finished_before_its_bond_is_drawn(small):
    s = rolled(small, small.setup(1, 1, {"first_game": True}), "arc", "twice")
    assert {"type": "finish"} not in small.actions(s, 0)
    s.seats[0].free_used = -1  # as if a free bond were in hand
    with pytest.raises(IllegalAction, match="Draw this turn's bond first"):
        small.apply(s, 0, {"type": "finish"})


def test_first_game_side_a_and_no_goal_cards(game):
    """Setup 1 and 4: side A for the first game; skip the goal cards."""
    s = game.setup(2, 1, {"first_game": True})
    assert s.side == "A" and s.chain_card is None and s.pattern_card is None
    with pytest.raises(IllegalAction, match="first game, choose side A"):
        game.setup(2, 1, {"first_game": True, "side": "B"})


def test_one_chain_and_one_pattern_card_face_up(game):
    """Setup 4: "Place one random card from each deck face up.\""""
    drawn = {(game.setup(3, seed).chain_card, game.setup(3, seed).pattern_card) for seed in range(12)}
    assert all(c in game.cards.chains and p in game.cards.patterns for c, p in drawn)
    assert len(drawn) > 3
    s = game.setup(3, 1, {"chain_card": "twin-pairs", "pattern_card": "isomers", "side": "B"})
    assert (s.chain_card, s.pattern_card, s.side) == ("twin-pairs", "isomers", "B")


def test_every_player_gets_a_different_board_all_on_one_side(game):
    """Setup 1: each player takes a board; all use the same side."""
    s = game.setup(8, 9, {"side": "B"})
    assert len({seat.board for seat in s.seats}) == 8 and s.side == "B"
    s = game.setup(2, 9, {"boards": ["C", "K"]})
    assert [seat.board for seat in s.seats] == ["C", "K"]


@pytest.mark.parametrize("players, options, words", [
    (0, None, "1 to 8 players"),
    (9, None, "1 to 8 players"),
    (2, {"side": "C"}, 'side "A" or "B"'),
    (2, {"boards": ["A", "A"]}, "different board"),
    (2, {"boxes": [1, 1]}, "box 1 holds 2 names"),
    (6, {"boxes": [0, 0, 0, 1, 2, 3]}, "at most 2"),
    (2, {"mode": "first_steps"}, "solo modes are for one player"),
    (2, {"colour": "red"}, "Unknown option"),
    (2, {"chain_card": "nope"}, "Unknown chain card"),
    (1, {"mode": "first_steps", "difficulty": "brutal"}, "easy, medium, hard"),
    (1, {"mode": "predictable", "project": "project-99"}, "Unknown Project card"),
    (1, {"mode": "predictable", "difficulty": 4}, "1, 2 or 3"),
    (2, "side A", "JSON object"),
])
def test_setup_refuses_what_the_box_cannot_give(game, players, options, words):
    with pytest.raises(IllegalAction, match=words):
        game.setup(players, 1, options)
