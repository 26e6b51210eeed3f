"""The pieces the chain search (:mod:`.chain_search`) is made of: its
values, its tables by cell count, a Chain card's place in cell numbers, and
small helpers on places and masks of cells."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.core import RulesError
from engine.synthesis.table import Cell, Link, Placed

LONG = 64
"""Values are ``points * LONG + longest``; no chain is 64 long."""
NEG = -(1 << 60)
"""The value of a position whose goals can no longer be met."""
DEAD = NEG // 2
LAYING = 300
"""Tries the joint packing of a card's finds and a Project's chains may
spend at one position before settling for a looser bound."""


class SearchTooLong(RulesError):
    """The search worked out as many bounds as it may without proving its answer."""


@lru_cache(maxsize=64)
def best_split_table(points: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``out[m]``: the most ``m`` cells could score cut into chains anywhere.

    >>> best_split_table((0, 0, 3, 6, 10, 15, 21, 28), 16)[7:]
    (28, 28, 31, 34, 38, 43, 49, 56, 56, 59)
    """
    cap = len(points) - 1
    best = [0] * (n + 1)
    for m in range(1, n + 1):
        best[m] = max(best[m - k] + points[min(k, cap)] for k in range(1, m + 1))
    return tuple(best)


@lru_cache(maxsize=64)
def hold_table(points: tuple[int, ...], n: int, most: int, size: int, lmax: int) -> list[list[int]]:
    """``out[m][j]``: the most ``m`` cells score cut into chains of at most
    ``lmax`` cells that hold ``j`` finds of a card of ``size`` cells (a chain
    of ``L`` holds ``L // size``); :data:`NEG` when they cannot.

    >>> hold_table((0, 0, 3, 6, 10, 15, 21, 28), 15, 3, 5, 12)[15]   # 7 + 8 holds two; three need 5 + 5 + 5
    [56, 56, 56, 45]
    """
    cap = len(points) - 1
    out = [[NEG] * (most + 1) for _ in range(n + 1)]
    out[0][0] = 0
    for m in range(1, n + 1):
        for j in range(most + 1):
            best = max(out[m - length][max(0, j - length // size)] + points[min(length, cap)]
                       for length in range(1, min(m, lmax) + 1))
            out[m][j] = best if best > DEAD else NEG
    return out


@dataclass(frozen=True)
class Place:
    """A Chain card's place, in cell numbers (its solid lines ``forced``, its
    missing lines ``absent``)."""

    placed: Placed
    mask: int
    forced: tuple[tuple[int, int], ...]
    absent: tuple[tuple[int, int], ...]


def pair(a: int, b: int) -> tuple[int, int]:
    """A link between two cell numbers, the smaller first."""
    return (a, b) if a < b else (b, a)


def packing(masks: list[int], most: int, used: int) -> int:
    """How many of ``masks`` fit apart (none sharing a cell), up to ``most``."""
    best = 0
    for i, m in enumerate(masks):
        if not m & used:
            got = 1 + (packing(masks[i + 1:], most - 1, used | m) if most > 1 else 0)
            if got >= most:
                return most
            best = max(best, got)
    return best


def lay_apart(wanted: list[list[int]], i: int, used: int) -> bool:
    """Whether each of ``wanted`` (lists of masks) can have one of its masks, all apart."""
    if i == len(wanted):
        return True
    return any(not m & used and lay_apart(wanted, i + 1, used | m) for m in wanted[i])


def runs_of(place: Place) -> list[tuple[int, ...]]:
    """A place's cells in stretches joined by solid lines, each from one end
    to the other (a cell with no solid line is a stretch of one)."""
    nb: dict[int, list[int]] = {}
    for a, b in place.forced:
        nb.setdefault(a, []).append(b)
        nb.setdefault(b, []).append(a)
    cells = [i for i in range(place.mask.bit_length()) if place.mask >> i & 1]
    out, seen = [], set()
    for c in cells:
        if c in seen or len(nb.get(c, ())) > 1:
            continue
        run = [c]
        seen.add(c)
        while True:
            nxt = [x for x in nb.get(run[-1], ()) if x not in seen]
            if not nxt:
                break
            run.append(nxt[0])
            seen.add(nxt[0])
        out.append(tuple(run))
    return out


def along(p: Placed) -> list[Cell]:
    """A one-chain place's cells from one end of its solid lines to the other."""
    nb: dict[Cell, list[Cell]] = {c: [] for c in p.cells}
    for a, b in p.forced():
        nb[a].append(b)
        nb[b].append(a)
    end = min(c for c in p.cells if len(nb[c]) <= 1)
    out = [end]
    while len(out) < len(p.cells):
        out.append(next(c for c in nb[out[-1]] if c not in out))
    return out


def longest_run(solid: list[Link]) -> int:
    """The most solid lines of a card in a row (they never branch: a group's
    lines, one fewer than its cells, at most)."""
    parent: dict[Cell, Cell] = {}

    def find(c: Cell) -> Cell:
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c
    for a, b in solid:
        parent[find(a)] = find(b)
    sizes: dict[Cell, int] = {}
    for c in list(parent):
        sizes[find(c)] = sizes.get(find(c), 0) + 1
    return max((s - 1 for s in sizes.values()), default=0)


def apart_types(types: list[list[tuple[int, ...]]], stretches: set[tuple[int, ...]],
                places: list[Place]) -> set[int]:
    """The Project chain types (each its places as cells along the chain)
    that share no cell with any find of the card: a find is a stretch of a
    chain (``stretches``: a one-chain card's places, both ways; or the
    solid stretches of ``places``), and a Project chain is a whole chain, so
    they share cells only if the chain holds such a stretch. A card with a
    lone cell (a bystander, a fourth "linked or not") may share that cell
    with anything: then none."""
    runs = set(stretches)
    for place in places:
        for run in runs_of(place):
            if len(run) < 2:
                return set()
            runs.update((run, run[::-1]))
    if not runs:
        return set()
    out = set()
    for t, paths in enumerate(types):
        inside = {path[i:j] for path in paths for i in range(len(path)) for j in range(i + 2, len(path) + 1)}
        if not runs & inside:
            out.add(t)
    return out
