"""Property tests (Hypothesis): random legal games for 2 to 5 scientists and
every variant keep every invariant to the end; and what the shared
conformance suite checks (replay, JSON round trips, views that keep the
decks' order hidden, refusals that leave the state alone).

A random game ends by the rules, or is stopped by the driver's bound
(``engine.compounded.workloads.QUIET_ROUNDS``, not a rule): random players
can freeze the lab for good, and then the driver ends the game by
agreement, as a table would."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.compounded.invariants import gems
from engine.compounded.workloads import Quiet, random_game
from engine.core import IllegalAction, InvalidState
from tests.engine.compounded.helpers import GAME

VARIANTS = [(2, {}), (2, {"two_player_dish": False}), (3, {}), (4, {}), (5, {}), (3, {"no_trade": True}),
            (5, {"no_trade": True}), (3, {"lab_partners": True}), (4, {"lab_partners": True}),
            (5, {"lab_partners": True, "lead": 2})]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(players, seed, options, each=None, quiet=None):
    """Random legal actions to the end, or until the driver's bound stops the game (``quiet.stopped``)."""
    rng = random.Random(seed)
    quiet = quiet or Quiet()
    s = GAME.setup(players, seed, options)
    log = []
    while not GAME.is_over(s):
        if each:
            each(s, len(log))
        seat = rng.choice(GAME.to_move(s))
        actions = GAME.actions(s, seat)
        assert actions, f"seat {seat} is to move but has no action"
        action = rng.choice(actions)
        quiet.saw(s, action)
        s = GAME.apply(s, seat, action)
        log.append((seat, action))
        assert len(log) < 20_000
        s = quiet.stop(GAME, s) or s
    return s, log


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant_to_the_end(variant, seed):
    players, options = variant
    quiet = Quiet()

    def each(s, step):
        GAME.check(s)  # gems, cards, flames, tools, score markers on distinct spaces
        assert sum(gems(s).values()) == 90
        scores = [sc.score for sc in s.scientists if sc.score]
        assert len(scores) == len(set(scores))

    s, log = playout(players, seed, options, each, quiet)
    GAME.check(s)
    assert GAME.to_move(s) == [] and all(GAME.actions(s, seat) == [] for seat in range(players))
    result = GAME.result(s)
    for score in result.scores:
        assert score.total == sum(line.points for line in score.lines) == s.scientists[score.seat].score
    replayed = GAME.replay(players, seed, options, log)
    if quiet.stopped:  # the driver's bound, not a rule: the log holds no action for it
        replayed = GAME.end_by_agreement(replayed)
    assert GAME.to_dict(replayed) == GAME.to_dict(s)


@pytest.mark.parametrize("players,options", VARIANTS[:5])
def test_json_round_trips_and_hidden_decks(players, options):
    def each(s, step):
        if step % 5:
            return
        data = GAME.to_dict(s)
        assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(data)))) == data
        for seat in [None, *range(players)]:
            view = GAME.view(s, seat)
            json.dumps(view)
            assert GAME.view(GAME.resample_hidden(s, seat, 99), seat) == view

    playout(players, 11 + players, options, each)


def test_refused_garbage_leaves_the_state_unchanged():
    rng = random.Random(3)

    def each(s, step):
        if step % 7:
            return
        before = GAME.to_dict(s)
        mover = GAME.to_move(s)[0]
        for bad in ({"type": "no-such-action"}, {"type": 3}, {}, "place", {"type": "place", "element": "Xe", "cell": 0},
                    {"type": "claim", "token": 9, "cell": 0}, {"type": "score", "cell": -1}):
            with pytest.raises(IllegalAction):
                GAME.apply(s, mover, bad)
        others = [seat for seat in range(s.players) if seat not in GAME.to_move(s)]
        for seat in others:
            assert GAME.actions(s, seat) == []
            with pytest.raises(IllegalAction, match="not your turn"):
                GAME.apply(s, seat, {"type": "done"})
        assert GAME.to_dict(s) == before
        rng.random()

    playout(3, 5, {}, each)


def test_from_dict_rejects_garbage_naming_the_field():
    s = GAME.setup(3, 1)
    data = GAME.to_dict(s)
    with pytest.raises(InvalidState):
        GAME.from_dict({"nonsense": True})
    bad = json.loads(json.dumps(data))
    bad["scientists"][0]["bench"]["H"] = "many"
    with pytest.raises(InvalidState, match="scientists.0.bench.H"):
        GAME.from_dict(bad)
    bad = json.loads(json.dumps(data))
    bad["bag"]["H"] += 1
    with pytest.raises(InvalidState, match="element gems"):
        GAME.from_dict(bad)


def test_workload_games_end():
    assert GAME.is_over(random_game(GAME, 5, seed=4, options={"no_trade": True}))


def test_the_drivers_bound_stops_a_frozen_lab_and_says_so():
    """Seed 0 of four scientists with Lab Partners freezes: by round 32 every element the grid needs lies on
    other compounds and the bag is empty, so nothing can ever be placed and no rule ends the game. The
    driver's bound (QUIET_ROUNDS, not a rule) stops it, by agreement, and says why."""
    quiet = Quiet()
    s, log = playout(4, 0, {"lab_partners": True}, quiet=quiet)
    assert quiet.stopped and "driver" in quiet.stopped and "not a rule" in quiet.stopped
    assert GAME.is_over(s) and "agreed" in s.over and not s.bag
    GAME.check(s)
    quiet = Quiet()
    s = random_game(GAME, 3, seed=1, quiet=quiet)
    assert quiet.stopped is None and "agreed" not in s.over


ODD = [None, True, -1, 99, "X", "Ca", [], {}, [1], 2.5, "cell:0"]


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), odd=st.lists(st.sampled_from(ODD), min_size=1, max_size=4))
def test_any_field_of_the_wrong_kind_is_refused_in_words(seed, odd):
    """A phone may send anything: a legal action with one field changed is either legal or refused
    with IllegalAction, never another error, and the state is unchanged."""
    rng = random.Random(seed)
    s = GAME.setup(rng.choice([2, 3, 4]), seed)
    for _ in range(rng.randrange(0, 400)):
        if GAME.is_over(s):
            return
        seat = rng.choice(GAME.to_move(s))
        s = GAME.apply(s, seat, rng.choice(GAME.actions(s, seat)))
    if GAME.is_over(s):
        return
    seat = GAME.to_move(s)[0]
    before = GAME.to_dict(s)
    for action in GAME.actions(s, seat)[:12]:
        for key in action:
            for value in odd:
                bad = dict(action, **{key: value})
                try:
                    GAME.apply(s, seat, bad)
                except IllegalAction:
                    pass
    assert GAME.to_dict(s) == before
