"""Always end a turn with one of each recipe type: draw what your hand
lacks, or, if it lacks nothing, you may swap one recipe for a new one.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "?water ?propane ?glycine | ?methane ?ethanol ?alanine")
>>> s = end_action(cards, s)          # the hand is full: the player may swap
>>> s.phase, [a["type"] for a in end_actions(cards, s)]
('end', ['swap', 'swap', 'swap', 'keep'])
>>> s = swap(cards, s, "water")
>>> s.turn, s.phase, "water" in s.seats[0].hand, s.decks["simple"][-1]
(1, 'play', False, 'water')
"""

from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.organicsoup.cards import LEVEL_NAMES, OrganicSoupCards
from engine.organicsoup.state import HAND_LEVELS, State


def _levels(cards: OrganicSoupCards, hand: list[str]) -> set[str]:
    return {cards.recipe(r).level for r in hand}


def next_turn(state: State) -> None:
    """Play proceeds in turns clockwise around the table (seat order)."""
    state.turn = (state.turn + 1) % state.players
    state.phase = "play"


def end_action(cards: OrganicSoupCards, state: State) -> State:
    """After building or reacting: draw "until he again has one of each type
    of recipe in his hand" and pass the turn on; if no draw was needed, wait
    for a swap or a keep. A deck that has run out cannot be drawn from: the
    hand stays short (design doc, reading 11). Changes ``state`` in place
    (it is the fresh copy the action made) and returns it."""
    if state.phase == "over":
        return state
    seat = state.seats[state.turn]
    missing = [level for level in HAND_LEVELS if level not in _levels(cards, seat.hand)]
    if not missing:
        state.phase = "end"
        return state
    for level in missing:
        if state.decks[level]:
            seat.hand.append(state.decks[level].pop(0))
    seat.hand.sort(key=lambda r: cards.recipe(r).rank)
    next_turn(state)
    return state


def end_actions(cards: OrganicSoupCards, state: State) -> list[Action]:
    """The choices at the end of a turn that needed no draw."""
    hand = state.seats[state.turn].hand
    out: list[Action] = [{"type": "swap", "recipe": r} for r in hand if state.decks[cards.recipe(r).level]]
    return out + [{"type": "keep"}]


def swap(cards: OrganicSoupCards, state: State, recipe: str) -> State:
    """"Place one of his three recipes on the bottom of its respective draw
    deck and draw a new one from the same deck to replace it." ``state`` is
    not changed."""
    seat = state.seats[state.turn]
    if recipe not in seat.hand:
        raise IllegalAction(f"{cards.recipe(recipe).name} is not in your hand.")
    level = cards.recipe(recipe).level
    if not state.decks[level]:
        raise IllegalAction(f"The {LEVEL_NAMES[level]} deck is empty: a swap would give you the same recipe back.")
    s = state.copy()
    me = s.seats[s.turn]
    me.hand.remove(recipe)
    s.decks[level].append(recipe)
    me.hand.append(s.decks[level].pop(0))
    me.hand.sort(key=lambda r: cards.recipe(r).rank)
    if level == "simple":
        me.shown = False
    next_turn(s)
    return s


def keep(state: State) -> State:
    """Keep the hand as it is and pass the turn on."""
    s = state.copy()
    next_turn(s)
    return s
