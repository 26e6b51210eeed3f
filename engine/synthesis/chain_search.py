"""The exact search for the best linking of a volume table, with its goal
cards (see :mod:`.chains` for what a linking is, :mod:`.goals` for the cards).

A linking is a set of chains that covers every filled cell (a lone cell is a
chain of one, worth nothing). The search builds it chain by chain: at each
position it picks one free cell, the one with the fewest free neighbours (a
cell with one must end its chain there), and tries every chain through it
(:mod:`.chain_moves`); the chain holding that cell is one of them, so each
linking is built once.

The cards ride along:

* a **Project card**'s chains are whole chains: a chain chosen is one of
  them when its cells and links are one of their places;
* a **Molecular Chain card** drawn as one unbranched chain (Corner,
  Triplet, Quartet, Step, Horseshoe, Staircase) is found exactly where it
  is a stretch of one chain of the linking (a missing line between two of
  its cells can never be a link: the two are already in the same chain), so
  each chain chosen brings its own finds;
* any other Chain card (two chains side by side, a bystander, dotted lines)
  is decided place by place in the table's order (row by row from the
  bottom, left to right), before any chain through a later cell: counted,
  a place's solid lines become links that must be made, its missing lines
  links that must not, and its cells cannot be counted again.

What keeps it small:

* **memory**: a position (the free cells, the count, the Project chains
  still to lay, and for the last kind of card its pending lines) is solved
  once: its value, or a bound on it when it could not beat what was needed.
* **bounds** (:mod:`.chain_bounds`): what the free cells, the Project and
  the card can at best still score. A chain that cannot bring the total
  above what is needed is not tried, and a position that reaches its bound
  stops at once: a full table takes a few chains to prove.
* **from the top**: the search first asks for the root's bound, then for a
  little less each time; a high floor cuts nearly everything, and what was
  learnt stays true for the next, lower one.
* **groups apart**: with no card and no Project, groups of free cells are
  solved one by one, each once.
* **chains longer than 7** score 28, so cutting one where a piece of 7
  remains never loses points unless that link is a solid line of a counted
  place. A card's solid lines run at most ``s`` links in a row (4 on the
  Staircase), so a chain of ``7 + s + 2`` or more can always be cut at a
  gain and is never tried; without a card, chains of up to 8 are (8 ties 7
  and a lone cell, and is the longer chain).

Values are ``points * LONG + longest``: the most points first, then the
longest chain (the tie-break "the player with the longest molecular chain
wins"), compared as one integer. Goals come before both: the search first
keeps only linkings that meet them, and if none does, looks again without.

The work is bounded (:data:`WORK` steps, a step a bound worked out): real
games take a few hundred; a few contrived tables (one colour throughout,
Parallel Trios and a Project card) take more, and so do some that bots
valuing the Molecular Chain card build (a 4-player greedy game needed
between 20,000 and 100,000: ``tests/engine/synthesis/test_chain_work.py``);
past the bound :class:`SearchTooLong` says so rather than answer something
unproven.
``python -m bench synthesis`` prints the worst tables found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from engine.synthesis.chain_moves import Moves
from engine.synthesis.chain_parts import (DEAD, LONG, NEG, Place, SearchTooLong, along, apart_types,
                                          best_split_table, hold_table, longest_run, pair, runs_of)
from engine.synthesis.table import Cell, Link, Placed, TablePattern, TableShape, chains_of, fitting, link

__all__ = ["LONG", "WORK", "Found", "SearchTooLong", "search"]

WORK = 100_000
"""Steps one search may take (a step: a bound worked out, three for a card
decided place by place, or about six chains walked; some 30 microseconds
on two shared cores): a bound on work, not a rule. Real games take a few
hundred; ``python -m bench synthesis`` prints the worst tables found."""


@dataclass(frozen=True)
class Found:
    """The best linking with its goals."""

    points: int
    """Chain points."""
    card_points: int
    links: frozenset[Link]
    occurrences: tuple[Placed, ...]
    """Where the Molecular Chain card was counted."""
    project: tuple[Placed, ...] | None
    """The Project's chains as laid (``None``: not all could be)."""
    goals_met: bool
    longest: int


class Search(Moves):
    """One table and its cards: what is worked out once, and the memory."""

    def __init__(self, table: TableShape, colour: Mapping[Cell, str], points: tuple[int, ...],
                 card: tuple[TablePattern, int, int] | None, project: Sequence[TablePattern],
                 forced: frozenset[Link], forbidden: frozenset[Link], work: int) -> None:
        self.points = points
        self.cap = len(points) - 1
        self.cells = cells = sorted(colour)
        self.n = n = len(cells)
        index = {c: i for i, c in enumerate(cells)}
        self.split = best_split_table(points, n)
        nb: list[list[int]] = [[] for _ in range(n)]
        for i, (r, c) in enumerate(cells):
            for other in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                j = index.get(other)
                if j is not None and colour[other] == colour[(r, c)] and link((r, c), other) not in forbidden:
                    nb[i].append(j)
        self.nb = [tuple(sorted(x)) for x in nb]
        self.nbmask = [sum(1 << j for j in x) for x in nb]
        self.work = self.left = work  # one bound for the whole search, goals or not
        self.forced = frozenset(pair(index[a], index[b]) for a, b in forced)

        def key_of(p: Placed) -> tuple[int, frozenset]:
            return (sum(1 << index[c] for c in p.cells),
                    frozenset(pair(index[a], index[b]) for a, b in p.forced()))

        # the Molecular Chain card
        self.each, self.card_cap, self.most, self.size, run = 0, 0, 0, 1, 0
        self.stretches: dict[tuple[int, frozenset], Placed] = {}
        self.stretch_at: dict[tuple[int, ...], Placed] = {}
        self.places: dict[int, list[Place]] = {}
        if card is not None and card[1] > 0:
            shape, self.each, self.card_cap = card
            self.most = -(-self.card_cap // self.each)
            self.size = len(shape.cells)
            run = longest_run(shape.solid())
            chain_like = shape.is_path()
            for p in fitting(shape, table, colour):
                if chain_like:
                    self.stretches[key_of(p)] = p
                    path = [index[c] for c in along(p)]
                    self.stretch_at[tuple(path)] = self.stretch_at[tuple(path[::-1])] = p
                else:
                    ids = sorted(index[c] for c in p.cells)
                    self.places.setdefault(ids[0], []).append(Place(
                        p, sum(1 << i for i in ids),
                        tuple(sorted(pair(index[a], index[b]) for a, b in p.forced())),
                        tuple(sorted(pair(index[a], index[b]) for a, b in p.forbidden()))))
        self.card_table = [self.card_points(k) for k in range(self.most + 1)]
        # the next cell from each on where a place starts (``n``: none)
        self.next_first = [n] * (n + 1)
        for i in range(n - 1, -1, -1):
            self.next_first[i] = i if self.places.get(i) else self.next_first[i + 1]
        self.place_list = [p for first in sorted(self.places) for p in self.places[first]]
        self.place_index = [0] * (n + 1)  # where in place_list the places from each cell on begin
        for i in range(n - 1, -1, -1):
            self.place_index[i] = self.place_index[i + 1] + len(self.places.get(i, ()))
        self.place_index = [len(self.place_list) - x for x in self.place_index]
        # the longest chain ever worth trying (module doc); forced links may run any length
        self.lmax = n if self.forced else self.cap + (run + 1 if run else 1)
        # A find needs ``per`` stretches of ``unit`` cells in the chains: the
        # whole card for a one-chain card, its two chains for a card of two
        # side by side; nothing is known of a card with a lone cell (per 0).
        self.unit, self.per = self.size, (1 if self.stretches else 0)
        if self.place_list:
            runs = runs_of(self.place_list[0])
            if len({len(r) for r in runs}) == 1 and len(runs[0]) > 1:
                self.unit, self.per = len(runs[0]), len(runs)
        # hold[m][r]: the most m cells score in chains that hold r such stretches
        self.hold = hold_table(points, n, self.most * self.per, self.unit, self.lmax)

        # the Project card's chains, equal shapes grouped (they are interchangeable)
        self.types: list[tuple[int, dict[tuple[int, frozenset], Placed]]] = []
        counts: list[int] = []
        for pattern in project:
            laid = {key_of(p): p for p in fitting(pattern, table, colour)}
            for t, (size, known) in enumerate(self.types):
                if size == len(pattern.cells) and known.keys() == laid.keys():
                    counts[t] += 1
                    break
            else:
                self.types.append((len(pattern.cells), laid))
                counts.append(1)
        self.type_of = {key: t for t, (_, laid) in enumerate(self.types) for key in laid}
        self.type_of_mask: dict[int, dict[frozenset, int]] = {}
        for (mask, lk), t in self.type_of.items():
            self.type_of_mask.setdefault(mask, {})[lk] = t
        self.project_counts = tuple(counts)
        # masks of where each thing could still go, for the packing bounds
        self.stretch_masks = sorted({m for m, _ in self.stretches})
        self.type_masks = [sorted({m for m, _ in laid}) for _, laid in self.types]
        # the Project chains that share no cell with any find (chain_parts.apart_types)
        self.apart_types = apart_types(
            [[tuple(index[c] for c in along(p)) for p in laid.values()] for _, laid in self.types],
            set(self.stretch_at), self.place_list)

    # --- one search ---------------------------------------------------------------------
    def run(self, project: bool, card_needed: int) -> tuple[int, tuple] | None:
        """The best value and the starting position; ``None`` when no linking
        meets the goals asked for (the Project's chains, the card's threshold)."""
        self.k_need = 0
        if card_needed > 0:
            if self.card_cap < card_needed:
                return None
            self.k_need = -(-card_needed // self.each)
        self.pure = not self.places and not self.stretches and not project
        self.exact: dict[tuple, int] = {}
        self.upper: dict[tuple, int] = {}
        self.best: dict[tuple, tuple] = {}
        self.packed: dict[tuple, int | bool] = {}
        self.grouped: dict[int, list[int]] = {}
        self.last_possible: tuple[tuple | None, list[int]] = (None, [])
        if not self._forced_ok(self.forced):
            return None
        # with no card decided cell by cell the order starts past the end
        root = ((1 << self.n) - 1, self.next_first[0], frozenset(), self.forced, frozenset(), 0, 0,
                self.project_counts if project else ())
        # Ask for the bound first, then for what the search says is left: a
        # high floor cuts nearly everything, and what was learnt (bounds,
        # exact values) stays true for the next, lower one.
        top = self.upper[root] = self.bound(root)
        if top <= DEAD:
            return None
        points = top // LONG
        while True:
            value, exact = self.node(root, points * LONG - 1 if points > 0 else NEG)
            if exact:
                return None if value <= DEAD else (value, root)
            # nothing scores ``points``: at most what the search found it could
            points = min(points - 1, value // LONG)

    # --- the search ---------------------------------------------------------------------
    def node(self, key: tuple, floor: int) -> tuple[int, bool]:
        """``(value, exact)``: the best value of the position ``key``, exact
        when it beats ``floor``, else a bound no higher than ``floor``."""
        got = self.exact.get(key)
        if got is not None:
            return got, True
        top = self.upper.get(key)
        if top is None:
            top = self.upper[key] = self.bound(key)
        if top <= floor:
            return top, False
        if top <= DEAD:
            self.exact[key] = NEG
            return NEG, True
        if self.apart_types and any(key[7]) and self.most and key[6] < self.most:
            # about to be worked on: worth the dearer bound first
            top = self.upper[key] = min(top, self.bound(key, joint=True))
            if top <= floor or top <= DEAD:
                return (top, False) if top > DEAD else (NEG, True)
        free, q = key[0], key[1]
        if not free and q >= self.n:
            value = 0 if not any(key[7]) and key[6] >= self.k_need else NEG
            self.exact[key] = value
            return value, True
        if self.pure:
            groups = self.groups(free)
            if len(groups) > 1:
                return self._apart(key, groups)
        u = (free & -free).bit_length() - 1 if free else self.n
        if q <= u:
            moves = self._decide(key)
        else:
            # A card decided cell by cell needs the chains in the table's order;
            # otherwise any cell will do, and the one with the fewest free
            # neighbours has the fewest chains through it.
            moves = self._chains(key, self._pivot(free), floor)
        return self._best_of(key, floor, top, moves)

    def _best_of(self, key: tuple, floor: int, top: int, moves) -> tuple[int, bool]:
        best, best_move = NEG, None
        fail = NEG  # the highest bound of a move that could not beat what was needed
        for gain, length, child, move in moves:
            if child is None:  # a move not worth trying: it scores at most ``gain``
                fail = max(fail, gain)
                continue
            need = max(floor, best)
            if need <= DEAD:
                cfloor = NEG
            else:
                p, l_ = divmod(need, LONG)
                cfloor = (p - gain) * LONG + (l_ if length <= l_ else -1)
            v, exact = self.node(child, cfloor)
            if v <= DEAD:
                continue
            cp, cl = divmod(v, LONG)
            total = (cp + gain) * LONG + max(cl, length)
            if not exact:
                fail = max(fail, total)
            elif total > best:
                best, best_move = total, (move, child)
                if best >= top:
                    break
        if best > DEAD and (best >= floor or best >= fail):
            self.exact[key] = best
            self.best[key] = best_move
            return best, True
        if fail <= DEAD:
            self.exact[key] = NEG
            return NEG, True
        bound = max(best, fail)
        self.upper[key] = min(self.upper[key], bound)
        return bound, False

    def _apart(self, key: tuple, groups: list[int]) -> tuple[int, bool]:
        """No card and no Project: the groups of free cells are solved apart."""
        points = longest = 0
        parts = []
        for g in groups:
            child = (g, self.n, frozenset(), frozenset(x for x in key[3] if g >> x[0] & 1), frozenset(), 0, 0, ())
            v, _ = self.node(child, NEG)
            if v <= DEAD:
                self.exact[key] = NEG
                return NEG, True
            points += v // LONG
            longest = max(longest, v % LONG)
            parts.append(child)
        value = points * LONG + longest
        self.exact[key] = value
        self.best[key] = (("apart", tuple(parts)), None)
        return value, True

    # --- the answer ---------------------------------------------------------------------
    def walk(self, root: tuple) -> tuple[set, list, list]:
        """The links, the card's finds and the Project's chains of the best completion."""
        links: set = set()
        finds: list = []
        laid: list = []
        todo = [root]
        while todo:
            key = todo.pop()
            while key in self.best:
                move, key = self.best[key]
                if move[0] == "apart":
                    todo.extend(move[1])
                elif move[0] == "place":
                    finds.append(move[1])
                elif move[0] == "chain":
                    _, lk, tag, mask, found = move
                    links.update(lk)
                    finds.extend(found)
                    if tag is not None:
                        laid.append(self.types[tag][1][(mask, lk)])
        return links, finds[:self.most], laid


def search(table: TableShape, colour: Mapping[Cell, str], points: tuple[int, ...],
           card: tuple[TablePattern, int, int] | None = None, project: Sequence[TablePattern] | None = None,
           card_needed: int | None = None, forced: frozenset[Link] = frozenset(),
           forbidden: frozenset[Link] = frozenset(), work: int | None = None) -> Found | None:
    """The best linking: goals met first (the Project's chains laid, the
    card's threshold reached), then the most points (chains and card), then
    the longest chain; ``None`` only when the ``forced`` links cannot all be
    made. Raises :class:`SearchTooLong` past ``work`` positions (default :data:`WORK`).

    >>> t = TableShape((1, 1, 1, 1, 1, 1, 1, 1))
    >>> found = search(t, {(0, c): "g" for c in range(8)}, (0, 0, 3, 6, 10, 15, 21, 28))
    >>> found.points, found.longest   # 28 either way: all eight in one chain
    (28, 8)
    """
    colour = {c: v for c, v in colour.items() if c in table}
    for a, b in forced:
        if colour.get(a) is None or colour.get(a) != colour.get(b) or (a, b) in forbidden:
            return None
    s = Search(table, colour, points, card, tuple(project or ()), frozenset(forced), frozenset(forbidden),
                WORK if work is None else work)
    goals = bool(project) or bool(card_needed)
    got = s.run(bool(project), card_needed or 0) if goals else None
    met = got is not None or not goals
    if got is None:
        got = s.run(False, 0)
        if got is None:
            return None
    value, root = got
    links, finds, laid = s.walk(root)
    cells = s.cells
    out = frozenset(link(cells[a], cells[b]) for a, b in links)
    chains = chains_of(out)
    chain_points = sum(points[min(len(c), s.cap)] for c in chains)
    card_points = s.card_points(len(finds))
    longest = max((len(c) for c in chains), default=0)
    if (chain_points + card_points) * LONG + longest != value:
        raise AssertionError("the best linking found does not add up to its value")
    return Found(chain_points, card_points, out, tuple(sorted(finds, key=lambda p: p.cells)),
                 (tuple(laid) if got is not None and project and met else None) if project else (),
                 met, longest)
