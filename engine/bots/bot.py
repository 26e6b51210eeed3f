"""Every level by name, and the one way to ask any of them for a move.

>>> from engine.bots.examples import Nim
>>> from engine.rng import Rng
>>> game = Nim()
>>> [choose(game, game.setup(2, 1), 0, level, Rng(3)) for level in LEVELS]
[{'type': 'take', 'n': 1}, {'type': 'take', 'n': 3}, {'type': 'take', 'n': 3}]
"""

from __future__ import annotations

from typing import Callable

from engine.bots.levels import Budget, Clock, play_greedy, play_random
from engine.bots.planner import plan
from engine.core import Action, Game
from engine.rng import Rng

LEVELS: dict[str, Callable[..., Action]] = {"random": play_random, "greedy": play_greedy, "planner": plan}
"""Every level by name, weakest first: the same names for every game."""


def choose(game: Game, state, seat: int, level: str, rng: Rng, budget: Budget | None = None,
           clock: Clock | None = None) -> Action:
    """The action the ``level`` bot of ``seat`` takes in ``state``. Every
    random choice comes from ``rng`` (see :mod:`engine.bots.stream`); a
    clock is needed only for a budget with ``seconds``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    return LEVELS[level](game, state, seat, rng, budget or Budget(), clock)
