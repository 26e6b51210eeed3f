"""Scoring a note sheet: compounds, missing bonds, and the score boxes.

Shared by the engine (:meth:`LabNotes.result`) and the paper-sheet scorer
(:mod:`engine.labnotes.sheet`). The rulebook's example (End Game): C=N-H is
worth 4 for its bonds, minus 2 for Carbon's two missing bonds:

>>> from engine.labnotes.state import sheet_from_text
>>> spaces, bonds = sheet_from_text("A1:C A2:N A3:H A1=A2 A2-A3")
>>> [(c.formula, c.bond_points, c.missing, c.score) for c in compounds(spaces, bonds)]
[('CHN', 4, 2, 2)]
>>> score = seat_score(0, "Ada", spaces, bonds, notecard_points=[6], burned=1)
>>> [(line.label, line.points) for line in score.lines], score.total
([('Compounds', 2), ('Notecards', 6), ('Burned spaces', -2)], 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from engine.chem import Molecule, find_isomorphism, hill_formula
from engine.core import ScoreLine, SeatScore
from engine.labnotes.state import BURNED, DEFAULT_COLS, EMPTY, VALENCE, space_label

BOND_POINTS = {1: 1, 2: 3, 3: 6}
"""Final Score: single bonds 1 point, double 3, triple 6."""
BURN_PENALTY = 2
"""Final Score: each burned space loses 2 points."""

Bonds = Mapping[tuple[int, int], int]


@dataclass(frozen=True, slots=True)
class Compound:
    """A group of bonded elements on a compound field."""

    spaces: tuple[int, ...]
    elements: tuple[str, ...]
    """The element on each of ``spaces``."""
    bonds: tuple[tuple[int, int, int], ...]
    """``(space, space, order)``."""
    missing: int
    """Bonds still open: valence minus bonds drawn, summed over the elements."""

    @property
    def complete(self) -> bool:
        """Every element has all its bonds: nothing more can attach (it is circled)."""
        return self.missing == 0

    def count(self, order: int) -> int:
        return sum(1 for _, _, o in self.bonds if o == order)

    @property
    def bond_points(self) -> int:
        return sum(BOND_POINTS[o] for _, _, o in self.bonds)

    @property
    def score(self) -> int:
        """Bond points, minus one per missing bond (no floor: the rulebook subtracts)."""
        return self.bond_points - self.missing

    @property
    def formula(self) -> str:
        counts: dict[str, int] = {}
        for e in self.elements:
            counts[e] = counts.get(e, 0) + 1
        return hill_formula(counts)

    def shape(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """A cheap fingerprint: equal for isomorphic compounds."""
        return tuple(sorted(self.elements)), tuple(sorted(o for _, _, o in self.bonds))

    def molecule(self) -> Molecule:
        index = {s: i for i, s in enumerate(self.spaces)}
        return Molecule(atoms=list(self.elements),
                        bonds={(min(index[a], index[b]), max(index[a], index[b])): o for a, b, o in self.bonds})

    def matches(self, target: Molecule, target_shape: tuple | None = None) -> bool:
        """Same structure as ``target`` (elements and bonds, hydrogens included)."""
        if target_shape is None:
            target_shape = molecule_shape(target)
        return self.shape() == target_shape and find_isomorphism(self.molecule(), target) is not None


def molecule_shape(m: Molecule) -> tuple[tuple[str, ...], tuple[int, ...]]:
    return tuple(sorted(m.atoms)), tuple(sorted(m.bonds.values()))


def _links(bonds: Bonds) -> dict[int, list[int]]:
    links: dict[int, list[int]] = {}
    for a, b in bonds:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    return links


def _groups(bonds: Bonds, links: dict[int, list[int]], starts) -> list[list[int]]:
    """The spaces of each bonded group reached from ``starts``."""
    placed: set[int] = set()
    groups = []
    for start in starts:
        if start in placed:
            continue
        placed.add(start)
        members, stack = [start], [start]
        while stack:
            for t in links.get(stack.pop(), ()):
                if t not in placed:
                    placed.add(t)
                    members.append(t)
                    stack.append(t)
        groups.append(members)
    return groups


def _compounds(spaces: str, bonds: Bonds, groups: list[list[int]]) -> list[Compound]:
    group_of = {s: i for i, members in enumerate(groups) for s in members}
    own: list[list[tuple[int, int, int]]] = [[] for _ in groups]
    used: dict[int, int] = {}
    for (a, b), o in bonds.items():
        if a in group_of:
            own[group_of[a]].append((a, b, o))
            used[a] = used.get(a, 0) + o
            used[b] = used.get(b, 0) + o
    out = []
    for members, mine in zip(groups, own):
        members = sorted(members)
        elements = tuple(spaces[s] for s in members)
        missing = sum(VALENCE[e] - used.get(s, 0) for s, e in zip(members, elements))
        out.append(Compound(tuple(members), elements, tuple(sorted(mine)), missing))
    return out


def compounds(spaces: str, bonds: Bonds) -> list[Compound]:
    """Every compound on the field, in order of its first space. An element
    with no bond at all is not a compound (at the end of the game it burns)."""
    links = _links(bonds)
    return _compounds(spaces, bonds, _groups(bonds, links, sorted(links)))


def compound_at(spaces: str, bonds: Bonds, space: int) -> Compound:
    """The compound that holds ``space`` (a lone element is a compound of one)."""
    return _compounds(spaces, bonds, _groups(bonds, _links(bonds), [space]))[0]


def unconnected(spaces: str, bonds: Bonds) -> list[int]:
    """Elements with no bond: they burn at the end of the game (End Game)."""
    linked = {s for key in bonds for s in key}
    return [i for i, c in enumerate(spaces) if c not in (EMPTY, BURNED) and i not in linked]


def burn_unconnected(spaces: str, bonds: Bonds) -> str:
    lone = set(unconnected(spaces, bonds))
    return "".join(BURNED if i in lone else c for i, c in enumerate(spaces))


def seat_score(seat: int, name: str, spaces: str, bonds: Bonds, notecard_points: Iterable[int],
               burned: int, cols: int = DEFAULT_COLS, details: Mapping | None = None) -> SeatScore:
    """The three score boxes of a sheet (Final Score 1-3) and their total (4).

    ``burned`` is the number of burned spaces; ``details`` adds to the breakdown.
    """
    found = compounds(spaces, bonds)
    points = list(notecard_points)
    lines = (
        ScoreLine("compounds", "Compounds", sum(c.score for c in found)),
        ScoreLine("notecards", "Notecards", sum(points)),
        ScoreLine("burned", "Burned spaces", -BURN_PENALTY * burned),
    )
    info = {
        "single_bonds": sum(c.count(1) for c in found),
        "double_bonds": sum(c.count(2) for c in found),
        "triple_bonds": sum(c.count(3) for c in found),
        "missing_bonds": sum(c.missing for c in found),
        "burned_spaces": burned,
        "notecard_points": points,
        "compounds": [{
            "spaces": [space_label(s, cols) for s in c.spaces],
            "formula": c.formula,
            "single": c.count(1), "double": c.count(2), "triple": c.count(3),
            "bond_points": c.bond_points,
            "missing_bonds": c.missing,
            "complete": c.complete,
            "score": c.score,
        } for c in found],
    }
    info.update(details or {})
    return SeatScore(seat=seat, name=name, lines=lines, total=sum(l.points for l in lines), details=info)
