"""A game's ``game.yaml``: the list of components to print.

Adding a component to a game is an entry here plus a template; adding a game
is a data folder with a ``game.yaml`` and a ``cards.py`` loader in its engine
package. The core of the generator knows only the kinds below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from engine.data import Model, read_yaml
from generator.geometry import CARD_SIZES

Kind = Literal["deck", "sheet", "dice", "token", "board"]
"""deck: one piece per data row; sheet/token/board: one design, ``count``
copies; dice: one net per die in the data. A board larger than the paper is
printed in overlapping tiles with assembly marks."""


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


class Manifest(Model):
    title: str
    players: tuple[int, int]
    rulebook: str | None = None
    components: list[Component] = Field(min_length=1)


def load_manifest(folder: Path) -> Manifest:
    return read_yaml(Path(folder) / "game.yaml", Manifest)
