"""Printed formulas: a formula as a chemist writes it (NH3, H2SO4, CaCO3,
NH4+), read and checked against a structure, atom for atom.

No rule gives the order chemists write a formula in (NH3 but CH4, H2SO4
but NaOH, HCOOH for formic acid), so a card's formula is data, typed by its
author, and :func:`formula_problem` checks it: exactly the structure's
atoms (and charge), in any order. Hill's order (:attr:`Structure.formula
<engine.chem.Structure.formula>`) is what an error message shows.
"""

from __future__ import annotations

import re

from engine.chem import ChemistryError, Structure, formula_counts

_CHARGE = re.compile(r"(?:(?:\s+|\^)(\d*))?([+\-\u2212])$")
"""A charge after the formula: a sign (NH4+), or a number and a sign after
a space or a caret (SO4 2-, SO4^2-), so that NH4+ is not read as N, H, 4+."""


def written_formula(formula: str) -> tuple[dict[str, int], int]:
    """Element counts and charge of a formula as a chemist writes it:
    ``"NH4+"``, ``"SO4^2-"`` or ``"CO3 2-"`` (a charge is written last,
    :data:`_CHARGE`).

    >>> written_formula("H2SO4"), written_formula("SO4^2-"), written_formula("NH4+")
    (({'H': 2, 'O': 4, 'S': 1}, 0), ({'O': 4, 'S': 1}, -2), ({'H': 4, 'N': 1}, 1))
    """
    text = formula.strip()
    m = _CHARGE.search(text)
    charge = 0
    if m:
        charge = int(m.group(1) or 1) * (1 if m.group(2) == "+" else -1)
        text = text[:m.start()]
    return formula_counts(text), charge


def formula_problem(formula: str | None, st: Structure) -> str | None:
    """What is wrong with ``formula`` as the printed formula of ``st``, or
    ``None``: it must hold exactly the structure's atoms (and its charge).
    The order is the author's: chemists write NH3 and H2SO4, not Hill's H3N
    and H2O4S, and no rule gives their order, so it is data, checked here.

    >>> from engine.chem import structure
    >>> formula_problem("NH3", structure("N")) is None
    True
    >>> formula_problem("NH4", structure("N"))
    "expected the atoms of H3N (the structure's formula, in any order), found 'NH4'"
    """
    if not formula or not formula.strip():
        return "expected the formula as chemists write it (NH3, H2SO4), found nothing"
    try:
        counts, charge = written_formula(formula)
    except ChemistryError as exc:
        return str(exc)
    if counts != st.counts:
        return f"expected the atoms of {st.formula} (the structure's formula, in any order), found {formula!r}"
    if charge != st.charge:
        return f"expected a charge of {st.charge:+d} (the structure's), found {charge:+d} in {formula!r}"
    return None
