"""The framework's own parts on a game small enough to check by hand (Nim,
:mod:`engine.bots.examples`): streams, budgets, matches, the report's
arithmetic, and many games through a process pool."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.bots import Budget, choose
from engine.bots.arena import Match, play, play_many, rotations
from engine.bots.examples import Nim
from engine.bots.report import tally, wilson
from engine.bots.stream import decision_seed
from labkit.cardsets import NamedGame


def nim() -> Nim:
    return Nim()


def test_streams_differ_by_seed_seat_and_decision():
    seeds = {decision_seed(s, seat, n) for s in (1, 2) for seat in (0, 1) for n in range(50)}
    assert len(seeds) == 200
    assert decision_seed(1, 0, 0) == decision_seed(1, 0, 0)


def test_a_budget_refuses_what_it_cannot_do():
    for bad in (dict(iterations=0), dict(rollout="clever"), dict(select="best"), dict(width=0)):
        with pytest.raises(ValueError):
            Budget(**bad)


def test_a_match_names_a_level_per_seat():
    with pytest.raises(ValueError):
        Match(2, ("greedy",), 1)
    with pytest.raises(ValueError):
        Match(2, ("greedy", "genius"), 1)


def test_greedy_and_the_planner_know_nim_and_random_does_not():
    """From a heap of 5 the only winning move takes 1 (leave 4)."""
    game = nim()
    state = game.setup(2, 1, {"heap": 5})
    from engine.rng import Rng
    assert choose(game, state, 0, "greedy", Rng(1)) == {"type": "take", "n": 1}
    assert choose(game, state, 0, "planner", Rng(1), Budget(iterations=30, depth=0)) == {"type": "take", "n": 1}
    assert {choose(game, state, 0, "random", Rng(k))["n"] for k in range(20)} == {1, 2, 3}


def test_rotations_seat_every_level_in_every_seat():
    matches = rotations(2, ["random", "greedy"], 4, seed=10)
    assert [m.levels for m in matches] == [("random", "greedy"), ("greedy", "random")] * 2
    assert [m.seed for m in matches] == [10, 11, 12, 13]
    assert rotations(3, ["greedy"], 1, seed=0)[0].levels == ("greedy",) * 3


def test_the_report_splits_a_shared_win_and_counts_seats():
    games = play_many(nim, rotations(2, ["random", "greedy"], 10, seed=1))
    t = tally(games)
    assert t.games == 10 and sum(t.wins_by_level.values()) == pytest.approx(10)
    first = [r for r in games if r.match.levels[0] == "greedy"]
    assert all(r.winners == (0,) for r in first)  # moving first from 7, greedy never loses
    rate, low, high = t.win_rate("greedy")
    assert 0.5 <= rate and low < rate < high <= 1.0
    assert t.wins_by_seat.get(0, 0) + t.wins_by_seat.get(1, 0) == pytest.approx(10)
    assert wilson(5, 10)[0] < 0.5 < wilson(5, 10)[1]


def test_many_games_through_a_process_pool_match_one_process():
    matches = rotations(2, ["random", "greedy"], 4, seed=3)
    here = play_many(NamedGame("labnotes"), matches)
    with ProcessPoolExecutor(2) as pool:
        there = play_many(NamedGame("labnotes"), matches, map=pool.map)
    assert [r.log for r in there] == [r.log for r in here]
    assert [r.final for r in there] == [r.final for r in here]


def test_a_clock_times_the_decisions_that_had_a_choice():
    ticks = iter(range(10_000))
    record = play(nim(), Match(2, ("greedy", "greedy"), 1), clock=lambda: float(next(ticks)))
    assert record.times and all(seconds > 0 for _, seconds in record.times)
