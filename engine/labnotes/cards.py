"""Lab Notes card data: dice, tool cards, notecards and the note sheet.

Read from a data folder (``cardsdata/labnotes`` or an author's copy) into
typed models. Beyond each cell's type, the loader checks what makes a card
playable: a compound's structure must be real chemistry of H, O, N and C,
complete (every atom at its valence), its printed formula must match it, and
it must be buildable on the sheet's compound field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.chem import ChemistryError, Molecule, formula_counts, ELEMENT_NAMES
from engine.data import DataError, Model, Problem, csv_bool, display_path, read_csv_rows, read_yaml
from engine.hexgrid import HexField, embed

ELEMENTS = ("H", "O", "N", "C")
"""The four elements of Lab Notes."""
BURNER = "burner"
"""The Bunsen Burner face of the yellow dice."""
Face = Literal["H", "O", "N", "C", "burner"]
Colour = Literal["white", "yellow"]
State = Literal["liquid", "solid", "gas"]

FILES = ("dice.yaml", "sheet.yaml", "tools.csv", "notecards.csv")
SOURCES = {"dice.yaml": "dice", "sheet.yaml": "sheet", "tools.csv": "tools", "notecards.csv": "notecards"}
"""Which field of :class:`LabNotesData` each data file fills (the printer's
``game.yaml`` names components by their file)."""


class DieKind(Model):
    colour: Colour
    count: int = Field(ge=1)
    faces: list[Face] = Field(min_length=6, max_length=6)


class DiceData(Model):
    dice: list[DieKind] = Field(min_length=1)
    per_players: dict[int, dict[Colour, int]]
    face_mm: float = Field(default=20, gt=5)

    @model_validator(mode="after")
    def _enough_dice(self) -> "DiceData":
        have = {d.colour: d.count for d in self.dice}
        for players, need in self.per_players.items():
            if sum(need.values()) != players + 1:
                raise ValueError(f"{players} players need {players + 1} dice (one each and the Community die), "
                                 f"found {sum(need.values())}")
            for colour, n in need.items():
                if n > have.get(colour, 0):
                    raise ValueError(f"{players} players use {n} {colour} dice, but only {have.get(colour, 0)} exist")
        return self

    def faces_of(self, colour: str) -> list[str]:
        return next(d.faces for d in self.dice if d.colour == colour)


class FieldData(Model):
    rows: int = Field(ge=2, le=20)
    cols: int = Field(ge=2, le=20)


class ToolsTrack(Model):
    open: int = Field(ge=0)
    opened_by_notecard: list[int] = Field(default_factory=list)

    @property
    def spaces(self) -> int:
        return self.open + sum(self.opened_by_notecard)


class SheetData(Model):
    field: FieldData
    trash_cans: int = Field(ge=1, le=20)
    tools_track: ToolsTrack
    notecard_boxes: int = Field(ge=1, le=30)

    @property
    def hexfield(self) -> HexField:
        return HexField(self.field.rows, self.field.cols)


class _Compound(Model):
    """A card that names a real compound."""

    formula: str | None = None
    structure: str | None = None

    def molecule(self) -> Molecule:
        assert self.structure
        return Molecule.from_smiles(self.structure)


class ToolCard(_Compound):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    state: State
    compound: str = Field(min_length=1)
    formula: str = Field(min_length=1)
    structure: str = Field(min_length=1)
    icons: int = Field(ge=1, le=6)
    ability: str = Field(min_length=1)
    first_game: bool = False
    copies: int = Field(default=5, ge=1)

    _yes_no = field_validator("first_game", mode="before")(csv_bool)


class Notecard(_Compound):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["compound", "lab_fire"]
    name: str = Field(min_length=1)
    fact: str | None = None

    @property
    def is_lab_fire(self) -> bool:
        return self.kind == "lab_fire"

    @model_validator(mode="after")
    def _compound_fields(self) -> "Notecard":
        if self.kind == "compound" and not (self.formula and self.structure):
            raise ValueError("a compound notecard needs a formula and a structure")
        if self.kind == "lab_fire" and (self.formula or self.structure):
            raise ValueError("a Lab Fire has no formula or structure")
        return self


class LabNotesData(Model):
    """Everything the rules and the printer need to know about one card set."""

    dice: DiceData
    sheet: SheetData
    tools: list[ToolCard]
    notecards: list[Notecard]

    def tool(self, tool_id: str) -> ToolCard:
        return next(t for t in self.tools if t.id == tool_id)

    def notecard(self, card_id: str) -> Notecard:
        return next(c for c in self.notecards if c.id == card_id)

    def molecules(self) -> dict[str, Molecule]:
        """Structures of every tool compound and compound notecard, by card id."""
        out = {t.id: t.molecule() for t in self.tools}
        out.update({c.id: c.molecule() for c in self.notecards if not c.is_lab_fire})
        return out


def _check_compound(card: _Compound, field: HexField | None, shown: str, line: int, problems: list[Problem]) -> None:
    try:
        mol = card.molecule()
    except ChemistryError as exc:
        problems.append(Problem(shown, line, "structure", str(exc)))
        return
    wrong = sorted(set(mol.atoms) - set(ELEMENTS))
    if wrong:
        problems.append(Problem(shown, line, "structure",
                                f"expected only H, O, N and C, found {', '.join(ELEMENT_NAMES.get(e, e) for e in wrong)}"))
        return
    try:
        written = formula_counts(card.formula or "")
    except ChemistryError as exc:
        problems.append(Problem(shown, line, "formula", str(exc)))
        return
    if written != mol.counts():
        problems.append(Problem(shown, line, "formula",
                                f"expected {mol.formula()} (the structure's formula), found {card.formula!r}"))
    if mol.missing_bonds():
        problems.append(Problem(shown, line, "structure",
                                f"expected a complete compound, found {mol.missing_bonds()} open bond(s)"))
    if field is not None and embed(mol.atoms, mol.bonds, field) is None:
        problems.append(Problem(shown, line, "structure",
                                f"cannot be built on a {field.rows}x{field.cols} compound field"))


def _unique_ids(rows, shown: str, problems: list[Problem]) -> None:
    seen: dict[str, int] = {}
    for line, card in rows:
        if card.id in seen:
            problems.append(Problem(shown, line, "id", f"expected a new id, found {card.id!r} again (first on line {seen[card.id]})"))
        seen.setdefault(card.id, line)


def load(folder: Path) -> LabNotesData:
    """Read and check a Lab Notes data folder; every problem of every file at once."""
    folder = Path(folder)
    problems: list[Problem] = []
    results: dict[str, object] = {}
    readers = {
        "dice.yaml": lambda p: read_yaml(p, DiceData),
        "sheet.yaml": lambda p: read_yaml(p, SheetData),
    }
    decks = {"tools.csv": ToolCard, "notecards.csv": Notecard}
    for name in FILES:
        path = folder / name
        if not path.exists():
            problems.append(Problem(display_path(path), None, None, "file is missing"))
        elif name in decks:
            # Good rows are checked further even when other rows are bad.
            results[name], bad = read_csv_rows(path, decks[name])
            problems.extend(bad)
        else:
            try:
                results[name] = readers[name](path)
            except DataError as exc:
                problems.extend(exc.problems)
    sheet = results.get("sheet.yaml")
    field = sheet.hexfield if isinstance(sheet, SheetData) else None
    for name in ("tools.csv", "notecards.csv"):
        rows = results.get(name)
        if rows is None:
            continue
        shown = display_path(folder / name)
        _unique_ids(rows, shown, problems)
        for line, card in rows:  # type: ignore[union-attr]
            if getattr(card, "structure", None):
                _check_compound(card, field, shown, line, problems)
    if "tools.csv" in results:
        shown = display_path(folder / "tools.csv")
        states = {t.state for _, t in results["tools.csv"]}  # type: ignore[union-attr]
        for state in ("liquid", "solid", "gas"):
            if state not in states:
                problems.append(Problem(shown, None, "state", f"expected at least one {state} tool (setup takes one of each), found none"))
            firsts = [t for _, t in results["tools.csv"] if t.state == state and t.first_game]  # type: ignore[union-attr]
            if len(firsts) > 1:
                problems.append(Problem(shown, None, "first_game", f"expected at most one first-game {state} tool, found {len(firsts)}"))
    if "notecards.csv" in results:
        cards = [c for _, c in results["notecards.csv"]]  # type: ignore[union-attr]
        if sum(not c.is_lab_fire for c in cards) < 3:
            problems.append(Problem(display_path(folder / "notecards.csv"), None, None,
                                    "expected at least 3 compound notecards (the line shows three)"))
    if problems:
        raise DataError(problems)
    return LabNotesData(
        dice=results["dice.yaml"],  # type: ignore[arg-type]
        sheet=results["sheet.yaml"],  # type: ignore[arg-type]
        tools=[t for _, t in results["tools.csv"]],  # type: ignore[union-attr]
        notecards=[c for _, c in results["notecards.csv"]],  # type: ignore[union-attr]
    )
