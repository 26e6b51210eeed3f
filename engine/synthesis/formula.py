"""One player's formula under the rules: drawing bonds, creating molecules,
recording them in the volume table and the elemental boxes.

Molecule Creation: "If adding a new bond to your formula results in a closed
hexagon, you have created a new molecule. The color of the last bond added
determines the type of the molecule [...] The volume is the number of bonds
of the molecule that match its type." The lines that close it may close
several hexagons at once; each is a molecule, recorded in the order of its
hexagon on the board (row by row), which only matters when two go to the
same column.

A hexagon's lines are drawn lines (a colour), or the starting molecule's
and the printed thin black lines, which belong to no colour: they close
hexagons like any line, never count towards a volume, and keep a hexagon
from being all one colour.

>>> from engine.synthesis.layout import compile_layout
>>> lay = compile_layout("A", "A", ["o o", " o S"], {}, {"A1": "circle"}, [], (3,) * 6)
>>> f = Formula(lay)
>>> seat = Seat("A", 0, f.empty_lines)
>>> lat = lay.lattice
>>> a1 = [e for e in lat.hex_edges[lat.hex_index("A1")]]
>>> f.draw(seat, f.mask(a1[:5]), "g", "bay", turn=1)
>>> seat.molecules
()
>>> f.draw(seat, f.mask(a1[5:]), "g", "angle", turn=2)
>>> seat.molecules[0].volume, seat.pending[0].kind
(6, 'elemental')
"""

from __future__ import annotations

from functools import lru_cache

from engine.synthesis.layout import COPY, Layout
from engine.synthesis.state import UNDRAWN, Molecule, Pending, Seat

LINE = "line"
"""The shape of a free bond: one line (Free Bonds)."""


@lru_cache(maxsize=4096)
def drawn_mask(lines: str) -> int:
    """Edge mask of the drawn lines of a seat's ``lines``: asked again and
    again of the same board (every legal bond, every action a bot weighs),
    so worked out once per drawing."""
    return int(lines.translate(_BITS)[::-1], 2) if lines else 0


class _Bits(dict):
    """``str.translate``'s table for :func:`drawn_mask`: the undrawn mark to 0, any colour to 1."""

    def __missing__(self, key: int) -> str:
        return "0" if chr(key) == UNDRAWN else "1"


_BITS = _Bits()


class Formula:
    """The rules' view of one board side, shared by every seat playing it."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lattice = layout.lattice
        self.empty_lines = UNDRAWN * len(self.lattice.edges)
        self.heights = layout.table.heights

    # --- lines ----------------------------------------------------------------------
    @staticmethod
    def mask(edges) -> int:
        out = 0
        for e in edges:
            out |= 1 << e
        return out

    def drawn(self, lines: str) -> int:
        """Edge mask of the lines the player has drawn."""
        return drawn_mask(lines)

    def occupied(self, lines: str) -> int:
        """Lines nothing may be drawn over (Rules for Synthesis 6)."""
        return self.layout.fixed | self.drawn(lines)

    def anchors(self, lines: str) -> int:
        """Corners a new bond may connect to: those of added bonds and of S
        (Rules for Synthesis 4). Printed lines are not added bonds."""
        return _anchors(self, lines)

    # --- molecules ------------------------------------------------------------------
    def closed(self, lines: str) -> list[int]:
        """Hexagons with all six lines present, S aside."""
        present = self.occupied(lines)
        return [h for h, m in enumerate(self.lattice.hex_mask) if h != self.layout.start and m & present == m]

    def colours(self, lines: str, h: int) -> list[str]:
        """The colour letter of each line of a hexagon (``""`` for black lines)."""
        return [lines[e] if lines[e] != UNDRAWN else "" for e in self.lattice.hex_edges[h]]

    def next_row(self, seat: Seat, volume: int) -> int | None:
        """The lowest free cell of the volume's column, or ``None`` when it is full."""
        used = sum(1 for m in seat.molecules if m.volume == volume and m.row is not None)
        return used if used < self.heights[volume - 1] else None

    def draw(self, seat: Seat, mask: int, colour: str, shape: str, turn: int) -> None:
        """Draw lines in ``colour`` (the ``shape`` that was drawn, for an x2
        molecule) and create the molecules they close, on ``seat`` in place."""
        lines = list(seat.lines)
        touched = set()
        for e in self.lattice.edges_of_mask(mask):
            lines[e] = colour
            touched.update(self.lattice.edge_hexes[e])
        seat.lines = "".join(lines)
        present = self.occupied(seat.lines)
        known = {m.hexagon for m in seat.molecules}
        choices, actives = [], []
        for h in sorted(touched):
            hm = self.lattice.hex_mask[h]
            if h == self.layout.start or h in known or hm & present != hm:
                continue
            edge_colours = self.colours(seat.lines, h)
            volume = edge_colours.count(colour)
            if h in self.layout.elemental and all(c == colour for c in edge_colours):
                seat.molecules += (Molecule(h, colour, volume, None, None, turn),)
                choices.append(Pending("elemental", h))
            else:
                seat.molecules += (Molecule(h, colour, volume, False, self.next_row(seat, volume), turn),)
            icon = self.layout.active.get(h)
            if icon is not None:
                actives.append(Pending("active", h, colour, shape if icon == COPY else icon))
        seat.pending += tuple(choices) + tuple(actives)

    def decide_elemental(self, seat: Seat, h: int, shade: bool) -> None:
        """Elemental Molecules a/b: shade it (and fill a box), or treat it as a
        normal molecule (and record it in the table)."""
        out = []
        for m in seat.molecules:
            if m.hexagon == h:
                m = Molecule(h, m.colour, m.volume, shade, None if shade else self.next_row(seat, m.volume), m.turn)
            out.append(m)
        seat.molecules = tuple(out)

    # --- the board's boxes ---------------------------------------------------------
    def columns(self, seat: Seat) -> list[str]:
        """The volume table, each column's colour letters from the bottom."""
        cols = [[""] * h for h in self.heights]
        for m in seat.molecules:
            if m.row is not None:
                cols[m.volume - 1][m.row] = m.colour
        return ["".join(c) for c in cols]

    def boxes(self, seat: Seat) -> dict[str, str]:
        """Each elemental shape's pair of boxes, filled from the left."""
        out = {shape: "" for shape in self.layout.pairs}
        for m in seat.molecules:
            if m.elemental:
                shape = self.layout.elemental[m.hexagon]
                out[shape] += m.colour
        return out

    def free_earned(self, seat: Seat) -> list[str]:
        """Free bonds earned: a completed row or column of the table, a
        completed elemental pair (Free Bonds; Elemental Molecules)."""
        return list(self._earned(seat.molecules))

    def _earned(self, molecules: tuple[Molecule, ...]) -> tuple[str, ...]:
        """:meth:`free_earned` kept by the molecules tuple itself: every
        action checks the free bonds left, and a seat's molecules change
        only when one is created (copies of a state share the tuple)."""
        cache = self.__dict__.setdefault("_earned_of", {})
        got = cache.get(id(molecules))
        if got is not None and got[0] is molecules:
            return got[1]
        seat = Seat("", 0, "", molecules)
        cols = self.columns(seat)
        table = self.layout.table
        out = [f"row {r + 1}" for r in table.complete_rows(cols)]
        out += [f"column {c + 1}" for c in table.complete_cols(cols)]
        out += [f"pair {shape}" for shape, filled in self.boxes(seat).items() if len(filled) >= 2]
        if len(cache) >= KEPT:
            cache.clear()
        cache[id(molecules)] = (molecules, tuple(out))  # the tuple kept alive, so its id is not reused
        return tuple(out)

    def free_left(self, seat: Seat) -> int:
        return len(self._earned(seat.molecules)) - seat.free_used


KEPT = 4096
"""Entries of the formula's small caches kept (a game's worth and more)."""


@lru_cache(maxsize=4096)
def _anchors(f: Formula, lines: str) -> int:
    """:meth:`Formula.anchors` once per drawing: every bond a seat weighs
    and every action it applies asks it of the same lines."""
    return f.layout.start_corners | f.lattice.vertex_mask(f.drawn(lines))
