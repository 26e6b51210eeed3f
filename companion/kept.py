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
import time
import weakref
from collections import OrderedDict
from typing import Any, Callable, Generic, Hashable, TypeVar

T = TypeVar("T")

UNUSED_S = 10.0
"""A drawing not used for this long goes (the boards it belongs to have moved
on, or nobody watches them): what is kept is then what the tables in play
use, and a server whose games end and new ones begin stays the same size
after its first minute, instead of filling every cache to its bound.
Ten seconds, not sixty: with sixty, the soak's caches of drawings were
still filling in its third minute (one game's board pieces 1,078 -> 2,826,
some 55 MB) and the worker grew 52% after its first minute; with ten they hold
the same size from the first half minute on and it grew 23-25%, for about
the same CPU per move (two pairs of 150-second soaks, 12.1-13.7 ms each,
docs/design/serving-speed.md)."""


class Kept(Generic[T]):
    """The ``keep`` most recently used things made by ``get``, each for as
    long as it was used within ``unused_s`` seconds."""

    def __init__(self, keep: int, unused_s: float = UNUSED_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.keep = keep
        self.unused_s = unused_s
        self.clock = clock
        self._kept: "OrderedDict[Hashable, tuple[float, T]]" = OrderedDict()
        """key -> (when last used, thing); least recently used first."""

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make()`` made for ``key``: made now unless kept."""
        kept = self._kept
        now = self.clock()
        try:
            found = kept[key][1]
        except KeyError:
            found = make()
            kept[key] = (now, found)
            self._drop(now)
            return found
        kept[key] = (now, found)   # one operation, like the ones below
        try:
            kept.move_to_end(key)
        except KeyError:                # another thread dropped it meanwhile: still the right text
            pass
        return found

    def _drop(self, now: float) -> None:
        """The least recently used beyond ``keep``, and those unused for ``unused_s``."""
        kept = self._kept
        while kept:
            try:
                key = next(iter(kept))
                used, _ = kept[key]
                if len(kept) <= self.keep and used >= now - self.unused_s:
                    return
                del kept[key]
            except (KeyError, RuntimeError, StopIteration):   # another thread changed it meanwhile
                return

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
