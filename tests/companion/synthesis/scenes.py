"""Synthesis tables built straight from the engine (no server), for tests of
what a phone shows at a given moment: a snapshot of any state, and a part
rendered for one seat as the house renders it."""

from __future__ import annotations

from typing import Any

from flask import render_template

from companion.games.synthesis.board import board_context
from companion.snapshot import Snapshot
from engine.synthesis import GAME
from labkit.cardsets import new_game

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def game() -> Any:
    return new_game(GAME)


def snapshot(state: Any, players: int | None = None, moves: int = 0) -> Snapshot:
    g = game()
    n = players if players is not None else state.players
    seats = [{"seat": i, "name": NAMES[i], "token": ""} for i in range(n)]
    return Snapshot({"code": "SYNTH", "version": moves + 1, "moves": moves, "game": "synthesis"}, g, seats, state)


def render(app: Any, snap: Snapshot, seat: int | None, template: str, error: dict | None = None) -> str:
    with app.test_request_context("/"):
        return render_template(template, snap=snap, game=snap.game, me=seat, error=error,
                               **board_context(snap, seat))
