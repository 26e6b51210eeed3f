"""What runs in a bot's worker process: one decision, from plain data.

Kept apart from the web side (no Flask, no database) so that a worker
process imports little, and so that a bot that crashes or runs wild takes
down its worker, never a table or a request: :mod:`companion.bots` starts
a new worker and asks again.
"""

from __future__ import annotations

import time
from typing import Any

from engine.bots import Budget, choose
from engine.core import Action, Game
from engine.descriptor import GameDescriptor
from engine.rng import Rng
from labkit.cardsets import new_game

_games: dict[str, Game] = {}
"""The rules of each game this worker has played, made once (a card set takes a while)."""


def think(descriptor: GameDescriptor, state: dict[str, Any], seat: int, level: str, seed: int,
          budget: Budget) -> Action:
    """The action ``level``'s bot of ``seat`` takes in ``state`` (``game.to_dict``
    of a state whose hidden parts were already dealt afresh for the seat, so
    this process never holds what the seat may not see), with every random
    choice from ``Rng(seed)``: the decision's own stream (engine.bots.stream).

    The descriptor comes with the question, not the game's name: a game
    registered for a test alone is not in a fresh process's registry.

    A budget with ``seconds`` (the hard bot's ``BOT_SECONDS``) is kept by
    this process's clock: a hard bot then moves within about that time on
    any machine, and its move is the iterations' own only when they all fit
    (the log replays either way)."""
    game = _games.get(descriptor.name)
    if game is None:
        game = _games[descriptor.name] = new_game(descriptor)
    clock = time.perf_counter if budget.seconds is not None else None
    return choose(game, game.from_dict(state), seat, level, Rng(seed), budget, clock)
