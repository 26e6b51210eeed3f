"""Pieces of the Compounded board drawn once per change, not once per phone
and version.

A grid space, a Workbench and the scoreboard look the same on every phone
that shows them, and a move changes one or two of them: drawing each for
every phone at every version was most of the board's work (profiled: the
grid alone a third of a move's CPU, the scoreboard a fifth). So each piece
is kept, keyed by exactly what its macro reads (its arguments, as JSON),
and shared by every phone and later version that shows the same.
"""

from __future__ import annotations

import json
from typing import Any

from flask import current_app
from markupsafe import Markup

from companion.kept import Kept

KEEP = 4096
"""Pieces kept (a KiB or two each): every piece of a few hundred tables."""

_drawn = Kept[Markup](KEEP)


def drawn(macro: str, *args: Any) -> Markup:
    """``macro(*args)`` of ``compounded/_macros.html``."""
    key = (macro, json.dumps(args, sort_keys=True, separators=(",", ":")))
    return _drawn.get(key, lambda: Markup(
        getattr(current_app.jinja_env.get_template("compounded/_macros.html").module, macro)(*args)))
