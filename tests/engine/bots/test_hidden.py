"""A bot never uses hidden information: given the same random stream, its
choice is the same on a state and on any resampling of what its seat may
not see (``resample_hidden``), at every level, in mid-game states where
something is hidden."""

from __future__ import annotations

import pytest

from engine.bots import LEVELS, Budget, choose
from engine.bots.stream import decision_rng
from engine.rng import Rng
from tests.engine.bots.conftest import table_size

RESAMPLES = (1, 77, 4242)
DEEP = Budget(iterations=6, depth=12, width=3, sample=3)
"""Rollouts long enough to meet what is hidden (a draw, a roll) in every
game: a planner that played its futures on the true state fails here."""


def mid_game_states(game, players: int, seed: int, every: int = 9, limit: int = 6):
    """States along a greedy game where a seat to move has a real choice."""
    state = game.setup(players, seed)
    rng = Rng(seed)
    out = []
    step = 0
    while not game.is_over(state) and len(out) < limit:
        movers = game.to_move(state)
        seat = movers[rng.below(len(movers))]
        if step % every == every - 1 and len(game.proposals(state, seat)) > 1:
            out.append((state, seat))
        state = game.apply(state, seat, choose(game, state, seat, "greedy", rng))
        step += 1
    return out


def test_there_are_states_to_look_at(game):
    assert len(mid_game_states(game, table_size(game), seed=8)) >= 3


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_choice_is_the_same_whatever_is_hidden(game, level):
    differed = 0
    for n, (state, seat) in enumerate(mid_game_states(game, table_size(game), seed=8)):
        mine = choose(game, state, seat, level, decision_rng(8, seat, n), DEEP)
        for k in RESAMPLES:
            other = game.resample_hidden(state, seat, k)
            differed += game.to_dict(other) != game.to_dict(state)
            assert choose(game, other, seat, level, decision_rng(8, seat, n), DEEP) == mine, (
                f"{level} chose differently when what seat {seat} cannot see was dealt again ({k})")
    assert differed, "the hidden parts never changed: the test would prove nothing"


def test_a_determinisation_depends_on_what_the_seat_sees_only(game):
    """The contract the bots rely on (``Game.resample_hidden``): resampling
    a resampled state gives the same state as resampling the first."""
    for state, seat in mid_game_states(game, table_size(game), seed=21):
        want = game.to_dict(game.resample_hidden(state, seat, 5))
        for k in RESAMPLES:
            again = game.resample_hidden(game.resample_hidden(state, seat, k), seat, 5)
            assert game.to_dict(again) == want
            game.check(again)
