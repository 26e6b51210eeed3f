"""One suite over every registered game (OpenSpiel's games_sim_test): seeded
random playouts to the end, JSON round trips along the way, replay equals
the live state, the score equals the sum of its breakdown, and no view shows
a secret. It uses only the contract in engine/core.py."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import Game, IllegalAction, InvalidState, Result
from engine.rng import Rng
from labkit import registry
from labkit.cardsets import new_game

NAMES = registry.names()
MAX_STEPS = 20_000


@pytest.fixture(scope="module", params=NAMES)
def game(request) -> Game:
    return new_game(registry.find(request.param))


def player_counts(game: Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def playout(game: Game, players: int, seed: int, every: int = 1, check_each=None):
    """A random game to the end; returns the final state and the action log.

    Random players may never end a game whose rules let it go on (a
    Compounded table where nobody scores, now that a burnt compound can
    cost points): one that offers an end by agreement is ended so after
    ``MAX_STEPS`` (a bound of this test, as the arena's, not a rule); any
    other game must end by its rules within it."""
    rng = random.Random(seed)
    state = game.setup(players, seed)
    log = []
    for step in range(MAX_STEPS + 1):
        if game.is_over(state):
            return state, log
        if step == MAX_STEPS and game.ends_by_agreement:
            return game.end_by_agreement(state), log
        movers = game.to_move(state)
        assert movers, "the game is not over, but nobody may act"
        seat = rng.choice(movers)
        actions = game.actions(state, seat)
        assert actions, f"seat {seat} is to move but has no action"
        action = rng.choice(actions)
        state = game.apply(state, seat, action)
        log.append((seat, action))
        if check_each and step % every == 0:
            check_each(state)
    raise AssertionError(f"no end after {MAX_STEPS} actions")


def test_registry_finds_the_game(game):
    found = registry.find(game.name)
    assert isinstance(game, type(new_game(found)))
    assert found.title == game.title and 1 <= found.min_players <= found.max_players
    with pytest.raises(KeyError):
        registry.find("no-such-game")


def test_setup_refuses_player_counts_outside_the_box(game):
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError):
            game.setup(players, 1)


@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_end_with_a_consistent_score(game, seed):
    for players in player_counts(game):
        state, log = playout(game, players, seed * 10 + players)
        game.check(state)
        assert game.is_over(state) and game.to_move(state) == []
        assert all(game.actions(state, s) == [] for s in range(players))
        result = game.result(state)
        assert isinstance(result, Result) and len(result.scores) == players
        for score in result.scores:
            assert score.total == sum(line.points for line in score.lines)
        best = max(s.total for s in result.scores)
        tied = [s.seat for s in result.scores if s.total == best]
        # the winners are among the best totals (a rulebook's tie-break may pick
        # some of them; each game's own tests check its tie-break), in seat order
        assert set(result.winners) <= set(tied) and list(result.winners) == sorted(set(result.winners))
        assert result.winners or players == 1, "a game with several players has a winner"  # solo can be lost
        json.dumps(result.to_dict())


@pytest.mark.parametrize("seed", range(2))
def test_json_round_trips_along_the_way(game, seed):
    def round_trip(state):
        data = game.to_dict(state)
        back = game.from_dict(json.loads(json.dumps(data)))
        assert game.to_dict(back) == data
        game.check(state)

    for players in player_counts(game):
        playout(game, players, 100 + seed * 10 + players, every=7, check_each=round_trip)


def test_replay_rebuilds_the_live_state(game):
    for players in player_counts(game):
        state, log = playout(game, players, 200 + players)
        replayed = game.replay(players, 200 + players, None, log)
        assert game.to_dict(replayed) == game.to_dict(state)
        half = game.replay(players, 200 + players, None, log[: len(log) // 2])
        for seat, action in log[len(log) // 2:]:
            half = game.apply(half, seat, action)
        assert game.to_dict(half) == game.to_dict(state)


def test_views_show_no_secrets(game):
    """view(state, seat) cannot tell state from a resampling of what seat cannot see."""
    for players in player_counts(game):
        def same_view(state, players=players):
            for seat in [None, *range(players)]:
                view = game.view(state, seat)
                json.dumps(view)
                assert game.view(game.resample_hidden(state, seat, 12345), seat) == view

        playout(game, players, 300 + players, every=5, check_each=same_view)


def test_a_move_that_draws_nothing_reads_nothing_of_the_generator(game):
    """A move that leaves the generator as it was gives the same table from
    a state that differs in its generator alone (the take-back check relies
    on it: companion/takeback.py, rule 3)."""
    other = Rng(2026).next64()
    drew_nothing = 0

    def probe(state):
        nonlocal drew_nothing
        data = game.to_dict(state)
        assert "rng" in data, "the state writes its generator as 'rng'"
        twin = game.from_dict({**data, "rng": other})
        for seat in game.to_move(state):
            for action in game.actions(state, seat)[:4]:
                after = game.to_dict(game.apply(state, seat, action))
                if after["rng"] != data["rng"]:
                    continue   # it drew: nothing to say
                drew_nothing += 1
                twin_after = game.to_dict(game.apply(twin, seat, action))
                assert twin_after["rng"] == other, f"{action} drew from the twin's generator only"
                assert {**twin_after, "rng": after["rng"]} == after, f"{action} read the generator"

    for players in (game.min_players, game.max_players):
        playout(game, players, 500 + players, every=4, check_each=probe)
    assert drew_nothing > 50


def test_actions_are_legal_and_others_are_refused_without_change(game):
    rng = random.Random(7)

    def probe(state):
        before = game.to_dict(state)
        movers = set(game.to_move(state))
        for seat in range(game.min_players):
            for action in game.actions(state, seat)[:3]:
                game.apply(state, seat, action)
        for seat in range(game.min_players):
            if seat not in movers:
                assert game.actions(state, seat) == []
        for bad in ({"type": "no-such-action"}, {"type": 3}, {}):
            with pytest.raises(IllegalAction):
                game.apply(state, rng.choice(sorted(movers) or [0]), bad)
        assert game.to_dict(state) == before

    playout(game, game.min_players, 400, every=3, check_each=probe)


def test_from_dict_rejects_garbage(game):
    with pytest.raises(InvalidState):
        game.from_dict({"nonsense": True})
