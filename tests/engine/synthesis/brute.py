"""Brute force for small volume tables: every linking, every set of places a
card's shape is counted, every way to lay a Project's chains, and the longest
chain as the tie-break. Slow and obviously right; the exact search is
checked against it."""

from __future__ import annotations

from itertools import combinations

from engine.synthesis.chains import POINTS, chain_points, chains_of
from engine.synthesis.goals import fitting
from engine.synthesis.table import TableShape


def linkings(table: TableShape, colour):
    """Every linking: links between same-coloured neighbours, no branch, no circle."""
    candidates = [k for k in table.links if colour.get(k[0]) is not None and colour.get(k[0]) == colour.get(k[1])]
    chosen: list = []
    degree: dict = {}
    parent: dict = {}

    def find(c):
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def walk(i: int):
        if i == len(candidates):
            yield frozenset(chosen)
            return
        yield from walk(i + 1)
        a, b = candidates[i]
        if degree.get(a, 0) < 2 and degree.get(b, 0) < 2 and find(a) != find(b):
            saved = dict(parent)
            parent[find(a)] = find(b)
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
            chosen.append((a, b))
            yield from walk(i + 1)
            chosen.pop()
            degree[a] -= 1
            degree[b] -= 1
            parent.clear()
            parent.update(saved)
    yield from walk(0)


def chain_score(links, points=POINTS) -> int:
    return sum(chain_points(len(c), points) for c in chains_of(links))


def occurrences(places, links) -> int:
    """The most disjoint places whose solid lines are linked and missing lines are not."""
    ok = [p for p in places if p.forced() <= links and not p.forbidden() & links]
    for k in range(len(ok), 0, -1):
        for combo in combinations(ok, k):
            cells = [c for p in combo for c in p.cells]
            if len(cells) == len(set(cells)):
                return k
    return 0


def project_met(required, links) -> bool:
    """Each required chain is a whole chain of the linking (different chains)."""
    chains = [frozenset(c) for c in chains_of(links)]

    def assign(i: int, used: set) -> bool:
        if i == len(required):
            return True
        for p in required[i]:
            cells = frozenset(p.cells)
            if cells in chains and cells not in used and p.forced() <= links:
                if assign(i + 1, used | {cells}):
                    return True
        return False
    return assign(0, set())


def brute_best(table: TableShape, colour, points=POINTS, card=None, project=None, card_needed=None):
    """(goals met, chain points + card points, longest chain), the most over
    every linking, in that order (a lone cell is no chain: longest 0)."""
    places = fitting(card[0], table, colour) if card else []
    required = [fitting(p, table, colour) for p in project] if project else []
    best = None
    for links in linkings(table, colour):
        k = occurrences(places, links) if card else 0
        card_points = min(card[2], card[1] * k) if card else 0
        met = (not project or project_met(required, links)) and (card_needed is None or card_points >= card_needed)
        key = (met, chain_score(links, points) + card_points, max((len(c) for c in chains_of(links)), default=0))
        if best is None or key > best:
            best = key
    return best
