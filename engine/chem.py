"""Just enough chemistry for the games: elements, valence, molecular graphs.

Card data names molecules with a SMILES string (a structure) and a formula
(what is printed). The engine reads a small SMILES subset itself, so that the
rules need no chemistry toolkit; the tests check every card against RDKit,
which is the real reference.

>>> water = Molecule.from_smiles("O")
>>> water.formula()
'H2O'
>>> water.counts()
{'H': 2, 'O': 1}
>>> Molecule.from_smiles("N#N").bond_orders()
[3]
>>> formula_counts("(NH2)2CO") == Molecule.from_smiles("NC(N)=O").counts()
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

VALENCE: dict[str, int] = {"H": 1, "O": 2, "N": 3, "C": 4, "S": 2, "Ca": 2}
"""Covalent bonds each element takes in these games (the Lab Notes rulebook
gives H 1, O 2, N 3, C 4)."""

ELEMENT_NAMES: dict[str, str] = {
    "H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon",
    "S": "Sulfur", "Ca": "Calcium",
}

MAX_BOND_ORDER = 3
"""At most a triple bond between two atoms."""


class ChemistryError(ValueError):
    """A structure or formula that cannot be read, or breaks valence."""


@dataclass
class Molecule:
    """A molecular graph with every hydrogen as an explicit atom.

    ``bonds`` maps an atom index pair ``(i, j)`` with ``i < j`` to the bond
    order (1, 2 or 3).
    """

    atoms: list[str] = field(default_factory=list)
    bonds: dict[tuple[int, int], int] = field(default_factory=dict)

    # --- reading ----------------------------------------------------------
    @classmethod
    def from_smiles(cls, smiles: str) -> "Molecule":
        return _SmilesReader(smiles).read()

    # --- questions ----------------------------------------------------------
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.atoms:
            out[a] = out.get(a, 0) + 1
        return dict(sorted(out.items()))

    def formula(self) -> str:
        """Hill notation: C, then H, then the rest alphabetically (no C: all alphabetical)."""
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

    def missing_bonds(self) -> int:
        """Bonds still open: the sum over atoms of valence minus bonds drawn."""
        return sum(VALENCE[a] - self.bonds_used(i) for i, a in enumerate(self.atoms))

    def is_connected(self) -> bool:
        if not self.atoms:
            return False
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in self.neighbours(i):
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        return len(seen) == len(self.atoms)

    def valence_problems(self) -> list[str]:
        problems = []
        for i, a in enumerate(self.atoms):
            used = self.bonds_used(i)
            if used > VALENCE[a]:
                problems.append(f"{ELEMENT_NAMES[a]} atom {i + 1} has {used} bonds, more than its {VALENCE[a]}")
        for (i, j), order in self.bonds.items():
            if not 1 <= order <= MAX_BOND_ORDER:
                problems.append(f"bond {i + 1}-{j + 1} has order {order}")
        return problems

    def is_isomorphic(self, other: "Molecule") -> bool:
        """Same atoms joined by the same bonds (hydrogens included)."""
        return find_isomorphism(self, other) is not None


def hill_formula(counts: Mapping[str, int]) -> str:
    order = sorted(counts)
    if "C" in counts:
        order = ["C"] + (["H"] if "H" in counts else []) + [e for e in order if e not in ("C", "H")]
    return "".join(e + (str(counts[e]) if counts[e] != 1 else "") for e in order if counts[e])


_FORMULA_TOKEN = re.compile(r"([A-Z][a-z]?)(\d*)|(\()|(\))(\d*)")


def formula_counts(formula: str) -> dict[str, int]:
    """Element counts of a written formula: ``"CH3OH"``, ``"(NH2)2CO"``, ``"H2O"``.

    Subscript digits (``H₂O``) are accepted too.
    """
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
            if el not in VALENCE:
                raise ChemistryError(f"unknown element {el!r} in formula {formula!r}")
            n = int(m.group(2) or 1)
            stack[-1][el] = stack[-1].get(el, 0) + n
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


# --- isomorphism ----------------------------------------------------------------
def _signature(m: Molecule, i: int) -> tuple:
    nb = m.neighbours(i)
    return (m.atoms[i], tuple(sorted((m.atoms[j], o) for j, o in nb.items())))


def find_isomorphism(a: Molecule, b: Molecule) -> dict[int, int] | None:
    """An atom mapping from ``a`` onto ``b`` keeping elements and bond orders,
    or ``None``. Backtracking over atoms with matching local signatures: fine
    for the dozen-atom molecules of these games."""
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

    return dict(mapping) if extend(0) else None


# --- a small SMILES reader ------------------------------------------------------
_ORGANIC = {"C", "N", "O", "S"}
_BOND_SYMBOL = {"-": 1, "=": 2, "#": 3}


class _SmilesReader:
    """Reads the SMILES subset card data uses: organic-subset atoms C N O S,
    bracket atoms like ``[H]`` or ``[CH2]``, bonds ``- = #``, branches and ring
    closures. Implicit hydrogens follow SMILES' rule (default valence minus
    bonds); they become explicit atoms."""

    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self.pos = 0
        self.mol = Molecule()
        self.implicit_h: dict[int, int | None] = {}

    def fail(self, why: str) -> ChemistryError:
        return ChemistryError(f"SMILES {self.text!r}, character {self.pos + 1}: {why}")

    def read(self) -> Molecule:
        if not self.text:
            raise ChemistryError("empty SMILES")
        prev: int | None = None
        pending_order: int | None = None
        branches: list[int | None] = []
        rings: dict[str, tuple[int, int | None]] = {}
        t = self.text
        while self.pos < len(t):
            ch = t[self.pos]
            if ch in _BOND_SYMBOL:
                if pending_order is not None:
                    raise self.fail("two bond symbols in a row")
                pending_order = _BOND_SYMBOL[ch]
                self.pos += 1
            elif ch == "(":
                if prev is None:
                    raise self.fail("a branch must follow an atom")
                branches.append(prev)
                self.pos += 1
            elif ch == ")":
                if not branches:
                    raise self.fail("unbalanced ')'")
                prev = branches.pop()
                self.pos += 1
            elif ch.isdigit():
                if prev is None:
                    raise self.fail("a ring closure must follow an atom")
                if ch in rings:
                    other, order = rings.pop(ch)
                    self.bond(other, prev, pending_order or order or 1)
                else:
                    rings[ch] = (prev, pending_order)
                pending_order = None
                self.pos += 1
            elif ch == "." :
                raise self.fail("one card names one molecule: '.' is not allowed")
            else:
                atom = self.atom()
                if prev is not None:
                    self.bond(prev, atom, pending_order or 1)
                elif pending_order is not None:
                    raise self.fail("a bond symbol needs an atom before it")
                pending_order = None
                prev = atom
        if branches:
            raise self.fail("unbalanced '('")
        if rings:
            raise self.fail(f"ring closure {sorted(rings)[0]} is never closed")
        if pending_order is not None:
            raise self.fail("a bond symbol at the end")
        self.add_hydrogens()
        problems = self.mol.valence_problems()
        if problems:
            raise ChemistryError(f"SMILES {self.text!r}: " + "; ".join(problems))
        return self.mol

    def atom(self) -> int:
        t = self.text
        if t[self.pos] == "[":
            end = t.find("]", self.pos)
            if end < 0:
                raise self.fail("unclosed '['")
            m = re.fullmatch(r"([A-Z][a-z]?)(H(\d?))?", t[self.pos + 1:end])
            if not m or m.group(1) not in VALENCE:
                raise self.fail(f"cannot read bracket atom {t[self.pos:end + 1]!r} (charges and isotopes are not used here)")
            idx = self.new_atom(m.group(1))
            self.implicit_h[idx] = (int(m.group(3) or 1) if m.group(2) else 0)
            self.pos = end + 1
            return idx
        two = t[self.pos:self.pos + 2]
        for sym in (two, t[self.pos]):
            if sym in _ORGANIC:
                idx = self.new_atom(sym)
                self.implicit_h[idx] = None  # decided by valence at the end
                self.pos += len(sym)
                return idx
        if t[self.pos].islower():
            raise self.fail("aromatic atoms are not used here: write the Kekulé form")
        raise self.fail(f"unexpected {t[self.pos]!r}")

    def new_atom(self, element: str) -> int:
        self.mol.atoms.append(element)
        return len(self.mol.atoms) - 1

    def bond(self, i: int, j: int, order: int) -> None:
        if i == j:
            raise self.fail("an atom cannot bond to itself")
        key = (min(i, j), max(i, j))
        if key in self.mol.bonds:
            raise self.fail("two bonds between the same atoms")
        self.mol.bonds[key] = order

    def add_hydrogens(self) -> None:
        heavy = len(self.mol.atoms)
        for i in range(heavy):
            n = self.implicit_h.get(i)
            if n is None:
                n = VALENCE[self.mol.atoms[i]] - self.mol.bonds_used(i)
                if n < 0:
                    raise ChemistryError(f"SMILES {self.text!r}: {ELEMENT_NAMES[self.mol.atoms[i]]} atom {i + 1} has too many bonds")
            for _ in range(n):
                h = self.new_atom("H")
                self.mol.bonds[(i, h)] = 1


def molecules_equal_formula(smiles: str, formula: str) -> bool:
    return Molecule.from_smiles(smiles).counts() == formula_counts(formula)


def parse_elements(text: Iterable[str]) -> list[str]:
    out = []
    for e in text:
        if e not in VALENCE:
            raise ChemistryError(f"unknown element {e!r}")
        out.append(e)
    return out
