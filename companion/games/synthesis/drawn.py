"""Boards drawn once per change, not once per phone and version.

Every phone shows every board (a part each, and its own board again up
close), and a move changes one board at most: drawing each board's formula
and panel for every phone at every version was most of a move's CPU
(profiled: the SVG macros and the formula's geometry over four fifths of
it). So each drawing is kept, keyed by exactly the inputs it is drawn
from, and shared by every phone and later version that shows the same; and
drawn in layers, so that what a move did not change (the molecules, the
volume table) is not drawn again either. A bond changes a line or a few of
a hundred and more, so the layers of lines are drawn line by line, each
line in each state once (:func:`_lines`), and joined.

Everything on a board is public (the engine's view hides only the dice's
generator); what one phone alone may see, the loupe's tap targets for its
free bonds, is in the key of the drawing that shows it.
"""

from __future__ import annotations

import functools
import json
import weakref
from typing import Any, Callable, Hashable

from markupsafe import Markup

from companion.games.synthesis.drawing import (PHONE, TRACK_H, Colours, hexagons, line, line_state, panel, panel_size,
                                                paths, placed, track_colours, turn_box)
from companion.kept import Kept
from companion.plugins import macros


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


_drawn = _Shelf(4096)
"""Drawings (13 KiB each on average, 30 MiB at most), and the boards and
controls made of them (board.py: small, their drawings are shared): the
boards of some 40 tables of four."""
_worked = _Shelf(64)
"""What the drawings are drawn from (a board's geometry: some 100 KiB of small objects), needed
only while the boards just changed are drawn; and the pieces of the layers drawn piece by piece
(a board side's lines, the turn track's boxes: a few hundred short texts each)."""


def kept(game: Any, key: Hashable, make: Callable[[], Any]) -> Any:
    """``make()``, kept with the drawings under ``key`` (exactly what it is made from)."""
    return _drawn.get(game, key, make)


def _macro(name: str) -> Any:
    return getattr(macros("synthesis/_macros.html"), name)


def kept_drawing(game: Any, key: Hashable, macro: str, *args: Any) -> Markup:
    """``macro`` (of synthesis/_macros.html) drawn from ``args``, kept under
    ``key``: exactly what they are made from."""
    return _drawn.get(game, key, lambda: Markup(_macro(macro)(*args)))


def written(value: Any) -> str:
    """``value`` as JSON, keys sorted: the same text for equal plain data."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def colours(game: Any) -> Colours:
    """The card set's marker colours (one per game: each keeps its colours' looks)."""
    return _worked.get(game, ("colours",), lambda: Colours(game.cards))


def _placed(game: Any, board: str, side: str) -> dict[str, Any]:
    return _worked.get(game, ("placed", board, side), lambda: placed(game, game.geometry(board, side)))


def _lines(game: Any, board: str, side: str, lines: str, kind: str, draw: Callable[..., Any],
           targets: frozenset[str] | None = None) -> str:
    """A layer of one element per line (``kind``: ``formula_line``, every
    line; ``formula_hit``, every open line, a target when in ``targets``),
    each line drawn once per state and kept for the board's side."""
    where, inks = _placed(game, board, side), colours(game)
    pieces: dict[tuple[str, str, bool], str] = _worked.get(game, (kind, board, side), dict)
    out = []
    for (e, fixed), ch in zip(where["lines"], lines):
        state = line_state(e, ch, inks)
        if targets is not None and state != "open":
            continue
        target = targets is not None and fixed["line"] in targets
        key = (fixed["line"], state, target)
        piece = pieces.get(key)
        if piece is None:   # two threads at once: both draw the same text
            piece = pieces[key] = str(draw(line(fixed, state, inks), target) if targets is not None
                                      else draw(line(fixed, state, inks)))
        out.append(piece)
    return "".join(out)


def formula_html(game: Any, shown: dict[str, Any], side: str, name: str, mode: str,
                 free_lines: list[str] | None = None) -> Markup:
    """One seat's formula (``shown``: its entry in the view), drawn in
    ``mode`` (``other``, ``mine`` or ``loupe``; only the loupe shows
    ``free_lines`` as targets)."""
    board, lines = shown["board"], shown["lines"]
    molecules, pending = written(shown["molecules"]), written(shown["pending"])
    free = tuple(free_lines or ()) if mode == "loupe" else ()

    @functools.cache
    def f() -> Any:   # what the hexagons' layers read of the view: the molecules and the choices pending
        return _worked.get(game, ("hexagons", board, side, molecules, pending),
                           lambda: hexagons(_placed(game, board, side), shown, colours(game)))

    def layer(macro: str, inputs: tuple, make: Callable[[], Any]) -> Markup:
        """One layer, keyed by exactly what ``make`` reads."""
        return _drawn.get(game, (macro, board, side, *inputs), lambda: Markup(make()))

    def seen() -> Any:
        where, inks = _placed(game, board, side), colours(game)
        states = [line_state(e, ch, inks) for (e, _), ch in zip(where["lines"], lines)]
        return _macro("formula_paths")(paths(where, states, inks))

    def draw() -> Markup:
        frame = _placed(game, board, side)["frame"]
        layers = [layer("formula_hexes", (molecules, pending), lambda: _macro("formula_hexes")(f())),
                  layer("formula_lines", (lines, mode == "other"),
                        seen if mode == "other" else lambda: _lines(game, board, side, lines, "formula_line",
                                                                    _macro("formula_line"))),
                  layer("formula_marks", (molecules, mode == "loupe"),
                        lambda: _macro("formula_marks")(f(), mode == "loupe"))]
        if mode == "loupe":
            layers.append(layer("formula_hits", (lines, free), lambda: _macro("formula_hits")(Markup(
                _lines(game, board, side, lines, "formula_hit", _macro("formula_hit"), frozenset(free))))))
        elif mode == "mine":
            layers.append(layer("formula_frame", (), lambda: _macro("formula_frame")(frame)))
        return Markup(_macro("formula_svg")(frame, mode, name, layers))
    return _drawn.get(game, ("formula", board, side, lines, molecules, pending, name, mode, free), draw)


def panel_html(game: Any, shown: dict[str, Any], side: str, turn: int, score: Any, name: str) -> Markup:
    """The rest of one seat's board, drawn for a phone (``drawing.PHONE``): the
    turn track, and the volume table, elemental boxes and score boxes (a layer
    each: every turn moves the track of every board, a molecule changes one
    board's table)."""
    board, track = shown["board"], written(shown["turn_track"])
    board_written = written({k: shown[k] for k in ("table", "elemental_boxes", "free_bonds")})
    scored = None if score is None else (score.total, tuple((line.key, line.points) for line in score.lines),
                                         written(score.details.get("chains", [])))

    def table() -> Markup:
        labels = [(b.key, b.label) for b in game.cards.rules.score_boxes]
        return _macro("panel_board")(panel(game.geometry(board, side), shown, turn, game.rules.turns, score, labels,
                                           colours(game), PHONE))

    def track_html() -> str:
        """The track box by box, each kept for the game (the same on every board)."""
        pieces: dict[tuple[int, str | None, bool], str] = _worked.get(game, ("panel_turn",), dict)
        turns, inks, out = game.rules.turns, colours(game), []
        for i, colour in enumerate(track_colours(shown, turns)):
            key = (i, colour, i + 1 == turn)
            piece = pieces.get(key)
            if piece is None:
                piece = pieces[key] = str(_macro("panel_turn")(turn_box(i, colour, turn, turns, inks), TRACK_H))
            out.append(piece)
        return "".join(out)

    def layer(macro: str, inputs: tuple, make: Callable[[], Any]) -> Markup:
        return _drawn.get(game, (macro, *inputs), lambda: Markup(make()))

    def draw() -> Markup:
        layers = [layer("panel_track", (turn, track), track_html),
                  layer("panel_board", (board, side, board_written, scored), table)]
        size = panel_size(game.geometry(board, side), PHONE, len(game.cards.rules.score_boxes) + 1)
        return Markup(_macro("panel_svg")(size, name, layers))
    return _drawn.get(game, ("panel", board, side, turn, track, board_written, scored, name), draw)


def placements_html(game: Any, options: list[dict[str, Any]]) -> Markup:
    """A bond's legal placements as the menu's options. A phone's placements
    stay the same while other phones move, and each option is drawn from its
    action alone (its JSON, the key)."""
    return _drawn.get(game, ("placements", tuple(o["act"] for o in options)),
                      lambda: Markup(_macro("placement_options")(options)))
