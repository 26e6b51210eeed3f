"""What a phone offers the player to move: every build, a few concrete legal
reactions found by the finder, and the end-of-turn choices.

A reaction's free choice of ingredients and products cannot be listed in
full, so :func:`proposals` offers a bounded handful, aimed the way a player
aims: at a recipe in hand (highest level first), then at a recipe on the
board he does not hold, then at breaking a molecule down. Any other legal
reaction can still be sent as a ``react`` action; :func:`reaction_form`
tells a phone what it may be made of.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "oxygen*2 +oxygen ?nitric-oxide | nitrogen*2 +nitrogen | nitrogen")
>>> proposals(cards, s, 0)          # Player 3's Nitrogen is unguarded, Player 2's is not
[Reaction(ingredients=((0, 'oxygen', 1), (2, 'nitrogen', 1)), products=(('nitric-oxide', 2),))]
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from engine.organicsoup.atoms import Vec, in_words
from engine.organicsoup.cards import OrganicSoupCards, Recipe
from engine.organicsoup.finder import SearchTooLong, find_products, total_atoms
from engine.organicsoup.reactions import Reaction, hand_levels, ingredient_refusals, refusals
from engine.organicsoup.state import State

MAX_PROPOSALS = 6
"""Reactions offered at once: a bound, not a rule (any legal reaction may be sent)."""
MAX_GOALS = 8
SEARCH_BUDGET = 3000
"""Search steps per proposal: a proposal the finder cannot settle quickly is
simply not offered (the finder itself, asked directly, has no bound)."""


def formable(cards: OrganicSoupCards, state: State, seat: int) -> list[Recipe]:
    """The recipes ``seat`` may form in a reaction now: every recipe on the
    board, and those in his hand whose level his recipes allow.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> [r.id for r in formable(cards, table(cards, "+oxygen ?water ?propane | +methane"), 0)]
    ['graphite', 'hydrogen', 'nitrogen', 'oxygen', 'methane', 'water']
    """
    me = state.seats[seat]
    levels = hand_levels(cards, me.recipes)
    out = [cards.recipe(r) for r in state.board()]
    out += [cards.recipe(r) for r in me.hand if cards.recipe(r).level in levels]
    return out


def unguarded(state: State, seat: int) -> dict[str, int]:
    """Molecules of ``seat`` that another player may take: those "not
    accompanied by their corresponding recipe".

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> unguarded(table(example_cards(), "| water*2 hydrogen*2 +water"), 1)
    {'hydrogen': 2}
    """
    other = state.seats[seat]
    return {r: k for r, k in other.molecules.items() if r not in other.recipes}


def pools(state: State, seat: int) -> list[dict[tuple[int, str], int]]:
    """The ingredients a reaction may draw on: his own molecules alone, then
    his own with each opponent's unguarded ones."""
    own = {(seat, r): k for r, k in state.seats[seat].molecules.items()}
    out = [own]
    for j in range(state.players):
        free = unguarded(state, j) if j != seat else {}
        if free:
            out.append({**own, **{(j, r): k for r, k in free.items()}})
    return out


def reaction_form(cards: OrganicSoupCards, state: State, seat: int) -> dict[str, Any]:
    """What a free ``react`` action may name now, for a phone's form: his
    own molecules, each opponent's unguarded ones, the recipes he may form."""
    return {"own": dict(sorted(state.seats[seat].molecules.items())),
            "opponents": {str(j): dict(sorted(unguarded(state, j).items()))
                          for j in range(state.players) if j != seat and unguarded(state, j)},
            "products": [r.id for r in formable(cards, state, seat)]}


def _cover(goal: Vec, pool: dict[tuple[int, str], int], cards: OrganicSoupCards) -> dict[tuple[int, str], int] | None:
    """A few ingredients whose atoms hold ``goal``: greedily the molecule
    that covers most of what is still needed, wasting least."""
    need = list(goal)
    left = dict(pool)
    chosen: dict[tuple[int, str], int] = {}
    while any(need):
        best, score = None, (0, 0)
        for key, k in sorted(left.items()):
            if not k:
                continue
            v = cards.recipe(key[1]).atoms
            useful = sum(min(n, x) for n, x in zip(need, v))
            s = (useful, -(sum(v) - useful))
            if useful and s > score:
                best, score = key, s
        if best is None:
            return None
        left[best] -= 1
        chosen[best] = chosen.get(best, 0) + 1
        v = cards.recipe(best[1]).atoms
        need = [max(0, n - x) for n, x in zip(need, v)]
    return chosen


def _reaction(chosen: dict[tuple[int, str], int], products: dict[str, int]) -> Reaction:
    return Reaction(tuple(sorted((s, r, k) for (s, r), k in chosen.items())), tuple(sorted(products.items())))


def _aimed(cards: OrganicSoupCards, state: State, seat: int, goal: Recipe, allowed: list[Recipe]) -> Iterator[Reaction]:
    for pool in pools(state, seat):
        pool = {key: k for key, k in pool.items() if key[1] != goal.id}
        chosen = _cover(goal.atoms, pool, cards)
        if chosen is None:
            continue
        for attempt in (chosen, {key: pool[key] for key in chosen}):  # the few, then all of those types
            types = {r for _, r in attempt}
            products = [r for r in allowed if r.id not in types]
            atoms = total_atoms(cards, _merge(attempt))
            try:
                found = find_products(atoms, products, require=goal, budget=SEARCH_BUDGET)
            except SearchTooLong:
                found = None
            if found:
                yield _reaction(attempt, found)
                break


def _merge(chosen: dict[tuple[int, str], int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for (_, r), k in chosen.items():
        out[r] = out.get(r, 0) + k
    return out


def _breakdowns(cards: OrganicSoupCards, state: State, seat: int, allowed: list[Recipe]) -> Iterator[Reaction]:
    """One of his own molecules broken into others: the simplest reaction."""
    for rid in sorted(state.seats[seat].molecules, key=lambda r: (-cards.recipe(r).size, r)):
        products = [r for r in allowed if r.id != rid]
        try:
            found = find_products(cards.recipe(rid).atoms, products, budget=SEARCH_BUDGET)
        except SearchTooLong:
            found = None
        if found:
            yield _reaction({(seat, rid): 1}, found)


def proposals(cards: OrganicSoupCards, state: State, seat: int, limit: int = MAX_PROPOSALS) -> list[Reaction]:
    """Up to ``limit`` legal reactions for ``seat``, each checked by the rules."""
    me = state.seats[seat]
    if not any(pools(state, seat)):  # nothing of his own, nothing unguarded: no reaction
        return []
    allowed = formable(cards, state, seat)
    levels = hand_levels(cards, me.recipes)
    goals = sorted((cards.recipe(r) for r in me.hand if cards.recipe(r).level in levels), key=lambda r: -r.rank)
    goals += sorted((cards.recipe(r) for r in state.board() if r not in me.recipes and cards.recipe(r).rank > 0),
                    key=lambda r: (-r.rank, r.id))
    out: list[Reaction] = []
    seen: set[Reaction] = set()

    def offer(candidates: Iterator[Reaction]) -> bool:
        for reaction in candidates:
            if reaction not in seen and not refusals(cards, state, seat, reaction):
                seen.add(reaction)
                out.append(reaction)
                if len(out) >= limit:
                    return True
        return False

    for goal in goals[:MAX_GOALS]:
        if offer(_aimed(cards, state, seat, goal, allowed)):
            return out
    offer(_breakdowns(cards, state, seat, allowed))
    return out


def complete(cards: OrganicSoupCards, state: State, seat: int, ingredients: Sequence[tuple[int, str, int]],
             wanted: Sequence[str] = (), names: Sequence[str] | None = None) -> tuple[Reaction | None, list[str]]:
    """The reaction finder for a phone's form: the products that use every
    atom of the chosen ingredients, among the recipes ``seat`` may form (and
    not an ingredient's type), or why there are none. The products wanted
    come first, then the highest recipe in his hand he may form.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> s = table(cards, "oxygen*2 +oxygen ?nitric-oxide | nitrogen*2 +nitrogen | nitrogen")
    >>> complete(cards, s, 0, [(0, "oxygen", 1), (2, "nitrogen", 1)])
    (Reaction(ingredients=((0, 'oxygen', 1), (2, 'nitrogen', 1)), products=(('nitric-oxide', 2),)), [])
    >>> complete(cards, s, 0, [(1, "nitrogen", 1)])[1]
    ["Player 2's Nitrogen molecules are guarded: the Nitrogen recipe is in front of Player 2."]
    >>> complete(cards, table(cards, "water +water"), 0, [(0, "water", 1)])[1]
    ['No reaction uses every atom of these ingredients (2 Hydrogen atoms and 1 Oxygen atom) in recipes you may form.']
    """
    merged: dict[tuple[int, str], int] = {}
    for who, rid, k in ingredients:
        merged[(who, rid)] = merged.get((who, rid), 0) + k
    chosen = tuple(sorted((who, rid, k) for (who, rid), k in merged.items()))
    reasons = ingredient_refusals(cards, state, seat, chosen, names)
    if reasons:
        return None, reasons
    types = {rid for _, rid, _ in chosen}
    allowed = [r for r in formable(cards, state, seat) if r.id not in types]
    atoms = total_atoms(cards, _merge({(who, rid): k for who, rid, k in chosen}))
    levels = hand_levels(cards, state.seats[seat].recipes)
    aims = [cards.recipe(r) for r in wanted if r in cards and cards.recipe(r) in allowed]
    aims += sorted((r for r in allowed if r.id in state.seats[seat].hand and r.level in levels), key=lambda r: -r.rank)
    for require in [*dict.fromkeys(aims), None]:
        found = find_products(atoms, allowed, require=require)
        if found:
            reaction = Reaction(chosen, tuple(sorted(found.items())))
            return reaction, refusals(cards, state, seat, reaction, names)
    return None, [f"No reaction uses every atom of these ingredients ({in_words(atoms)}) in recipes you may form."]
