"""Components to pieces: every card, sheet, die and token, each face rendered
to SVG from its template, with every problem found while drawing (text that
will not fit its box, characters the font cannot draw, text outside the
safe zone or under 6 pt: :mod:`generator.facecheck`) named by the data
file, line and column it came from.

A template gets ``w`` and ``h`` (the trim, mm), ``bleed`` (mm to draw beyond
the trim on every side), ``ink_saver``, ``game`` (the game's whole card set),
``play`` (the game's rules bound to it: what the game knows, such as a
space's label), ``component`` (its game.yaml entry) and one of ``card``,
``sheet``, ``die``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any, Collection

from engine.data import Problem
from generator import facecheck, fonts
from generator.fitting import collecting
from generator.manifest import MANIFEST, Component
from generator.pdf import Face, Piece
from generator.svg import RenderError, render

DIE_TAB = 0.35
"""Glue-tab depth of a die net, as a fraction of the face size."""
_TEXT = re.compile(r"<text\b([^>]*)>([^<]*)</text>")


@dataclass
class Drawn:
    """The pieces of one component in one style, and what went wrong drawing them."""

    pieces: list[Piece] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def die_net_size(face: float) -> tuple[float, float]:
    return (3 * face, 4 * face + DIE_TAB * face)


def source(cardset: Any, component: Component) -> Any:
    try:
        return cardset.cards.source(component.source)
    except KeyError:
        raise RenderError(f"{cardset.files.shown(MANIFEST)}: component {component.id}: "
                          f"source {component.source!r} is not a data file of {cardset.game.title} "
                          f"({', '.join(cardset.game.card_files)})") from None


def pieces(component: Component, cardset: Any, *, bleed: float, ink_saver: bool,
           only: Collection[str] | None = None, cut_guides: bool = True) -> Drawn:
    """Every physical piece of ``component``, copies included, in print order;
    with ``only``, a deck's cards of those ids alone (the studio redraws the
    cards an edit changed first, the rest after).
    ``cut_guides``: a round piece's outline drawn on its trim, for a home
    cutter's scissors; a shop cuts with its own die, where a line on the trim
    shows as a sliver wherever the die wanders (the exports draw none)."""
    base = {"game": cardset.cards, "play": cardset.play, "component": component, "bleed": bleed,
            "ink_saver": ink_saver, "cut_guides": cut_guides}
    out = Drawn()

    def face(template: str, name: str, ctx: dict[str, Any], where: str, shows: Any) -> Face:
        with collecting() as overflows:
            svg = render(template, ctx, where)
        origin = cardset.origin(shows) if shows is not None else None
        shown, line = origin if origin else (cardset.files.shown(MANIFEST), None)
        out.problems.extend(cardset.files.numbered(
            Problem(shown, line, o.field, f"{o.message} (on the {component.name.lower()})") for o in overflows))
        safe = component.safe_zone.mm if component.safe_zone else facecheck.SAFE_MM
        out.problems.extend(cardset.files.numbered(
            Problem(shown, line, data_column(found.text.text, shows),
                    f"{found.message}, on the {component.name.lower()} ({where})")
            for found in facecheck.findings(svg, ctx["w"], ctx["h"], safe=safe,
                                            round_piece=component.shape == "round")))
        for attrs, text in _TEXT.findall(svg):
            missing = fonts.missing_glyphs(unescape(text), 'font-weight="bold"' in attrs)
            if missing:
                out.problems.append(Problem(shown, line, None,
                                            f"the text {unescape(text)[:40]!r} on the {component.name.lower()} has "
                                            f"characters the printed font cannot draw: "
                                            f"{fonts.describe_missing(missing)}"))
        return Face(name, svg)

    if component.kind == "deck":
        if component.trim is None or component.source is None:
            raise RenderError(f"component {component.id}: a deck needs a size and a source")
        w, h = component.trim
        for card in source(cardset, component):
            if only is not None and card.id not in only:
                continue
            where = f"{component.id}/{card.id}"
            ctx = dict(base, card=card, w=w, h=h)
            front = face(component.front, f"{component.id}.{card.id}.front", ctx, where, card)
            back = (face(component.back, f"{component.id}.{card.id}.back", ctx, where + " (back)", card)
                    if component.back else None)
            copies = int(getattr(card, component.copies_column)) if component.copies_column else component.count
            out.pieces.extend(Piece(f"{component.id}/{card.id}", card.name, (w, h), front, back)
                              for _ in range(copies))
    elif component.kind in ("sheet", "token", "board"):
        if component.trim is None:
            raise RenderError(f"component {component.id}: needs a size")
        w, h = component.trim
        sheet = source(cardset, component) if component.source else None
        ctx = dict(base, w=w, h=h, **({"sheet": sheet} if sheet is not None else {}))
        front = face(component.front, f"{component.id}.front", ctx, component.id, sheet)
        back = face(component.back, f"{component.id}.back", ctx, component.id + " (back)", sheet) if component.back else None
        out.pieces.extend(Piece(component.id, component.name, (w, h), front, back) for _ in range(component.count))
    elif component.kind == "dice":
        dice = source(cardset, component)
        size = float(getattr(dice, "face_mm", 20))
        w, h = die_net_size(size)
        for kind in dice.dice:
            ctx = dict(base, die=kind, face=size, tab=DIE_TAB * size, w=w, h=h, bleed=0.0)
            front = face(component.front, f"{component.id}.{kind.colour}.front", ctx,
                         f"{component.id}/{kind.colour}", dice)
            out.pieces.extend(Piece(f"{component.id}/{kind.colour}", f"{kind.colour} die", (w, h), front)
                              for _ in range(kind.count))
    else:  # pragma: no cover - the manifest's Literal rejects it first
        raise RenderError(f"component {component.id}: unknown kind {component.kind}")
    return out


def data_texts(model: Any, prefix: str = ""):
    """``(column, text)`` of every string in a data row or document."""
    from pydantic import BaseModel

    values = model.__dict__.items() if isinstance(model, BaseModel) else []
    for key, value in values:
        name = f"{prefix}{key}"
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, BaseModel):
            yield from data_texts(value, name + ".")
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, str):
                    yield name, item
                elif isinstance(item, BaseModel):
                    yield from data_texts(item, name + ".")


def data_column(text: str, shows: Any) -> str | None:
    """The data column a printed line of text came from, or None for the
    template's own words: a cell printed whole (as written, or in capitals),
    else a cell holding the line as written (a wrapped line of it)."""
    if shows is None or len(text) < 3:
        return None
    line = " ".join(text.split())
    cells = [(column, " ".join(value.split())) for column, value in data_texts(shows)]
    for same in (str.__eq__, lambda a, b: a.casefold() == b.casefold()):
        for column, value in cells:
            if same(value, line):
                return column
    for column, value in cells:
        if line in value:
            return column
    return None


def style_for(component: Component) -> tuple[str, ...]:
    """Imposition styles to print a component in."""
    if component.kind == "dice" or component.sheet_with:
        return ("loose",)
    if component.kind in ("sheet", "board"):
        return ("grid",)
    return ("grid", "bleed")
