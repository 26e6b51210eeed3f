"""Note sheets drawn once per change, not once per phone and version.

A sheet's SVG depends only on what is written on it (and, on its owner's
phone, on the taps the engine offers). After a move one sheet changes at
most, yet four phones each show four sheets: drawing them per phone per
version was most of the companion's work (profiled: the sheet macros were
over half the CPU of a move). So each drawing is kept, keyed by exactly the
inputs it is drawn from, and shared by every phone and later version that
asks for the same. A sheet drawn anew is put together from kept rows of
spaces, gaps and bonds (a move changes a space or two of it), and what a
phone's board is made of (a sheet's words and numbers, the dice, the
notecard line, the tools) is kept too (:func:`piece`), keyed the same way.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Hashable, TypeVar

from markupsafe import Markup

from companion.games.labnotes import sheet
from companion.games.labnotes.panel import draw_panel
from companion.games.labnotes.sheet import structure
from companion.kept import Kept, serial
from companion.plugins import ascii_html, macros

T = TypeVar("T")

KEEP = 4096
"""Drawings kept (a few KiB each): every sheet of a few hundred tables."""

_drawings = Kept[Markup](KEEP)


def _kept(key: Hashable, make: Callable[[], Markup]) -> Markup:
    """The drawing ``make()`` made for ``key``, in ASCII (:func:`companion.plugins.ascii_html`:
    a sheet's "−" and "×" would otherwise keep it, and every sheet it is put in, at two bytes a character)."""
    return _drawings.get(key, lambda: _ascii(make()))


def _ascii(drawn: Markup) -> Markup:
    return drawn if drawn.isascii() else Markup(ascii_html(drawn))


_pieces_of_board = Kept[Any](KEEP)
"""A sheet's words and numbers hold its drawings (kept above as well): at most as many."""


def piece(key: Hashable, make: Callable[[], T]) -> T:
    """A piece of the board (a sheet's words and numbers with its drawings,
    the dice, the notecard line, the tools) made by ``make``, kept under
    ``key``: what it is drawn from (:func:`.board.sheet_key`,
    :func:`.board.dice_key`...). A piece unchanged since the
    last version is then the very same object, which the comparison of a
    part's inputs (:mod:`companion.reuse`) settles at once."""
    return _pieces_of_board.get(key, make)


def _macro(name: str) -> Any:
    return getattr(macros("labnotes/_sheet.html"), name)


def _written(shown: dict[str, Any]) -> str:
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def field_html(game: Any, shown: dict[str, Any], *, name: str, mine: bool,
               offered_spaces: set[int], offered_bonds: set[tuple[int, int]]) -> Markup:
    """The compound field of one sheet, as its viewer sees it: the
    template's ``note_sheet`` of :func:`.sheet.draw_sheet`."""
    key = ("field", serial(game), name, mine, shown["spaces"], _written({"b": shown["bonds"], "p": shown.get("placed")}),
           tuple(sorted(offered_spaces)) if mine else (), tuple(sorted(offered_bonds)) if mine else ())
    return _kept(key, lambda: _field(game, shown, name, mine, offered_spaces, offered_bonds))


def _field(game: Any, shown: dict[str, Any], name: str, mine: bool, offered_spaces: set[int],
           offered_bonds: set[tuple[int, int]]) -> Markup:
    """``note_sheet`` put together from kept pieces, joined as the macro joins
    them: a move changes a space or two of a sheet, and the macro's loop over
    every space was most of the cost of drawing it again (profiled)."""
    field, g = game.rules.field, serial(game)
    frame = piece(("frame", g), lambda: sheet.frame(field))
    spaces = shown["spaces"].replace("/", "")
    placed = set(shown.get("placed", ()))
    out = [_kept(("head", g, name, mine), lambda: Markup(_macro("sheet_head")(frame, mine, name, False))), "\n  "]
    out += [_pieces.get(("bond", g, a, b, order), lambda: Markup(_macro("bond")(sheet.bond(field, a, b, order))))
            for a, b, order in shown["bonds"]]
    out.append("\n  ")
    for gap in sheet.gaps(field, spaces, shown["bonds"], offered_bonds) if mine else ():
        out += ["\n  ", _pieces.get(("gap", g, gap["a"], gap["b"], gap["offered"], gap["order"], mine),
                                     lambda: Markup(_macro("gap")(gap, frame, mine, False))), "\n  "]
    out.append("\n  ")
    start = 0
    for row in shown["spaces"].split("/"):   # a row of spaces at a time: most rows are as they were
        at = field.spaces[start:start + len(row)]
        new = tuple(space.index in placed for space in at)
        tappable = tuple(mine and space.index in offered_spaces for space in at)
        out.append(_pieces.get(("row", g, start, row, new, tappable, mine),
                               lambda: Markup("".join(f"\n  {_space(g, field, frame, *cell, mine)}\n  "
                                                      for cell in zip(at, row, new, tappable)))))
        start += len(row)
    out.append("\n  \n</svg>")
    return Markup("".join(out))


def _space(g: int, field: Any, frame: dict[str, Any], space: Any, ch: str, new: bool, tappable: bool,
           mine: bool) -> Markup:
    return _pieces.get(("space", g, space.index, ch, new, tappable, mine), lambda: Markup(
        _macro("space")(sheet.cell(field, space, ch, new, tappable), frame, mine, False)))


# A sheet is drawn anew whenever what is on it or offered on it changes (its
# owner's, after each of their moves), yet most of its spaces and gaps look as
# they did: each one's markup is kept, keyed by everything it is drawn from.
PIECES = 20_000
"""Spaces, gaps and bonds kept: every state of every space of a sheet, a few times over."""
_pieces = Kept[Markup](PIECES)


def panel_html(game: Any, shown: dict[str, Any], score: Any, *, name: str) -> Markup:
    """The rest of one sheet as printed (Tools track, notecards, trash, score boxes)."""
    data = game.data
    written = _written({k: shown[k] for k in ("claims", "tool_marks", "tools_open", "trash")})
    scored = None if score is None else (score.total, tuple((line.key, line.points) for line in score.lines))
    key = ("panel", serial(game), name, written, scored)
    return _kept(key, lambda: Markup(_macro("sheet_panel")(
        draw_panel(shown, data.sheet, score, lambda card: data.notecard(card).name), name=name)))


def structure_html(game: Any, card_id: str, layout: Any, name: str) -> Markup:
    """A card's compound as built on a sheet (the same for every phone, all game long)."""
    return _kept(("structure", serial(game), card_id, name),
                 lambda: Markup(_macro("structure_svg")(structure(layout), name)))


def die_html(die: dict[str, Any]) -> Markup:
    """A die on the table as ``_dice.html`` shows it (a pick changes one die: the others are kept)."""
    return _kept(("die", *die.values()), lambda: Markup(_macro("die_slot")(die)))


def other_sheet(face: dict[str, Any], opened: bool) -> Markup:
    """A sheet as the other phones show it (``_others.html``), from its ``face``."""
    return Markup(_macro("other_sheet")(face, opened))
