"""A card set's own numbers and names in its booklet (docs/design/booklets.md):
``{set:name}`` filled in from the game's ``set_values(book)``, and an
author's setup tables filled from the engine's deal with its cards.

>>> fill("Tool cards: {set:tool-cards}", "b.md", {"tool-cards": "29"})
'Tool cards: 29'
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

from generator.booklet_md import SET_VALUE, BookletError, Document, plain

HOOKS = "booklet.py"


def fill(text: str, path: Path | str, values: dict[str, str]) -> str:
    """``{set:name}`` replaced by the card set's value of that name; an
    unknown name is a problem at its file, line and column."""
    problems = []

    def value(m: re.Match) -> str:
        if m.group(1) in values:
            return str(values[m.group(1)])
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        problems.append(f"{path}:{line}:{col}: set:{m.group(1)}: the card set has no such value (the game's "
                        f"{HOOKS} set_values gives {len(values)}: {', '.join(sorted(values)[:8]) or 'none'}"
                        f"{', ...' if len(values) > 8 else ''})")
        return m.group(0)

    out = SET_VALUE.sub(value, text)
    if problems:
        raise BookletError(problems)
    return out


def set_values(hooks: ModuleType | None, book: Any) -> dict[str, str]:
    """The game's ``set_values(book)``: the numbers and names its booklet
    prints that the card set decides (``{}`` for a game without it)."""
    if hooks is None or not hasattr(hooks, "set_values"):
        return {}
    return {k: str(v) for k, v in hooks.set_values(book).items()}


def own_set(printable: Any) -> bool:
    """Whether the printable is the game's own card set (the rulebook's)."""
    from labkit import cardsets

    return Path(printable.cardset.folder).resolve() == cardsets.data_dir(printable.game).resolve()


def setup_tables_from_the_engine(doc: Document, hooks: ModuleType | None, game: Any) -> None:
    """An author's set: every cell of the setup tables is what the engine
    deals with its cards (the writer typed the rulebook's set's numbers,
    which the tests hold to the engine)."""
    if hooks is None or not hasattr(hooks, "setup_quantities"):
        return
    for _, table in doc.tables_under("Setup"):
        header = [plain(c) for c in table.rows[0]]
        if header[0] != "Players":
            continue
        for row in table.rows[1:]:
            dealt = hooks.setup_quantities(game, int(plain(row[0])))
            for k, column in enumerate(header[1:], start=1):
                if column in dealt:
                    row[k] = str(dealt[column])


