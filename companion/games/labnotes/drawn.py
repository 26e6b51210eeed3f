"""Note sheets drawn once per change, not once per phone and version.

A sheet's SVG depends only on what is written on it (and, on its owner's
phone, on the taps the engine offers). After a move one sheet changes at
most, yet four phones each show four sheets: drawing them per phone per
version was most of the companion's work (profiled: the sheet macros were
over half the CPU of a move). So each drawing is kept, keyed by exactly the
inputs it is drawn from, and shared by every phone and later version that
asks for the same.
"""

from __future__ import annotations

import json
from typing import Any, Hashable

from flask import current_app
from markupsafe import Markup

from companion.games.labnotes.panel import draw_panel
from companion.games.labnotes.sheet import draw_sheet, structure
from companion.kept import Kept, serial

KEEP = 4096
"""Drawings kept (a few KiB each): every sheet of a few hundred tables."""

_kept = Kept[Markup](KEEP).get


def _macro(name: str) -> Any:
    return getattr(current_app.jinja_env.get_template("labnotes/_sheet.html").module, name)


def _written(shown: dict[str, Any]) -> str:
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def field_html(game: Any, shown: dict[str, Any], *, name: str, mine: bool,
               offered_spaces: set[int], offered_bonds: set[tuple[int, int]]) -> Markup:
    """The compound field of one sheet, as its viewer sees it."""
    field = game.rules.field
    key = ("field", serial(game), name, mine, shown["spaces"], _written({"b": shown["bonds"], "p": shown.get("placed")}),
           tuple(sorted(offered_spaces)) if mine else (), tuple(sorted(offered_bonds)) if mine else ())
    return _kept(key, lambda: Markup(_macro("note_sheet")(
        draw_sheet(shown, field, offered_spaces=offered_spaces, offered_bonds=offered_bonds, mine=mine),
        mine=mine, name=name, draw_space=_space, draw_gap=_gap)))


# A sheet is drawn anew whenever what is on it or offered on it changes (its
# owner's, after each of their moves), yet most of its spaces and gaps look as
# they did: each one's markup is kept, keyed by everything it is drawn from.
PIECES = 20_000
"""Spaces and gaps kept: every state of every space of a sheet, a few times over."""
_pieces = Kept[Markup](PIECES)


def _piece(kind: str, item: dict[str, Any], svg: dict[str, Any], mine: bool, paper: bool) -> Markup:
    key = (kind, tuple(item.values()), svg["r"], svg["hit"], svg["gap_r"], mine, paper)
    return _pieces.get(key, lambda: Markup(_macro(kind)(item, svg, mine, paper)))


def _space(cell: dict[str, Any], svg: dict[str, Any], mine: bool, paper: bool) -> Markup:
    return _piece("space", cell, svg, mine, paper)


def _gap(gap: dict[str, Any], svg: dict[str, Any], mine: bool, paper: bool) -> Markup:
    return _piece("gap", gap, svg, mine, paper)


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
