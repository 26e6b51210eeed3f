"""Bonds: connected sets of lattice lines, turned and mirrored freely.

The Bond die shows a shape; a player draws it anywhere it fits, "rotated or
mirrored" (Rules for Synthesis 2), and "all parts of a Bond must be drawn"
(3). A shape is a frozenset of edges (:mod:`.lattice`); :func:`orientations`
gives its up to twelve turned and mirrored copies, each moved so that its
first corner hangs off the origin, so that two copies compare equal when
they are the same drawing.

The Mutation die's shapes are built here too (:func:`variants`): the bond
with a line added, removed or moved, or with any lines removed, none of
them split (Mutant Bonds: "you can never use a mutation to split the bond").

>>> angle = parse_shape("A1:NE A1:E")
>>> len(angle), connected(angle), len(orientations(angle))
(2, True, 6)
>>> arc = parse_shape("A1:NE A1:E A1:SE")
>>> len(removable(arc))  # the middle line would split it (the dotted line)
2
>>> sorted(len(v) for v in variants(arc, "remove_line"))
[2]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from engine.synthesis.lattice import (Edge, Lattice, Vertex, edge, edges_at, mirror, owner, parse_side, rotate)

Shape = frozenset  # of Edge

MUTATIONS = ("twice", "add_line", "remove_line", "no_connect", "remove_lines", "move_line")
"""The Mutation die's six modifiers (Mutant Bonds), in the rulebook's order:
three mandatory, three optional."""
MANDATORY = ("twice", "add_line", "remove_line")
OPTIONAL = ("no_connect", "remove_lines", "move_line")


def parse_shape(text: str) -> Shape:
    """A shape from its lines written as board sides, e.g. ``"A1:NE A1:E"``.
    Where it is written does not matter; only the drawing does."""
    return frozenset(parse_side(t) for t in text.replace(",", " ").split())


def vertices_of(shape: Iterable[Edge]) -> set[Vertex]:
    return {v for e in shape for v in e}


def connected(shape: Iterable[Edge]) -> bool:
    """Whether the lines form one piece (each touching the next at a corner)."""
    lines = list(shape)
    if not lines:
        return False
    seen = {lines[0]}
    todo = [lines[0]]
    while todo:
        a = todo.pop()
        for b in lines:
            if b not in seen and (a[0] in b or a[1] in b):
                seen.add(b)
                todo.append(b)
    return len(seen) == len(lines)


def _moved(shape: Iterable[Edge], f) -> tuple[Edge, ...]:
    return tuple(edge(f(a), f(b)) for a, b in shape)


def normalize(shape: Iterable[Edge]) -> tuple[Edge, ...]:
    """The shape moved so that its first corner belongs to the hexagon at the
    origin: equal drawings in different places normalize equally."""
    lines = tuple(shape)
    ox, oy = owner(min(v for e in lines for v in e))
    return tuple(sorted(edge((a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy)) for a, b in lines))


@lru_cache(maxsize=4096)
def _orientations(key: tuple[Edge, ...]) -> tuple[tuple[Edge, ...], ...]:
    out: list[tuple[Edge, ...]] = []
    for flip in (False, True):
        cur = _moved(key, mirror) if flip else key
        for _ in range(6):
            n = normalize(cur)
            if n not in out:
                out.append(n)
            cur = _moved(cur, rotate)
    return tuple(out)


def orientations(shape: Iterable[Edge]) -> tuple[tuple[Edge, ...], ...]:
    """Every distinct way to turn or mirror the shape, normalized."""
    return _orientations(normalize(shape))


def canonical(shape: Iterable[Edge]) -> tuple[Edge, ...]:
    """One name for a shape however it is turned, mirrored or placed.

    >>> canonical(parse_shape("A1:NE A1:E")) == canonical(parse_shape("C3:SW C3:W"))
    True
    """
    return min(orientations(shape))


def removable(shape: Iterable[Edge]) -> list[Edge]:
    """Lines that can be taken out without splitting the bond. The others
    are what the rulebook's example draws dotted: removing one would leave
    two pieces, which no mutation may do."""
    lines = frozenset(shape)
    if len(lines) < 2:
        return []
    return sorted(e for e in lines if connected(lines - {e}))


def touching(shape: Iterable[Edge]) -> set[Edge]:
    """Lines not in the shape that meet it at a corner ("directly connected")."""
    lines = frozenset(shape)
    return {e for v in vertices_of(lines) for e in edges_at(v)} - lines


def sub_bonds(shape: Iterable[Edge]) -> set[Shape]:
    """Every unsplit piece left by removing any number of lines (at least one
    line stays): the "remove thin lines" mutation, and the bond itself."""
    lines = sorted(shape)
    out: set[Shape] = set()
    for bits in range(1, 1 << len(lines)):
        part = frozenset(e for i, e in enumerate(lines) if bits >> i & 1)
        if connected(part):
            out.add(part)
    return out


@lru_cache(maxsize=512)
def _variants(key: tuple[Edge, ...], mutation: str | None) -> tuple[tuple[Edge, ...], ...]:
    base = frozenset(key)
    found: set[Shape]
    if mutation in (None, "twice", "no_connect"):
        found = {base}
    elif mutation == "add_line":
        found = {base | {e} for e in touching(base)}
    elif mutation == "remove_line":
        found = {base - {e} for e in removable(base)}
    elif mutation == "remove_lines":
        found = sub_bonds(base)
    elif mutation == "move_line":
        # Take out a line that does not split the bond, put it back touching
        # what is left; not moving it at all is the bond itself.
        found = {base}
        for e in removable(base):
            rest = base - {e}
            found.update(rest | {f} for f in touching(rest) if f != e)
    else:
        raise ValueError(f"unknown mutation {mutation!r} (known: {', '.join(MUTATIONS)})")
    return tuple(sorted({canonical(s) for s in found}))


def variants(shape: Iterable[Edge], mutation: str | None) -> tuple[tuple[Edge, ...], ...]:
    """The distinct shapes (up to turning and mirroring) a player may draw
    for ``shape`` under ``mutation`` (``None``: no mutation, as for active
    molecules' bonds). Optional mutations include the bond unchanged."""
    return _variants(normalize(shape), mutation)


# --- placing shapes on a formula ----------------------------------------------------
def _translations(lattice: Lattice, oriented: tuple[Edge, ...]) -> list[int]:
    """Every place an oriented shape fits inside the formula, packed as
    :class:`Places` keeps them (the corners' mask worked out with the
    lines', not again from them: that was half the time of ``warm``)."""
    cache = lattice.__dict__.setdefault("_placed", {})
    found = cache.get(oriented)
    if found is None:
        first = oriented[0][0]  # normalize() puts the first corner's owner at the origin
        index, corners, shift = lattice._edge_index, lattice.edge_vertex_mask, len(lattice.vertices)
        found = []
        for vx, vy in lattice.vertices:
            if (vy - first[1]) % 3:
                continue  # a corner pointing the other way
            dx, dy = vx - first[0], vy - first[1]
            mask = at = 0
            for (ax, ay), (bx, by) in oriented:
                i = index.get(((ax + dx, ay + dy), (bx + dx, by + dy)))
                if i is None:
                    break
                mask |= 1 << i
                at |= corners[i]
            else:
                found.append(at | mask << shift)
        cache[oriented] = found
    return found


@dataclass(frozen=True)
class Places:
    """Every place a shape fits inside one formula, packed small: each place
    is one number, its corners' mask (``shift`` bits) with its lines' mask
    above them. Kept for every formula, shape and mutation a server meets
    (all of them, once it has played a while): as pairs of numbers they came
    to 55 MB, the largest thing a server's memory grew by; packed, each
    place's number made once (:func:`_translations`) and shared by every
    shape and mutation that gives it, 12.5 MB."""

    shift: int
    packed: tuple[int, ...]

    def pairs(self) -> list[tuple[int, int]]:
        """Each place as (its lines' mask, its corners' mask), in order of the lines' mask."""
        low = (1 << self.shift) - 1
        return [(p >> self.shift, p & low) for p in self.packed]

    def __len__(self) -> int:
        return len(self.packed)


def placements(lattice: Lattice, shape: Iterable[Edge], mutation: str | None = None) -> Places:
    """Every place where the shape, mutated, fits inside the formula (Rules
    for Synthesis 5), before looking at what is drawn. Computed once per
    formula, shape and mutation."""
    key = (normalize(shape), mutation)
    cache = lattice.__dict__.setdefault("_placements", {})
    found = cache.get(key)
    if found is None:
        packed: set[int] = set()
        for v in _variants(*key):
            for oriented in orientations(v):
                packed.update(_translations(lattice, oriented))
        # in order of the lines' mask (above the corners', which it decides)
        found = cache[key] = Places(len(lattice.vertices), tuple(sorted(packed)))
    return found


def legal(places: Places, occupied: int, anchors: int, must_connect: bool = True) -> list[int]:
    """The edge masks among ``places`` that draw over nothing (Rules for
    Synthesis 6) and, unless the mutation lifts it, touch an added bond or the
    starting molecule (4)."""
    return list(_legal(places, occupied, anchors, must_connect)[0])


def any_legal(places: Places, occupied: int, anchors: int, must_connect: bool = True) -> bool:
    """Whether :func:`legal` has any drawing: stops at the first (a turn
    asks after every action whether the bond still fits somewhere)."""
    found = places.__dict__.get("_legal", {}).get((occupied, anchors, must_connect))
    if found is not None:
        return bool(found[0])
    shift = places.shift
    over = occupied << shift
    if must_connect:
        return any(not p & over and p & anchors for p in places.packed)
    return any(not p & over for p in places.packed)


def is_legal(places: Places, occupied: int, anchors: int, must_connect: bool, mask: int) -> bool:
    """Whether ``mask`` is one of :func:`legal`'s drawings (how an action applied is checked)."""
    return mask in _legal(places, occupied, anchors, must_connect)[1]


def _legal(places: Places, occupied: int, anchors: int, must_connect: bool) -> tuple[tuple[int, ...], frozenset]:
    """:func:`legal`'s drawings and their set, kept per board: checking an
    action applied asks again on the board the bot just listed them for."""
    cache = places.__dict__.setdefault("_legal", {})
    key = (occupied, anchors, must_connect)
    found = cache.get(key)
    if found is None:
        shift = places.shift
        over = occupied << shift
        if must_connect:
            drawings = tuple(p >> shift for p in places.packed if not p & over and p & anchors)
        else:
            drawings = tuple(p >> shift for p in places.packed if not p & over)
        if len(cache) >= LEGAL_KEPT:
            cache.clear()
        found = cache[key] = (drawings, frozenset(drawings))
    return found


LEGAL_KEPT = 64
"""Drawings of one shape kept per place list: checking an action applied
asks for the legal ones again, on the board the bot just listed them for
(every action it weighs), so the last few boards are enough."""
