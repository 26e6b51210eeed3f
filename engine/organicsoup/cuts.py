"""Two quick proofs that a remainder of atoms cannot be made of some
molecule types, used by the reaction finder to cut its search short.

* The *lattice*: whole-number combinations of the types, negatives allowed.
  A remainder outside it cannot be a sum of molecules. This catches parity
  at once: an odd number of Nitrogen atoms when every type holds an even
  number.
* The *ratios*: if every type that holds element ``e`` holds at least ``c``
  atoms of the elements ``S`` per atom of ``e``, so does every sum of them.

>>> basis = echelon([(0, 2, 0, 0), (0, 0, 2, 0), (0, 3, 1, 0)])
>>> basis
((1, (0, 1, 1, 0)), (2, (0, 0, 2, 0)))
>>> in_lattice(basis, (0, 4, 2, 0)), in_lattice(basis, (0, 1, 0, 0))
(True, False)
>>> ratios = Ratios([(1, 4, 0, 0)])             # Methane: four Hydrogen per Carbon
>>> ratios.hold((1, 4, 0, 0)), ratios.hold((1, 3, 0, 0))
(True, False)
"""

from __future__ import annotations

from typing import Sequence

Basis = tuple[tuple[int, tuple[int, ...]], ...]
"""Row echelon form: ``(pivot column, row)``, pivot columns increasing."""


def echelon(rows: Sequence[Sequence[int]]) -> Basis:
    """A basis of the whole-number combinations of ``rows`` (Hermite's
    elimination, by Euclid's algorithm down each column)."""
    work = [list(r) for r in rows if any(r)]
    basis = []
    for col in range(4):
        while True:
            nz = [r for r in work if r[col]]
            if len(nz) <= 1:
                break
            pivot = min(nz, key=lambda r: abs(r[col]))
            for r in nz:
                if r is not pivot:
                    q = r[col] // pivot[col]
                    for j in range(4):
                        r[j] -= q * pivot[j]
            work = [r for r in work if any(r)]
        nz = [r for r in work if r[col]]
        if nz:
            pivot = nz[0]
            work = [r for r in work if r is not pivot]
            if pivot[col] < 0:
                pivot = [-x for x in pivot]
            basis.append((col, tuple(pivot)))
    return tuple(basis)


def in_lattice(basis: Basis, v: Sequence[int]) -> bool:
    r = list(v)
    for col, row in basis:
        if r[col] % row[col]:
            return False
        q = r[col] // row[col]
        if q:
            for j in range(col, 4):
                r[j] -= q * row[j]
    return not any(r)


_OTHERS = [[tuple(f for k, f in enumerate(o) if mask >> k & 1) for mask in range(1, 8)]
           for o in ([f for f in range(4) if f != e] for e in range(4))]
"""For each element, every non-empty set of the other three."""


class Ratios:
    """The least ratio ``atoms of S : atoms of e`` over some molecule types,
    for every element ``e`` and set ``S`` of the others."""

    __slots__ = ("cuts",)

    def __init__(self, types: Sequence[Sequence[int]]) -> None:
        cuts = []
        for e in range(4):
            for others in _OTHERS[e]:
                least: tuple[int, int] | None = None
                for v in types:
                    if v[e]:
                        q = (sum(v[f] for f in others), v[e])
                        if least is None or q[0] * least[1] < least[0] * q[1]:
                            least = q
                if least is not None and least[0]:
                    cuts.append((e, others, least[0], least[1]))
        self.cuts = tuple(cuts)

    def hold(self, r: Sequence[int]) -> bool:
        for e, others, num, den in self.cuts:
            if r[e] and sum(r[f] for f in others) * den < num * r[e]:
                return False
        return True
