"""The reaction finder: for chosen ingredients and the recipes a player may
form, is there a set of products that uses every atom, and which one?

It is a question about four numbers: how many molecules ``y`` of each
product type so that ``sum(y[p] * atoms[p]) == atoms of the ingredients``,
every ``y`` whole, none negative. :func:`find_products` answers it with a
depth-first search, then, should the search run long, with an exhaustive
table (:mod:`.table`), so the answer is always exact and the time bounded.
The search is fast on the largest recipes and a whole late game's
ingredients (``make bench`` prints the figure) because:

* products of one element (Graphite, Hydrogen, Nitrogen, Oxygen, Ozone) are
  not searched: what is left of each element is looked up in a small table
  of the counts they can make;
* it branches on the element hardest to place: one that the one-element
  products cannot finish, held by the fewest product types;
* a remainder is dropped at once when it lies outside the *lattice* of the
  types or breaks one of their atom *ratios* (:mod:`.cuts`), and a remainder
  shown impossible once is never searched again.

>>> from engine.organicsoup.examples import example_cards
>>> cards = example_cards()
>>> products = [cards.recipe(i) for i in ("propane", "nitrogen", "oxygen")]
>>> ingredients = total_atoms(cards, {"graphite": 3, "hydrogen": 4, "nitric-oxide": 2})
>>> find_products(ingredients, products)          # the rulebook's parallel reaction
{'propane': 1, 'nitrogen': 1, 'oxygen': 1}
>>> find_products(ingredients, products[:1]) is None   # Propane alone leaves N and O over
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from engine.organicsoup import table
from engine.organicsoup.atoms import ZERO, Vec, fits, sub
from engine.organicsoup.cards import OrganicSoupCards, Recipe
from engine.organicsoup.cuts import Ratios, echelon, in_lattice

SEARCH_STEPS = 4000
"""Search steps before the exhaustive table takes over (about 10 ms of search)."""


class SearchTooLong(Exception):
    """The search met its node budget before deciding (only with a budget)."""


def total_atoms(cards: OrganicSoupCards, molecules: Mapping[str, int]) -> Vec:
    """The atoms of some molecules, by recipe id and count: ``(C, H, N, O)``.

    >>> from engine.organicsoup.examples import example_cards
    >>> total_atoms(example_cards(), {"water": 2, "methane": 1})
    (1, 8, 0, 2)
    """
    c = h = n = o = 0
    for rid, k in molecules.items():
        a = cards.recipe(rid).atoms
        c, h, n, o = c + a[0] * k, h + a[1] * k, n + a[2] * k, o + a[3] * k
    return (c, h, n, o)


# --- the search ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Kind:
    atoms: Vec
    recipe: str
    """The first recipe offered with these atoms (isomers share a count)."""


def _slack_tables(singles: list[_Kind], target: Vec) -> list[list[int | None]]:
    """For each element, ``table[n]``: the index in ``singles`` of a
    one-element product that ends a way of making ``n`` atoms of it, ``-1``
    for none needed (n = 0), ``None`` if ``n`` cannot be made."""
    tables: list[list[int | None]] = []
    for e in range(4):
        table: list[int | None] = [None] * (target[e] + 1)
        table[0] = -1
        sizes = [(k.atoms[e], i) for i, k in enumerate(singles) if k.atoms[e]]
        for n in range(1, target[e] + 1):
            for size, i in sizes:
                if size <= n and table[n - size] is not None:
                    table[n] = i
                    break
        tables.append(table)
    return tables


def find_products(atoms: Vec, recipes: Sequence[Recipe], require: Recipe | None = None,
                  budget: int | None = None) -> dict[str, int] | None:
    """Products from ``recipes`` that use exactly ``atoms``, or ``None`` if no
    set of them does. With ``require``, at least one molecule of that recipe
    is among them. Earlier recipes are preferred among isomers; larger
    molecules are tried first. With a ``budget`` of search steps, a search
    that runs longer raises :class:`SearchTooLong` (quick offers use this);
    without one, the exhaustive table settles it.

    >>> from engine.organicsoup.examples import example_cards
    >>> cards = example_cards()
    >>> allowed = [cards.recipe(i) for i in ("nitric-oxide", "water")]
    >>> find_products((0, 0, 2, 2), allowed)
    {'nitric-oxide': 2}
    >>> find_products((0, 0, 3, 2), allowed) is None
    True
    """
    result: dict[str, int] = {}
    if require is not None:
        if not fits(require.atoms, atoms):
            return None
        atoms = sub(atoms, require.atoms)
        result[require.id] = 1
    if min(atoms) < 0:
        return None
    kinds: dict[Vec, _Kind] = {}
    for r in recipes:
        if r.atoms != ZERO and r.atoms not in kinds and fits(r.atoms, atoms):
            kinds[r.atoms] = _Kind(r.atoms, r.id)
    singles = [k for k in kinds.values() if sum(1 for x in k.atoms if x) == 1]
    singles.sort(key=lambda k: -sum(k.atoms))  # Oxygen before Ozone, so pairs come first
    multi = sorted((k for k in kinds.values() if sum(1 for x in k.atoms if x) > 1), key=lambda k: -sum(k.atoms))
    try:
        found = _search(atoms, singles, multi, SEARCH_STEPS if budget is None else budget)
    except SearchTooLong:
        if budget is not None:
            raise
        found = _from_table(atoms, singles, multi)
    if found is None:
        return None
    for rid, k in found.items():
        result[rid] = result.get(rid, 0) + k
    return result


def _leftovers(rest: Vec, singles: list[_Kind], tables: list[list[int | None]], out: dict[str, int]) -> None:
    """Fill what is left of each element with one-element products."""
    for e in range(4):
        left = rest[e]
        while left:
            i = tables[e][left]
            assert i is not None and i >= 0
            kind = singles[i]
            out[kind.recipe] = out.get(kind.recipe, 0) + 1
            left -= kind.atoms[e]


def _search(target: Vec, singles: list[_Kind], multi: list[_Kind], budget: int) -> dict[str, int] | None:
    tables = _slack_tables(singles, target)
    everything = [k.atoms for k in singles] + [k.atoms for k in multi]
    lattice = echelon(everything)
    ratios = Ratios(everything)
    holding = [[k for k in multi if k.atoms[e]] for e in range(4)]
    failed: set[Vec] = set()
    used: list[_Kind] = []
    rest: list[Vec] = []
    steps = 0

    def dfs(r: Vec) -> bool:
        nonlocal steps
        # Elements the one-element products cannot finish: some molecule of
        # another type must still hold one of their atoms.
        hard = [e for e in range(4) if tables[e][r[e]] is None]
        if not hard:
            rest.append(r)
            return True
        if r in failed:
            return False
        steps += 1
        if steps > budget:
            raise SearchTooLong(f"no answer within {budget} search steps")
        if not ratios.hold(r) or not in_lattice(lattice, r):
            failed.add(r)
            return False
        branches: list[_Kind] | None = None
        for e in hard:
            fitting = [k for k in holding[e] if fits(k.atoms, r)]
            if branches is None or len(fitting) < len(branches):
                branches = fitting
        for kind in branches or ():
            v = kind.atoms
            if dfs((r[0] - v[0], r[1] - v[1], r[2] - v[2], r[3] - v[3])):
                used.append(kind)
                return True
        failed.add(r)
        return False

    found = dfs(target)
    del dfs  # a function calling itself by name is a cycle (it and its cell), which refcounting cannot free
    if not found:
        return None
    out: dict[str, int] = {}
    for kind in used:
        out[kind.recipe] = out.get(kind.recipe, 0) + 1
    _leftovers(rest[0], singles, tables, out)
    return out


def _from_table(target: Vec, singles: list[_Kind], multi: list[_Kind]) -> dict[str, int] | None:
    counts = table.solve(target, [k.atoms for k in multi], [k.atoms for k in singles])
    if counts is None:
        return None
    out = {k.recipe: n for k, n in zip(multi, counts) if n}
    rest = target
    for k, n in zip(multi, counts):
        rest = sub(rest, (k.atoms[0] * n, k.atoms[1] * n, k.atoms[2] * n, k.atoms[3] * n))
    _leftovers(rest, singles, _slack_tables(singles, target), out)
    return out
