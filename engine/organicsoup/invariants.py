"""What every legal Organic Soup state keeps. ``Game.check`` runs it, and
``from_dict`` runs it on every state read back: all 114 atoms accounted for
(soup, deck, molecules in front of players), every recipe in exactly one
place, molecules only of recipes on the board, the soup full while the game
runs.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "oxygen*2 | nitrogen")
>>> check(cards, s)
>>> s.soup = s.soup[1:]
>>> check(cards, s)
Traceback (most recent call last):
...
engine.core.InvalidState: soup: expected 12 atoms while the game runs, found 11
atoms: expected 114 atom cards in all (soup, deck and molecules), found 113
"""

from __future__ import annotations

from collections import Counter

from engine.core import InvalidState
from engine.organicsoup.atoms import add, of_text, total
from engine.organicsoup.cards import SOUP, OrganicSoupCards
from engine.organicsoup.setup import MAX_PLAYERS, MIN_PLAYERS, first_player
from engine.organicsoup.state import HAND_LEVELS, State


def _places(cards: OrganicSoupCards, s: State, problems: list[str]) -> None:
    """Every recipe card in exactly one place, and each place holds its kind."""
    places: list[tuple[str, str]] = [(r, "middle") for r in s.middle]
    for level in HAND_LEVELS:
        places += [(r, f"decks.{level}") for r in s.decks[level]]
    for i, seat in enumerate(s.seats):
        places += [(r, f"seats.{i}.hand") for r in seat.hand]
        places += [(r, f"seats.{i}.recipes") for r in seat.recipes]
    unknown = sorted({r for r, _ in places if r not in cards})
    if unknown:
        problems.append(f"recipes: unknown recipe(s) {', '.join(unknown)}")
        return
    seen = Counter(r for r, _ in places)
    twice = sorted(r for r, n in seen.items() if n > 1)
    lost = sorted(r.id for r in cards.recipes if r.id not in seen)
    if twice:
        problems.append(f"recipes: {', '.join(twice)} in more than one place")
    if lost:
        problems.append(f"recipes: {', '.join(lost)} in no place")
    for rid, where in places:
        level = cards.recipe(rid).level
        if where == "middle" and level != "basic":
            problems.append(f"middle: {rid} is a {level} recipe; only basic recipes start in the middle")
        if where.startswith("decks.") and where != f"decks.{level}":
            problems.append(f"{where}: {rid} is a {level} recipe")
        if where.endswith(".hand") and level not in HAND_LEVELS:
            problems.append(f"{where}: {rid} is a basic recipe, never in a hand")
        if where.endswith(".recipes") and level == "amino" and (s.life != rid or where != f"seats.{s.winner}.recipes"):
            problems.append(f"{where}: {rid} is amino/nucleic: only the molecule that created life is on the board")
    for i, seat in enumerate(s.seats):
        levels = [cards.recipe(r).level for r in seat.hand]
        if len(levels) != len(set(levels)):
            problems.append(f"seats.{i}.hand: two recipes of one level")


def _atoms(cards: OrganicSoupCards, s: State, problems: list[str]) -> None:
    held = (0, 0, 0, 0)
    board = set(s.board())
    for i, seat in enumerate(s.seats):
        for rid, k in seat.molecules.items():
            if rid not in cards:
                problems.append(f"seats.{i}.molecules: unknown molecule {rid}")
                continue
            if k < 1:
                problems.append(f"seats.{i}.molecules: {k} {rid}")
            if rid not in board:
                problems.append(f"seats.{i}.molecules: {rid} molecules, but its recipe is not on the board")
            held = total([(held, 1), (cards.recipe(rid).atoms, k)])
    if s.phase != "over" and len(s.soup) != SOUP:
        problems.append(f"soup: expected {SOUP} atoms while the game runs, found {len(s.soup)}")
    if add(add(of_text(s.soup), of_text(s.atoms)), held) != cards.atom_deck:
        found = len(s.soup) + len(s.atoms) + sum(held)
        problems.append(f"atoms: expected {cards.atom_cards} atom cards in all (soup, deck and molecules), "
                        + (f"found {found}" if found != cards.atom_cards else "found other elements"))


def _turn(cards: OrganicSoupCards, s: State, problems: list[str]) -> None:
    for field in ("first", "turn"):
        if not 0 <= getattr(s, field) < s.players:
            problems.append(f"{field}: seat {getattr(s, field)} is not at the table")
    if len(s.dealt) != s.players or len(set(s.dealt)) != s.players or any(
            r not in cards or cards.recipe(r).level != "simple" for r in s.dealt):
        problems.append(f"dealt: expected one different simple recipe per seat, found {s.dealt}")
    elif s.first != first_player(cards, s.dealt):
        problems.append("first: the first player holds the simple recipe first in alphabetical order")
    for i, seat in enumerate(s.seats):
        if seat.shown and i < len(s.dealt) and s.dealt[i] not in seat.hand:
            problems.append(f"seats.{i}.shown: the recipe dealt face up is no longer in the hand")
    if (s.winner is None) != (s.life is None):
        problems.append("winner, life: a winner by life and the molecule that made it go together")
    if s.winner is not None and (not 0 <= s.winner < s.players or s.phase != "over"):
        problems.append(f"winner: seat {s.winner} cannot have created life in this state")
    if s.phase == "over" and s.winner is None and s.atoms:
        problems.append("phase: the game ends by life or when the atom deck runs out")
    if s.phase != "over" and not s.atoms:
        problems.append("phase: the atom deck is empty, so the game is over")
    if s.phase == "end" and 0 <= s.turn < s.players and len(s.seats[s.turn].hand) != len(HAND_LEVELS):
        problems.append("phase: a swap is offered only to a player whose hand is full")


def check(cards: OrganicSoupCards, s: State) -> None:
    """Every invariant; all problems at once, as :class:`InvalidState`."""
    problems: list[str] = []
    if not MIN_PLAYERS <= s.players <= MAX_PLAYERS or len(s.seats) != s.players:
        raise InvalidState(f"players: {s.players} players with {len(s.seats)} seats "
                           f"(the game is for {MIN_PLAYERS} to {MAX_PLAYERS})")
    _places(cards, s, problems)
    if not problems:
        _atoms(cards, s, problems)
        _turn(cards, s, problems)
    if problems:
        raise InvalidState("\n".join(problems))
