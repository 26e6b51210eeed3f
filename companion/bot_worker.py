"""What runs in a bot's worker process: one decision, from plain data.

Kept apart from the web side (no Flask, no database) so that a worker
process imports little, and so that a bot that crashes or runs wild takes
down its worker, never a table or a request: :mod:`companion.bots` starts
a new worker and asks again.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import signal
import sys
import time
from typing import Any

from engine.bots import Budget, choose
from engine.core import Action, Game
from engine.descriptor import GameDescriptor
from engine.rng import Rng
from labkit.cardsets import new_game, open_zip

_games: dict[tuple[str, str | None], Game] = {}
"""The rules of each game and card set this worker has played, made once (a card set takes a while)."""
KEEP_GAMES = 16
"""...at most this many, the oldest forgotten first."""


def end_with_parent() -> None:
    """Run in each bot process as it starts: on Linux the kernel ends it when
    the serving process that started it ends, however that ends (a worker
    killed by gunicorn, or by kill -9): no thinking process outlives the
    server. Elsewhere nothing is done (the pool ends its processes when the
    serving process stops as it should)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C reaches the whole group: the server stops us
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    PR_SET_PDEATHSIG = 1
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def think(descriptor: GameDescriptor, state: dict[str, Any], seat: int, level: str, seed: int,
          budget: Budget, card_set: tuple[str, bytes] | None = None) -> Action:
    """The action ``level``'s bot of ``seat`` takes in ``state`` (``game.to_dict``
    of a state whose hidden parts were already dealt afresh for the seat, so
    this process never holds what the seat may not see), with every random
    choice from ``Rng(seed)``: the decision's own stream (engine.bots.stream).

    The descriptor comes with the question, not the game's name: a game
    registered for a test alone is not in a fresh process's registry. So
    does a table's custom card set, ``(hash, zip)``: the worker has no database.

    A budget with ``seconds`` (the hard bot's ``BOT_SECONDS``) is kept by
    this process's clock: a hard bot then moves within about that time on
    any machine, and its move is the iterations' own only when they all fit
    (the log replays either way)."""
    key = (descriptor.name, card_set[0] if card_set else None)
    game = _games.get(key)
    if game is None:
        # a custom set (its hash and zip, as the database keeps it: companion.card_sets)
        # or the game's own; a set's rules from its zip are checked as at upload
        while len(_games) >= KEEP_GAMES:
            _games.pop(next(iter(_games)))
        game = _games[key] = open_zip(card_set[1], f"{card_set[0][:12]}.zip", descriptor).play if card_set \
            else new_game(descriptor)
    clock = time.perf_counter if budget.seconds is not None else None
    return choose(game, game.from_dict(state), seat, level, Rng(seed), budget, clock)
