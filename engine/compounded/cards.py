"""Compounded card data: compound cards, Lab Partner cards, tools, chemical
reactions, the Workbench and the table, read into typed models.

``parse(files)`` checks what makes a card playable and printable, and reports
every problem of every file at once, each with its file, line and column: a
compound must be real chemistry of H, O, N, C, Ca and S (its SMILES
structure), print its formula as chemists write it (``formula``: NH3,
CaCO3; checked atom for atom against the structure), need no more of an
element than the bag holds, and name a reward the rules know.

>>> from engine.data import CardFiles
>>> files = CardFiles({"compounds.csv": "id,kind,name,smiles,formula,melts_c,nfpa_fire,points\\n"
...                    "brine,compound,Brine,[Na+].[Cl-],NaCl,801,0,3\\n"}, "my-set")
>>> try:
...     parse(files)
... except DataError as exc:
...     print(exc.problems[0])
my-set/compounds.csv:2: column 'smiles': expected only H, O, N, C, Ca and S, found Chlorine, Sodium
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, model_validator

from engine.chem import ELEMENT_NAMES, ChemistryError, structure
from engine.formulas import formula_problem
from engine.compounded import printed
from engine.compounded.chemistry import flame_slots, states_at_room_temperature
from engine.data import CardFiles, DataError, Model, Problem

ELEMENTS = ("H", "O", "N", "C", "Ca", "S")
"""The six elements, in the order of the Workbench reminder."""
TRACKS = ("discover", "study", "research", "lab")
TOOLS = ("fire_extinguisher", "pipette", "safety_goggles", "journal", "graduated_cylinder", "bunsen_burner")
REACTIONS = ("lab_fire", "grant", "claim_jump", "extinguisher_refill")
REWARDS = TOOLS[1:] + REACTIONS
"""A compound's bonus: a tool (the Fire Extinguisher comes back through the
Extinguisher Refill reaction) or a chemical reaction."""
FILES = ("compounds.csv", "lab_partners.csv", "tools.csv", "reactions.csv", "workbench.yaml", "table.yaml")
Id = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")


# --- the files' rows ------------------------------------------------------------
class CompoundRow(Model):
    id: str = Id
    kind: Literal["compound", "lab_fire"] = "compound"
    name: str = Field(min_length=1)
    smiles: str | None = None
    formula: str | None = None
    """As chemists write it (NH3, H2SO4, CaCO3): printed on the card."""
    melts_c: float | None = None
    boils_c: float | None = None
    nfpa_fire: int | None = Field(default=None, ge=0, le=4)
    points: int | None = Field(default=None, ge=0, le=99)
    reward: Literal[REWARDS] | None = None  # type: ignore[valid-type]
    fact: str | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> "CompoundRow":
        given = [f for f in ("smiles", "formula", "melts_c", "nfpa_fire", "points", "reward")
                 if getattr(self, f) is not None]
        if self.kind == "lab_fire" and given:
            raise ValueError(f"a Lab Fire card has no {given[0]}")
        if self.kind == "compound":
            missing = [f for f in ("smiles", "melts_c", "nfpa_fire", "points") if getattr(self, f) is None]
            if missing:
                raise ValueError(f"a compound needs {', '.join(missing)}")
            if self.boils_c is not None and self.boils_c < self.melts_c:  # type: ignore[operator]
                raise ValueError("it boils below its melting point (a compound that sublimes gives both the same)")
        return self


class ToolRow(Model):
    id: Literal[TOOLS]  # type: ignore[valid-type]
    name: str = Field(min_length=1)
    count: int = Field(ge=1, le=20)
    phase: Literal["discover", "study", "research", "lab"]
    text: str = Field(min_length=1)


class ReactionRow(Model):
    id: Literal[REACTIONS]  # type: ignore[valid-type]
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class Track(Model):
    id: Literal[TRACKS]  # type: ignore[valid-type]
    name: str
    colour: str
    state: Literal["liquid", "solid", "gas"] | None = None
    unlocks: str
    levels: list[int] = Field(min_length=2, max_length=12)
    top_points: int = Field(default=0, ge=0)
    journal_at: int | None = Field(default=None, ge=1)
    advance_points: list[int] | None = None

    @model_validator(mode="after")
    def _shape(self) -> "Track":
        if self.advance_points is not None and len(self.advance_points) != len(self.levels):
            raise ValueError(f"expected {len(self.levels)} advance_points (one per level), found {len(self.advance_points)}")
        if self.journal_at is not None and self.journal_at >= len(self.levels):
            raise ValueError(f"journal_at {self.journal_at} is past the top level {len(self.levels) - 1}")
        if any(b < a for a, b in zip(self.levels, self.levels[1:])):
            raise ValueError("levels never go down as the piece moves up")
        return self

    @property
    def top(self) -> int:
        return len(self.levels) - 1


class Workbench(Model):
    evaporating_dish: str
    tracks: list[Track]
    distribution_reminder: bool = True

    @model_validator(mode="after")
    def _four(self) -> "Workbench":
        if [t.id for t in self.tracks] != list(TRACKS):
            raise ValueError(f"expected the tracks {', '.join(TRACKS)} in that order, found "
                             f"{', '.join(t.id for t in self.tracks)}")
        states = [t.state for t in self.tracks[:3]]
        if sorted(s or "" for s in states) != ["gas", "liquid", "solid"] or self.tracks[3].state:
            raise ValueError("Discover, Study and Research take one state each (liquid, solid, gas); Lab none")
        return self


class ElementRow(Model):
    symbol: Literal[ELEMENTS]  # type: ignore[valid-type]
    name: str
    gem: str
    count: int = Field(ge=1, le=99)


class Scientists(Model):
    colours: list[str] = Field(min_length=2, max_length=5)
    pieces: int = Field(ge=1)
    track_pieces: int
    claim_tokens: int = Field(ge=1)
    score_markers: int
    claim_reserve: int = Field(ge=0)

    @model_validator(mode="after")
    def _pieces(self) -> "Scientists":
        if self.track_pieces + self.claim_tokens + self.score_markers + self.claim_reserve != self.pieces:
            raise ValueError("track pieces, claim tokens, score markers and the claim reserve must add up to the pieces")
        return self


class Scoreboard(Model):
    score_spaces: int = Field(ge=10)
    end_at: dict[int, int]
    refresh_spaces: list[Literal[TOOLS]]  # type: ignore[valid-type]
    claim_reserve_spaces: int
    flame_token_space: bool = True
    deck_space: bool = True


class Tray(Model):
    name: str
    text: str


class TradeDish(Model):
    name: str
    two_player: int = Field(ge=1, le=10)
    no_trade_extra: int = Field(ge=0, le=5)
    three_of_a_kind: int = Field(ge=2)


class Grid(Model):
    players: list[int]
    rows: int = Field(ge=2, le=6)
    cols: int = Field(ge=2, le=6)
    lab_partner_cells: list[int]

    @model_validator(mode="after")
    def _cells(self) -> "Grid":
        bad = [c for c in self.lab_partner_cells if not 0 <= c < self.rows * self.cols]
        if bad:
            raise ValueError(f"lab partner cell {bad[0]} is off a {self.rows}x{self.cols} grid")
        return self


class LabPartnersRule(Model):
    players: list[int]


class Reminders(Model):
    count: int = Field(ge=1)
    title: str
    lines: list[str] = Field(min_length=1)


class Table(Model):
    elements: list[ElementRow]
    scientists: Scientists
    flame_tokens: int = Field(ge=1)
    scoreboard: Scoreboard
    lead_tray: Tray
    trade_dish: TradeDish
    grids: list[Grid]
    lab_partners: LabPartnersRule
    reminder_cards: Reminders

    @model_validator(mode="after")
    def _whole(self) -> "Table":
        if sorted(e.symbol for e in self.elements) != sorted(ELEMENTS):
            raise ValueError(f"expected one row for each of {', '.join(ELEMENTS)}")
        players = [p for g in self.grids for p in g.players]
        if len(players) != len(set(players)):
            raise ValueError("a player count has two grids")
        if set(self.scoreboard.end_at) != set(players):
            raise ValueError("end_at needs a score for every player count that has a grid")
        return self

    def grid(self, players: int) -> Grid:
        return next(g for g in self.grids if players in g.players)


# --- what the rules use -----------------------------------------------------------
@dataclass(frozen=True)
class Compound:
    """A compound card (square, or an oversized Lab Partner card)."""

    id: str
    name: str
    smiles: str
    formula: str
    """As printed: the data's, in the order chemists write it."""
    needs: tuple[tuple[str, int], ...]
    """Elements to complete it, in the Workbench order."""
    states: tuple[str, ...]
    rating: int
    """NFPA 704 flammability (0: not flammable, no red header)."""
    flame_slots: int
    points: int
    reward: str | None
    fact: str | None
    lab_partner: bool = False

    @property
    def flammable(self) -> bool:
        return self.flame_slots > 0

    @property
    def size(self) -> int:
        return sum(n for _, n in self.needs)


@dataclass(frozen=True)
class CompoundedCards:
    compounds: dict[str, Compound]
    """Every compound card and Lab Partner card, by id."""
    deck: tuple[str, ...]
    """The square deck, Lab Fires included, in file order."""
    lab_fires: frozenset[str]
    lab_partners: tuple[str, ...]
    tools: dict[str, ToolRow]
    reactions: dict[str, ReactionRow]
    workbench: Workbench
    table: Table
    rows: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)
    """Each CSV file's rows as read (the printed cards: a problem found while
    drawing one names its line)."""

    def source(self, name: str) -> Any:
        """What a data file holds, for the print manifest's ``source:``
        (:func:`engine.compounded.printed.source`)."""
        return printed.source(self, name)

    @property
    def distribution(self) -> dict[str, int]:
        return {e.symbol: e.count for e in sorted(self.table.elements, key=lambda e: ELEMENTS.index(e.symbol))}

    def track(self, track_id: str) -> Track:
        return self.workbench.tracks[TRACKS.index(track_id)]


def _compound(row: CompoundRow, line: int, shown: str, limits: dict[str, int] | None,
              problems: list[Problem], lab_partner: bool) -> Compound | None:
    try:
        st = structure(row.smiles or "")
    except ChemistryError as exc:
        problems.append(Problem(shown, line, "smiles", str(exc)))
        return None
    wrong = sorted(e for e in st.counts if e not in ELEMENTS)
    if wrong:
        problems.append(Problem(shown, line, "smiles", "expected only H, O, N, C, Ca and S, found "
                                + ", ".join(ELEMENT_NAMES.get(e, e) for e in wrong)))
        return None
    if st.charge:
        problems.append(Problem(shown, line, "smiles", f"expected a neutral compound, found charge {st.charge:+d}"))
    wrong_formula = formula_problem(row.formula, st)
    if wrong_formula:
        problems.append(Problem(shown, line, "formula", wrong_formula))
    for e, n in st.counts.items():
        if limits and n > limits.get(e, 0):
            problems.append(Problem(shown, line, "smiles",
                                    f"needs {n} {ELEMENT_NAMES[e]} but the game has only {limits.get(e, 0)}"))
    states = states_at_room_temperature(row.melts_c, row.boils_c)  # type: ignore[arg-type]
    needs = tuple((e, st.counts[e]) for e in ELEMENTS if e in st.counts)
    return Compound(row.id, row.name, st.smiles, row.formula or st.formula, needs, states, row.nfpa_fire or 0,
                    flame_slots(row.nfpa_fire or 0), row.points or 0, row.reward, row.fact, lab_partner)


def parse(files: CardFiles) -> CompoundedCards:
    """Read and check a Compounded card set; every problem of every file at once."""
    problems: list[Problem] = []
    table = files.document("table.yaml", Table, problems)
    workbench = files.document("workbench.yaml", Workbench, problems)
    limits = {e.symbol: e.count for e in table.elements} if table else None
    compounds: dict[str, Compound] = {}
    seen: dict[str, str] = {}
    deck: list[str] = []
    fires: list[str] = []
    partners: list[str] = []
    rows: dict[str, list[Any]] = {n: [] for n in ("compounds.csv", "lab_partners.csv", "tools.csv", "reactions.csv")}
    for name, lab_partner in (("compounds.csv", False), ("lab_partners.csv", True)):
        shown = files.shown(name)
        for line, row in files.table(name, CompoundRow, problems):
            rows[name].append(row)
            if row.id in seen:
                problems.append(Problem(shown, line, "id", f"expected a new id, found {row.id!r} again (first in {seen[row.id]})"))
                continue
            seen[row.id] = f"{name} line {line}"
            if row.kind == "lab_fire":
                if lab_partner:
                    problems.append(Problem(shown, line, "kind", "Lab Fires are square cards, not Lab Partner cards"))
                    continue
                fires.append(row.id)
                deck.append(row.id)
                continue
            card = _compound(row, line, shown, limits, problems, lab_partner)
            if card is not None:
                compounds[row.id] = card
                (partners if lab_partner else deck).append(row.id)
    tools = {}
    for line, row in files.table("tools.csv", ToolRow, problems):
        rows["tools.csv"].append(row)
        if row.id in tools:
            problems.append(Problem(files.shown("tools.csv"), line, "id", f"expected a new tool, found {row.id!r} again"))
        tools[row.id] = row
    rows["reactions.csv"] = [row for _, row in files.table("reactions.csv", ReactionRow, problems)]
    reactions = {row.id: row for row in rows["reactions.csv"]}
    for name, have, need in (("tools.csv", tools, TOOLS), ("reactions.csv", reactions, REACTIONS)):
        if name in files and have is not None:
            for missing in [t for t in need if t not in have]:
                problems.append(Problem(files.shown(name), None, "id", f"expected a row for {missing!r}, found none"))
    if table and "compounds.csv" in files.read:  # a deck that did not read is reported already
        largest = max(g.rows * g.cols for g in table.grids)
        squares = [c for c in deck if c not in fires]
        if len(squares) < largest:
            problems.append(Problem(files.shown("compounds.csv"), None, None,
                                    f"expected at least {largest} compounds to fill the grid, found {len(squares)}"))
    if problems:
        raise DataError(problems)
    return CompoundedCards(compounds, tuple(deck), frozenset(fires), tuple(partners), tools, reactions,
                           workbench, table, {n: tuple(r) for n, r in rows.items()})  # type: ignore[arg-type]
