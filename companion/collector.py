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
the objects made since the one before. Cycles that live longer, which only
a collection of the older generations would free, the worker makes none of:
``tests/bench/test_no_cycles.py`` plays all four games through a real server
and then finds nothing left (``companion.timings``' census), and so does a
soak. So the worker collects its youngest generation only, once 20,000 new
objects are kept, and never the others.

Measured in 3-minute soaks (same load; the machine's noise is large):
Python's own thresholds (700, 10, and full collections off) made 13,174
young collections, 46 s of the worker's 188; (100,000, 10, 10) made 35
young and 3 full ones, 3.2 s in all, the longest 393 ms; (20,000, never,
never) 36, 3.5 s in all. A collection's wall time there is inflated by the
threads a finalizer lets run and by the host taking the CPU (steal 13-29%
in those runs): the same collection in a quiet process looks at 20,000
objects in under a millisecond.
"""

from __future__ import annotations

import gc
from typing import Any

NEVER = 1_000_000_000
THRESHOLDS = (20_000, NEVER, NEVER)
"""A collection of the youngest generation once 20,000 new objects are kept;
the older generations' thresholds count collections of the younger, so
those are never collected."""


def serve_without_pauses(app: Any) -> None:
    """The serving worker's setting, once its app is loaded."""
    # Every page template compiled now, once: two threads asking for a
    # template first at the same moment both compile it, and the copy
    # not kept is garbage in cycles (a template and its macros).
    for name in app.jinja_env.list_templates(filter_func=lambda n: n.endswith(".html")):
        app.jinja_env.get_template(name)
    gc.collect()
    gc.freeze()   # what the worker has loaded lives as long as it does
    gc.set_threshold(*THRESHOLDS)
