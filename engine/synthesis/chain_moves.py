"""The moves of the chain search (:mod:`.chain_search`): where places of a
Molecular Chain card start, count one of them or none; else every chain
through one free cell, the most promising first.

The cell is the one with the fewest free neighbours (a cell with one must
end its chain there). Chains are walked out from it as arms, keeping the
card's pending lines: a solid line still to make is walked, a missing one
never. A chain is given with its prospect (what it scores, the card's finds
in it, and what the cells left could at best score, counted by cells
alone); one whose prospect cannot beat what is needed is given as a bound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.synthesis.chain_bounds import Bounds
from engine.synthesis.chain_parts import DEAD, LONG, SearchTooLong, pair
from engine.synthesis.table import Placed


class Moves(Bounds):
    """The moves, as part of the search (:class:`~.chain_search.Search`)."""

    if TYPE_CHECKING:
        next_first: list[int]
        card_table: list[int]
        stretches: dict
        stretch_at: dict[tuple[int, ...], Placed]
        type_of_mask: dict[int, dict[frozenset, int]]

    def _decide(self, key: tuple):
        """The card's places whose first cell is ``q``: count one of them, or none."""
        free, q, ahead, pf, pa, claimed, k, proj = key
        nq = self.next_first[q + 1]  # cells where no place starts have nothing to decide
        past = (1 << nq) - 1
        ahead2 = frozenset(x for x in ahead if x[0] >= nq) if ahead else ahead
        if k < self.most:
            gain = self.card_points(k + 1) - self.card_points(k)
            for place in self.places.get(q, ()):
                if place.mask & claimed:
                    continue
                f2, a2 = set(pf), set(pa)
                for a, b in place.forced:
                    if free >> a & 1 and free >> b & 1 and (a, b) not in pa:
                        f2.add((a, b))  # both free: a link still to make
                    elif free >> a & 1 or free >> b & 1 or (a, b) not in ahead:
                        break  # a chain already passed by without making it
                else:
                    for a, b in place.absent:
                        if free >> a & 1 and free >> b & 1:
                            if (a, b) in f2:
                                break
                            a2.add((a, b))
                        elif (a, b) in ahead:
                            break
                    else:
                        f2f = frozenset(f2)
                        if self._forced_ok(f2f):
                            yield gain, 0, (free, nq, ahead2, f2f, frozenset(a2), (claimed | place.mask) & ~past,
                                            k + 1, proj), ("place", place.placed)
        yield 0, 0, (free, nq, ahead2, pf, pa, claimed & ~past, k, proj), ("skip",)

    def _pivot(self, free: int) -> int:
        """The free cell with the fewest free neighbours (the first of them)."""
        best, best_n = -1, 5
        nbmask = self.nbmask
        rest = free
        while rest:
            b = rest & -rest
            i = b.bit_length() - 1
            d = (nbmask[i] & free).bit_count()
            if d < best_n:
                best, best_n = i, d
                if d <= 1:
                    break
            rest ^= b
        return best

    def _chains(self, key: tuple, u: int, floor: int):
        """Every chain through the free cell ``u``, best prospects first. A
        chain whose prospect (what it scores, and what the cells left could at
        best, counted by cells alone) cannot beat ``floor`` is given as a
        bound only."""
        free, q, ahead, pf, pa, claimed, k, proj = key
        partners: dict[int, list[int]] = {}
        for a, b in pf:
            partners.setdefault(a, []).append(b)
            partners.setdefault(b, []).append(a)
        nfree = free.bit_count()
        split, pts, cap = self.split, self.points, self.cap
        need_cells = laid = biggest = 0
        for t, left in enumerate(proj):
            if left:
                size = self.types[t][0]
                need_cells += size * left
                laid += pts[min(size, cap)] * left
                biggest = max(biggest, size)
        most, size = self.most, self.size
        each = self.card_table
        if self.places:  # places still to decide may use cells already in chains
            later = self.card_room(key, nfree) or 0
            room_all = later
        else:
            later = -1
            room_all = each[min(most, k + nfree // size)] - each[k] if k < most else 0
        need = floor // LONG if floor > DEAD else None
        limit = min(self.lmax, nfree)
        if need is not None:  # no longer chain can reach what is needed
            while limit > max(biggest, 1) and (
                    limit > nfree - need_cells
                    or pts[min(limit, cap)] + laid + split[nfree - need_cells - limit] + room_all < need):
                limit -= 1
        found = []
        by_mask = self.type_of_mask if proj else None
        stretches = self.stretches and k < most
        for p, mask in self._paths(u, free, partners, pa, limit):
            n = len(p)
            if stretches and n >= size:
                p = tuple(p)
                finds = self._finds(p)
                k2 = min(most, k + len(finds))
            else:
                finds, k2 = (), k
            gain = pts[min(n, cap)] + each[k2] - each[k]
            proj2, tag, cells, got = proj, None, need_cells, laid
            if by_mask and mask in by_mask:
                t = by_mask[mask].get(frozenset(pair(p[i], p[i + 1]) for i in range(n - 1)))
                if t is not None and proj[t] > 0:  # laying it here costs nothing a later one would not
                    proj2, tag = proj[:t] + (proj[t] - 1,) + proj[t + 1:], t
                    cells -= self.types[t][0]
                    got -= pts[min(n, cap)]
            left = nfree - n - cells
            if left < 0:
                continue
            rest = later if later >= 0 else (each[min(most, k2 + (nfree - n) // size)] - each[k2] if k2 < most else 0)
            found.append((gain + got + split[left] + rest, gain, n, mask, p, finds, k2, proj2, tag))
        # walking chains is work too: about six of them cost what a bound does
        self.left -= len(found) // 6
        if self.left < 0:
            raise SearchTooLong(f"the best linking was not proven within {self.work:,} steps")
        # the most promising first, then what the card gains, then the longer chain
        found.sort(key=lambda x: (-x[0], -x[1], -x[2]))
        for prospect, gain, n, mask, p, finds, k2, proj2, tag in found:
            if need is not None and prospect < need:
                yield prospect * LONG + LONG - 1, 0, None, None
                continue
            links = frozenset(pair(p[i], p[i + 1]) for i in range(n - 1))
            child = (free & ~mask, q,
                     ahead | frozenset(x for x in links if x[0] >= q) if self.places else ahead,
                     frozenset(x for x in pf if not (mask >> x[0] & 1 or mask >> x[1] & 1)) if pf else pf,
                     frozenset(x for x in pa if not (mask >> x[0] & 1 or mask >> x[1] & 1)) if pa else pa,
                     claimed, k2, proj2)
            # a lone cell is no chain: it makes nobody's longest chain
            yield gain, (n if n > 1 else 0), child, ("chain", links, tag, mask, finds)

    def _finds(self, path: tuple[int, ...]) -> tuple[Placed, ...]:
        """The card's places that are stretches of this chain, as many apart as
        fit (all are as long, so the first to end is the one to take)."""
        size = self.size
        at = self.stretch_at
        out = []
        i = 0
        while i + size <= len(path):
            found = at.get(path[i:i + size])
            if found is not None:
                out.append(found)
                i += size
            else:
                i += 1
        return tuple(out)

    def _paths(self, u: int, free: int, partners: dict[int, list[int]], pa: frozenset, limit: int):
        """Every chain through ``u`` on free cells (each once), as its cells from end to
        end, of at most ``limit`` cells, keeping the pending lines: forced ones
        linked, absent ones not."""
        nb = self.nb

        def arms(first: int, used: int, room: int):
            """Ways on from ``u`` through ``first``: the cells after ``u``, and
            every cell used so far as a mask."""
            if pair(u, first) in pa or any(used >> z & 1 and z != u for z in partners.get(first, ())):
                return
            arm = [first]

            def grow(seen: int):
                x = arm[-1]
                prev = arm[-2] if len(arm) > 1 else u
                owed = [y for y in partners.get(x, ()) if y != prev] if partners else ()
                if not owed:
                    yield arm, seen
                elif len(owed) > 1 or seen >> owed[0] & 1:
                    return
                if len(arm) >= room:
                    return
                for y in (owed or nb[x]):
                    if free >> y & 1 and not seen >> y & 1 and (not pa or pair(x, y) not in pa) \
                            and not (partners and any(seen >> z & 1 and z != x for z in partners.get(y, ()))):
                        arm.append(y)
                        yield from grow(seen | (1 << y))
                        arm.pop()

            try:
                yield from grow(used | (1 << first))
            finally:
                del grow  # it calls itself by name: a cycle (it and its cell) refcounting cannot free

        ways = [y for y in nb[u] if free >> y & 1]
        mine = partners.get(u, ())
        if not mine:
            yield [u], 1 << u
        for i, a in enumerate(ways):
            for arm, used in arms(a, 1 << u, limit - 1):
                if all(y == a for y in mine):
                    yield [u] + arm, used  # u ends the chain
                if len(arm) + 1 >= limit:
                    continue
                for b in ways[i + 1:]:  # u inside the chain: a second arm through a later way
                    if not used >> b & 1 and all(y in (a, b) for y in mine):
                        for arm2, both in arms(b, used, limit - 1 - len(arm)):
                            yield arm2[::-1] + [u] + arm, both

