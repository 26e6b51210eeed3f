"""A table set up as a test, an example or a paper referee wants it: who
has which molecules and recipes, the rest of the cards where setup would
put them. A scenario fits on one line (python-chess's FEN habit):

* seats are separated by ``|``, from seat 0;
* ``oxygen*2`` is two Oxygen molecules in front of that player (``oxygen``
  alone is one), ``+oxygen`` the Oxygen recipe in front of him, ``?water``
  the Water recipe in his hand;
* after a ``;``, ``soup=CHHO...`` sets the soup and ``turn=2`` whose turn it is.

>>> from engine.organicsoup.examples import example_cards
>>> s = table(example_cards(), "oxygen*2 ?nitric-oxide | nitrogen*2 +nitrogen | nitrogen; turn=0")
>>> s.seats[1].molecules, s.seats[1].recipes, s.middle
({'nitrogen': 2}, ['nitrogen'], ['graphite', 'hydrogen', 'oxygen'])
>>> len(s.soup) + len(s.atoms) + 2 * 2 + 2 * 3
114
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from engine.organicsoup.atoms import ELEMENTS, as_text, fits, in_words, of_text, sub, total
from engine.organicsoup.cards import SOUP, OrganicSoupCards
from engine.organicsoup.setup import first_player
from engine.organicsoup.state import HAND_LEVELS, Seat, State
from engine.rng import Rng


def build_table(cards: OrganicSoupCards, seats: Sequence[Mapping], turn: int = 0, soup: str | None = None,
                seed: int = 0) -> State:
    """A state from each seat's ``molecules`` ({recipe: count}), ``recipes``
    (in front of him) and ``hand``; atoms and recipes not named go where
    setup puts them, shuffled with ``seed``. Raises ``ValueError`` for a
    table the cards cannot make.

    >>> from engine.organicsoup.examples import example_cards
    >>> build_table(example_cards(), [{"molecules": {"propane": 1}}, {}])
    Traceback (most recent call last):
    ...
    ValueError: seat 0 has Propane molecules, but its recipe is not on the board
    """
    players = len(seats)
    problems: list[str] = []
    placed: dict[str, str] = {}
    for i, seat in enumerate(seats):
        for where in ("recipes", "hand"):
            for rid in seat.get(where, ()):
                if rid not in cards:
                    problems.append(f"there is no recipe called {rid!r}")
                elif rid in placed:
                    problems.append(f"the {cards.recipe(rid).name} recipe is in two places")
                else:
                    placed[rid] = f"{where} {i}"
                    if where == "hand" and cards.recipe(rid).level not in HAND_LEVELS:
                        problems.append(f"{cards.recipe(rid).name} is a basic recipe: basic recipes are never in a hand")
        levels = [cards.recipe(r).level for r in seat.get("hand", ()) if r in cards]
        if len(levels) != len(set(levels)):
            problems.append(f"seat {i} holds two recipes of one level in hand")
    rest_basic = [r.id for r in cards.level("basic") if r.id not in placed]
    board = set(rest_basic) | {r for s in seats for r in s.get("recipes", ())}
    used = (0, 0, 0, 0)
    for i, seat in enumerate(seats):
        for rid, k in seat.get("molecules", {}).items():
            if rid not in cards:
                problems.append(f"there is no molecule called {rid!r}")
            elif rid not in board:
                problems.append(f"seat {i} has {cards.recipe(rid).name} molecules, but its recipe is not on the board")
            else:
                used = total([(used, 1), (cards.recipe(rid).atoms, k)])
    deck = cards.atom_deck
    if not fits(used, deck):
        over = tuple(max(0, u - d) for u, d in zip(used, deck))
        problems.append(f"the molecules hold {in_words(over)} more than the atom deck has")
    if soup is not None and (set(soup) - set(ELEMENTS) or not fits(of_text(soup), sub(deck, used))):
        problems.append(f"the soup {soup!r} cannot be made of the atoms left")
    if problems:
        raise ValueError("; ".join(problems))
    rng = Rng(seed)
    left = list(as_text(sub(deck, used)))
    if soup is not None:
        left = list(as_text(sub(sub(deck, used), of_text(soup))))
    rng.shuffle(left)
    if soup is None:
        soup, left = "".join(left[:SOUP]), left[SOUP:]
    decks = {}
    for level in HAND_LEVELS:
        pile = [r.id for r in cards.level(level) if r.id not in placed]
        rng.shuffle(pile)
        decks[level] = pile
    # Setup's face-up deal is history here: each seat is said to have been
    # dealt the simple recipe in its hand, or else one nobody holds.
    simple = [r.id for r in cards.level("simple")]
    held = [next((r for r in s.get("hand", ()) if r in simple), None) for s in seats]
    spare = iter(r for r in simple if r not in held)
    dealt = [r if r is not None else next(spare) for r in held]
    out = [Seat(sorted(s.get("hand", ()), key=lambda r: cards.recipe(r).rank), list(s.get("recipes", ())),
                {r: k for r, k in s.get("molecules", {}).items() if k}, False) for s in seats]
    return State(players=players, rng=rng.state, soup="".join(sorted(soup)), atoms="".join(left),
                 middle=rest_basic, decks=decks, seats=out, dealt=dealt, first=first_player(cards, dealt), turn=turn,
                 phase="play")


_MOLECULE = re.compile(r"^([a-z0-9][a-z0-9-]*)(?:\*(\d+))?$")


def table(cards: OrganicSoupCards, text: str, seed: int = 0) -> State:
    """A state from one line (the module's notation)."""
    seats_text, *options = text.split(";")
    seats = []
    for part in seats_text.split("|"):
        seat: dict = {"molecules": {}, "recipes": [], "hand": []}
        for token in part.split():
            if token[0] in "+?":
                seat["recipes" if token[0] == "+" else "hand"].append(token[1:])
                continue
            m = _MOLECULE.match(token)
            if not m:
                raise ValueError(f"cannot read {token!r}: expected molecule, molecule*2, +recipe or ?recipe")
            seat["molecules"][m.group(1)] = seat["molecules"].get(m.group(1), 0) + int(m.group(2) or 1)
        seats.append(seat)
    fields = dict(o.strip().split("=", 1) for o in options if o.strip())
    unknown = set(fields) - {"soup", "turn"}
    if unknown:
        raise ValueError(f"unknown scenario field(s) {sorted(unknown)}: expected soup= or turn=")
    return build_table(cards, seats, int(fields.get("turn", 0)), fields.get("soup"), seed)

