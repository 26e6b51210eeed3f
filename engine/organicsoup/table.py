"""The reaction finder's exhaustive answer: every sum of molecules that
fits in the ingredients' atoms, as a four-dimensional table of yes/no (one
cell per count of C, H, N and O), filled one molecule type at a time.

Its cost does not depend on luck: about 35 ms for the whole atom deck and
every recipe. The finder's search is faster on almost every question and
falls back to this table only when the search runs long (numpy, which RDKit
already brings, does the table's arithmetic).

>>> solve((0, 4, 0, 2), [(0, 2, 0, 1)], [(0, 2, 0, 0)])     # 4 H and 2 O: two waters
[2]
>>> solve((0, 3, 0, 2), [(0, 2, 0, 1)], [(0, 2, 0, 0)]) is None
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

Vec = tuple[int, int, int, int]


def _close(table: np.ndarray, v: Sequence[int], target: Vec) -> None:
    """Add any number of molecules ``v`` to every sum in ``table``, in place:
    shifts by v, 2v, 4v, ... cover every multiple up to the target."""
    m = 1
    while True:
        step = [x * m for x in v]
        if any(s > t for s, t in zip(step, target)):
            return
        dst = tuple(slice(s, None) for s in step)
        src = tuple(slice(0, t + 1 - s) for s, t in zip(step, target))
        table[dst] |= table[src]  # numpy reads the source as it was before the write
        m *= 2


def solve(target: Vec, types: Sequence[Vec], singles: Sequence[Vec]) -> list[int] | None:
    """How many of each of ``types`` (the one-element ``singles`` left to
    fill the rest), so that the molecules hold exactly ``target``; ``None`` if
    no sum does."""
    shape = tuple(t + 1 for t in target)
    table = np.zeros(shape, dtype=bool)
    table[0, 0, 0, 0] = True
    for v in singles:
        _close(table, v, target)
    before = []  # the table before each type was added, packed 8 cells a byte
    for v in types:
        before.append(np.packbits(table))
        _close(table, v, target)
    if not table[target]:
        return None

    def reachable(packed: np.ndarray, r: Sequence[int]) -> bool:
        i = int(np.ravel_multi_index(tuple(r), shape))
        return bool(packed[i >> 3] >> (7 - (i & 7)) & 1)

    r = list(target)
    counts = [0] * len(types)
    for i in range(len(types) - 1, -1, -1):
        v = types[i]
        while not reachable(before[i], r):  # some molecules of type i are needed
            r = [a - b for a, b in zip(r, v)]
            counts[i] += 1
    return counts
