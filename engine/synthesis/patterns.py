"""Molecular Pattern cards: extra points for arrangements of molecules in the formula.

Each card's ``rule`` names one row of :data:`RULES` (abilities as a table,
not an if/elif on ids: a card whose rule has no row is a data error). A rule
looks at the formula's molecules and returns the points and what it chose
(the colour, the shape hexagon or the group the player would pick); the card
then caps the points at its red hexagon.

A molecule here is a closed hexagon with its type (colour) and volume; an
elemental molecule has a colour but no volume (it is shaded, not numbered),
so rules about volumes pass it by. "Next to" and "adjacent" mean sharing a
line, as two molecules of a chain do ("each having at least one bond line in
common with the next").

>>> from engine.synthesis.lattice import Lattice
>>> lat = Lattice.from_labels(["A1", "A2", "A3", "B1", "B2"])
>>> board = Board(lat, start=lat.hex_index("B1"), shapes={}, molecules={
...     lat.hex_index("A1"): ("b", 4), lat.hex_index("A2"): ("b", 5), lat.hex_index("A3"): ("b", 6)})
>>> RULES["rising_colour"](board, 3, ())
(9, {'molecules': ['A1', 'A2', 'A3'], 'colour': 'b'})
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping

from engine.synthesis.lattice import Axial, Lattice, centre, mirror, rotate

Molecule = tuple[str, "int | None"]
"""A closed hexagon's colour letter and volume (``None``: an elemental molecule)."""


@dataclass(frozen=True)
class Board:
    """What the pattern rules read of one player's formula."""

    lattice: Lattice
    start: int
    shapes: Mapping[int, str]
    """Hexagons showing an elemental shape (created or not)."""
    molecules: Mapping[int, Molecule]

    def label(self, h: int) -> str:
        return self.lattice.hex_label(h)

    def around(self, h: int) -> list[int]:
        """Molecules next to hexagon ``h``."""
        return [n for n in self.lattice.neighbours[h] if n in self.molecules]

    def volume(self, h: int) -> int | None:
        return self.molecules[h][1]


Rule = Callable[[Board, int, tuple[Axial, ...]], tuple[int, dict]]


def _rising(board: Board, each: int, same_colour: bool) -> tuple[int, dict]:
    """Longest run of adjacent molecules whose volume rises by 1 each step."""
    best: dict[int, list[int]] = {}
    numbered = sorted((h for h, (_, v) in board.molecules.items() if v is not None),
                      key=lambda h: -board.volume(h))  # type: ignore[operator]
    for h in numbered:  # highest volume first: a run only climbs
        colour, v = board.molecules[h]
        run = [h]
        for n in board.around(h):
            c2, v2 = board.molecules[n]
            if v2 == v + 1 and (c2 == colour or not same_colour) and len(best[n]) + 1 > len(run):
                run = [h] + best[n]
        best[h] = run
    if not best:
        return 0, {"molecules": []}
    top = max(best.values(), key=lambda r: (len(r), [-x for x in r]))
    if len(top) < 2:
        return 0, {"molecules": []}
    out = {"molecules": [board.label(h) for h in top]}
    if same_colour:
        out["colour"] = board.molecules[top[0]][0]
    return each * len(top), out


def rising_colour(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _rising(board, each, True)


def rising_any(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _rising(board, each, False)


def _frequent(board: Board, ring: list[int], each: int) -> tuple[int, list[int]]:
    counts = Counter(board.volume(h) for h in ring if board.volume(h) is not None)
    if not counts:
        return 0, []
    v, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return each * n, [h for h in ring if board.volume(h) == v]


def _unique(board: Board, ring: list[int], each: int) -> tuple[int, list[int]]:
    counts = Counter(board.volume(h) for h in ring if board.volume(h) is not None)
    chosen = [h for h in ring if board.volume(h) is not None and counts[board.volume(h)] == 1]
    return each * len(chosen), chosen


def start_frequent(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    points, chosen = _frequent(board, board.around(board.start), each)
    return points, {"molecules": [board.label(h) for h in chosen]}


def start_unique(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    points, chosen = _unique(board, board.around(board.start), each)
    return points, {"molecules": [board.label(h) for h in chosen]}


def _best_shape(board: Board, each: int, pick) -> tuple[int, dict]:
    best = (0, [], None)
    for h in sorted(board.shapes):
        points, chosen = pick(board, board.around(h), each)
        if points > best[0]:
            best = (points, chosen, h)
    out = {"molecules": [board.label(h) for h in best[1]]}
    if best[2] is not None:
        out["hexagon"] = board.label(best[2])
    return best[0], out


def shape_frequent(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _best_shape(board, each, _frequent)


def shape_unique(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _best_shape(board, each, _unique)


def _best_colour(board: Board, hexes: set[int], each: int) -> tuple[int, dict]:
    counts = Counter(board.molecules[h][0] for h in hexes)
    if not counts:
        return 0, {"molecules": []}
    colour, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return each * n, {"colour": colour, "molecules": [board.label(h) for h in sorted(hexes)
                                                      if board.molecules[h][0] == colour]}


def colour_near_elementals(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _best_colour(board, {n for h in board.shapes for n in board.around(h)}, each)


def colour_at_start(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    return _best_colour(board, set(board.around(board.start)), each)


def _groups(board: Board, group: tuple[Axial, ...]):
    """Every placement of the card's group shape on molecules of the formula,
    turned and mirrored, as lists of hexagons."""
    base = [centre(h) for h in group]
    seen = set()
    for flip in (False, True):
        pts = [mirror(p) for p in base] if flip else list(base)
        for _ in range(6):
            shape = sorted(((x - y // 3) // 2, y // 3) for x, y in pts)
            q0, r0 = shape[0]
            key = tuple((q - q0, r - r0) for q, r in shape)
            if key not in seen:
                seen.add(key)
                for h in board.molecules:
                    q, r = board.lattice.hexes[h]
                    hexes = [(q + dq, r + dr) for dq, dr in key]
                    if all(board.lattice.has_hex(x) and board.lattice.hex_index(x) in board.molecules
                           for x in hexes):
                        yield [board.lattice.hex_index(x) for x in hexes]
            pts = [rotate(p) for p in pts]


def _best_group(board: Board, each: int, group: tuple[Axial, ...], pick) -> tuple[int, dict]:
    best: tuple[int, list[int]] = (0, [])
    for hexes in _groups(board, group):
        numbered = [h for h in hexes if board.volume(h) is not None]
        for chosen in pick(board, numbered):
            if len(chosen) >= 2 and (each * len(chosen), sorted(chosen)) > best:
                best = (each * len(chosen), sorted(chosen))
    return best[0], {"molecules": [board.label(h) for h in best[1]]}


def _one_per_colour(board: Board, hexes: list[int]):
    for v in {board.volume(h) for h in hexes}:
        firsts: dict[str, int] = {}
        for h in sorted(hexes):
            if board.volume(h) == v:
                firsts.setdefault(board.molecules[h][0], h)
        yield list(firsts.values())


def _alike(board: Board, hexes: list[int]):
    for kind in {board.molecules[h] for h in hexes}:
        yield [h for h in hexes if board.molecules[h] == kind]


def group_colours(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    """Same volume, each a different colour: one molecule per colour counts."""
    return _best_group(board, each, group, _one_per_colour)


def group_twins(board: Board, each: int, group: tuple[Axial, ...]) -> tuple[int, dict]:
    """Same volume and colour: every such molecule counts."""
    return _best_group(board, each, group, _alike)


RULES: dict[str, Rule] = {
    "rising_colour": rising_colour,
    "group_colours": group_colours,
    "start_frequent": start_frequent,
    "start_unique": start_unique,
    "colour_near_elementals": colour_near_elementals,
    "rising_any": rising_any,
    "group_twins": group_twins,
    "colour_at_start": colour_at_start,
    "shape_frequent": shape_frequent,
    "shape_unique": shape_unique,
}
"""The ten rules of the Card Reference Guide, in its order."""
GROUP_RULES = ("group_colours", "group_twins")
"""Rules that need the card's group shape."""
