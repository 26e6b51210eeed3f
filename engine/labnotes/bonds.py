"""Connecting Elements: whether a bond may be raised between two spaces, and
raising it (which may complete a compound and unlock a tool). Used by the
notate phase and by the Pipette."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import IllegalAction
from engine.labnotes.reading import name_of
from engine.labnotes.scoring import compound_at
from engine.labnotes.state import VALENCE, Sheet, State, bond_key

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules


def check_bond(r: "Rules", sh: Sheet, a: int, b: int) -> None:
    if b not in r.adjacent[a]:
        raise IllegalAction(f"{r.label(a)} and {r.label(b)} are not next to each other.")
    for k in (a, b):
        if sh.spaces[k] not in VALENCE:
            raise IllegalAction(f"{r.label(k)} holds no element to bond.")
    if sh.bonds.get(bond_key(a, b), 0) >= 3:
        raise IllegalAction("At most a triple bond joins two elements.")
    for k in (a, b):
        if r.room(sh, k) <= 0:
            e = sh.spaces[k]
            raise IllegalAction(f"The {name_of(e)} at {r.label(k)} already has all its {VALENCE[e]} "
                                f"bond{'s' if VALENCE[e] > 1 else ''}: the bond must be legal for both elements.")


def raise_bond(r: "Rules", s: State, sh: Sheet, a: int, b: int) -> None:
    key = bond_key(a, b)
    sh.bonds[key] = sh.bonds.get(key, 0) + 1
    comp = compound_at(sh.spaces, sh.bonds, a)
    if comp.complete:  # Earning tools: a complete compound of the tool's structure unlocks it
        for t in s.tools:
            if t not in sh.tools and comp.matches(*r.tool_shapes[t]):
                sh.tools += (t,)
