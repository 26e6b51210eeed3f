"""How a serving worker runs Python's cycle collector: over its newest
objects only.

Every collection holds the interpreter lock, so every phone of the worker
waits for it, for as long as it takes to look at every object of the
generations it collects. Measured in the soak (50 tables x 4 phones, one
worker), full collections over the quarter of a million objects a busy
worker keeps for minutes (the tables' states, the take-back judgements, the
versions the streams still send) took 190-550 ms, and young ones, with the
first threshold at 100,000, up to 350 ms.

Refcounting frees what a move makes the moment it is no longer used, unless
it is part of a reference cycle. Some libraries make cycles on every request
(werkzeug's URL matcher: a function calling itself by name), which die at
once: a collection of the youngest generation frees them, looking only at
the objects made since the one before. Cycles that outlive it, which only a
collection of the older generations would free, the worker makes none of:
``tests/bench/test_no_cycles.py`` plays all four games through a real server
and then finds nothing left (``companion.timings``' census), and so does
every soak. So the worker collects its youngest generation only, at
Python's own threshold, and never the others.

Measured in soaks of the same load, by each collection's own CPU time (its
wall time also holds the wait for the interpreter lock that the measuring
callback may give up): thresholds (20,000, never, never) made 57 young
collections in 6 minutes, the longest 206 ms, 5.7 s in all (1.5% of the
time); (700, never, never) made 4,804 in 2.5 minutes, the longest 59 ms,
4.0 s in all (2.5%). A collection is longer than its threshold suggests:
Python counts objects made minus objects freed, and the many older objects
a busy worker frees (the versions before, the drawings no longer used) let
the youngest generation fill far past the threshold before it is collected.
The shorter pauses are worth the extra percent. Before: (100,000, 10, 10)
made 35 young and 3 full collections in 3 minutes, the longest 393 ms.
"""

from __future__ import annotations

import gc
from typing import Any

from companion import live

NEVER = 1_000_000_000
THRESHOLDS = (700, NEVER, NEVER)
"""Python's own threshold for the youngest generation (a collection once 700
more objects are kept than freed); the older generations' thresholds count
collections of the younger, so those are never collected."""


def serve_without_pauses(app: Any) -> None:
    """The serving worker's setting, once its app is loaded."""
    # Every page template compiled now, once: two threads asking for a
    # template first at the same moment both compile it, and the copy
    # not kept is garbage in cycles (a template and its macros).
    for name in app.jinja_env.list_templates(filter_func=lambda n: n.endswith(".html")):
        app.jinja_env.get_template(name)
    with app.app_context():
        live.read_every_part(app)
    gc.collect()
    gc.freeze()   # what the worker has loaded lives as long as it does
    gc.set_threshold(*THRESHOLDS)
