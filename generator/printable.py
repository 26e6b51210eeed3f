"""A game's card set and print manifest, read and checked the way printing
will use them: every face drawn, and every problem found before anything is
written (text that will not fit its box, characters the font cannot draw),
each naming the data file, line and column. ``labkit validate`` and
``labkit build`` share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.data import CardFiles, DataError, Problem
from engine.descriptor import GameDescriptor
from generator import components as comp
from generator import fonts
from generator.manifest import MANIFEST, Component, Manifest, parse_manifest
from generator.pdf import Piece
from generator.svg import RenderError
from labkit import cardsets
from labkit.cardsets import CardSet


class BuildError(RuntimeError):
    """A build stopped; the message says why, in one or more lines."""


@dataclass
class Printable:
    """One game's card set and print manifest, read and checked."""

    cardset: CardSet
    manifest: Manifest

    @property
    def game(self) -> GameDescriptor:
        return self.cardset.game

    def components(self) -> list[Component]:
        return list(self.manifest.components)


# --- reading --------------------------------------------------------------------
def load(game: GameDescriptor, folder: Path | None = None) -> Printable:
    """A game's card set and print manifest, or :class:`DataError` listing
    every problem of both."""
    folder = Path(folder) if folder is not None else cardsets.data_dir(game)
    problems: list[Problem] = []
    cardset = manifest = None
    try:
        cardset = cardsets.cardset(game, folder)
    except DataError as exc:
        problems.extend(exc.problems)
    raw = cardsets.manifest_bytes(folder)  # a folder's or a zip's
    files = CardFiles({MANIFEST: raw} if raw is not None else {}, cardsets.display_path(folder))
    try:
        manifest = parse_manifest(files)
    except DataError as exc:
        problems.extend(exc.problems)
    if manifest is not None and manifest.game != game.name:
        problems.append(Problem(files.shown(MANIFEST), None, "game", f"expected {game.name!r} (this is "
                                f"{game.title}'s card set), found {manifest.game!r}", label="key"))
    if problems:
        raise DataError(problems)
    return Printable(cardset, manifest)  # type: ignore[arg-type]


# --- drawing and checking --------------------------------------------------------------
def glyph_problems(cardset: CardSet) -> list[Problem]:
    """Every text cell of the card set that the printed font cannot draw,
    by file, line and column."""
    out = []
    for name, rows in cardset.files.read.items():
        for line, model in rows:
            for column, value in _texts(model):
                missing = fonts.missing_glyphs(value)
                if missing:
                    out.append(Problem(cardset.files.shown(name), line, column,
                                       f"has characters the printed font cannot draw: {fonts.describe_missing(missing)}"
                                       " (the font covers Latin, Greek and Cyrillic)"))
    return cardset.files.numbered(out)


def _texts(model, prefix: str = ""):
    """``(column, text)`` of every string in a data row or document."""
    from pydantic import BaseModel

    values = model.__dict__.items() if isinstance(model, BaseModel) else []
    for key, value in values:
        name = f"{prefix}{key}"
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, BaseModel):
            yield from _texts(value, name + ".")
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, str):
                    yield name, item
                elif isinstance(item, BaseModel):
                    yield from _texts(item, name + ".")


Rendered = dict[tuple[str, str], list[Piece]]


def check(printable: Printable, *, bleed: float = 3.0, ink_saver: bool = False,
          layouts: tuple[str, ...] = ("grid", "bleed")) -> tuple[Rendered, list[Problem]]:
    """Draw every face of every component (what :func:`build` prints) and
    return the pieces with every problem found: text that does not fit its
    box, characters the font cannot draw. ``labkit validate`` runs this too."""
    fonts.register()
    problems = glyph_problems(printable.cardset)
    rendered: Rendered = {}
    for component in printable.components():
        for style in comp.style_for(component):
            if style != "loose" and style not in layouts:
                continue
            try:
                drawn = comp.pieces(component, printable.cardset, bleed=bleed if style == "bleed" else 0.0,
                                    ink_saver=ink_saver)
            except (RenderError, ValueError) as exc:
                raise BuildError(str(exc)) from None
            rendered[(component.id, style)] = drawn.pieces
            problems.extend(drawn.problems)
    # A cell already reported for its characters need not be reported again per face.
    cells = {(p.path, p.line) for p in problems if p.column and "font cannot draw" in p.message}
    problems = [p for p in problems
                if p.column or "font cannot draw" not in p.message or (p.path, p.line) not in cells]
    return rendered, sorted(set(problems), key=lambda p: (p.path, p.line or 0, p.column or "", p.message))
