"""Synthesis tables built straight from the engine (no server), for tests of
what a phone shows at a given moment: a snapshot of any state, and a part
rendered for one seat as the house renders it, with the drawings kept
across snapshots (the game is made once per card set) or drawn afresh."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from flask import render_template

from companion.games.synthesis import drawn
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


@contextmanager
def afresh() -> Iterator[None]:
    """Every drawing made anew inside (none of those kept, which are back after)."""
    kept = drawn._drawn, drawn._worked
    drawn._drawn, drawn._worked = drawn._Shelf(kept[0].keep), drawn._Shelf(kept[1].keep)
    try:
        yield
    finally:
        drawn._drawn, drawn._worked = kept


def render(app: Any, snap: Snapshot, seat: int | None, template: str, error: dict | None = None) -> str:
    with app.test_request_context("/"):
        return render_template(template, snap=snap, game=snap.game, me=seat, error=error,
                               **board_context(snap, seat))


def render_parts(app: Any, snap: Snapshot, seat: int | None, templates: list[str]) -> list[str]:
    """Several parts for one seat, from one board context (as the house makes it once per version)."""
    with app.test_request_context("/"):
        context = board_context(snap, seat)
        return [render_template(t, snap=snap, game=snap.game, me=seat, error=None, **context) for t in templates]
