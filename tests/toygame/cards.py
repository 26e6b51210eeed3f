"""Toy Race's card set: six bonus cards, read like any game's (text in,
typed cards or file:line problems out)."""

from __future__ import annotations

from pydantic import Field

from engine.data import CardFiles, DataError, Model, Problem

FILES = ("bonuses.csv",)


class Bonus(Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    points: int = Field(ge=1, le=20)
    motto: str = ""


class ToyCards(Model):
    bonuses: list[Bonus]

    def source(self, filename: str):
        return {"bonuses.csv": self.bonuses}[filename]


def parse(files: CardFiles) -> ToyCards:
    problems: list[Problem] = []
    rows = files.table("bonuses.csv", Bonus, problems)
    if "bonuses.csv" in files.read and not rows:
        problems.append(Problem(files.shown("bonuses.csv"), None, None, "expected at least one bonus card"))
    if problems:
        raise DataError(problems)
    return ToyCards(bonuses=[b for _, b in rows])
