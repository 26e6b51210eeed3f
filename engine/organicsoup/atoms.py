"""Atoms as the rules count them: four numbers, Carbon, Hydrogen, Nitrogen
and Oxygen (the Hill order a formula is written in), and how a player says
a handful of them.

The rules add and compare these counts on every build and reaction, so an
atom count is a plain tuple ``(C, H, N, O)``, not a dict.

>>> water = vec({"H": 2, "O": 1})
>>> water
(0, 2, 0, 1)
>>> in_words(add(water, water))
'4 Hydrogen atoms and 2 Oxygen atoms'
>>> in_words(vec({"C": 1}))
'1 Carbon atom'
"""

from __future__ import annotations

from typing import Iterable, Mapping

from engine.chem import ELEMENT_NAMES

ELEMENTS = ("C", "H", "N", "O")
"""The four atoms of the deck, in Hill order: the index of each in a count."""
INDEX = {e: i for i, e in enumerate(ELEMENTS)}
ZERO = (0, 0, 0, 0)

Vec = tuple[int, int, int, int]


def vec(counts: Mapping[str, int]) -> Vec:
    """Counts by element symbol as a tuple; raises ``KeyError`` for an element
    outside the game (callers check that first, with a better sentence)."""
    out = [0, 0, 0, 0]
    for element, n in counts.items():
        out[INDEX[element]] += n
    return (out[0], out[1], out[2], out[3])


def of_text(text: str) -> Vec:
    """A row of atom cards written as letters, e.g. the soup ``"CHHO"``.

    >>> of_text("CHHO")
    (1, 2, 0, 1)
    """
    return (text.count("C"), text.count("H"), text.count("N"), text.count("O"))


def as_text(v: Vec) -> str:
    """The letters of a count, in Hill order: the inverse of :func:`of_text`."""
    return "".join(e * n for e, n in zip(ELEMENTS, v))


def as_dict(v: Vec) -> dict[str, int]:
    return {e: n for e, n in zip(ELEMENTS, v)}


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def times(a: Vec, n: int) -> Vec:
    return (a[0] * n, a[1] * n, a[2] * n, a[3] * n)


def total(parts: Iterable[tuple[Vec, int]]) -> Vec:
    """The atoms of several molecules: ``(atoms of one, how many)`` pairs."""
    c = h = n = o = 0
    for v, k in parts:
        c += v[0] * k
        h += v[1] * k
        n += v[2] * k
        o += v[3] * k
    return (c, h, n, o)


def fits(small: Vec, big: Vec) -> bool:
    """Every count of ``small`` is at most that of ``big``."""
    return small[0] <= big[0] and small[1] <= big[1] and small[2] <= big[2] and small[3] <= big[3]


def copies(small: Vec, big: Vec) -> int:
    """How many whole ``small`` fit in ``big`` (the rulebook: "he cannot
    build partial molecules").

    >>> copies((0, 2, 0, 0), of_text("HHHHHCO"))   # five Hydrogen: two molecules
    2
    """
    return min(big[i] // small[i] for i in range(4) if small[i])


def in_words(v: Vec) -> str:
    """A count as a player says it, every element named in full."""
    parts = [f"{n} {ELEMENT_NAMES[e]} atom{'s' if n != 1 else ''}" for e, n in zip(ELEMENTS, v) if n]
    if not parts:
        return "no atoms"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
