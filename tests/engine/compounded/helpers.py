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


# --- scenarios -------------------------------------------------------------------
from engine.compounded.flow import run  # noqa: E402
from engine.compounded.state import Cell  # noqa: E402


def put(s, i: int, card: str, elements: dict | None = None, flames: int = 0, complete: bool = False):
    """Lay ``card`` on grid space ``i`` (taking it from wherever it was)."""
    old = s.grid[i].card
    for j, c in enumerate(s.grid):
        if c.card == card and j != i:  # swap the two cards
            c.card = old
            old = None
    for pile in (s.deck, s.lab_partner_deck, s.discard):
        if card in pile and old is None:
            pile.remove(card)
        elif card in pile:
            pile[pile.index(card)] = old
            old = None
    if old:
        s.discard.append(old)
    s.grid[i] = Cell(card, dict(elements or {}), flames, complete=complete)
    return s


def gems_from_bag(s, counts: dict) -> dict:
    for e, n in counts.items():
        s.bag[e] -= n
        if not s.bag[e]:
            del s.bag[e]
    return dict(counts)


def bench(s, seat: int, counts: dict):
    """Give ``seat`` exactly ``counts`` (their old gems go back to the bag)."""
    for e, n in s.scientists[seat].bench.items():
        s.bag[e] = s.bag.get(e, 0) + n
    s.scientists[seat].bench = gems_from_bag(s, counts)
    return s


def fill(s, i: int, counts: dict):
    """Put gems from the bag on the compound on space ``i``."""
    gems_from_bag(s, counts)
    for e, n in counts.items():
        s.grid[i].elements[e] = s.grid[i].elements.get(e, 0) + n
    return s


def at(s, *tasks):
    """Make ``tasks`` the agenda (then the rest of the round) and run to the first decision."""
    s.agenda = list(tasks)
    run(RULES, s)
    return s


def play(s, *steps):
    for seat, action in steps:
        s = GAME.apply(s, seat, action)
    return s


def cell_with(s, card: str) -> int:
    return next(i for i, c in enumerate(s.grid) if c.card == card)
