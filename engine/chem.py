"""Chemistry for every game, in one place: elements, structures read from
SMILES, formulas, and molecular graphs.

Card data names a molecule by a SMILES string; everything printed about it
(formula, atom counts, the drawing in :mod:`engine.molecules`) is computed
from that string with RDKit, never typed by hand. A structure is read once
per process (:func:`structure` is cached), so validation, the printer and
the phones share the same reading.

>>> water = structure("O")
>>> water.formula, water.counts
('H2O', {'H': 2, 'O': 1})
>>> structure("OC(=O)CCC(N)C(=O)O").formula   # glutamic acid
'C5H9NO4'
>>> structure("[Ca+2].[O-]C([O-])=O").counts   # chalk: ions are fine
{'C': 1, 'Ca': 1, 'O': 3}
>>> Molecule.from_smiles("N#N").bond_orders()
[3]
>>> formula_counts("(NH2)2CO") == structure("NC(N)=O").counts
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Mapping

from rdkit import Chem, rdBase


@dataclass(frozen=True)
class Element:
    symbol: str
    name: str
    valence: int
    """Covalent bonds it usually takes (H 1, O 2, N 3, C 4)."""
    fill: str
    """CPK colour, for drawings; every drawing also prints the symbol, so colour never carries it alone."""
    ink: str
    """Text colour that reads on ``fill``."""
    stroke: str


ELEMENTS: dict[str, Element] = {e.symbol: e for e in (
    Element("H", "Hydrogen", 1, "#ffffff", "#1a1a1a", "#1a1a1a"),
    Element("C", "Carbon", 4, "#2b2b2b", "#ffffff", "#000000"),
    Element("N", "Nitrogen", 3, "#2f5fd0", "#ffffff", "#1b3a85"),
    Element("O", "Oxygen", 2, "#d7261e", "#ffffff", "#8c1510"),
    Element("S", "Sulfur", 2, "#f2c81f", "#1a1a1a", "#8a6d00"),
    Element("Ca", "Calcium", 2, "#3d9a3d", "#ffffff", "#1f5c1f"),
    Element("P", "Phosphorus", 3, "#f08a1c", "#1a1a1a", "#8a4a00"),
    Element("F", "Fluorine", 1, "#8fd14f", "#1a1a1a", "#4a7a1f"),
    Element("Cl", "Chlorine", 1, "#2fb82f", "#1a1a1a", "#1a6b1a"),
    Element("Na", "Sodium", 1, "#7a4fd1", "#ffffff", "#43248a"),
    Element("K", "Potassium", 1, "#8f40d4", "#ffffff", "#4c1d80"),
    Element("Mg", "Magnesium", 2, "#2a8a2a", "#ffffff", "#145214"),
    Element("Fe", "Iron", 2, "#e06633", "#ffffff", "#80361a"),
)}
"""The elements the games use and a few more an author may reach for."""

OTHER = Element("?", "Other", 0, "#dd77ff", "#1a1a1a", "#7a3a8f")
"""CPK's colour for everything else."""

VALENCE: dict[str, int] = {s: e.valence for s, e in ELEMENTS.items()}
ELEMENT_NAMES: dict[str, str] = {s: e.name for s, e in ELEMENTS.items()}

MAX_BOND_ORDER = 3
"""At most a triple bond between two atoms."""


def element(symbol: str) -> Element:
    """The element of ``symbol``; one outside :data:`ELEMENTS` gets its
    name from the periodic table and CPK's colour for 'other'."""
    if symbol in ELEMENTS:
        return ELEMENTS[symbol]
    # looked up in our own list first: RDKit, asked for a symbol it does not
    # know, prints its native stack trace to the terminal before it raises
    number = _ATOMIC_NUMBERS.get(symbol)
    if number is None:
        raise ChemistryError(f"{symbol!r} is not an element")
    table = Chem.GetPeriodicTable()
    return Element(symbol, table.GetElementName(number), max(0, table.GetDefaultValence(number)),
                   OTHER.fill, OTHER.ink, OTHER.stroke)


_ATOMIC_NUMBERS: dict[str, int] = {Chem.GetPeriodicTable().GetElementSymbol(n): n for n in range(1, 119)}


class ChemistryError(ValueError):
    """A structure or formula that cannot be read, or breaks valence."""


# --- structures ----------------------------------------------------------------
@dataclass(frozen=True)
class Structure:
    """A molecule (or a salt of several ions) read from SMILES, with every
    hydrogen as an explicit atom. Plain data: nothing of RDKit is kept."""

    smiles: str
    atoms: tuple[str, ...]
    bonds: tuple[tuple[int, int, int], ...]
    """``(i, j, order)`` with ``i < j``; aromatic rings are read in a Kekulé form."""
    charges: tuple[int, ...]
    radicals: tuple[int, ...]
    """Unpaired electrons on each atom: a bond that could still form."""
    heavy: int
    """The first ``heavy`` atoms are the ones the SMILES names; the implicit hydrogens follow."""

    @cached_property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.atoms:
            out[a] = out.get(a, 0) + 1
        return dict(sorted(out.items()))

    @property
    def formula(self) -> str:
        """Hill notation: C, then H, then the rest alphabetically."""
        return hill_formula(self.counts)

    @property
    def elements(self) -> tuple[str, ...]:
        """Each element once, in Hill order."""
        return tuple(re.findall(r"[A-Z][a-z]?", self.formula))

    @property
    def charge(self) -> int:
        return sum(self.charges)

    @cached_property
    def fragments(self) -> tuple[tuple[int, ...], ...]:
        """Atom indexes of each connected piece (a salt has several)."""
        links: dict[int, list[int]] = {i: [] for i in range(len(self.atoms))}
        for i, j, _ in self.bonds:
            links[i].append(j)
            links[j].append(i)
        seen: set[int] = set()
        out = []
        for start in range(len(self.atoms)):
            if start in seen:
                continue
            seen.add(start)
            group, stack = [start], [start]
            while stack:
                for j in links[stack.pop()]:
                    if j not in seen:
                        seen.add(j)
                        group.append(j)
                        stack.append(j)
            out.append(tuple(sorted(group)))
        return tuple(out)

    def hydrogens_on(self, i: int) -> int:
        """Hydrogen atoms bonded to atom ``i``."""
        return sum(1 for a, b, _ in self.bonds
                   if (a == i and self.atoms[b] == "H") or (b == i and self.atoms[a] == "H"))

    def graph(self) -> "Molecule":
        return Molecule(list(self.atoms), {(i, j): o for i, j, o in self.bonds})


def _diagnose(smiles: str) -> str:
    """Why RDKit could not read ``smiles``, in words (RDKit says it only on stderr)."""
    if smiles.count("(") != smiles.count(")"):
        return "its brackets ( ) do not pair up"
    if smiles.count("[") != smiles.count("]"):
        return "its square brackets [ ] do not pair up"
    bare = re.sub(r"\[[^\]]*\]", "", smiles)
    digits = re.findall(r"%\d\d|\d", bare)
    for d in set(digits):
        if digits.count(d) % 2:
            return f"ring number {d} is opened and never closed"
    for token in re.findall(r"\[([^\]]*)\]", smiles):
        m = re.match(r"\d*([A-Z][a-z]?|[a-z]+)", token)
        if not m:
            return f"[{token}] names no element"
    return "it is not a SMILES string RDKit can read (check the element symbols and bonds)"


@lru_cache(maxsize=4096)
def structure(smiles: str) -> Structure:
    """Read ``smiles`` (cached: each structure is read once per process).

    >>> structure("C(C)(C)(C)(C)C")
    Traceback (most recent call last):
    ...
    engine.chem.ChemistryError: SMILES 'C(C)(C)(C)(C)C': Carbon atom 1 has 5 bonds, more than its 4
    """
    if not isinstance(smiles, str) or not smiles.strip():
        raise ChemistryError("empty SMILES")
    text = smiles.strip()
    with rdBase.BlockLogs():
        mol = Chem.MolFromSmiles(text, sanitize=False)
        if mol is None:
            raise ChemistryError(f"SMILES {text!r}: {_diagnose(text)}")
        problems = Chem.DetectChemistryProblems(mol)
        if problems:
            raise ChemistryError(f"SMILES {text!r}: " + "; ".join(_problem(mol, p) for p in problems))
        Chem.SanitizeMol(mol)
        named = mol.GetNumAtoms()
        mol = Chem.AddHs(mol)
        Chem.Kekulize(mol, clearAromaticFlags=True)
    atoms = tuple(a.GetSymbol() for a in mol.GetAtoms())
    bonds = []
    for b in mol.GetBonds():
        order = b.GetBondTypeAsDouble()
        if order not in (1.0, 2.0, 3.0):
            raise ChemistryError(f"SMILES {text!r}: a bond of order {order} (only single, double and triple)")
        i, j = sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))
        bonds.append((i, j, int(order)))
    return Structure(
        smiles=text, atoms=atoms, bonds=tuple(sorted(bonds)),
        charges=tuple(a.GetFormalCharge() for a in mol.GetAtoms()),
        radicals=tuple(a.GetNumRadicalElectrons() for a in mol.GetAtoms()),
        heavy=named)


def _problem(mol: Chem.Mol, problem) -> str:
    kind = problem.GetType()
    if kind == "AtomValenceException":
        i = problem.GetAtomIdx()
        atom = mol.GetAtomWithIdx(i)
        el = element(atom.GetSymbol())
        total = sum(int(b.GetBondTypeAsDouble()) for b in atom.GetBonds()) + atom.GetNumExplicitHs()
        return f"{el.name} atom {i + 1} has {total} bonds, more than its {el.valence}"
    if kind == "KekulizeException":
        return "an aromatic ring that cannot be written with alternating double bonds (write the Kekulé form)"
    return problem.Message()


# --- formulas --------------------------------------------------------------------
def hill_formula(counts: Mapping[str, int]) -> str:
    order = sorted(counts)
    if "C" in counts:
        order = ["C"] + (["H"] if "H" in counts else []) + [e for e in order if e not in ("C", "H")]
    return "".join(e + (str(counts[e]) if counts[e] != 1 else "") for e in order if counts[e])


_FORMULA_TOKEN = re.compile(r"([A-Z][a-z]?)(\d*)|(\()|(\))(\d*)")


def formula_counts(formula: str) -> dict[str, int]:
    """Element counts of a written formula: ``"CH3OH"``, ``"(NH2)2CO"``, ``"H₂O"``."""
    text = formula.translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")).replace(" ", "")
    if not text:
        raise ChemistryError("empty formula")
    stack: list[dict[str, int]] = [{}]
    pos = 0
    while pos < len(text):
        m = _FORMULA_TOKEN.match(text, pos)
        if not m:
            raise ChemistryError(f"cannot read formula {formula!r} at {text[pos:]!r}")
        pos = m.end()
        if m.group(1):
            el = m.group(1)
            element(el)  # raises for a symbol that is no element
            stack[-1][el] = stack[-1].get(el, 0) + int(m.group(2) or 1)
        elif m.group(3):
            stack.append({})
        else:
            if len(stack) == 1:
                raise ChemistryError(f"unbalanced ')' in formula {formula!r}")
            group = stack.pop()
            n = int(m.group(5) or 1)
            for el, c in group.items():
                stack[-1][el] = stack[-1].get(el, 0) + c * n
    if len(stack) != 1:
        raise ChemistryError(f"unbalanced '(' in formula {formula!r}")
    return dict(sorted(stack[0].items()))


# --- molecular graphs ----------------------------------------------------------
@dataclass
class Molecule:
    """A molecular graph with every hydrogen as an explicit atom, for the
    games that compare what a player built with a card.

    ``bonds`` maps an atom index pair ``(i, j)`` with ``i < j`` to the bond
    order (1, 2 or 3).
    """

    atoms: list[str] = field(default_factory=list)
    bonds: dict[tuple[int, int], int] = field(default_factory=dict)

    @classmethod
    def from_smiles(cls, smiles: str) -> "Molecule":
        return structure(smiles).graph()

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.atoms:
            out[a] = out.get(a, 0) + 1
        return dict(sorted(out.items()))

    def formula(self) -> str:
        return hill_formula(self.counts())

    def bond_orders(self) -> list[int]:
        return [self.bonds[k] for k in sorted(self.bonds)]

    def neighbours(self, i: int) -> dict[int, int]:
        out = {}
        for (a, b), order in self.bonds.items():
            if a == i:
                out[b] = order
            elif b == i:
                out[a] = order
        return out

    def bonds_used(self, i: int) -> int:
        return sum(self.neighbours(i).values())

    def missing_bonds(self, valence: Mapping[str, int] = VALENCE) -> int:
        """Bonds still open: the sum over atoms of valence minus bonds drawn."""
        return sum(valence[a] - self.bonds_used(i) for i, a in enumerate(self.atoms))

    def is_isomorphic(self, other: "Molecule") -> bool:
        """Same atoms joined by the same bonds (hydrogens included)."""
        return find_isomorphism(self, other) is not None


def _signature(m: Molecule, i: int) -> tuple:
    nb = m.neighbours(i)
    return (m.atoms[i], tuple(sorted((m.atoms[j], o) for j, o in nb.items())))


def find_isomorphism(a: Molecule, b: Molecule) -> dict[int, int] | None:
    """An atom mapping from ``a`` onto ``b`` keeping elements and bond orders,
    or ``None``. Backtracking over atoms with matching local signatures: fine
    for the dozen-atom molecules a player builds on a sheet."""
    if len(a.atoms) != len(b.atoms) or len(a.bonds) != len(b.bonds):
        return None
    if a.counts() != b.counts() or sorted(a.bonds.values()) != sorted(b.bonds.values()):
        return None
    sig_a = [_signature(a, i) for i in range(len(a.atoms))]
    sig_b = [_signature(b, i) for i in range(len(b.atoms))]
    if sorted(sig_a) != sorted(sig_b):
        return None
    nb_a = [a.neighbours(i) for i in range(len(a.atoms))]
    nb_b = [b.neighbours(i) for i in range(len(b.atoms))]
    # Visit a's atoms so that each one after the first touches an earlier one.
    order: list[int] = []
    for start in sorted(range(len(a.atoms)), key=lambda i: -len(nb_a[i])):
        if start in order:
            continue
        order.append(start)
        k = len(order) - 1
        while k < len(order):
            for j in sorted(nb_a[order[k]]):
                if j not in order:
                    order.append(j)
            k += 1
    mapping: dict[int, int] = {}
    used: set[int] = set()

    def extend(k: int) -> bool:
        if k == len(order):
            return True
        i = order[k]
        for j in range(len(b.atoms)):
            if j in used or sig_b[j] != sig_a[i]:
                continue
            if all(nb_b[j].get(mapping[n]) == o for n, o in nb_a[i].items() if n in mapping):
                mapping[i] = j
                used.add(j)
                if extend(k + 1):
                    return True
                del mapping[i]
                used.discard(j)
        return False

    found = extend(0)
    del extend  # a function calling itself by name is a cycle (it and its cell), which refcounting cannot free
    return dict(mapping) if found else None
