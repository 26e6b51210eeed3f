"""The game contract, as the shared conformance suite checks it, run here on
Synthesis for every player count: playouts to the end, JSON round trips,
replay equals live, views hide only the generator, garbage is refused
without change, scores are the sum of their lines."""

from __future__ import annotations

import json
import time

import pytest

from engine.core import IllegalAction, InvalidState
from tests.engine.synthesis.conftest import builder, playout


@pytest.mark.parametrize("players", range(1, 9))
def test_random_playouts_end_with_a_consistent_score(game, players):
    s, log = playout(game, players, 40 + players)
    game.check(s)
    assert game.is_over(s) and game.to_move(s) == []
    assert all(game.actions(s, i) == [] for i in range(players))
    result = game.result(s)
    assert len(result.scores) == players
    for score in result.scores:
        assert score.total == sum(line.points for line in score.lines)
        assert [line.key for line in score.lines] == ["elemental", "chains", "lines", "chain_card", "pattern_card"]
    json.dumps(result.to_dict())
    best = max(sc.total for sc in result.scores)
    assert result.winners and all(result.scores[w].total == best for w in result.winners)


@pytest.mark.parametrize("players", [1, 3, 8])
def test_json_round_trips_and_replay_equals_live(game, players):
    seen = []

    def round_trip(state):
        if len(seen) % 9 == 0:
            data = game.to_dict(state)
            back = game.from_dict(json.loads(json.dumps(data)))
            assert game.to_dict(back) == data
        seen.append(1)

    s, log = playout(game, players, 7 * players, each=round_trip)
    assert game.to_dict(game.replay(players, 7 * players, None, log)) == game.to_dict(s)
    half = game.replay(players, 7 * players, None, log[: len(log) // 2])
    for seat, action in log[len(log) // 2:]:
        half = game.apply(half, seat, action)
    assert game.to_dict(half) == game.to_dict(s)


def test_views_hide_only_the_next_rolls(game):
    def same_view(state):
        for seat in (None, 0, 1):
            view = game.view(state, seat)
            assert "rng" not in view
            json.dumps(view)
            assert game.view(game.resample_hidden(state, seat, 99), seat) == view
    playout(game, 2, 3, each=same_view)


def test_garbage_is_refused_and_leaves_the_state_unchanged(game):
    s = game.setup(2, 5)
    s = game.apply(s, game.to_move(s)[0], {"type": "roll"})
    before = game.to_dict(s)
    bad = [{}, {"type": 3}, {"type": "fly"}, {"type": "bond"}, {"type": "bond", "lines": "C4:E"},
           {"type": "bond", "lines": []}, {"type": "bond", "lines": ["Z9:E"]}, {"type": "bond", "lines": ["C4:Q"]},
           {"type": "bond", "lines": [None]}, {"type": "bond", "lines": ["C4:E"], "extra": 1},
           {"type": "free_bond", "line": "C4:E", "colour": "red"}, {"type": "elemental", "hexagon": "C4", "shade": True},
           {"type": "active_bond", "lines": ["C4:E"]}, {"type": "decline"}, {"type": "roll"}, {"type": "finish"},
           {"type": "choose_goals", "chain": "x", "pattern": "y"}, {"type": "pass"}, "roll", None]
    for action in bad:
        with pytest.raises(IllegalAction):
            game.apply(s, 0, action)
    with pytest.raises(IllegalAction):
        game.apply(s, 7, game.actions(s, 0)[0])
    assert game.to_dict(s) == before


def test_from_dict_rejects_garbage_and_broken_states(game):
    for data in ({"nonsense": True}, [], {"game": "labnotes"}):
        with pytest.raises(InvalidState):
            game.from_dict(data)
    s, _ = playout(game, 2, 11, policy=builder)
    good = game.to_dict(s)
    seat = good["seats"][0]
    assert seat["molecules"]
    tampered = []
    t = json.loads(json.dumps(good))
    t["seats"][0]["molecules"][0][2] += 1  # a volume that does not match the lines
    tampered.append(t)
    t = json.loads(json.dumps(good))
    t["seats"][0]["molecules"].pop()  # a closed hexagon with no molecule
    tampered.append(t)
    t = json.loads(json.dumps(good))
    t["seats"][0]["lines"] = t["seats"][0]["lines"][:-1]
    tampered.append(t)
    t = json.loads(json.dumps(good))
    t["seats"][0]["free_used"] = 99
    tampered.append(t)
    t = json.loads(json.dumps(good))
    t["seats"][1]["board"] = t["seats"][0]["board"]
    tampered.append(t)
    t = json.loads(json.dumps(good))
    t["turn"] = 29
    tampered.append(t)
    for t in tampered:
        with pytest.raises(InvalidState):
            game.from_dict(t)


def test_to_move_lists_everyone_with_something_left_this_turn(game):
    s = game.setup(4, 2)
    s = game.apply(s, game.to_move(s)[0], {"type": "roll"})
    assert game.to_move(s) == [i for i in range(4) if not s.seats[i].done]
    for seat in game.to_move(s):
        assert game.actions(s, seat)


def test_listed_placements_are_distinct_and_bounded(game):
    s, _ = playout(game, 1, 2)
    for seed in range(6):
        state = game.setup(3, seed)
        state = game.apply(state, game.to_move(state)[0], {"type": "roll"})
        for seat in range(3):
            drawings = [tuple(a["lines"]) for a in game.actions(state, seat) if a["type"] == "bond"]
            assert len(drawings) == len(set(drawings))
            f = game.rules.formula(state, seat)
            assert len(drawings) <= len(f.lattice.edges) * 12 * 12  # lines x turns x mutated shapes


def test_a_random_28_turn_game_is_fast(game):
    start = time.perf_counter()
    playout(game, 4, 1)
    assert time.perf_counter() - start < 1.0
