"""Property tests (Hypothesis): random legal Organic Soup games, 2 to 4
players, played to the end, keep every invariant: the 114 atoms are always
all accounted for (soup, deck, molecules in front of players), no recipe is
ever duplicated or lost, no view shows another seat's hand, and nothing
illegal is accepted."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.organicsoup.atoms import add, of_text, total
from tests.engine.organicsoup.conftest import _CARDS as CARDS, _GAME as GAME, climber, uniform

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_RECIPES = Counter(r.id for r in CARDS.recipes)


def accounted(s) -> None:
    held = total((CARDS.recipe(r).atoms, k) for seat in s.seats for r, k in seat.molecules.items())
    assert add(add(of_text(s.soup), of_text(s.atoms)), held) == (27, 42, 18, 27)
    places = Counter(s.middle) + Counter(r for deck in s.decks.values() for r in deck)
    places += Counter(r for seat in s.seats for r in seat.hand + seat.recipes)
    assert places == ALL_RECIPES


def private(s) -> None:
    for seat in [None, *range(s.players)]:
        text = json.dumps(GAME.view(s, seat))
        for j, other in enumerate(s.seats):
            if j != seat:
                secret = [r for r in other.hand if r not in s.dealt]
                assert not any(f'"{r}"' in text for r in secret)
        assert GAME.view(GAME.resample_hidden(s, seat, len(text)), seat) == GAME.view(s, seat)


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), smart=st.booleans())
def test_random_legal_games_keep_every_invariant_to_the_end(players, seed, smart):
    rng = random.Random(seed)
    policy = climber if smart else uniform
    s = GAME.setup(players, seed)
    log = []
    while not GAME.is_over(s):
        GAME.check(s)
        accounted(s)
        if len(log) % 9 == 0:
            private(s)
        seat = GAME.to_move(s)[0]
        action = policy(rng, GAME, s, seat, GAME.actions(s, seat))
        s = GAME.apply(s, seat, action)  # never raises for an offered action
        log.append((seat, action))
        assert len(log) < 3000
    GAME.check(s)
    accounted(s)
    private(s)
    assert s.winner is not None or s.atoms == ""
    assert GAME.to_dict(GAME.replay(players, seed, None, log)) == GAME.to_dict(s)


ODD = st.sampled_from([None, True, "water", 2.5, [], -1, 99, {}])


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 40), kind=st.sampled_from(["build", "react", "swap", "keep", "lunch"]),
       recipe=st.one_of(st.sampled_from(sorted(ALL_RECIPES)), ODD), count=st.one_of(st.integers(-2, 8), ODD),
       seat=st.integers(0, 3), more=st.lists(st.tuples(st.integers(-1, 4), st.sampled_from(sorted(ALL_RECIPES)),
                                                         st.integers(0, 4)), max_size=4))
def test_anything_refused_leaves_the_state_alone(seed, kind, recipe, count, seat, more):
    """Any action, well formed or not, is applied or refused with
    IllegalAction; a refusal changes nothing; an accepted one keeps every invariant."""
    rng = random.Random(seed)
    s = GAME.setup(2 + seed % 3, seed)
    for _ in range(seed % 30):
        mover = GAME.to_move(s)[0]
        s = GAME.apply(s, mover, uniform(rng, GAME, s, mover, GAME.actions(s, mover)))
        if GAME.is_over(s):
            return
    action = {"type": kind}
    if kind in ("build", "swap"):
        action["recipe"] = recipe
    if kind == "build":
        action["count"] = count
    if kind == "react":
        action["ingredients"] = [{"seat": a, "recipe": r, "count": k} for a, r, k in more]
        action["products"] = {recipe if isinstance(recipe, str) else "water": count}
    before = GAME.to_dict(s)
    try:
        after = GAME.apply(s, seat % s.players, action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        GAME.check(after)
        accounted(after)
    assert GAME.to_dict(s) == before
