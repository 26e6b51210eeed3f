"""Figures for ``make bench``: one random game played to the end.

>>> from tests.engine.compounded.helpers import GAME
>>> sorted(workloads(GAME))
['random game, 2 scientists, games', 'random game, 4 scientists, Lab Partners, games']
>>> GAME.is_over(random_game(GAME, 3, seed=1))
True
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.rng import Rng

MAX_ACTIONS = 50_000
"""A bound, not a rule: a random game that has not ended by then is a bug."""


def random_game(game, players: int, seed: int, options: Mapping[str, Any] | None = None):
    """A game of uniformly random legal choices, to the end."""
    rng = Rng(seed)
    s = game.setup(players, seed, options)
    for _ in range(MAX_ACTIONS):
        if game.is_over(s):
            return s
        seat = rng.choice(game.to_move(s))
        s = game.apply(s, seat, rng.choice(game.actions(s, seat)))
    raise RuntimeError(f"no end after {MAX_ACTIONS} actions")


def workloads(game) -> dict[str, Callable[[], int]]:
    """Each returns how many units it did (one game), as the bench counts them."""
    counter = iter(range(1, 1 << 30))

    def games(players: int, options: Mapping[str, Any] | None = None) -> Callable[[], int]:
        def one() -> int:
            random_game(game, players, next(counter), options)
            return 1
        return one

    return {
        "random game, 2 scientists, games": games(2),
        "random game, 4 scientists, Lab Partners, games": games(4, {"lab_partners": True}),
    }
