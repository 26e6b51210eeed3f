"""Importing this registers Toy Race (``python -m companion --game-module tests.companion.toyplugin``)."""

from engine import GAMES, register

from tests.companion.toygame import ToyRace

if "toyrace" not in GAMES:
    register(ToyRace)
