"""The game in words: each logged action told for the game log, and the
engine's sentences with the players' names (the referee's, in a module of
their own)."""

from __future__ import annotations

from typing import Any

from engine.core import Game
from companion import plugins
from companion.agreed import TABLE
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
    return (f"{player_name(game, names, seat)}: {plugins.action_label(game.name, action)}",)


def player_name(game: Game, names: list[str] | tuple[str, ...], seat: int) -> str:
    """A seat's player by name, or as the engine names a seat past the table's names."""
    return names[seat] if 0 <= seat < len(names) else game.seat_name(seat)


def agreed_end_words(game: Game, after: Any, names: list[str]) -> tuple[str, ...]:
    """The log's line for the end by agreement, with who won (one line: an undo's notice quotes it)."""
    result = game.result(after)
    said = "The host ended the game, as everyone agreed: it is scored as it stands"
    winners = [player_name(game, names, s) for s in result.winners]
    if winners:
        best = max(s.total for s in result.scores)
        who = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        said += f"; {who} {'wins' if len(winners) == 1 else 'share the win'} with {best} points"
    return (said + ".",)


def lines_of(log: tuple[tuple[str, ...], ...], events: Any = ()) -> tuple[str, ...]:
    """The log's lines, move after move, with each seat change (``(moves
    made before it, its words)``, :func:`companion.store_words.tell`) after
    the lines of the moves made before it.

    >>> lines_of((("Ada rolled.",), ("Bo bet.", "Bo leads.")), ((1, "The host handed Bo's seat to a bot."),))
    ('Ada rolled.', "The host handed Bo's seat to a bot.", 'Bo bet.', 'Bo leads.')
    """
    if not events:
        return tuple(line for lines in log for line in lines)
    out: list[str] = []
    pending = sorted(events, key=lambda e: e[0])
    k = 0
    for m, lines in enumerate(log):
        while k < len(pending) and pending[k][0] <= m:
            out.append(pending[k][1])
            k += 1
        out.extend(lines)
    out.extend(words for _, words in pending[k:])
    return tuple(out)


def named(sentence: str, snap: Snapshot) -> str:
    """The engine names seats as ``seat_name`` does ("Player 2"); players
    read their names."""
    for seat in range(len(snap.seats) - 1, -1, -1):  # "Player 10" before "Player 1"
        sentence = sentence.replace(snap.game.seat_name(seat), snap.name(seat))
    return sentence
