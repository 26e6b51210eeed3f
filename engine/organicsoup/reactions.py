"""Triggering a Reaction: ingredients from in front of you and from one
opponent, products from the board or from your hand, every atom accounted for.

A reaction is written as JSON (the ``react`` action)::

    {"type": "react",
     "ingredients": [{"seat": 0, "recipe": "oxygen", "count": 1},
                     {"seat": 2, "recipe": "nitrogen", "count": 1}],
     "products": {"nitric-oxide": 2}}

:func:`refusals` gives every reason a reaction is not allowed, in a
player's words; :func:`react` carries out an allowed one.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "oxygen*2 ?nitric-oxide +oxygen | nitrogen*2 +nitrogen | nitrogen")
>>> guarded = read_reaction({"ingredients": [{"seat": 0, "recipe": "oxygen", "count": 1},
...     {"seat": 1, "recipe": "nitrogen", "count": 1}], "products": {"nitric-oxide": 2}}, cards, 3)
>>> refusals(cards, s, 0, guarded)
["Player 2's Nitrogen molecules are guarded: the Nitrogen recipe is in front of Player 2."]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.core import Action, IllegalAction
from engine.organicsoup.atoms import ZERO, in_words, sub, total
from engine.organicsoup.cards import LEVEL_NAMES, LEVELS, OrganicSoupCards
from engine.organicsoup.state import State


@dataclass(frozen=True)
class Reaction:
    ingredients: tuple[tuple[int, str, int], ...]
    """``(seat, recipe, count)``, one entry per seat and molecule type, sorted."""
    products: tuple[tuple[str, int], ...]
    """``(recipe, count)``, sorted."""

    def action(self) -> Action:
        """The ``react`` action that names this reaction."""
        return {"type": "react",
                "ingredients": [{"seat": s, "recipe": r, "count": k} for s, r, k in self.ingredients],
                "products": dict(self.products)}

    def sources(self) -> list[int]:
        return sorted({s for s, _, _ in self.ingredients})


def _count(value: Any, where: str) -> int:
    if type(value) is not int or value < 1:
        raise IllegalAction(f"{where} must be a whole number of molecules, at least 1, found {value!r}.")
    return value


def _recipe(cards: OrganicSoupCards, value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in cards:
        raise IllegalAction(f"{where}: there is no recipe called {value!r}.")
    return value


def read_reaction(action: Mapping[str, Any], cards: OrganicSoupCards, players: int) -> Reaction:
    """The reaction an action names; raises :class:`IllegalAction` for one
    that is not written as a reaction (the rules are checked by :func:`refusals`)."""
    ingredients = action.get("ingredients")
    products = action.get("products")
    if not isinstance(ingredients, list):
        raise IllegalAction("A reaction needs its 'ingredients': a list of {seat, recipe, count}.")
    if not isinstance(products, Mapping):
        raise IllegalAction("A reaction needs its 'products': {recipe: count}.")
    merged: dict[tuple[int, str], int] = {}
    for i, entry in enumerate(ingredients):
        where = f"ingredient {i + 1}"
        if not isinstance(entry, Mapping) or set(entry) != {"seat", "recipe", "count"}:
            raise IllegalAction(f"{where} must be {{seat, recipe, count}}, found {entry!r}.")
        seat = entry["seat"]
        if type(seat) is not int or not 0 <= seat < players:
            raise IllegalAction(f"{where}: seat {seat!r} is not at the table.")
        key = (seat, _recipe(cards, entry["recipe"], where))
        merged[key] = merged.get(key, 0) + _count(entry["count"], f"{where}'s count")
    made = {}
    for rid, k in products.items():
        made[_recipe(cards, rid, "product")] = _count(k, f"the count of {rid}")
    return Reaction(tuple(sorted((s, r, k) for (s, r), k in merged.items())), tuple(sorted(made.items())))


def hand_levels(cards: OrganicSoupCards, recipes: Sequence[str]) -> set[str]:
    """The levels a player may form from his hand, given the recipes in front
    of him at the start of his turn: the level above each one he has.

    >>> from engine.organicsoup.examples import example_cards
    >>> sorted(hand_levels(example_cards(), ["oxygen", "water"]))
    ['complex', 'simple']
    """
    return {LEVELS[cards.recipe(r).rank + 1] for r in recipes if cards.recipe(r).rank + 1 < len(LEVELS)}


def _player(names: Sequence[str], seat: int, me: int) -> str:
    return "You" if seat == me else names[seat]


def _molecules(n: int, name: str) -> str:
    return f"{n} {name} molecule{'s' if n != 1 else ''}"


def ingredient_refusals(cards: OrganicSoupCards, state: State, seat: int,
                        ingredients: Sequence[tuple[int, str, int]], names: Sequence[str] | None = None) -> list[str]:
    """Every reason ``seat`` may not take these ingredients, whatever the
    products: none chosen, two opponents, molecules not held, guarded ones.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> ingredient_refusals(cards, table(cards, "oxygen | water*2 +water"), 0, [(1, "water", 1)])
    ["Player 2's Water molecules are guarded: the Water recipe is in front of Player 2."]
    """
    names = names or [f"Player {i + 1}" for i in range(state.players)]
    name = lambda rid: cards.recipe(rid).name  # noqa: E731
    out: list[str] = []
    if not ingredients:
        out.append("Choose at least one ingredient molecule.")
    opponents = sorted({s for s, _, _ in ingredients if s != seat})
    if len(opponents) > 1:
        out.append(f"Your ingredients come from {len(opponents)} opponents ("
                   + ", ".join(names[s] for s in opponents[:-1]) + f" and {names[opponents[-1]]}): "
                   "a reaction may take from only one other player.")
    for who, rid, k in ingredients:
        have = state.seats[who].molecules.get(rid, 0)
        if have < k:
            whose = _player(names, who, seat)
            verb = "have" if who == seat else "has"
            out.append(f"{whose} {verb} no {name(rid)} molecules." if not have
                       else f"{whose} {verb} only {_molecules(have, name(rid))}, not {k}.")
        if who != seat and rid in state.seats[who].recipes:
            out.append(f"{names[who]}'s {name(rid)} molecules are guarded: the {name(rid)} recipe is in "
                       f"front of {names[who]}.")
    return out


def refusals(cards: OrganicSoupCards, state: State, seat: int, reaction: Reaction,
             names: Sequence[str] | None = None) -> list[str]:
    """Every reason ``seat`` may not trigger ``reaction`` now, each a sentence
    for players; an empty list means it is allowed. ``state`` is the table at
    the start of the turn (a reaction is the whole of a turn's action).

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> s = table(cards, "water*2 +water | hydrogen")
    >>> refusals(cards, s, 0, Reaction(((0, "water", 2),), (("hydrogen", 2),)))
    ['2 Oxygen atoms are left over: the products must use every atom of the ingredients.']
    >>> refusals(cards, s, 0, Reaction(((0, "water", 2),), (("hydrogen", 2), ("oxygen", 1))))
    []
    """
    name = lambda rid: cards.recipe(rid).name  # noqa: E731
    out = ingredient_refusals(cards, state, seat, reaction.ingredients, names)
    me = state.seats[seat]
    allowed = hand_levels(cards, me.recipes)
    for rid, _ in reaction.products:
        r = cards.recipe(rid)
        if state.on_board(rid):
            continue
        if rid not in me.hand:
            out.append(f"{r.name} is not on the board or in your hand.")
        elif r.level not in allowed:
            below = LEVEL_NAMES[LEVELS[r.rank - 1]]
            out.append(f"{r.name} is {'an' if r.level == 'amino' else 'a'} {LEVEL_NAMES[r.level]} recipe: you may "
                       f"form it from your hand only if {'an' if below[0] in 'aeiou' else 'a'} {below} recipe was "
                       "in front of you at the start of your turn.")
    both = sorted({rid for _, rid, _ in reaction.ingredients} & {rid for rid, _ in reaction.products})
    for rid in both:
        out.append(f"{name(rid)} is both an ingredient and a product: a molecule type cannot be both.")
    given = total((cards.recipe(rid).atoms, k) for _, rid, k in reaction.ingredients)
    made = total((cards.recipe(rid).atoms, k) for rid, k in reaction.products)
    over = tuple(max(0, x) for x in sub(given, made))
    short = tuple(max(0, x) for x in sub(made, given))
    if over != ZERO and reaction.ingredients:
        out.append(f"{in_words(over)} {'is' if sum(over) == 1 else 'are'} left over: the products must use every "
                   "atom of the ingredients.")
    if short != ZERO:
        out.append(f"The products need {in_words(short)} more than the ingredients hold: no atoms may be added "
                   "from the soup.")
    return out


def check(cards: OrganicSoupCards, state: State, seat: int, reaction: Reaction,
          names: Sequence[str] | None = None) -> None:
    """Raise :class:`IllegalAction` with every reason, if there is one."""
    reasons = refusals(cards, state, seat, reaction, names)
    if reasons:
        raise IllegalAction(" ".join(reasons))


def take_leads(state: State) -> None:
    """If a player has the most, he takes the recipe: "If as of the result
    of a reaction any player has strictly more of a molecule than any other
    player and he does not have the recipe for that molecule, he takes the
    recipe". Every recipe on the board is looked at, the middle's included
    (design doc, reading 6). Changes ``state`` in place.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> s = table(example_cards(), "oxygen | oxygen*2 | +oxygen")
    >>> take_leads(s)
    >>> s.seats[1].recipes, s.seats[2].recipes
    (['oxygen'], [])
    """
    for rid in state.board():
        counts = [seat.molecules.get(rid, 0) for seat in state.seats]
        best = max(counts)
        if best == 0 or counts.count(best) > 1:
            continue  # "If there is no one player with strictly more ... the recipe remains where it is"
        leader = counts.index(best)
        if rid in state.seats[leader].recipes:
            continue
        owner = state.owner(rid)
        if owner is None:
            state.middle.remove(rid)
        else:
            state.seats[owner].recipes.remove(rid)
        state.seats[leader].recipes.append(rid)


def react(cards: OrganicSoupCards, state: State, seat: int, reaction: Reaction) -> State:
    """The table after an allowed reaction (call :func:`check` first). The
    given state is not changed. The turn's end is not drawn here.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> s = table(cards, "oxygen*2 +oxygen ?nitric-oxide | nitrogen")
    >>> after = react(cards, s, 0, Reaction(((0, "oxygen", 1), (1, "nitrogen", 1)), (("nitric-oxide", 2),)))
    >>> after.seats[0].molecules, after.seats[0].recipes, after.seats[1].molecules
    ({'oxygen': 1, 'nitric-oxide': 2}, ['oxygen', 'nitric-oxide'], {})
    """
    s = state.copy()
    for who, rid, k in reaction.ingredients:
        mols = s.seats[who].molecules
        mols[rid] -= k
        if not mols[rid]:
            del mols[rid]
    me = s.seats[seat]
    for rid, k in reaction.products:
        me.molecules[rid] = me.molecules.get(rid, 0) + k
        if rid in me.hand:  # "he places any such recipes in front of him"
            me.hand.remove(rid)
            me.recipes.append(rid)
            if cards.recipe(rid).level == "simple":
                me.shown = False
    take_leads(s)
    life = [rid for rid, _ in reaction.products if cards.recipe(rid).level == "amino"]
    if life:  # Create life and win
        s.winner, s.life, s.phase = seat, life[0], "over"
    return s
