"""What each column of a card file does in play and in print: the rules
read it, it is printed only, or it is a rule in words the rules do not read.
Each game declares its own (``engine/<game>/columns.py``, its descriptor's
``columns``); ``labkit validate`` reports and checks them, and
``docs/authoring.md`` explains every one.

>>> Column(WORDS, ("points",)).describes
('points',)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import yaml

from engine.data import _yaml_locate

RULES = "rules"
"""A column the rules read: changing it changes play (and print)."""
TEXT = "text"
"""A column printed (and shown at the table) only: the rules never read it."""
WORDS = "words"
"""A rule in words that the rules do not read: the table plays the game's own
rule whatever it says, so it must stay as the game's own (unless the columns
it ``describes`` change, which an author then puts into words)."""
LAYOUT = "layout"
"""The print manifest: which components print, their sizes and templates."""


@dataclass(frozen=True)
class Column:
    """What one column of a card file (a CSV column, or a YAML key written
    ``key``, ``key.sub`` or ``list[id].field``) does in play and in print;
    each game declares its own (``GameDescriptor.columns``)."""

    role: str
    describes: tuple[str, ...] = ()
    """For :data:`WORDS`: the columns of the same card whose rule the words say."""


MANIFEST_COLUMNS = {"game": RULES, "title": TEXT, "players": TEXT, "rulebook": TEXT, "summary": Column(WORDS),
                    "gather": TEXT, "components": LAYOUT, "previews": LAYOUT}
"""``game.yaml``, the print manifest, the same keys in every game: its
``summary`` is the rules in a few lines (printed in PRINTING.md)."""


def yaml_line(text: str, loc: Sequence[Any]) -> int | None:
    """The line of a YAML file where the value at ``loc`` (keys and list
    indexes) is, or of its deepest part that exists.

    >>> yaml_line("cards:\\n  - id: a\\n    text: x\\n  - id: b\\n    text: y\\n", ("cards", 1, "text"))
    5
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    return _yaml_locate(node, list(loc))[0]
