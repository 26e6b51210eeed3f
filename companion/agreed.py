"""What the table does as a whole, no seat's move: the end by agreement.

A game whose rules may let it go on for ever (players who may pass round
after round) offers ``Game.end_by_agreement``; the host then has a button
for it, to press when everyone at the table agrees to stop. It is not a
rule of the game. The log keeps it as a row of its own, with the seat
:data:`TABLE`, so that a replay of the log ends the game again at the same
point and the host's undo takes it back like any move.
"""

from __future__ import annotations

from typing import Any

from engine.core import Game

TABLE = -1
"""The seat the log names for what the table does as a whole."""
AGREED_END = {"type": "end_by_agreement"}


def replayed(game: Game, state: Any, seat: int, action: dict[str, Any]) -> Any:
    """The state after one logged row: a seat's action, or the table's end by agreement."""
    if seat == TABLE:
        return game.end_by_agreement(state)
    return game.apply(state, seat, action)

