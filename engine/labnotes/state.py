"""The Lab Notes state: plain data, copied cheaply, read back with validation.

Inside the engine a state is a tree of small slotted dataclasses (fast to
copy, which :meth:`LabNotes.apply` does on every action). Outside it is JSON:
:func:`state_to_dict` writes it and :func:`state_from_dict` reads it back
through the pydantic schema (:class:`StateModel`), raising
:class:`~engine.core.InvalidState` naming the field.

A note sheet's compound field is a string, one character per space, read
left to right and top to bottom: ``.`` empty, ``x`` burned, or the element
``H O N C``. In JSON the rows are joined by ``/`` (like a chess FEN), so
a sheet reads at a glance. Spaces are numbered ``row * cols + col``; a
paper sheet labels them ``A1`` (row A at the top, column 1 on the left).

>>> space_label(0), space_label(7), space_label(35)
('A1', 'B2', 'F6')
>>> parse_space_label("b2")
7
>>> spaces, bonds = sheet_from_text("A1:C A2:N A3:H A1=A2 A2-A3")
>>> spaces[:4], bonds
('CNH.', {(0, 1): 2, (1, 2): 1})
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import chem
from engine.core import InvalidState
from engine.data import describe

EMPTY = "."
BURNED = "x"
ELEMENTS = ("H", "O", "N", "C")
BURNER = "burner"
VALENCE = {e: chem.VALENCE[e] for e in ELEMENTS}
"""Bonds each element takes: H 1, O 2, N 3, C 4 (rulebook, Connecting Elements)."""
LINE_POINTS = (6, 3, 1)
"""Points of the notecard line, from the card next to the deck outward."""

PHASES = ("roll", "select", "notate", "fire", "over")
DIE_PLACES = ("box", "cup", "pool", "seat", "community")
"""Where a die is: out of play (``box``), waiting to be rolled (``cup``),
rolled and available (``pool``), taken by a ``seat``, or the ``community`` die."""
SOURCES = ("die", "community", "burner", "flask")
"""Where a pending element came from: your die, the Community die, a Bunsen
Burner's free element, or the Retort Flask's second notation of your die."""

ROWS = "ABCDEFGHIJKLMNOPQRST"
DEFAULT_COLS = 6


# --- space labels -----------------------------------------------------------------
def space_label(index: int, cols: int = DEFAULT_COLS) -> str:
    """The paper sheet's name of a space: row letter from the top, column from 1."""
    return f"{ROWS[index // cols]}{index % cols + 1}"


def parse_space_label(text: str, rows: int = 6, cols: int = DEFAULT_COLS) -> int:
    """The index of a space label such as ``"C4"``; raises ``ValueError`` off the sheet.

    >>> parse_space_label("F6")
    35
    >>> parse_space_label("G1")
    Traceback (most recent call last):
    ...
    ValueError: 'G1' is not a space on the sheet (rows A-F, columns 1-6)
    """
    m = re.fullmatch(r"\s*([A-Za-z])\s*(\d{1,2})\s*", text) if isinstance(text, str) else None
    if m:
        r, c = ROWS.find(m.group(1).upper()), int(m.group(2)) - 1
        if 0 <= r < rows and 0 <= c < cols:
            return r * cols + c
    raise ValueError(f"{text!r} is not a space on the sheet (rows A-{ROWS[rows - 1]}, columns 1-{cols})")


def bond_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def sheet_from_text(text: str, rows: int = 6, cols: int = DEFAULT_COLS) -> tuple[str, dict[tuple[int, int], int]]:
    """A compound field from one line: ``A1:C`` an element, ``A1=A2`` a bond
    (``-`` single, ``=`` double, ``#`` triple), ``F6:x`` a burned space.
    Used by tests and examples to set up a scenario in one line."""
    spaces = [EMPTY] * (rows * cols)
    bonds: dict[tuple[int, int], int] = {}
    for token in text.split():
        m = re.fullmatch(r"([A-Za-z]\d+):([HONCx])", token)
        if m:
            spaces[parse_space_label(m.group(1), rows, cols)] = m.group(2)
            continue
        m = re.fullmatch(r"([A-Za-z]\d+)([-=#])([A-Za-z]\d+)", token)
        if not m:
            raise ValueError(f"cannot read {token!r}: expected A1:C, A1:x or A1-A2 / A1=A2 / A1#A2")
        a, b = parse_space_label(m.group(1), rows, cols), parse_space_label(m.group(3), rows, cols)
        bonds[bond_key(a, b)] = "-=#".index(m.group(2)) + 1
    return "".join(spaces), bonds


# --- the state ----------------------------------------------------------------------
@dataclass(slots=True)
class Die:
    colour: str
    face: str | None = None
    place: str = "box"
    seat: int | None = None

    def copy(self) -> "Die":
        return Die(self.colour, self.face, self.place, self.seat)


@dataclass(slots=True, frozen=True)
class Claim:
    """A checked notecard box: the card, the points written beside it, and the
    spaces of the compound that claimed it (complete compounds never change)."""

    notecard: str
    points: int
    spaces: tuple[int, ...]


@dataclass(slots=True)
class Sheet:
    """One player's note sheet, plus what they still owe this turn.

    Immutable values (strings, tuples) are shared between copies; only
    ``bonds`` is copied.
    """

    spaces: str
    bonds: dict[tuple[int, int], int] = field(default_factory=dict)
    trash: str = ""
    tool_marks: int = 0
    claims: tuple[Claim, ...] = ()
    tools: tuple[str, ...] = ()
    """Tools unlocked, in the order they were."""
    # this turn
    pending: tuple[tuple[str, str], ...] = ()
    """Elements still to notate (or trash), as ``(element, source)``."""
    last_placed: int | None = None
    burns: int = 0
    """Spaces owed to a burner (notate phase) or to the Lab Fire being resolved (fire phase)."""
    choosing: bool = False
    """A burner burned: the free element is still to be chosen."""
    fires: int = 0
    """Lab Fires still to resolve (fire phase)."""
    used: tuple[str, ...] = ()
    """Tools used this turn."""
    done: bool = False

    def copy(self) -> "Sheet":
        return Sheet(self.spaces, dict(self.bonds), self.trash, self.tool_marks, self.claims, self.tools,
                     self.pending, self.last_placed, self.burns, self.choosing, self.fires, self.used, self.done)

    def empty_spaces(self) -> list[int]:
        return [i for i, c in enumerate(self.spaces) if c == EMPTY]

    def has_empty(self) -> bool:
        return EMPTY in self.spaces

    def bonds_used(self, space: int) -> int:
        return sum(o for (a, b), o in self.bonds.items() if a == space or b == space)

    def owes(self) -> bool:
        """Anything left this turn that blocks finishing."""
        return bool(self.pending or self.burns or self.choosing or self.fires)


@dataclass(slots=True)
class State:
    players: int
    tools: tuple[str, ...]
    """The three tool cards of this game: one liquid, one solid, one gas."""
    rng: int
    dice: list[Die]
    deck: list[str]
    """Face down, top card first."""
    line: list[str]
    """Face up, the card next to the deck (worth 6) first."""
    discard: list[str]
    seats: list[Sheet]
    lead: int = 0
    round: int = 1
    phase: str = "roll"
    picks: int = 0
    """Dice taken so far this round."""
    rerolls: int = 0
    """Centrifuge rerolls in the current pick."""
    claimed: bool = False
    """Someone claimed a notecard this turn (the line refills)."""
    fires: int = 0
    """Lab Fires of this round (line reveals and an unattended burner)."""

    def copy(self) -> "State":
        return State(self.players, self.tools, self.rng, [d.copy() for d in self.dice], list(self.deck),
                     list(self.line), list(self.discard), [s.copy() for s in self.seats], self.lead,
                     self.round, self.phase, self.picks, self.rerolls, self.claimed, self.fires)

    def picker(self) -> int:
        """The seat whose pick it is in the select phase."""
        return (self.lead + self.picks) % self.players

    def die_of(self, seat: int) -> Die | None:
        for d in self.dice:
            if d.place == "seat" and d.seat == seat:
                return d
        return None

    def community(self) -> Die | None:
        for d in self.dice:
            if d.place == "community":
                return d
        return None


# --- JSON ---------------------------------------------------------------------------
def _rows(spaces: str, cols: int) -> str:
    return "/".join(spaces[i:i + cols] for i in range(0, len(spaces), cols))


def state_to_dict(state: State, cols: int = DEFAULT_COLS) -> dict[str, Any]:
    return {
        "game": "labnotes",
        "players": state.players,
        "tools": list(state.tools),
        "rng": state.rng,
        "lead": state.lead,
        "round": state.round,
        "phase": state.phase,
        "picks": state.picks,
        "rerolls": state.rerolls,
        "claimed": state.claimed,
        "fires": state.fires,
        "dice": [{"colour": d.colour, "face": d.face, "place": d.place, "seat": d.seat} for d in state.dice],
        "deck": list(state.deck),
        "line": list(state.line),
        "discard": list(state.discard),
        "seats": [{
            "spaces": _rows(s.spaces, cols),
            "bonds": [[a, b, o] for (a, b), o in sorted(s.bonds.items())],
            "trash": s.trash,
            "tool_marks": s.tool_marks,
            "claims": [{"notecard": c.notecard, "points": c.points, "spaces": list(c.spaces)} for c in s.claims],
            "tools": list(s.tools),
            "pending": [[e, src] for e, src in s.pending],
            "last_placed": s.last_placed,
            "burns": s.burns,
            "choosing": s.choosing,
            "fires": s.fires,
            "used": list(s.used),
            "done": s.done,
        } for s in state.seats],
    }


_Strict = ConfigDict(extra="forbid", strict=True)
Count = Annotated[int, Field(ge=0)]
Id = Annotated[str, Field(min_length=1, max_length=80)]


class DieModel(BaseModel):
    model_config = _Strict
    colour: Literal["white", "yellow"]
    face: Literal["H", "O", "N", "C", "burner"] | None
    place: Literal["box", "cup", "pool", "seat", "community"]
    seat: Count | None


class ClaimModel(BaseModel):
    model_config = _Strict
    notecard: Id
    points: Literal[6, 3, 1]
    spaces: list[Count] = Field(min_length=2)


class SheetModel(BaseModel):
    model_config = _Strict
    spaces: str = Field(pattern=r"^[.xHONC/]+$")
    bonds: list[Annotated[list[int], Field(min_length=3, max_length=3)]]
    trash: str = Field(pattern=r"^[HONC]*$")
    tool_marks: Count
    claims: list[ClaimModel]
    tools: list[Id]
    pending: list[Annotated[tuple[Literal["H", "O", "N", "C"], Literal["die", "community", "burner", "flask"]],
                            Field(strict=False)]]  # JSON has no tuples: a pair arrives as a list
    last_placed: Count | None
    burns: Count
    choosing: bool
    fires: Count
    used: list[Id]
    done: bool


class StateModel(BaseModel):
    """The JSON schema of a Lab Notes state (what :func:`state_to_dict` writes)."""

    model_config = _Strict
    game: Literal["labnotes"]
    players: Annotated[int, Field(ge=1, le=20)]
    tools: list[Id]
    rng: Annotated[int, Field(ge=0, lt=1 << 64)]
    lead: Count
    round: Annotated[int, Field(ge=1)]
    phase: Literal["roll", "select", "notate", "fire", "over"]
    picks: Count
    rerolls: Count
    claimed: bool
    fires: Count
    dice: list[DieModel]
    deck: list[Id]
    line: list[Id]
    discard: list[Id]
    seats: list[SheetModel]


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "state"


def state_from_dict(data: Mapping[str, Any], cols: int = DEFAULT_COLS) -> State:
    """Read a state written by :func:`state_to_dict`; the schema is checked
    here, the rules' invariants by :meth:`LabNotes.check`."""
    if not isinstance(data, Mapping):
        raise InvalidState(f"state: expected a JSON object, found {type(data).__name__}")
    try:
        m = StateModel.model_validate(data)
    except ValidationError as exc:
        raise InvalidState("\n".join(f"{_where(e['loc'])}: {describe(e)}" for e in exc.errors())) from None
    seats = []
    for i, s in enumerate(m.seats):
        spaces = s.spaces.split("/")
        if any(len(r) != cols for r in spaces):
            raise InvalidState(f"seats.{i}.spaces: expected rows of {cols} spaces joined by '/', found {s.spaces!r}")
        bonds: dict[tuple[int, int], int] = {}
        for a, b, o in s.bonds:
            key = bond_key(a, b)
            if key in bonds or a == b:
                raise InvalidState(f"seats.{i}.bonds: bond {a}-{b} is listed twice or joins a space to itself")
            bonds[key] = o
        seats.append(Sheet(
            spaces="".join(spaces), bonds=bonds, trash=s.trash, tool_marks=s.tool_marks,
            claims=tuple(Claim(c.notecard, c.points, tuple(sorted(c.spaces))) for c in s.claims),
            tools=tuple(s.tools), pending=tuple((e, src) for e, src in s.pending), last_placed=s.last_placed,
            burns=s.burns, choosing=s.choosing, fires=s.fires, used=tuple(s.used), done=s.done))
    return State(players=m.players, tools=tuple(m.tools), rng=m.rng,
                 dice=[Die(d.colour, d.face, d.place, d.seat) for d in m.dice],
                 deck=list(m.deck), line=list(m.line), discard=list(m.discard), seats=seats,
                 lead=m.lead, round=m.round, phase=m.phase, picks=m.picks, rerolls=m.rerolls,
                 claimed=m.claimed, fires=m.fires)
