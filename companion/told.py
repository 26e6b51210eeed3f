"""The game in words: each logged action told for the game log, and the
engine's sentences with the players' names (the referee's, in a module of
their own)."""

from __future__ import annotations

from typing import Any

from engine.core import Game
from companion import plugins
from companion.agreed import TABLE, agreed_end_words
from companion.snapshot import Snapshot


def narrate(game: Game, before: Any, seat: int, action: dict[str, Any], after: Any,
            names: list[str]) -> tuple[str, ...]:
    """What an action did, in words, for the game log: the game's plugin
    tells it (``narrate``); otherwise the player and the action's label.
    The table's end by agreement is the house's own words."""
    if seat == TABLE:
        return agreed_end_words(game, after, names)
    plugin = plugins.plugin(game.name)
    if plugin.narrate is not None:
        return tuple(plugin.narrate(game, before, seat, action, after, names))
    name = names[seat] if 0 <= seat < len(names) else game.seat_name(seat)
    return (f"{name}: {plugins.action_label(game.name, action)}",)


def lines_of(log: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    return tuple(line for lines in log for line in lines)


def named(sentence: str, snap: Snapshot) -> str:
    """The engine names seats as ``seat_name`` does ("Player 2"); players
    read their names."""
    for seat in range(len(snap.seats) - 1, -1, -1):  # "Player 10" before "Player 1"
        sentence = sentence.replace(snap.game.seat_name(seat), snap.name(seat))
    return sentence
