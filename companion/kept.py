"""Drawings kept between versions and shared by every thread of a worker.

A game's board is drawn from pieces (a sheet, a grid space, a formula's
layer) that look the same on every phone that shows them and outlive the
version they were drawn for; a game keeps them here, keyed by exactly what
each is drawn from, and draws only what a move changed.

No lock: every step is one operation of the C ``OrderedDict`` on keys of
plain values (strings, numbers, tuples of them), which the interpreter
never interrupts. A lock around them was contended under load: a thread
holding it lost the interpreter for milliseconds while every other
renderer queued behind it (profiled on the busiest board: 8% of the worker's
samples waiting to look up a card's drawing that was already kept). Two
threads may draw the same piece at once; both get the same text, and it
is kept once.
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from typing import Any, Callable, Generic, Hashable, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    """The ``keep`` most recently used things made by ``get``."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._kept: "OrderedDict[Hashable, T]" = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make()`` made for ``key``: made now unless kept."""
        kept = self._kept
        try:
            found = kept[key]
        except KeyError:
            found = make()
            kept[key] = found
            while len(kept) > self.keep:
                try:
                    kept.popitem(last=False)
                except KeyError:        # another thread emptied it meanwhile
                    break
            return found
        try:
            kept.move_to_end(key)
        except KeyError:                # another thread dropped it meanwhile: still the right text
            pass
        return found

    def __len__(self) -> int:
        return len(self._kept)


_serials: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()
_next_serial = itertools.count(1)


def serial(thing: Any) -> int:
    """A number for ``thing`` (a game's rules) that no other object of this
    process ever gets, for keys of drawings kept here. Unlike ``id()``,
    which a new object takes over once ``thing`` is gone: the rules of a
    table's custom card set are let go when no longer used
    (:mod:`companion.card_sets`), and a drawing kept under their ``id`` would
    then be shown for another set's cards."""
    found = _serials.get(thing)
    if found is None:   # two threads at once: setdefault keeps the first number, and both get it
        found = _serials.setdefault(thing, next(_next_serial))
    return found
