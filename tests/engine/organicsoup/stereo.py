"""The geometry of a double bond, as the SMILES fixes it and as a drawing
shows it: for the card tests (the engine's layout, the printed PDF, the
phone's SVG). Atom indexes are RDKit's reading of the SMILES, which the
drawings keep (``engine.molecules``: the named atoms in SMILES order, then
the hydrogens)."""

from __future__ import annotations

from typing import Sequence

from rdkit import Chem

BondStereo = Chem.rdchem.BondStereo


def stereo_double_bonds(smiles: str) -> list[tuple[int, int, int, int, bool]]:
    """``(a, b, c, d, cis)`` for each double bond ``b=c`` whose geometry the
    SMILES fixes: ``a`` is bonded to ``b``, ``d`` to ``c``, and ``cis`` says
    whether they lie on the same side of it (``F/C=C\\F`` is cis,
    ``F/C=C/F`` trans, ``FC=CF`` fixes nothing).
    """
    mol = Chem.MolFromSmiles(smiles)
    # Cis or trans about the atoms the slashes name (the reader may say E or
    # Z instead, which is about CIP ranks).
    Chem.SetBondStereoFromDirections(mol)
    out = []
    for bond in mol.GetBonds():
        stereo = bond.GetStereo()
        if stereo in (BondStereo.STEREONONE, BondStereo.STEREOANY):
            continue
        assert stereo in (BondStereo.STEREOCIS, BondStereo.STEREOTRANS), (smiles, stereo)
        a, d = bond.GetStereoAtoms()
        b, c = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        if mol.GetBondBetweenAtoms(a, b) is None:
            b, c = c, b
        out.append((a, b, c, d, stereo == BondStereo.STEREOCIS))
    return out


def side(points: Sequence[tuple[float, float]], b: int, c: int, p: int) -> float:
    """Which side of the line through atoms ``b`` and ``c`` atom ``p`` lies
    on (the sign), and how far (in the drawing's units times ``|bc|``)."""
    (bx, by), (cx, cy), (px, py) = points[b], points[c], points[p]
    return (cx - bx) * (py - by) - (cy - by) * (px - bx)


def drawn_cis(points: Sequence[tuple[float, float]], a: int, b: int, c: int, d: int) -> bool:
    """Whether a drawing puts ``a`` and ``d`` on the same side of ``b=c``
    (a mirror image, such as a PDF's upward y, changes nothing)."""
    sa, sd = side(points, b, c, a), side(points, b, c, d)
    assert sa and sd, "an atom drawn on the line of the double bond shows no geometry"
    return (sa > 0) == (sd > 0)
