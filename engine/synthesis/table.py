"""The molecular volume table, and shapes drawn in it.

One column per volume (1 on the left); each column is filled from the
bottom, one cell per molecule of that volume (Molecule Creation 3: "color
the lowest available cell of that column"). A cell is ``(row, col)`` with row
0 at the bottom. Columns may be of different heights, so a row is the cells
at that height in every column tall enough to have one.

Chains link orthogonally adjacent cells of one colour (Molecular Volume
Chains); a **link** is a pair of adjacent cells ``(a, b)`` with ``a < b``.

Goal cards draw small shapes in the table (Card Reference Guide, Molecular
Chain Cards) as text: cells ``o`` at even places of even lines; between two
cells a solid link (``-`` or ``|``), a dotted one (``.`` or ``:``) or none
(a space)::

    o-o      two chains of two, one above the other,
             never linked to each other
    o-o

>>> t = TableShape((3, 3, 2))
>>> len(t.cells), t.rows, t.row_cells(2)
(8, 3, ((2, 0), (2, 1)))
>>> p = TablePattern.parse(["o-o", "", "o-o"])
>>> sorted(p.links.values())
['absent', 'absent', 'solid', 'solid']
>>> len(p.orientations())
2
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Mapping

Cell = tuple[int, int]
Link = tuple[Cell, Cell]

LINK_KINDS = {"-": "solid", "|": "solid", ".": "dotted", ":": "dotted", " ": "absent"}


def link(a: Cell, b: Cell) -> Link:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class TableShape:
    """A board's volume table: the height of each column, volume 1 first."""

    heights: tuple[int, ...]

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(len(self.heights)) if r < self.heights[c])

    @property
    def rows(self) -> int:
        return max(self.heights)

    @property
    def cols(self) -> int:
        return len(self.heights)

    def __contains__(self, cell: object) -> bool:
        return (isinstance(cell, tuple) and len(cell) == 2 and 0 <= cell[1] < len(self.heights)
                and 0 <= cell[0] < self.heights[cell[1]])

    def row_cells(self, row: int) -> tuple[Cell, ...]:
        return tuple((row, c) for c in range(self.cols) if row < self.heights[c])

    def col_cells(self, col: int) -> tuple[Cell, ...]:
        return tuple((r, col) for r in range(self.heights[col]))

    @cached_property
    def links(self) -> tuple[Link, ...]:
        """Every pair of orthogonally adjacent cells."""
        out = []
        for r, c in self.cells:
            for other in ((r, c + 1), (r + 1, c)):
                if other in self:
                    out.append(((r, c), other))
        return tuple(out)

    def colours(self, columns: Iterable[str]) -> dict[Cell, str]:
        """Cell colours from the columns as written bottom-up (``["rg", "y"]``)."""
        return {(r, c): ch for c, col in enumerate(columns) for r, ch in enumerate(col)}

    def complete_rows(self, columns: Iterable[str]) -> list[int]:
        filled = [len(c) for c in columns]
        return [r for r in range(self.rows) if all(filled[c] > r for c in range(self.cols) if self.heights[c] > r)]

    def complete_cols(self, columns: Iterable[str]) -> list[int]:
        return [c for c, col in enumerate(columns) if len(col) >= self.heights[c]]


# --- shapes drawn in the table (goal cards, project cards) ----------------------------
@dataclass(frozen=True)
class Placed:
    """A drawing laid on the table: its cells, its lines and its one-colour groups."""

    cells: tuple[Cell, ...]
    links: tuple[tuple[Link, str], ...]
    groups: tuple[tuple[Cell, ...], ...]

    def forced(self) -> frozenset[Link]:
        return frozenset(k for k, kind in self.links if kind == "solid")

    def forbidden(self) -> frozenset[Link]:
        return frozenset(k for k, kind in self.links if kind == "absent")

    def fits(self, colour: Mapping[Cell, str]) -> bool:
        """Every cell filled, all in one colour: "Eligible molecules must be
        of the same color", "The player must choose a single color" (cells
        the drawing keeps apart too: Twin Pairs' two chains are one colour)."""
        first = colour.get(self.cells[0])
        return first is not None and all(colour.get(x) == first for x in self.cells)


@dataclass(frozen=True)
class TablePattern:
    """Cells and the kind of line between each adjacent pair: ``solid`` (the
    cells must be linked), ``dotted`` (may be), ``absent`` (must not be)."""

    cells: tuple[Cell, ...]
    links: Mapping[Link, str]

    @classmethod
    def parse(cls, lines: list[str]) -> "TablePattern":
        """Read the text drawing; ``ValueError`` says what is wrong and where."""
        cells: list[Cell] = []
        links: dict[Link, str] = {}
        grid = [line.rstrip() for line in lines]
        while grid and not grid[-1]:
            grid.pop()
        for y, line in enumerate(grid):
            for x, ch in enumerate(line):
                if y % 2 == 0 and x % 2 == 0:
                    if ch == "o":
                        cells.append((y // 2, x // 2))
                    elif ch != " ":
                        raise ValueError(f"line {y + 1}, character {x + 1}: expected a cell 'o' or a space, found {ch!r}")
                elif y % 2 == 0:
                    if ch not in "-. ":
                        raise ValueError(f"line {y + 1}, character {x + 1}: between two cells expected "
                                         f"'-' (solid), '.' (dotted) or a space, found {ch!r}")
                elif x % 2 == 0:
                    if ch not in "|: ":
                        raise ValueError(f"line {y + 1}, character {x + 1}: between two cells expected "
                                         f"'|' (solid), ':' (dotted) or a space, found {ch!r}")
                elif ch != " ":
                    raise ValueError(f"line {y + 1}, character {x + 1}: expected a space, found {ch!r}")
        if not cells:
            raise ValueError("the drawing has no cell 'o'")
        have = set(cells)
        for y, line in enumerate(grid):
            for x, ch in enumerate(line):
                if ch == " " or (x % 2 == 0 and y % 2 == 0):
                    continue
                a = (y // 2, x // 2)
                b = (a[0], a[1] + 1) if y % 2 == 0 else (a[0] + 1, a[1])
                if a not in have or b not in have:
                    raise ValueError(f"line {y + 1}, character {x + 1}: a line {ch!r} must join two cells")
        for (r, c) in cells:
            for other, (y, x) in (((r, c + 1), (2 * r, 2 * c + 1)), ((r + 1, c), (2 * r + 1, 2 * c))):
                if other in have:
                    ch = grid[y][x] if y < len(grid) and x < len(grid[y]) else " "
                    links[((r, c), other)] = LINK_KINDS[ch]
        return cls(tuple(sorted(cells)), links)

    @cached_property
    def groups(self) -> tuple[tuple[Cell, ...], ...]:
        """Cells joined by solid or dotted lines: each group is one colour
        ("Eligible molecules must be of the same color")."""
        parent = {c: c for c in self.cells}

        def find(c: Cell) -> Cell:
            while parent[c] != c:
                c = parent[c]
            return c
        for (a, b), kind in self.links.items():
            if kind != "absent":
                parent[find(a)] = find(b)
        out: dict[Cell, list[Cell]] = {}
        for c in self.cells:
            out.setdefault(find(c), []).append(c)
        return tuple(tuple(g) for g in sorted(out.values()))

    def solid(self) -> list[Link]:
        return [k for k, v in self.links.items() if v == "solid"]

    def is_path(self) -> bool:
        """Solid lines joining every cell in one unbranched chain, and no
        dotted line (cells side by side without a line stay unlinked)."""
        if any(v == "dotted" for v in self.links.values()) or len(self.groups) != 1:
            return False
        degree = {c: 0 for c in self.cells}
        solid = self.solid()
        for a, b in solid:
            degree[a] += 1
            degree[b] += 1
        return max(degree.values()) <= 2 and len(solid) == len(self.cells) - 1

    def orientations(self) -> tuple["TablePattern", ...]:
        """The drawing turned and mirrored ("the orientation of the shape
        does not matter"), each moved to start at (0, 0); no duplicates."""
        out: list[TablePattern] = []
        seen = set()
        for k in range(8):
            def f(cell: Cell, k=k) -> Cell:
                r, c = cell
                for _ in range(k % 4):
                    r, c = c, -r
                return (r, -c) if k >= 4 else (r, c)
            moved = [f(c) for c in self.cells]
            r0, c0 = min(r for r, _ in moved), min(c for _, c in moved)

            def g(cell: Cell, f=f, r0=r0, c0=c0) -> Cell:
                r, c = f(cell)
                return (r - r0, c - c0)
            cells = tuple(sorted(g(c) for c in self.cells))
            links = {link(g(a), g(b)): kind for (a, b), kind in self.links.items()}
            key = (cells, tuple(sorted(links.items())))
            if key not in seen:
                seen.add(key)
                out.append(TablePattern(cells, links))
        return tuple(out)

    def placements(self, table: TableShape) -> list["Placed"]:
        """Every way to lay the drawing on the table's cells: worked out once
        per table (the exact score asks for them at every new molecule)."""
        cache = self.__dict__.setdefault("_placed", {})
        if table.heights not in cache:
            cache[table.heights] = tuple(self._placements(table))
        return list(cache[table.heights])

    def _placements(self, table: TableShape) -> list["Placed"]:
        out = []
        for o in self.orientations():
            h = max(r for r, _ in o.cells)
            w = max(c for _, c in o.cells)
            for r in range(table.rows - h):
                for c in range(table.cols - w):
                    def at(cell: Cell, r=r, c=c) -> Cell:
                        return (cell[0] + r, cell[1] + c)
                    if all(at(x) in table for x in o.cells):
                        out.append(Placed(tuple(at(x) for x in o.cells),
                                          tuple((link(at(a), at(b)), k) for (a, b), k in sorted(o.links.items())),
                                          tuple(tuple(at(x) for x in g) for g in o.groups)))
        return out

    def text(self) -> list[str]:
        """The drawing back as text (for printing and for error messages)."""
        h = max(r for r, _ in self.cells)
        w = max(c for _, c in self.cells)
        grid = [[" "] * (2 * w + 1) for _ in range(2 * h + 1)]
        for r, c in self.cells:
            grid[2 * r][2 * c] = "o"
        marks = {("solid", 0): "-", ("dotted", 0): ".", ("solid", 1): "|", ("dotted", 1): ":"}
        for (a, b), kind in self.links.items():
            vertical = int(b[0] != a[0])
            if kind != "absent":
                grid[a[0] + b[0]][a[1] + b[1]] = marks[(kind, vertical)]
        return ["".join(row).rstrip() for row in grid]


def fitting(pattern: TablePattern, table: TableShape, colour: Mapping[Cell, str]) -> list[Placed]:
    """Places where a card's shape lies on filled cells of one colour."""
    seen, out = set(), []
    for p in pattern.placements(table):
        key = (frozenset(p.cells), p.links)
        if p.fits(colour) and key not in seen:
            seen.add(key)
            out.append(p)
    return out


def chains_of(links: Iterable[Link]) -> tuple[tuple[Cell, ...], ...]:
    """The paths of a linking, each from its smaller end, sorted."""
    nb: dict[Cell, list[Cell]] = {}
    for a, b in links:
        nb.setdefault(a, []).append(b)
        nb.setdefault(b, []).append(a)
    seen: set[Cell] = set()
    out = []
    for start in sorted(nb):
        if start in seen or len(nb[start]) != 1:
            continue
        path = [start]
        seen.add(start)
        while True:
            nxt = [n for n in nb[path[-1]] if n not in seen]
            if not nxt:
                break
            path.append(nxt[0])
            seen.add(nxt[0])
        out.append(tuple(path))
    return tuple(sorted(out))
