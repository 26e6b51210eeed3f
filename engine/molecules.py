"""Where each atom of a molecule goes on a drawing: computed here once and
handed to the printer's SVG templates and to the phones alike, so that a
card looks the same on paper and on a screen.

Two looks:

* :func:`lattice`: atoms on a hexagonal packing, like spaces of a note sheet,
  every hydrogen its own atom (the way a player builds it there);
* :func:`skeletal`: RDKit's 2D depiction, each heavy atom labelled with its
  hydrogens (``OH``, ``NH2``, ``CH3``), for molecules too large for a lattice
  (amino acids, nucleobases) and for salts (``Ca2+`` beside ``CO3 2-``).

The depictions are real 2D geometry: every sp centre (H-C#C-H, N#C-R,
O=C=O) is straight (CoordGen's layout, else RDKit's own when CoordGen bends
one), and a molecule whose atoms lie on one line is laid level.

Units: the bond length is 1, ``x`` grows to the right and ``y`` downwards,
the top-left atom centre is at (0, 0). A renderer scales by its pitch.

>>> water = lattice("O")
>>> len(water.atoms), len(water.bonds), water.height > 0
(3, 2, True)
>>> sorted((a.label, a.x) for a in explicit("[H][H]").atoms)
[('H', 0.0), ('H', 1.0)]
>>> glu = skeletal("OC(=O)CCC(N)C(=O)O")
>>> sorted(a.label for a in glu.atoms)
['C', 'C', 'CH', 'CH2', 'CH2', 'NH2', 'O', 'O', 'OH', 'OH']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.chem import ChemistryError, structure
from engine.hexgrid import HexField, embed


@dataclass(frozen=True)
class PlacedAtom:
    element: str
    x: float
    y: float
    hydrogens: int = 0
    """Hydrogens folded into this atom's label (skeletal look)."""
    charge: int = 0

    @property
    def label(self) -> str:
        h = self.hydrogens
        return self.element + ("H" + (str(h) if h > 1 else "") if h else "")

    @property
    def charge_text(self) -> str:
        """``"2+"``, ``"−"``: a formal charge as chemists write it (empty for none)."""
        if not self.charge:
            return ""
        size = abs(self.charge)
        sign = "+" if self.charge > 0 else "\u2212"
        return f"{size if size > 1 else ''}{sign}"


@dataclass(frozen=True)
class PlacedBond:
    a: int
    b: int
    order: int
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Layout:
    atoms: tuple[PlacedAtom, ...]
    bonds: tuple[PlacedBond, ...]
    width: float
    """From the leftmost to the rightmost atom centre."""
    height: float
    look: str

    def charge_side(self, i: int) -> tuple[float, float]:
        """Where atom ``i``'s charge goes: a unit vector (``y`` down). Upper
        right, as chemists write it, when no bond passes near; else the
        nearest of eight directions clear of its bonds (a fixed upper-right
        spot sat on the bond lines of O3, N2O and CO); else the clearest.

        >>> skeletal("[Ca+2]").charge_side(0)
        (0.7071, -0.7071)
        >>> co = skeletal("[C-]#[O+]")
        >>> co.atoms[0].y == co.atoms[1].y, co.charge_side(0)   # a bond along x: the charge goes above
        (True, (0.0, -1.0))
        """
        a = self.atoms[i]
        bonds = [math.atan2(o.y - a.y, o.x - a.x)
                 for b in self.bonds if i in (b.a, b.b)
                 for o in (self.atoms[b.b if b.a == i else b.a],)]

        def clearance(angle: float) -> float:
            return min((abs(math.remainder(angle - t, 2 * math.pi)) for t in bonds), default=math.pi)

        # upper right first, then round the atom from there
        candidates = [-math.pi / 4 + k * sign * math.pi / 4 for k in range(5) for sign in ((-1, 1) if k else (1,))]
        clear = [t for t in candidates if clearance(t) >= 3 * math.pi / 8 - 1e-9]
        best = clear[0] if clear else max(candidates, key=clearance)
        return round(math.cos(best), 4) + 0.0, round(math.sin(best), 4) + 0.0

    def lines(self, spread: float, trim: float) -> list[tuple[float, float, float, float]]:
        """Every stroke of every bond (:func:`bond_lines`), in layout units."""
        return [seg for b in self.bonds
                for seg in bond_lines((b.x1, b.y1), (b.x2, b.y2), b.order, spread, trim)]


def bond_lines(a: tuple[float, float], b: tuple[float, float], order: int, spread: float,
               trim: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Parallel segments drawing a single, double or triple bond between two
    centres, each end pulled in by ``trim`` (the atom circle's radius).

    >>> bond_lines((0, 0), (1, 0), 2, 0.2)
    [(0.0, -0.1, 1.0, -0.1), (0.0, 0.1, 1.0, 0.1)]
    """
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    ax, ay = x1 + ux * trim, y1 + uy * trim
    bx, by = x2 - ux * trim, y2 - uy * trim
    offsets = {1: [0.0], 2: [-spread / 2, spread / 2], 3: [-spread, 0.0, spread]}[order]
    return [(ax + px * o, ay + py * o, bx + px * o, by + py * o) for o in offsets]


def _layout(atoms: list[PlacedAtom], bonds: list[tuple[int, int, int]], look: str) -> Layout:
    x0 = min(a.x for a in atoms)
    y0 = min(a.y for a in atoms)
    atoms = [PlacedAtom(a.element, round(a.x - x0, 4), round(a.y - y0, 4), a.hydrogens, a.charge)
             for a in atoms]
    placed = tuple(PlacedBond(i, j, o, atoms[i].x, atoms[i].y, atoms[j].x, atoms[j].y) for i, j, o in bonds)
    return Layout(tuple(atoms), placed, max(a.x for a in atoms), max(a.y for a in atoms), look)


@lru_cache(maxsize=1024)
def lattice(smiles: str) -> Layout:
    """Every atom, hydrogens included, on a hexagonal packing: bonded atoms
    on neighbouring spaces. A molecule that cannot be packed so (too many
    neighbours, or too large to search) falls back to :func:`explicit`."""
    s = structure(smiles)
    if len(s.fragments) == 1 and len(s.atoms) <= 24:
        side = 7 if len(s.atoms) <= 12 else 11
        placed = embed(list(s.atoms), {(i, j): o for i, j, o in s.bonds}, HexField(side, side))
        if placed is not None:
            atoms = [PlacedAtom(e, *HexField.centre(placed[i]), charge=s.charges[i]) for i, e in enumerate(s.atoms)]
            return _layout(atoms, list(s.bonds), "lattice")
    return explicit(smiles)


@lru_cache(maxsize=1024)
def explicit(smiles: str) -> Layout:
    """RDKit's 2D depiction with every hydrogen drawn as its own atom."""
    return _depict(smiles, fold_hydrogens=False)


@lru_cache(maxsize=1024)
def skeletal(smiles: str) -> Layout:
    """RDKit's 2D depiction of the heavy atoms, hydrogens in their labels."""
    return _depict(smiles, fold_hydrogens=True)


def _depict(smiles: str, *, fold_hydrogens: bool) -> Layout:
    from rdkit import Chem, rdBase
    from rdkit.Chem import rdDepictor

    s = structure(smiles)  # raises a ChemistryError with words for a bad string
    with rdBase.BlockLogs():
        mol = Chem.MolFromSmiles(s.smiles)
        if mol is None:  # pragma: no cover - structure() read it
            raise ChemistryError(f"SMILES {smiles!r} cannot be drawn")
        if not fold_hydrogens:
            mol = Chem.AddHs(mol)
        Chem.Kekulize(mol, clearAromaticFlags=True)
        rdDepictor.SetPreferCoordGen(True)
        rdDepictor.Compute2DCoords(mol)
        conf = mol.GetConformer()
        if (any(math.isnan(conf.GetAtomPosition(i).x) for i in range(mol.GetNumAtoms()))
                or _bent_sp_centres(mol, _points(mol))):
            # CoordGen gives up on some tiny molecules (H2), and may bend a
            # triple bond or an O=C=O: RDKit's own layout draws both straight
            rdDepictor.SetPreferCoordGen(False)
            rdDepictor.Compute2DCoords(mol)
            rdDepictor.SetPreferCoordGen(True)
    points = _level(_points(mol), len(Chem.GetMolFrags(mol)) == 1)
    lengths = [math.dist(points[b.GetBeginAtomIdx()], points[b.GetEndAtomIdx()]) for b in mol.GetBonds()]
    scale = 1.0 / (sum(lengths) / len(lengths)) if lengths else 1.0
    atoms = []
    for a in mol.GetAtoms():
        x, y = points[a.GetIdx()]
        atoms.append(PlacedAtom(a.GetSymbol(), x * scale, -y * scale,
                                a.GetTotalNumHs() if fold_hydrogens else 0, a.GetFormalCharge()))
    if len(atoms) > 1 and len(Chem.GetMolFrags(mol)) > 1:
        atoms = _spread_ions(atoms, Chem.GetMolFrags(mol))
    bonds = []
    for b in mol.GetBonds():
        i, j = sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))
        bonds.append((i, j, int(b.GetBondTypeAsDouble())))
    return _layout(atoms, sorted(bonds), "skeletal" if fold_hydrogens else "explicit")


SP_TOLERANCE = 3.0
"""Degrees an sp centre's two bonds may bend from a straight line."""


def _points(mol) -> list[tuple[float, float]]:
    conf = mol.GetConformer()
    return [(conf.GetAtomPosition(i).x, conf.GetAtomPosition(i).y) for i in range(mol.GetNumAtoms())]


def sp_centres(orders_by_atom: dict[int, list[tuple[int, int]]]) -> list[tuple[int, int, int]]:
    """``(neighbour, centre, neighbour)`` for every atom whose two bonds are
    a triple and a single, or two doubles: an sp centre (H-C#C-H, N#C-R,
    O=C=O, N=N+=O), straight in every real geometry.

    >>> sp_centres({0: [(1, 2)], 1: [(0, 2), (2, 2)], 2: [(1, 2)]})   # O=C=O
    [(0, 1, 2)]
    """
    out = []
    for i, bonds in sorted(orders_by_atom.items()):
        orders = sorted(o for _, o in bonds)
        if len(orders) == 2 and (3 in orders or orders == [2, 2]):
            (a, _), (b, _) = bonds
            out.append((a, i, b))
    return out


def bend(p: tuple[float, float], centre: tuple[float, float], q: tuple[float, float]) -> float:
    """Degrees by which p-centre-q turns from a straight line.

    >>> bend((0, 0), (1, 0), (2, 0)), round(bend((0, 0), (1, 0), (1.5, 0.866)))
    (0.0, 60)
    """
    a = math.atan2(p[1] - centre[1], p[0] - centre[0])
    b = math.atan2(q[1] - centre[1], q[0] - centre[0])
    return abs(180.0 - abs(math.degrees(math.remainder(a - b, 2 * math.pi))))


def _bent_sp_centres(mol, points: list[tuple[float, float]]) -> bool:
    bonds: dict[int, list[tuple[int, int]]] = {}
    for b in mol.GetBonds():
        i, j, o = b.GetBeginAtomIdx(), b.GetEndAtomIdx(), int(b.GetBondTypeAsDouble())
        bonds.setdefault(i, []).append((j, o))
        bonds.setdefault(j, []).append((i, o))
    return any(bend(points[a], points[c], points[b]) > SP_TOLERANCE / 3 for a, c, b in sp_centres(bonds))


def _level(points: list[tuple[float, float]], one_piece: bool) -> list[tuple[float, float]]:
    """A molecule whose atoms all lie on one line (H-C#C-H, N=N=O) turned
    to lie along x, as chemists draw it (a depiction may leave it at 30
    degrees); any other drawing is left as it is."""
    if not one_piece or len(points) < 3:
        return points
    (x0, y0), (x1, y1) = max(((p, q) for p in points for q in points), key=lambda pq: math.dist(*pq))
    length = math.dist((x0, y0), (x1, y1))
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    if ux < 0:  # turned the short way: what was on the left stays on the left
        (x0, y0), ux, uy = (x1, y1), -ux, -uy
    if any(abs((x - x0) * uy - (y - y0) * ux) > 0.01 * length for x, y in points) or abs(uy) < 1e-6:
        return points
    return [((x - x0) * ux + (y - y0) * uy, 0.0) for x, y in points]


def _spread_ions(atoms: list[PlacedAtom], fragments) -> list[PlacedAtom]:
    """Ions of a salt side by side, one bond length apart, left to right."""
    out = list(atoms)
    cursor = 0.0
    for frag in fragments:
        xs = [atoms[i].x for i in frag]
        ys = [atoms[i].y for i in frag]
        dx = cursor - min(xs)
        dy = -(min(ys) + max(ys)) / 2
        for i in frag:
            a = atoms[i]
            out[i] = PlacedAtom(a.element, a.x + dx, a.y + dy, a.hydrogens, a.charge)
        cursor += max(xs) - min(xs) + 1.6
    return out
