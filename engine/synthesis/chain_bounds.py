"""The bounds of the chain search (:mod:`.chain_search`): what a position
can at best still score. A bound never underestimates: the search cuts what
cannot beat what is needed, so a bound too low would lose the best linking.

* **chains**: the free cells fall apart into groups of one colour, which
  score apart; a group scores at most what its cells could in chains cut
  anywhere (28 for each 7, and the rest), and less when the card's finds
  need stretches of its chains (:func:`~.chain_parts.hold_table`); the
  Project's chains go in the groups they fit in and score exactly their
  points.
* **the card**: how many of its places still fit apart, on cells the chains
  chosen so far leave possible; and, for a position about to be worked on,
  apart from the Project's chains too, when no find can sit inside them.
* **the longest chain** of a completion that scores the bound: the longest a
  chain can be while the rest still scores it.

Each bound worked out is a step of the search's work (:data:`~.chain_search.WORK`).
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from engine.synthesis.chain_parts import DEAD, LAYING, LONG, NEG, Place, SearchTooLong, lay_apart, packing


class Bounds:
    """The bounds, as part of the search (:class:`~.chain_search.Search` sets
    what they read in its ``__init__`` and ``run``)."""

    if TYPE_CHECKING:
        n: int
        cap: int
        points: tuple[int, ...]
        split: tuple[int, ...]
        nb: list[tuple[int, ...]]
        nbmask: list[int]
        each: int
        card_cap: int
        most: int
        size: int
        lmax: int
        hold: list[list[int]]
        unit: int
        per: int
        stretches: dict
        k_need: int
        work: int
        left: int
        places: dict[int, list[Place]]
        place_list: list[Place]
        place_index: list[int]
        stretch_masks: list[int]
        types: list[tuple[int, dict]]
        type_masks: list[list[int]]
        apart_types: set[int]
        packed: dict[tuple, int | bool]
        grouped: dict[int, list[int]]
        last_possible: tuple[tuple | None, list[int]]

    def card_points(self, k: int) -> int:
        return min(self.card_cap, self.each * k)

    def _forced_ok(self, forced: frozenset) -> bool:
        degree: dict[int, int] = {}
        for a, b in forced:
            if b not in self.nb[a]:
                return False
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        return all(d <= 2 for d in degree.values())

    def groups(self, free: int) -> list[int]:
        """The free cells in groups joined by possible links, as masks."""
        out = self.grouped.get(free)
        if out is not None:
            return out
        out = self.grouped[free] = []
        nbmask = self.nbmask
        while free:
            group = edge = free & -free
            while edge:
                grow = 0
                while edge:
                    b = edge & -edge
                    grow |= nbmask[b.bit_length() - 1]
                    edge ^= b
                edge = grow & free & ~group
                group |= edge
            out.append(group)
            free &= ~group
        return out

    def card_room(self, key: tuple, nfree: int, joint: bool = False) -> int | None:
        """The most card points still to come (``None``: the threshold is out
        of reach); ``joint``: with the Project's chains laid apart too."""
        more = self.finds_left(key, joint)
        if more is None:
            return None
        k = key[6]
        return self.card_points(k + more) - self.card_points(k)

    def card_options(self, key: tuple, joint: bool) -> list[tuple[int, int]]:
        """What the card can still bring, as ``(stretches, points)``: the
        chains on the free cells must hold ``stretches`` for the card to gain
        ``points``. Finds lying on free cells alone need their stretches
        there; a find using cells already in chains needs nothing more of the
        free cells. Empty when the threshold is out of reach."""
        more = self.finds_left(key, joint)
        if more is None:
            return []
        k = key[6]
        gain = [self.card_points(k + j) - self.card_points(k) for j in range(more + 1)]
        need = max(0, self.k_need - k)
        if self.stretches:
            return [(j, gain[j]) for j in range(need, more + 1)]
        if not self.per or not more:
            return [(0, gain[more])]
        free = key[0]
        possible = self._possible(key)
        whole = [m for m in possible if m & free == m]
        others = [m for m in possible if m & free != m]
        apart = min(more, packing(whole, more, 0))
        partly = packing(others, more, 0)
        return [(j * self.per, gain[min(more, j + partly)]) for j in range(apart + 1) if min(more, j + partly) >= need]

    def finds_left(self, key: tuple, joint: bool = False) -> int | None:
        """How many more times the card can still be found (``None``: too few
        for the threshold)."""
        free, q, _, _, _, claimed, k, _ = key
        if not self.most or k >= self.most:
            more = 0
        elif self.places:
            possible = frozenset(self._possible(key))
            proj = key[7] if joint else ()
            more = self.packed.get((possible, free, proj, self.most - k))
            if more is None:
                more = self.packed[(possible, free, proj, self.most - k)] = self._beside(
                    sorted(possible), free, proj, self.most - k)
        else:
            proj = key[7] if joint else ()
            more = self.packed.get((free, proj, self.most - k))
            if more is None:
                more = self.packed[(free, proj, self.most - k)] = self._beside(
                    [m for m in self.stretch_masks if m & free == m], free, proj, self.most - k)
        if k + more < self.k_need:
            return None
        return more

    def _possible(self, key: tuple) -> list[int]:
        """The places still to decide (first cell ``q`` on) that the chains
        chosen so far leave possible, as masks."""
        if self.last_possible[0] == key:
            return self.last_possible[1]  # asked twice for each bound
        free, q, ahead, pf, pa, claimed = key[:6]
        out: list[int] = []
        self.last_possible = (key, out)
        pending = pf or pa
        for place in self.place_list[self.place_index[q]:]:
            mask = place.mask
            if mask & claimed:
                continue
            if mask & free == mask and not pending:
                out.append(mask)  # on free cells only, nothing pending: nothing can stand in its way yet
                continue
            for a, b in place.forced:
                if free >> a & 1:
                    if not free >> b & 1 or (a, b) in pa:
                        break
                elif free >> b & 1 or (a, b) not in ahead:
                    break
            else:
                for a, b in place.absent:
                    if (a, b) in ahead or (a, b) in pf:
                        break
                else:
                    out.append(mask)
        return out

    def _beside(self, finds: list[int], free: int, proj: tuple, most: int) -> int:
        """How many of ``finds`` (masks) still fit apart from each other and
        from the Project's chains still to lay that no find can share a cell
        with (those laid somewhere in the free cells, apart): up to ``most``.
        Past :data:`LAYING` tries, the finds' own packing (a looser bound)."""
        alone = packing(finds, most, 0)
        wanted = [[m for m in self.type_masks[t] if m & free == m] for t, left in enumerate(proj)
                  if left and t in self.apart_types for _ in range(left)]
        if not alone or not wanted:
            return alone
        wanted.sort(key=len)
        tries = [LAYING]

        def lay(i: int, used: int, target: int) -> bool | None:
            if i == len(wanted):
                return packing([m for m in finds if not m & used], target, 0) >= target
            for m in wanted[i]:
                tries[0] -= 1
                if tries[0] < 0:
                    return None
                if not m & used:
                    got = lay(i + 1, used | m, target)
                    if got is not False:
                        return got
            return False

        try:
            for target in range(alone, 0, -1):
                got = lay(0, 0, target)
                if got is None:
                    return target  # not proven lower: the bound stays where it was
                if got:
                    return target
            return 0
        finally:
            del lay  # it calls itself by name: a cycle (it and its cell) refcounting cannot free

    def chain_points_by_runs(self, free: int, proj: tuple) -> list[int]:
        """``out[r]``: the most the free cells' chains can score while holding
        ``r`` stretches the card's finds need (``unit`` cells each: the card
        for a one-chain card, one of its two chains for the others), the
        Project's chains laid whole: each goes in a group it fits in, and a
        group scores its Project chains' points and, for its other cells, the
        best they can in chains holding the stretches (:attr:`hold`). Groups
        are apart, so their bests add up; a Project chain holds stretches only
        if one fits inside it."""
        cached = self.packed.get(("chains", free, proj))
        if cached is not None:
            return cached  # type: ignore[return-value]
        types = [t for t, left in enumerate(proj) for _ in range(left)]
        apart, hosts = [], []
        for g in self.groups(free):
            fits = tuple(t for t in sorted(set(types)) if any(m & g == m for m in self.type_masks[t]))
            (hosts.append((g.bit_count(), fits)) if fits else apart.append(g.bit_count()))
        # what it comes to depends on the groups' sizes alone (and where the
        # Project's chains fit), which many positions share
        shape = (tuple(sorted(apart)), tuple(sorted(hosts)), proj)
        out = self.packed.get(("shape", shape))
        if out is None:
            out = self.packed[("shape", shape)] = self._by_runs(shape[0], shape[1], types)  # type: ignore[assignment]
        self.packed[("chains", free, proj)] = out  # type: ignore[assignment]
        return out  # type: ignore[return-value]

    def _by_runs(self, apart: tuple[int, ...], hosts: tuple[tuple[int, tuple[int, ...]], ...],
                 types: list[int]) -> list[int]:
        most = self.most * self.per
        hold, pts, cap, size = self.hold, self.points, self.cap, self.unit

        def vec(cells: int, laid: int, inside: int) -> list[int]:
            if cells < 0:
                return [NEG] * (most + 1)
            return [laid + hold[cells][max(0, j - inside)] for j in range(most + 1)]

        def add(a: list[int], b: list[int]) -> list[int]:
            return [max(a[j - i] + b[i] for i in range(j + 1)) for j in range(most + 1)]

        fixed = [0] + [NEG] * most
        for cells in apart:
            fixed = add(fixed, vec(cells, 0, 0))
        out = [NEG] * (most + 1)
        choices = [[h for h, (_, fits) in enumerate(hosts) if t in fits] for t in types]
        seen = set()
        for where in product(*choices):
            key = tuple(sorted(zip(types, where)))  # equal chains are interchangeable
            if key in seen:
                continue
            seen.add(key)
            total = fixed
            for h, (cells, _) in enumerate(hosts):
                mine = [t for t, at in zip(types, where) if at == h]
                laid = sum(pts[min(self.types[t][0], cap)] for t in mine)
                inside = sum(self.types[t][0] // size for t in mine if t not in self.apart_types)
                total = add(total, vec(cells - sum(self.types[t][0] for t in mine), laid, inside))
            out = [max(a, b) for a, b in zip(out, total)]
        return [x if x > DEAD else NEG for x in out]

    def bound(self, key: tuple, joint: bool = False) -> int:
        """A value no completion of ``key`` beats; ``joint``: the tighter,
        dearer one (the card's finds and the Project's chains laid together).
        Each is a step of the search's work (most of its time); for a card
        decided place by place, three (its places are looked at too)."""
        self.left -= 3 if self.places else 1
        if self.left < 0:
            raise SearchTooLong(f"the best linking was not proven within {self.work:,} steps")
        free, proj = key[0], key[7]
        pts, cap = self.points, self.cap
        need = laid_pts = laid_longest = inside = 0
        for t, left in enumerate(proj):
            if left:
                size = self.types[t][0]
                need += size * left
                laid_pts += pts[min(size, cap)] * left
                laid_longest = max(laid_longest, size)
                if t not in self.apart_types:
                    inside += left * (size // self.unit)
        nfree = free.bit_count()
        if need > nfree:
            return NEG
        if proj:
            fits = self.packed.get((free, proj))
            if fits is None:
                wanted = []
                for t, left in enumerate(proj):
                    if left:
                        wanted += [[m for m in self.type_masks[t] if m & free == m]] * left
                fits = self.packed[(free, proj)] = lay_apart(sorted(wanted, key=len), 0, 0)
            if not fits:
                return NEG
        by_runs = self.chain_points_by_runs(free, proj)
        options = self.card_options(key, joint)
        best = max((by_runs[r] + gain for r, gain in options if by_runs[r] > DEAD), default=NEG)
        if best <= DEAD:
            return NEG
        # The longest chain of a completion scoring ``best``: counted by cells
        # alone (those that can be in a chain at all), a chain of ``length``
        # holds length // unit stretches and the other cells the rest.
        groups = self.groups(free)
        linkable = sum(g.bit_count() for g in groups if g & (g - 1))
        rest = linkable - need
        hold, unit = self.hold, self.unit
        longest = laid_longest
        for length in range(min(self.lmax, max((g.bit_count() for g in groups), default=0), rest),
                            max(longest, 1), -1):
            got = max((pts[min(length, cap)] + laid_pts + hold[rest - length][max(0, r - length // unit - inside)]
                       + gain for r, gain in options), default=NEG)
            if got >= best:
                longest = length
                break
        return best * LONG + longest
