"""Property tests (Hypothesis): random legal Lab Notes games for 2 to 5 players
keep every invariant to the end, and nothing illegal is ever accepted."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from tests.engine.conftest import DESIGNED, FIRST_GAME, _GAME as GAME, builder, canonical, uniform

TOOL_OPTIONS = [{"first_game": True}, {"tools": list(DESIGNED)}, {}]
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def accounted(game, s) -> None:
    """Every die and notecard is in exactly one place, none lost or invented."""
    assert len(s.dice) == 6 and Counter(d.colour for d in s.dice) == {"white": 3, "yellow": 3}
    in_play = [d for d in s.dice if d.place != "box"]
    assert len(in_play) == s.players + 1
    cards = s.deck + s.line + s.discard
    assert len(cards) == len(set(cards)) == len(game.data.notecards) == 20


@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), options=st.sampled_from(TOOL_OPTIONS),
       smart=st.booleans())
def test_random_legal_games_keep_every_invariant_to_the_end(players, seed, options, smart):
    game = GAME
    rng = random.Random(seed)
    policy = builder if smart else uniform
    s = game.setup(players, seed, options)
    log = []
    while not game.is_over(s):
        game.check(s)
        accounted(game, s)
        seat = rng.choice(game.to_move(s))
        actions = game.actions(s, seat)
        action = policy(rng, game, s, seat, actions)
        s = game.apply(s, seat, action)  # never raises for a listed action
        log.append((seat, action))
        if len(log) % 25 == 0:
            data = game.to_dict(s)
            assert game.to_dict(game.from_dict(json.loads(json.dumps(data)))) == data
        assert len(log) < 3000
    game.check(s)
    accounted(game, s)
    assert all("." not in sh.spaces for sh in s.seats if "." not in sh.spaces) and any(
        "." not in sh.spaces for sh in s.seats)
    for score in game.result(s).scores:
        assert score.total == sum(line.points for line in score.lines)
    assert game.to_dict(game.replay(players, seed, options, log)) == game.to_dict(s)


@lru_cache(maxsize=1)
def sample_states():
    """States from all phases of builder playouts, for probing with bad actions."""
    out = []
    for seed in range(12):
        players = 2 + seed % 4
        rng = random.Random(seed)
        s = GAME.setup(players, seed, TOOL_OPTIONS[seed % 3])
        step = 0
        while not GAME.is_over(s):
            if step % 3 == 0 or s.phase in ("fire",) or s.seats[0].tools:
                out.append(s)
            seat = rng.choice(GAME.to_move(s))
            s = GAME.apply(s, seat, builder(rng, GAME, s, seat, GAME.actions(s, seat)))
            step += 1
        out.append(s)
    return out


ODD = st.sampled_from([None, True, "A1", 2.0, [], -1, 99])
ELEMENT = st.one_of(st.sampled_from(["H", "O", "N", "C"]), st.sampled_from(["X", "burner", "h"]), ODD)
SPACE = st.one_of(st.integers(-1, 36), ODD)
TOOL = st.one_of(st.sampled_from(FIRST_GAME + DESIGNED), st.just("hammer"), ODD)


def made_up():
    return st.one_of(
        st.just({"type": "roll"}),
        st.just({"type": "finish"}),
        st.fixed_dictionaries({"type": st.just("reroll"), "dice": st.lists(st.integers(-1, 6), max_size=4)}),
        st.fixed_dictionaries({"type": st.just("take_die"), "die": st.one_of(st.integers(-1, 6), ODD)}),
        st.fixed_dictionaries({"type": st.just("notate"), "element": ELEMENT, "space": SPACE}),
        st.fixed_dictionaries({"type": st.just("bond"), "spaces": st.lists(SPACE, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"type": st.just("trash"), "element": ELEMENT}),
        st.fixed_dictionaries({"type": st.just("burn"), "space": SPACE}),
        st.fixed_dictionaries({"type": st.just("choose_element"), "element": ELEMENT}),
        st.fixed_dictionaries({"type": st.just("use_tool"), "tool": TOOL}),
        st.fixed_dictionaries({"type": st.just("use_tool"), "tool": st.just("pipette"),
                               "spaces": st.lists(st.integers(0, 35), min_size=2, max_size=2)}),
        st.fixed_dictionaries({"type": st.just("use_tool"), "tool": st.just("mortar-and-pestle"),
                               "element": ELEMENT}),
        st.fixed_dictionaries({"type": st.just("claim"),
                               "notecard": st.sampled_from(sorted(GAME.rules.card_ids) + ["x", ""])}),
        st.fixed_dictionaries({"type": st.sampled_from(["fly", "", "Notate"])}),
    )


def mutated(data, s):
    """A legal action of some seat, with one field nudged (or given to another seat)."""
    seats = [seat for seat in range(s.players) if GAME.actions(s, seat)]
    if not seats:
        return None
    seat = data.draw(st.sampled_from(seats))
    action = dict(data.draw(st.sampled_from(GAME.actions(s, seat))))
    keys = [k for k in action if k != "type"]
    if keys and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(keys))
        value = action[key]
        if isinstance(value, int):
            action[key] = value + data.draw(st.sampled_from([-7, -6, -1, 1, 6, 7]))
        elif isinstance(value, list):
            action[key] = [v + data.draw(st.integers(-7, 7)) for v in value]
        else:
            action[key] = data.draw(ELEMENT)
    return action


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_exactly_the_listed_actions_are_accepted_and_refusals_change_nothing(data):
    states = sample_states()
    s = states[data.draw(st.integers(0, len(states) - 1))]
    action = mutated(data, s) if data.draw(st.booleans()) else None
    if action is None:
        action = data.draw(made_up())
    seat = data.draw(st.integers(0, s.players - 1))
    before = GAME.to_dict(s)
    legal = [canonical(a) for a in GAME.actions(s, seat)]
    try:
        after = GAME.apply(s, seat, action)
    except IllegalAction as exc:
        assert canonical(action) not in legal, f"listed action refused: {exc}"
        assert str(exc).strip()
    else:
        assert canonical(action) in legal, f"unlisted action accepted: {action}"
        GAME.check(after)
    assert GAME.to_dict(s) == before


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(["", "H", "x", "seat", "burner",
                 "methane", "lab-fire-1", "centrifuge", "HHHHHH", "......"]), st.just([]), st.just({}))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_reading_a_damaged_state_raises_invalid_state_or_gives_a_valid_one(data):
    """from_dict validates: any damage is an InvalidState naming a field, never a crash."""
    from engine.core import InvalidState

    states = sample_states()
    s = states[data.draw(st.integers(0, len(states) - 1))]
    raw = json.loads(json.dumps(GAME.to_dict(s)))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_leaves(raw))))
        target = raw
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(JUNK)
    try:
        back = GAME.from_dict(raw)
    except InvalidState as exc:
        assert str(exc).strip()
    else:
        GAME.check(back)
        rng = random.Random(0)
        for _ in range(40):  # a state that reads back valid plays on
            if GAME.is_over(back):
                break
            seat = rng.choice(GAME.to_move(back))
            back = GAME.apply(back, seat, rng.choice(GAME.actions(back, seat)))
