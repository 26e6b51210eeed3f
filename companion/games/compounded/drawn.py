"""Pieces of the Compounded board made once per change, not once per phone
and version.

A grid space, a Workbench and the scoreboard look the same on every phone
that shows them, and a move changes one or two of them: drawing each for
every phone at every version was most of the board's work (profiled: the
grid alone a third of a move's CPU, the scoreboard a fifth). Keying each
drawing by its arguments as JSON then cost more than drawing the pieces
that changed (profiled: JSON a third of the board's time). So each piece
(its words and numbers, and its drawing) is kept under a key of the plain
values it is made from, read from the engine's view (:mod:`.board` says
which), and shared by every phone and later version that shows the same:
a piece unchanged since the last version is the very same object, which
the comparison of a part's inputs (:mod:`companion.reuse`) then settles at
once.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

from markupsafe import Markup

from companion.kept import Kept
from companion.plugins import macros

T = TypeVar("T")

KEEP = 8192
"""Pieces kept (a KiB or two each): a grid space lit and unlit, each
Workbench in full and in short, the scoreboard, for a few hundred tables."""

_kept = Kept[Any](KEEP)


def piece(key: Hashable, make: Callable[[], T]) -> T:
    """What ``make()`` made for ``key`` (a tuple of plain values), made now unless kept."""
    return _kept.get(key, make)


def drawn(macro: str, *args: Any) -> Markup:
    """``macro(*args)`` of ``compounded/_macros.html``, drawn now."""
    return Markup(getattr(macros("compounded/_macros.html"), macro)(*args))
