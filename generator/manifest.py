"""A game's ``game.yaml``: which game a card set is for, what it prints,
and what a table needs beside the print.

Adding a component to a game is an entry here plus a template; adding a game
is a data folder with a ``game.yaml`` (docs/design/adding-a-game.md). The
core of the generator knows only the kinds below.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.data import CardFiles, DataError, Model, Problem
from generator.geometry import CARD_SIZES

MANIFEST = "game.yaml"

Kind = Literal["deck", "sheet", "dice", "token", "board"]
ShopKind = Literal["card", "tile", "chit", "cardstock", "board", "mat", "pad", "die"]
"""What a print shop sells a component as (``generator/shops.yaml``)."""
"""deck: one piece per data row; sheet/token/board: one design, ``count``
copies; dice: one net per die in the data. A board larger than the paper is
printed in overlapping tiles with assembly marks."""


LARGE_MM = 130.0
"""A piece longer than this is a board or a mat, not a card (and not a card on a virtual table)."""


class SafeZone(Model):
    """How far inside its trim a component keeps its text, when not the
    usual 3 mm (``generator.facecheck.SAFE_MM``): a piece too small for it
    says so, and why, in its game.yaml entry."""

    mm: float = Field(ge=0)
    why: str = Field(min_length=10)


class Component(Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    kind: Kind
    size: str | tuple[float, float] | None = None
    source: str | None = None
    front: str
    back: str | None = None
    copies_column: str | None = None
    count: int = Field(default=1, ge=1)
    shape: Literal["rect", "round"] = "rect"
    note: str | None = None
    text: list[str] = Field(default_factory=list)
    """Lines for a template that prints words from the manifest (the rules summary)."""
    safe_zone: SafeZone | None = None
    gang_with: str | None = None
    """Print in that component's files, cut the same way (grid or bleed),
    in a block of its own size below its pieces (``impose.gang``): small
    tokens of a few kinds on one sheet instead of a file each."""
    sheet_with: str | None = None
    """Print on the sheets of that component (loose pieces sharing a page,
    e.g. a lone token beside the dice nets) instead of a file of its own."""
    shop_as: list[ShopKind] | None = None
    """The products a print shop may make of it, when not the default for its
    kind and size (:func:`shop_kinds`): a box to fold or parts that must keep
    their sizes together are custom-cut ``cardstock``."""
    cut: Literal["trim", "outline"] = "trim"
    """``outline``: the piece is cut along an outline drawn on it (a box to
    fold), not along its trim rectangle, so its art meets the trim where the
    outline does; dice nets are always cut so."""
    tts_bag: str | None = None
    """On a virtual table the pieces start in a bag of this name (drawn blind)."""
    markers: int | None = Field(default=None, ge=0, le=42)
    """A sheet made to be read from a photo (``labkit read``): the first of its
    fiducial markers' ids, four for the front and four for the back
    (``reader.fiducials``); unique across the games."""

    @field_validator("size")
    @classmethod
    def _known_size(cls, v):
        if isinstance(v, str) and v not in CARD_SIZES:
            raise ValueError(f"expected a card size ({', '.join(CARD_SIZES)}) or [width, height] in mm, found {v!r}")
        return v

    @property
    def trim(self) -> tuple[float, float] | None:
        if self.size is None:
            return None
        if isinstance(self.size, str):
            return CARD_SIZES[self.size]
        return (float(self.size[0]), float(self.size[1]))

    @property
    def duplex(self) -> bool:
        return self.back is not None

    def shop_kinds(self) -> tuple[str, ...]:
        """What a shop may print it as: ``shop_as``, else by kind and size
        (cards, tiles and chits up to :data:`LARGE_MM`, boards and mats beyond).

        >>> Component(id="x", name="X", kind="deck", size="poker", front="t").shop_kinds()
        ('card', 'tile', 'chit', 'cardstock')
        >>> Component(id="x", name="X", kind="deck", size=[250, 185], front="t").shop_kinds()
        ('board', 'mat')
        """
        if self.shop_as:
            return tuple(self.shop_as)
        if self.kind == "sheet":
            return ("pad",)
        if self.kind == "dice":
            return ("die",)
        if self.kind == "board" or (self.trim is not None and max(self.trim) > LARGE_MM):
            return ("board", "mat")
        return ("card", "tile", "chit", "cardstock")


class Preview(Model):
    """A picture of a printed page for the README (``make previews``)."""

    component: str
    page: int = Field(default=0, ge=0)
    width: int = Field(default=900, ge=100, le=3000)
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")


class Manifest(Model):
    game: str
    """Which game this card set is for (an author's copy keeps it)."""
    title: str
    players: tuple[int, int]
    rulebook: str | None = None
    summary: list[str] = Field(default_factory=list)
    """How to play, in a few lines of our own words: printed with the set."""
    gather: list[str] = Field(default_factory=list)
    """What else the table needs (pencils, a bag): listed in PRINTING.md."""
    components: list[Component] = Field(min_length=1)
    previews: list[Preview] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references(self) -> "Manifest":
        ids = [c.id for c in self.components]
        for c in self.components:
            if c.sheet_with is not None and (c.sheet_with not in ids or c.sheet_with == c.id):
                raise ValueError(f"component {c.id}: sheet_with names no other component ({c.sheet_with!r})")
            if c.gang_with is not None and (c.gang_with not in ids or c.gang_with == c.id or c.sheet_with):
                raise ValueError(f"component {c.id}: gang_with names no other component ({c.gang_with!r}), "
                                 "or the component also has sheet_with")
            if c.gang_with is not None and (c.back or self.component(c.gang_with).back):
                raise ValueError(f"component {c.id}: gang_with is for one-sided pieces ({c.id} or "
                                 f"{c.gang_with} has a back)")
        for p in self.previews:
            if p.component not in ids:
                raise ValueError(f"preview {p.name}: no component {p.component!r}")
        return self

    def component(self, component_id: str) -> Component:
        return next(c for c in self.components if c.id == component_id)


def parse_manifest(files: CardFiles) -> Manifest:
    problems: list[Problem] = []
    manifest = files.document(MANIFEST, Manifest, problems)
    if manifest is None:
        raise DataError(problems)
    return manifest
