"""Building Molecules: atoms from the soup, by a face-up recipe, whole
molecules only; the tie for the most takes the recipe; the soup is refilled.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "nitrogen +nitrogen | hydrogen*2 +hydrogen | ; soup=CHHHHNNNOOOO; turn=2")
>>> [(a["recipe"], a["count"]) for a in builds(cards, s)]
[('graphite', 1), ('oxygen', 1), ('oxygen', 2), ('nitrogen', 1), ('hydrogen', 1), ('hydrogen', 2)]
>>> after = build(cards, s, 2, "nitrogen", 1)   # a tie with Player 1: take his recipe
>>> after.seats[2].recipes, after.seats[0].recipes, len(after.soup)
(['nitrogen'], [], 12)
"""

from __future__ import annotations

from engine.core import Action, IllegalAction
from engine.organicsoup.atoms import as_text, copies, in_words, of_text, sub, times
from engine.organicsoup.cards import SOUP, OrganicSoupCards
from engine.organicsoup.state import State


def builds(cards: OrganicSoupCards, state: State) -> list[Action]:
    """Every build the soup allows now: one action per face-up recipe and
    number of molecules."""
    soup = of_text(state.soup)
    out = []
    for rid in state.board():
        for k in range(1, copies(cards.recipe(rid).atoms, soup) + 1):
            out.append({"type": "build", "recipe": rid, "count": k})
    return out


def refusal(cards: OrganicSoupCards, state: State, seat: int, recipe: str, count: int) -> str | None:
    """Why ``seat`` may not build ``count`` molecules of ``recipe``, or ``None``."""
    r = cards.recipe(recipe)
    if not state.on_board(recipe):
        if recipe in state.seats[seat].hand:
            return (f"The {r.name} recipe is in your hand, not face up on the board: you build only from face-up "
                    "recipes (form it in a reaction first).")
        return f"The {r.name} recipe is not face up on the board: you build only from face-up recipes."
    soup = of_text(state.soup)
    can = copies(r.atoms, soup)
    if count > can:
        need = sub(times(r.atoms, count), soup)
        short = tuple(max(0, x) for x in need)
        return (f"{count} {r.name} molecules need {in_words(short)} more than the soup holds: "
                f"you can build at most {can}, and never part of a molecule.")
    return None


def replenish(state: State) -> None:
    """Replenish the soup: draw from the atom deck until there are twelve
    atoms in the soup again. As soon as the deck is depleted, the game ends
    (Ending the Game). Changes ``state`` in place.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> s = table(example_cards(), "| ; soup=CHHHHNNNOOOO")
    >>> s.soup, s.atoms = "CHHNNNOOOO", s.atoms[:2]    # two atoms built; two left in the deck
    >>> replenish(s)
    >>> len(s.soup), s.atoms, s.phase
    (12, '', 'over')
    """
    need = SOUP - len(state.soup)
    if need > 0:
        drawn, state.atoms = state.atoms[:need], state.atoms[need:]
        state.soup = "".join(sorted(state.soup + drawn))
    if not state.atoms:
        state.phase = "over"


def build(cards: OrganicSoupCards, state: State, seat: int, recipe: str, count: int) -> State:
    """The table after ``seat`` builds ``count`` molecules of ``recipe``;
    raises :class:`IllegalAction` if he may not. ``state`` is not changed."""
    reason = refusal(cards, state, seat, recipe, count)
    if reason:
        raise IllegalAction(reason)
    s = state.copy()
    s.soup = as_text(sub(of_text(s.soup), times(cards.recipe(recipe).atoms, count)))
    me = s.seats[seat]
    me.molecules[recipe] = me.molecules.get(recipe, 0) + count
    # If you tie for the most, take the recipe: "at least as many copies of
    # that molecule as anyone else".
    if recipe not in me.recipes and all(me.molecules[recipe] >= o.molecules.get(recipe, 0) for o in s.seats):
        owner = s.owner(recipe)
        if owner is None:
            s.middle.remove(recipe)
        else:
            s.seats[owner].recipes.remove(recipe)
        me.recipes.append(recipe)
    replenish(s)
    return s
