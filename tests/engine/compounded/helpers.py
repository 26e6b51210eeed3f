"""Shared by the Compounded tests (and the engine's doctests): the rulebook's
card set, read from its folder, and scenario builders."""

from __future__ import annotations

from pathlib import Path

from engine.compounded.cards import FILES, parse
from engine.compounded.game import Compounded
from engine.data import CardFiles

FOLDER = Path(__file__).resolve().parents[3] / "cardsdata" / "compounded"


def card_files(folder: Path = FOLDER, **replace: str) -> CardFiles:
    files = {n: (folder / n).read_bytes() for n in FILES}
    files.update({k.replace("__", "."): v.encode() for k, v in replace.items()})
    return CardFiles(files, "cardsdata/compounded")


CARDS = parse(card_files())
GAME = Compounded(CARDS)
RULES = GAME.rules


def fresh(players: int = 3, seed: int = 1, **options):
    return GAME.setup(players, seed, options or None)
