"""Starting the Game: spill the soup, lay out the basic recipes, deal the
simple recipes that choose the first player, then a complex and an
amino/nucleic recipe each.

>>> from engine.organicsoup.examples import example_cards
>>> s = setup(example_cards(), players=3, seed=7)
>>> len(s.soup), len(s.atoms), s.middle
(12, 102, ['graphite', 'hydrogen', 'nitrogen', 'oxygen'])
>>> [len(seat.hand) for seat in s.seats], s.turn == s.first
([3, 3, 3], True)
"""

from __future__ import annotations

from engine.organicsoup.cards import SOUP, OrganicSoupCards
from engine.organicsoup.state import Seat, State
from engine.rng import Rng

MIN_PLAYERS = 2
MAX_PLAYERS = 4
"""Two to four players: a reaction takes from "one other player", and the
box holds four turn sequence cards (design doc, reading 1)."""


def first_player(cards: OrganicSoupCards, dealt: list[str]) -> int:
    """Determine a starting player: "The player with the recipe ranked first
    alphabetically goes first." Names are compared as printed, ignoring case.

    >>> from engine.organicsoup.examples import example_cards
    >>> first_player(example_cards(), ["water", "carbon-suboxide", "methane"])
    1
    """
    return min(range(len(dealt)), key=lambda i: cards.recipe(dealt[i]).name.casefold())


def setup(cards: OrganicSoupCards, players: int, seed: int) -> State:
    """The state before the first turn, every shuffle drawn from ``seed``."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Organic Soup is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    rng = Rng(seed)
    # Spill the soup: shuffle the atom cards, twelve face up, the rest face down.
    atoms = [a.element for a in cards.atoms for _ in range(a.count)]
    rng.shuffle(atoms)
    soup, deck = "".join(sorted(atoms[:SOUP])), "".join(atoms[SOUP:])
    # Basic recipes available to all at start.
    middle = [r.id for r in cards.level("basic")]
    # Determine a starting player: one simple recipe each, face up.
    simple = [r.id for r in cards.level("simple")]
    rng.shuffle(simple)
    dealt, simple = simple[:players], simple[players:]
    first = first_player(cards, dealt)
    # Start with one of each type of recipe: a complex and an amino/nucleic each.
    complex_, amino = [r.id for r in cards.level("complex")], [r.id for r in cards.level("amino")]
    rng.shuffle(complex_)
    rng.shuffle(amino)
    seats = [Seat([dealt[i]], [], {}, True) for i in range(players)]
    for k in range(players):  # drawn in turn order, from the first player
        seat = seats[(first + k) % players]
        seat.hand += [complex_.pop(0), amino.pop(0)]
    return State(players=players, rng=rng.state, soup=soup, atoms=deck, middle=middle,
                 decks={"simple": simple, "complex": complex_, "amino": amino},
                 seats=seats, dealt=dealt, first=first, turn=first, phase="play")
