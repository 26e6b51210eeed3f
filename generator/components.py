"""Components to pieces: every card, sheet, die and token, each face rendered
to SVG from its template.

A template gets ``w`` and ``h`` (the trim, mm), ``bleed`` (mm to draw beyond
the trim on every side), ``ink_saver``, ``game`` (the game's whole card data),
``component`` (its game.yaml entry) and one of ``card``, ``sheet``, ``die``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.manifest import Component
from generator.pdf import Face, Piece
from generator.svg import RenderError, render

DIE_TAB = 0.35
"""Glue-tab depth of a die net, as a fraction of the face size."""


@dataclass(frozen=True)
class GameData:
    name: str
    folder: Path
    data: Any  # the game's typed card data, e.g. LabNotesData
    sources: dict[str, str]

    def source(self, filename: str) -> Any:
        try:
            return getattr(self.data, self.sources[filename])
        except KeyError:
            raise RenderError(f"{self.folder / filename}: not a data file of {self.name} "
                              f"(known: {', '.join(self.sources)})") from None


def load_game_data(game: str, folder: Path) -> GameData:
    """Read a game's data through its engine package (``engine.<game>.cards``),
    so the printer and the rules check the same things."""
    cards = importlib.import_module(f"engine.{game}.cards")
    return GameData(game, Path(folder), cards.load(folder), dict(cards.SOURCES))


def die_net_size(face: float) -> tuple[float, float]:
    return (3 * face, 4 * face + DIE_TAB * face)


def pieces(component: Component, game: GameData, *, bleed: float, ink_saver: bool) -> list[Piece]:
    """Every physical piece of ``component``, copies included, in print order."""
    base = {"game": game.data, "component": component, "bleed": bleed, "ink_saver": ink_saver}
    out: list[Piece] = []

    def face(template: str, name: str, ctx: dict[str, Any], where: str) -> Face:
        return Face(name, render(template, ctx, where))

    if component.kind == "deck":
        if component.trim is None or component.source is None:
            raise RenderError(f"component {component.id}: a deck needs a size and a source")
        w, h = component.trim
        for card in game.source(component.source):
            where = f"{component.id}/{card.id}"
            ctx = dict(base, card=card, w=w, h=h)
            front = face(component.front, f"{component.id}.{card.id}.front", ctx, where)
            back = face(component.back, f"{component.id}.{card.id}.back", ctx, where + " (back)") if component.back else None
            copies = int(getattr(card, component.copies_column)) if component.copies_column else component.count
            out.extend(Piece(f"{component.id}/{card.id}", card.name, (w, h), front, back) for _ in range(copies))
    elif component.kind in ("sheet", "token", "board"):
        if component.trim is None:
            raise RenderError(f"component {component.id}: needs a size")
        w, h = component.trim
        extra = {"sheet": game.source(component.source)} if component.source else {}
        ctx = dict(base, w=w, h=h, **extra)
        front = face(component.front, f"{component.id}.front", ctx, component.id)
        back = face(component.back, f"{component.id}.back", ctx, component.id + " (back)") if component.back else None
        out.extend(Piece(component.id, component.name, (w, h), front, back) for _ in range(component.count))
    elif component.kind == "dice":
        dice = game.source(component.source or "")
        size = float(getattr(dice, "face_mm", 20))
        w, h = die_net_size(size)
        for kind in dice.dice:
            ctx = dict(base, die=kind, face=size, tab=DIE_TAB * size, w=w, h=h, bleed=0.0)
            front = face(component.front, f"{component.id}.{kind.colour}.front", ctx, f"{component.id}/{kind.colour}")
            out.extend(Piece(f"{component.id}/{kind.colour}", f"{kind.colour} die", (w, h), front)
                       for _ in range(kind.count))
    else:  # pragma: no cover - the manifest's Literal rejects it first
        raise RenderError(f"component {component.id}: unknown kind {component.kind}")
    return out


def style_for(component: Component) -> tuple[str, ...]:
    """Imposition styles to print a component in."""
    if component.kind == "dice":
        return ("loose",)
    if component.kind in ("sheet", "board"):
        return ("grid",)
    return ("grid", "bleed")
