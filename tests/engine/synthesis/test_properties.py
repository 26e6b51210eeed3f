"""Property tests (Hypothesis): random legal games with random mutations
never draw an illegal bond, record every closed hexagon exactly once, keep
every invariant, and refuse made-up actions without changing anything."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from tests.engine.synthesis.conftest import _REAL as GAME, builder

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.sampled_from([None, {"side": "B"}, {"first_game": True}])


def drawn_legally(game, before, seat, action, after) -> None:
    """What a bond action drew: only new lines, in the seat's formula, never
    over a line, each closed hexagon recorded once."""
    f = game.rules.formula(before, seat)
    old, new = before.seats[seat].lines, after.seats[seat].lines
    changed = [e for e in range(len(old)) if old[e] != new[e]]
    assert all(old[e] == "." for e in changed)
    assert not f.drawn(new) & f.layout.fixed
    if action["type"] in ("bond", "active_bond"):
        assert sorted(changed) == sorted(f.lattice.parse_edge(t) for t in action["lines"])
    closed = f.closed(new)
    recorded = [m.hexagon for m in after.seats[seat].molecules]
    assert sorted(recorded) == closed and len(set(recorded)) == len(recorded)


@SETTINGS
@given(players=st.integers(1, 8), seed=st.integers(0, 2 ** 32 - 1), options=OPTIONS, smart=st.booleans())
def test_random_legal_games_never_draw_an_illegal_bond(players, seed, options, smart):
    game = GAME
    rng = random.Random(seed)
    s = game.setup(players, seed, options)
    steps = 0
    while not game.is_over(s):
        seat = rng.choice(game.to_move(s))
        actions = game.actions(s, seat)
        action = builder(rng, game, s, seat, actions) if smart else rng.choice(actions)
        after = game.apply(s, seat, action)  # never raises for a listed action
        if action["type"] not in ("roll", "choose_goals"):
            drawn_legally(game, s, seat, action, after)
        for other in range(players):
            if other != seat:  # nobody else's board moves
                mine, theirs = after.seats[other], s.seats[other]
                assert (mine.lines, mine.molecules, mine.free_used) == (theirs.lines, theirs.molecules, theirs.free_used)
        s = after
        steps += 1
        if steps % 40 == 0:
            game.check(s)
            data = game.to_dict(s)
            assert game.to_dict(game.from_dict(json.loads(json.dumps(data)))) == data
    game.check(s)
    for score in game.result(s).scores:
        assert score.total == sum(line.points for line in score.lines)


ODD = st.sampled_from([None, True, 3, -1, "", "C4", "C4:E", "Z9:Q", [], {}, 2.5])
LINES = st.one_of(ODD, st.lists(st.one_of(ODD, st.sampled_from(["C4:E", "C4:NE", "D3:W", "A1:SE"])), max_size=4))


def made_up():
    return st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["roll", "finish", "pass", "decline"])}),
        st.fixed_dictionaries({"type": st.sampled_from(["bond", "active_bond"]), "lines": LINES}),
        st.fixed_dictionaries({"type": st.just("free_bond"), "line": ODD,
                               "colour": st.sampled_from(["red", "purple", None])}),
        st.fixed_dictionaries({"type": st.just("elemental"), "hexagon": ODD, "shade": ODD}),
        st.fixed_dictionaries({"type": st.just("choose_goals"), "chain": ODD, "pattern": ODD}),
        st.fixed_dictionaries({"type": st.sampled_from(["Bond", "fly", ""])}),
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 50), steps=st.integers(0, 60), action=made_up(), seat=st.integers(-1, 3))
def test_made_up_actions_are_refused_or_legal_and_never_change_the_given_state(seed, steps, action, seat):
    game = GAME
    rng = random.Random(seed)
    s = game.setup(3, seed)
    for _ in range(steps):
        if game.is_over(s):
            break
        mover = rng.choice(game.to_move(s))
        s = game.apply(s, mover, rng.choice(game.actions(s, mover)))
    before = game.to_dict(s)
    try:
        after = game.apply(s, seat, action)
    except IllegalAction as exc:
        assert str(exc)  # a sentence for the player
    else:
        assert action in game.actions(s, seat) or action["type"] in ("bond", "active_bond", "free_bond")
        game.check(after)
    assert game.to_dict(s) == before
