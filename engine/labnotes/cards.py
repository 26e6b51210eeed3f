"""Lab Notes card data: dice, tool cards, notecards and the note sheet.

:func:`parse` reads a card set (the rulebook's ``cardsdata/labnotes`` or an
author's copy, handed over as :class:`~engine.data.CardFiles`) into typed
models. Beyond each cell's type, it checks what makes a card playable: a
compound's structure must be real chemistry of H, O, N and C, complete
(every atom at its valence), its printed formula must match it, and it must
be buildable on the sheet's compound field; a tool must be one whose ability
the rules know (an author may re-theme a tool, not invent one).

The structures are read and laid out here, once (:func:`engine.chem.structure`
and :func:`engine.molecules.lattice` keep them), so the printer and the
phones draw what was checked.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from engine.chem import ELEMENT_NAMES, ChemistryError, Molecule, Structure, structure
from engine.formulas import formula_problem
from engine.data import CardFiles, DataError, Model, Problem, csv_bool
from engine.hexgrid import HexField, search_embedding
from engine.labnotes.scoring import BOND_POINTS
from engine.labnotes.tools import ABILITIES
from engine.molecules import Layout, lattice

ELEMENTS = ("H", "O", "N", "C")
"""The four elements of Lab Notes."""
BURNER = "burner"
"""The Bunsen Burner face of the yellow dice."""
Face = Literal["H", "O", "N", "C", "burner"]
Colour = Literal["white", "yellow"]
State = Literal["liquid", "solid", "gas"]

FILES = ("dice.yaml", "sheet.yaml", "tools.csv", "notecards.csv")


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

    def chemistry(self) -> Structure:
        assert self.structure
        return structure(self.structure)

    def molecule(self) -> Molecule:
        return self.chemistry().graph()

    @property
    def bond_score(self) -> dict[str, int]:
        """Its bonds as a note sheet scores them (Final Score: 1, 3 and 6 points)."""
        orders = [o for _, _, o in self.chemistry().bonds]
        tally = {"single": orders.count(1), "double": orders.count(2), "triple": orders.count(3)}
        tally["points"] = sum(BOND_POINTS[o] for o in orders)
        return tally

    @property
    def layout(self) -> Layout:
        """How it looks built on a note sheet (printed cards and phones draw this)."""
        assert self.structure
        return lattice(self.structure)


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

    def source(self, filename: str):
        """What a data file holds, for the print manifest's ``source:``."""
        return {"dice.yaml": self.dice, "sheet.yaml": self.sheet, "tools.csv": self.tools,
                "notecards.csv": self.notecards}[filename]

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
        chem = card.chemistry()
    except ChemistryError as exc:
        problems.append(Problem(shown, line, "structure", str(exc)))
        return
    mol = chem.graph()
    wrong = sorted(set(mol.atoms) - set(ELEMENTS))
    if wrong:
        problems.append(Problem(shown, line, "structure",
                                f"expected only H, O, N and C, found {', '.join(ELEMENT_NAMES.get(e, e) for e in wrong)}"))
        return
    if any(chem.charges) or len(chem.fragments) > 1:
        problems.append(Problem(shown, line, "structure", "expected one neutral molecule, found ions or several pieces"))
        return
    wrong_formula = formula_problem(card.formula, chem)
    if wrong_formula:
        problems.append(Problem(shown, line, "formula", wrong_formula))
    if mol.missing_bonds():
        problems.append(Problem(shown, line, "structure",
                                f"expected a complete compound, found {mol.missing_bonds()} open bond(s)"))
    elif field is not None and (found := search_embedding(mol.atoms, mol.bonds, field))[0] is None:
        problems.append(Problem(shown, line, "structure",
                                f"cannot be built on a {field.rows}x{field.cols} compound field"
                                + (" (no way to place it was found within the search's bound: make it smaller "
                                   "or less branched)" if found[1] else "")))
    else:
        card.layout  # laid out once, now, for the printer and the phones


def _unique_ids(rows, shown: str, problems: list[Problem]) -> None:
    seen: dict[str, int] = {}
    for line, card in rows:
        if card.id in seen:
            problems.append(Problem(shown, line, "id", f"expected a new id, found {card.id!r} again (first on line {seen[card.id]})"))
        seen.setdefault(card.id, line)


def parse(files: CardFiles) -> LabNotesData:
    """Read and check a Lab Notes card set; every problem of every file at once."""
    problems: list[Problem] = []
    dice = files.document("dice.yaml", DiceData, problems)
    sheet = files.document("sheet.yaml", SheetData, problems)
    tools = files.table("tools.csv", ToolCard, problems)
    notecards = files.table("notecards.csv", Notecard, problems)
    field = sheet.hexfield if sheet is not None else None
    for name, rows in (("tools.csv", tools), ("notecards.csv", notecards)):
        shown = files.shown(name)
        _unique_ids(rows, shown, problems)
        for line, card in rows:
            if card.structure:
                _check_compound(card, field, shown, line, problems)
    shown = files.shown("tools.csv")
    for line, tool in tools:
        if tool.id not in ABILITIES:
            problems.append(Problem(shown, line, "id",
                                    f"expected the id of a tool whose ability the rules know "
                                    f"({', '.join(ABILITIES)}), found {tool.id!r}: rename a tool, "
                                    "or re-theme one of these"))
    if "tools.csv" in files.read:
        states = {t.state for _, t in tools}
        for state in ("liquid", "solid", "gas"):
            if state not in states:
                problems.append(Problem(shown, None, "state", f"expected at least one {state} tool (setup takes one of each), found none"))
            firsts = [t for _, t in tools if t.state == state and t.first_game]
            if len(firsts) > 1:
                problems.append(Problem(shown, None, "first_game", f"expected at most one first-game {state} tool, found {len(firsts)}"))
    if "notecards.csv" in files.read and sum(not c.is_lab_fire for _, c in notecards) < 3:
        problems.append(Problem(files.shown("notecards.csv"), None, None,
                                "expected at least 3 compound notecards (the line shows three)"))
    if problems:
        raise DataError(problems)
    return LabNotesData(dice=dice, sheet=sheet, tools=[t for _, t in tools],  # type: ignore[arg-type]
                        notecards=[c for _, c in notecards])
