"""The rules of the four games: pure Python, no I/O in the rules, no Flask, no drawing.

Games are found through a registry, like python-chess's variants::

    >>> from engine import find_game
    >>> find_game("labnotes").title
    'Lab Notes'
"""

from __future__ import annotations

from pathlib import Path

from engine.core import Action, Game, IllegalAction, InvalidState, Result, RulesError, ScoreLine, SeatScore

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game findable by its ``name``."""
    if cls.name in GAMES and GAMES[cls.name] is not cls:
        raise ValueError(f"two games registered as {cls.name!r}")
    GAMES[cls.name] = cls
    return cls


def find_game(name: str) -> type[Game]:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"unknown game {name!r} (known: {known})") from None


def default_data_dir(name: str) -> Path:
    """The rulebook's card set, shipped in ``cardsdata/<name>``."""
    import cardsdata

    return Path(cardsdata.__file__).parent / name


# Games register themselves on import.
from engine import labnotes  # noqa: E402,F401

__all__ = ["Action", "Game", "GAMES", "IllegalAction", "InvalidState", "Result", "RulesError",
           "ScoreLine", "SeatScore", "default_data_dir", "find_game", "register"]
