"""The card data files' schemas: what each YAML key and CSV column holds,
checked by pydantic as the files are read (:func:`.cards.parse` adds the
checks that need more than one value: a board that plays, a drawing that
reads, names that exist)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from engine.data import Model

Id = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")


# --- rules.yaml ----------------------------------------------------------------------
class ColourData(Model):
    id: str = Field(pattern=r"^[a-z]+$")
    letter: str = Field(pattern=r"^[a-z]$")
    ink: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")


class DiscData(Model):
    ring: list[str] = Field(min_length=2)
    """The outer ring's colours, clockwise, starting at the first name box."""
    roller: str
    names_per_box: int = Field(ge=1, le=4)


class ScoreBox(Model):
    key: str = Field(pattern=r"^[a-z_]+$")
    label: str = Field(min_length=1)


class ElementalPoints(Model):
    one: int = Field(ge=0)
    pair: int = Field(ge=0)


class RulesData(Model):
    turns: int = Field(ge=1, le=99)
    colours: list[ColourData] = Field(min_length=2)
    disc: DiscData
    chain_points: dict[int, int]
    elemental_points: ElementalPoints
    line_points: int = Field(ge=0)
    elemental_shapes: list[str] = Field(min_length=1)
    score_boxes: list[ScoreBox]

    @model_validator(mode="after")
    def _consistent(self) -> "RulesData":
        ids = [c.id for c in self.colours]
        for name in [*self.disc.ring, self.disc.roller]:
            if name not in ids:
                raise ValueError(f"the disc names {name!r}, which is not a colour (colours: {', '.join(ids)})")
        if sorted(self.disc.ring) != sorted(ids):
            raise ValueError("the disc's ring must show every colour once")
        keys = sorted(self.chain_points)
        if not keys or keys != list(range(2, keys[-1] + 1)):
            raise ValueError("chain_points must give every length from 2 up to the longest that scores")
        if any(self.chain_points[a] > self.chain_points[b] for a, b in zip(keys, keys[1:])):
            raise ValueError("a longer chain cannot score less than a shorter one")
        return self


# --- dice.yaml -----------------------------------------------------------------------
class BondFace(Model):
    id: str = Id
    name: str = Field(min_length=1)
    lines: str = Field(min_length=1)


class MutationFace(Model):
    id: str = Field(pattern=r"^[a-z_]+$")
    name: str = Field(min_length=1)
    kind: Literal["mandatory", "optional"]
    text: str = Field(min_length=1)


class DiceData(Model):
    bond_die: list[BondFace] = Field(min_length=6, max_length=6)
    mutation_die: list[MutationFace] = Field(min_length=6, max_length=6)


# --- boards.yaml ---------------------------------------------------------------------
class LayoutData(Model):
    board: str = Field(pattern=r"^[A-Z]$")
    side: Literal["A", "B"]
    formula: list[str] = Field(min_length=1)
    active: dict[str, str] = Field(default_factory=dict)
    elemental: dict[str, str] = Field(default_factory=dict)
    lines: list[str] = Field(default_factory=list)
    table: list[int] = Field(min_length=1)


class BoardsData(Model):
    layouts: list[LayoutData] = Field(min_length=1)


# --- goal and Project cards ------------------------------------------------------------
class _Goal(Model):
    id: str = Id
    name: str = Field(min_length=1)
    points: int = Field(ge=1)
    maximum: int = Field(ge=1)
    green: int = Field(ge=0)
    yellow: int = Field(ge=0)
    red: int = Field(ge=0)

    @model_validator(mode="after")
    def _levels(self) -> "_Goal":
        if not self.green <= self.yellow <= self.red <= self.maximum:
            raise ValueError(f"thresholds must rise green <= yellow <= red <= maximum, found "
                             f"{self.green}, {self.yellow}, {self.red}, {self.maximum}")
        return self

    def threshold(self, level: str) -> int:
        return getattr(self, level)


class PatternRow(_Goal):
    rule: str
    text: str = Field(min_length=1)
    group: str | None = None
    example: str | None = None


class ChainCardData(_Goal):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)  # drawings keep their spaces
    shape: list[str] = Field(min_length=1)
    text: str | None = None


class ChainsData(Model):
    cards: list[ChainCardData] = Field(min_length=1)


class ProjectData(Model):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)  # drawings keep their spaces
    id: str = Id
    difficulty: int = Field(ge=1, le=3)
    chains: list[list[str]] = Field(min_length=1)
    elemental: int = Field(ge=0, le=8)

    @property
    def name(self) -> str:
        """The card's title as printed: ``project-01`` is "Project 01"."""
        return self.id.replace("-", " ").capitalize()


class ProjectsData(Model):
    cards: list[ProjectData] = Field(min_length=1)
