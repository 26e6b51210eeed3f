"""Boards drawn once per change, not once per phone and version.

Every phone shows every board (a part each, and its own board again up
close), and a move changes one board at most: drawing each board's formula
and panel for every phone at every version was most of a move's CPU
(profiled: the SVG macros and the formula's geometry over four fifths of
it). So each drawing is kept, keyed by exactly the inputs it is drawn
from, and shared by every phone and later version that shows the same; and
drawn in layers, so that what a move did not change (the molecules, the
volume table) is not drawn again either.

Everything on a board is public (the engine's view hides only the dice's
generator); what one phone alone may see, the loupe's tap targets for its
free bonds, is in the key of the drawing that shows it.
"""

from __future__ import annotations

import functools
import json
import weakref
from typing import Any, Callable, Hashable

from flask import current_app
from markupsafe import Markup

from companion.games.synthesis.drawing import Colours, formula, panel, placed
from companion.kept import Kept


class _Shelf:
    """Things made once and kept, per game object (its cards draw them, and
    they go with it), the least recently used dropped beyond ``keep``."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._games: "weakref.WeakKeyDictionary[Any, Kept[Any]]" = weakref.WeakKeyDictionary()

    def get(self, game: Any, key: Hashable, make: Callable[[], Any]) -> Any:
        kept = self._games.get(game)
        if kept is None:
            kept = self._games.setdefault(game, Kept(self.keep))
        return kept.get(key, make)


_drawn = _Shelf(2048)
"""Drawings (13 KiB each on average, 30 MiB at most): the boards of some 40 tables of four."""
_worked = _Shelf(64)
"""What the drawings are drawn from (a board's geometry: some 100 KiB of small objects), needed
only while the boards just changed are drawn."""


def _macro(name: str) -> Any:
    return getattr(current_app.jinja_env.get_template("synthesis/_macros.html").module, name)


def _written(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def formula_html(game: Any, shown: dict[str, Any], side: str, name: str, mode: str,
                 free_lines: list[str] | None = None) -> Markup:
    """One seat's formula (``shown``: its entry in the view), drawn in
    ``mode`` (``other``, ``mine`` or ``loupe``; only the loupe shows
    ``free_lines`` as targets)."""
    board, lines = shown["board"], shown["lines"]
    molecules, pending = _written(shown["molecules"]), _written(shown["pending"])
    free = tuple(free_lines or ()) if mode == "loupe" else ()

    def f() -> Any:   # what drawing.formula reads of the view: the board, its lines, molecules and pending
        geometry = game.geometry(board, side)
        where = lambda: _worked.get(game, ("placed", board, side), lambda: placed(game, geometry))
        return _worked.get(game, ("formula", board, side, lines, molecules, pending),
                           lambda: formula(game, geometry, shown, Colours(game.cards), where()))

    def layer(macro: str, inputs: tuple, *args: Any) -> Markup:
        """One layer, keyed by exactly what its macro reads of ``f()``."""
        return _drawn.get(game, (macro, board, side, *inputs), lambda: Markup(_macro(macro)(f(), *args)))

    def draw() -> Markup:
        layers = [layer("formula_hexes", (molecules, pending)),
                  layer("formula_lines", (lines, mode == "other"), mode == "other"),
                  layer("formula_marks", (molecules, mode == "loupe"), mode == "loupe")]
        if mode == "loupe":
            layers.append(layer("formula_hits", (lines, free), set(free)))
        elif mode == "mine":
            layers.append(layer("formula_frame", ()))
        return Markup(_macro("formula_svg")(f(), mode, name, layers))
    return _drawn.get(game, ("formula", board, side, lines, molecules, pending, name, mode, free), draw)


def panel_html(game: Any, shown: dict[str, Any], side: str, turn: int, score: Any, name: str) -> Markup:
    """The rest of one seat's board: the turn track, and the volume table,
    elemental boxes and score boxes (a layer each: every turn moves the
    track of every board, a molecule changes one board's table)."""
    board, track = shown["board"], _written(shown["turn_track"])
    written = _written({k: shown[k] for k in ("table", "elemental_boxes", "free_bonds")})
    scored = None if score is None else (score.total, tuple((line.key, line.points) for line in score.lines),
                                         _written(score.details.get("chains", [])))
    labels = [(b.key, b.label) for b in game.cards.rules.score_boxes]
    p = functools.cache(lambda: panel(game.geometry(board, side), shown, turn, game.rules.turns, score, labels,
                                      Colours(game.cards)))

    def layer(macro: str, inputs: tuple) -> Markup:
        return _drawn.get(game, (macro, *inputs), lambda: Markup(_macro(macro)(p())))

    def draw() -> Markup:
        layers = [layer("panel_track", (turn, track)), layer("panel_board", (board, side, written, scored))]
        return Markup(_macro("panel_svg")(p(), name, layers))
    return _drawn.get(game, ("panel", board, side, turn, track, written, scored, name), draw)


def placements_html(game: Any, options: list[dict[str, Any]]) -> Markup:
    """A bond's legal placements as the menu's options. A phone's placements
    stay the same while other phones move, and each option is drawn from its
    action alone (its JSON, the key)."""
    return _drawn.get(game, ("placements", tuple(o["act"] for o in options)),
                      lambda: Markup(_macro("placement_options")(options)))
