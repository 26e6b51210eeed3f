"""The Lab Notes state: plain data, copied cheaply, read back with validation.

Each field is declared once, here, with its JSON form and its limits: the
dataclasses are the engine's state, and pydantic reads and writes them
(:func:`state_to_dict`, :func:`state_from_dict`), naming the field of any
problem as :class:`~engine.core.InvalidState`.

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

import json
import re
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Annotated, Any, Literal, Mapping, get_args, get_origin, get_type_hints

from pydantic import BeforeValidator, ConfigDict, Field, PlainSerializer, TypeAdapter, ValidationError

from engine import chem
from engine.core import InvalidState
from engine.data import describe
from engine.hexgrid import HexField

EMPTY = "."
BURNED = "x"
ELEMENTS = ("H", "O", "N", "C")
BURNER = "burner"
VALENCE = {e: chem.VALENCE[e] for e in ELEMENTS}
"""Bonds each element takes: H 1, O 2, N 3, C 4 (rulebook, Connecting Elements)."""
LINE_POINTS = (6, 3, 1)
"""Points of the notecard line, from the card next to the deck outward."""

Phase = Literal["roll", "select", "notate", "fire", "over"]
Place = Literal["box", "cup", "pool", "seat", "community"]
"""Where a die is: out of play (``box``), waiting to be rolled (``cup``),
rolled and available (``pool``), taken by a ``seat``, or the ``community`` die."""
Source = Literal["die", "community", "burner", "flask"]
"""Where a pending element came from: your die, the Community die, a Bunsen
Burner's free element, or the Retort Flask's second notation of your die."""
BurnCause = Literal["burner", "trash", "fire", "unattended", "unconnected"]
"""Why a space burned: the Bunsen Burner die taken (``burner``), the Bunsen
Burner of a full trash (``trash``), a Lab Fire revealed in the notecard line
(``fire``), an unattended Bunsen Burner (``unattended``), or an element left
with no bond at the end (``unconnected``)."""
Element = Literal["H", "O", "N", "C"]
Face = Literal["H", "O", "N", "C", "burner"]
PHASES: tuple[str, ...] = Phase.__args__  # type: ignore[attr-defined]
SOURCES: tuple[str, ...] = Source.__args__  # type: ignore[attr-defined]
BURN_CAUSES: tuple[str, ...] = BurnCause.__args__  # type: ignore[attr-defined]

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


@dataclass(frozen=True)
class FieldSpace:
    index: int
    row: int
    col: int
    label: str
    x: float
    """Centre, in units of the space pitch; (0, 0) is A1's."""
    y: float


@dataclass(frozen=True)
class FieldLayout:
    """The compound field as the printed sheet and the phones draw it:
    every space with its label and centre, and the centres' extent plus one pitch."""

    rows: int
    cols: int
    spaces: tuple[FieldSpace, ...]
    width: float
    height: float
    neighbours: tuple[tuple[int, int], ...]
    """Every pair of touching spaces ``(a, b)``, ``a < b``: where a bond can go."""


def field_layout(rows: int, cols: int) -> FieldLayout:
    """>>> f = field_layout(6, 6)
    >>> f.spaces[7].label, (f.spaces[7].x, round(f.spaces[7].y, 3)), len(f.neighbours)
    ('B2', (1.5, 0.866), 85)
    """
    hexfield = HexField(rows, cols)
    spaces = tuple(FieldSpace(r * cols + c, r, c, space_label(r * cols + c, cols), *HexField.centre((r, c)))
                   for r, c in hexfield)
    pairs = sorted({bond_key(a.index, b[0] * cols + b[1]) for a in spaces
                    for b in hexfield.neighbours((a.row, a.col))})
    width, height = hexfield.size()
    return FieldLayout(rows, cols, spaces, width, height, tuple(pairs))


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


# --- how fields look in JSON ---------------------------------------------------------
def _rows(spaces: str, info: Any) -> str:
    cols = (info.context or {}).get("cols", DEFAULT_COLS)
    return "/".join(spaces[i:i + cols] for i in range(0, len(spaces), cols))


def _bonds_in(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    out: dict[Any, Any] = {}
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == 3):
            raise ValueError(f"a bond is [space, space, order], found {entry!r}")
        a, b, order = entry
        if not (type(a) is int and type(b) is int) or a == b:
            raise ValueError(f"bond {a}-{b} does not join two spaces")
        key = bond_key(a, b)
        if key in out:
            raise ValueError(f"bond {a}-{b} is listed twice")
        out[key] = order
    return out


Count = Annotated[int, Field(ge=0)]
Id = Annotated[str, Field(min_length=1, max_length=80)]
Spaces = Annotated[str, BeforeValidator(lambda v: v.replace("/", "") if isinstance(v, str) else v),
                   Field(pattern=r"^[.xHONC]+$"), PlainSerializer(_rows)]
Bonds = Annotated[dict[tuple[int, int], Annotated[int, Field(ge=1, le=3)]], BeforeValidator(_bonds_in),
                  PlainSerializer(lambda v: [[a, b, o] for (a, b), o in sorted(v.items())])]
_CONFIG = ConfigDict(extra="forbid")


# --- the state ----------------------------------------------------------------------
@dataclass(slots=True)
class Die:
    __pydantic_config__ = _CONFIG
    colour: Literal["white", "yellow"]
    face: Face | None = None
    place: Place = "box"
    seat: Count | None = None


@dataclass(slots=True, frozen=True)
class Claim:
    """A checked notecard box: the card, the points written beside it, and the
    spaces of the compound that claimed it (complete compounds never change)."""

    __pydantic_config__ = _CONFIG
    notecard: Id
    points: Literal[6, 3, 1]
    spaces: Annotated[tuple[Count, ...], Field(min_length=2)]


@dataclass(slots=True, frozen=True)
class Burn:
    """A filled-in space, and what burned it in which round (design doc, rule 28)."""

    __pydantic_config__ = _CONFIG
    space: Count
    cause: BurnCause
    round: Annotated[int, Field(ge=1)]


@dataclass(slots=True)
class Sheet:
    """One player's note sheet, plus what they still owe this turn."""

    __pydantic_config__ = _CONFIG
    spaces: Spaces
    bonds: Bonds = field(default_factory=dict)
    trash: Annotated[str, Field(pattern=r"^[HONC]*$")] = ""
    tool_marks: Count = 0
    claims: tuple[Claim, ...] = ()
    tools: tuple[Id, ...] = ()
    """Tools unlocked, in the order they were."""
    burned: tuple[Burn, ...] = ()
    """Every burned space with its cause, in the order they burned: one each."""
    # this turn
    pending: tuple[tuple[Element, Source], ...] = ()
    """Elements still to notate (or trash), as ``(element, source)``."""
    placed: tuple[Count, ...] = ()
    """Spaces notated this turn: bonds go to or from them (Notate Elements)."""
    burns: Count = 0
    """Spaces owed to a burner (notate phase) or to the Lab Fire being resolved (fire phase)."""
    choosing: bool = False
    """A burner burned: the free element is still to be chosen."""
    fires: Count = 0
    """Lab Fires still to resolve (fire phase)."""
    used: tuple[Id, ...] = ()
    """Tools used this turn."""
    done: bool = False

    def empty_spaces(self) -> list[int]:
        return [i for i, c in enumerate(self.spaces) if c == EMPTY]

    def has_empty(self) -> bool:
        return EMPTY in self.spaces

    def burn(self, space: int, cause: str, round: int) -> None:
        """Fill in ``space`` and record why: every burn goes through here."""
        self.spaces = self.spaces[:space] + BURNED + self.spaces[space + 1:]
        self.burned += (Burn(space, cause, round),)  # type: ignore[arg-type]

    def bonds_used(self, space: int) -> int:
        return sum(o for (a, b), o in self.bonds.items() if a == space or b == space)

    def owes(self) -> bool:
        """Anything left this turn that blocks finishing."""
        return bool(self.pending or self.burns or self.choosing or self.fires)

    def new_turn(self) -> None:
        """Clear what belongs to one turn."""
        self.pending, self.used, self.placed, self.burns, self.fires = (), (), (), 0, 0
        self.choosing = self.done = False

    TURN_FIELDS = ("pending", "placed", "burns", "choosing", "fires", "used", "done")


@dataclass(slots=True)
class State:
    __pydantic_config__ = _CONFIG
    players: Annotated[int, Field(ge=1, le=20)]
    tools: tuple[Id, ...]
    """The three tool cards of this game: one liquid, one solid, one gas."""
    rng: Annotated[int, Field(ge=0, lt=1 << 64)]
    dice: list[Die]
    deck: list[Id]
    """Face down, top card first."""
    line: list[Id]
    """Face up, the card next to the deck (worth 6) first."""
    discard: list[Id]
    seats: list[Sheet]
    lead: Count = 0
    round: Annotated[int, Field(ge=1)] = 1
    phase: Phase = "roll"
    picks: Count = 0
    """Dice taken so far this round."""
    rerolls: Count = 0
    """Centrifuge rerolls in the current pick."""
    claimed: bool = False
    """Someone claimed a notecard this turn (the line refills)."""
    fires: Count = 0
    """Lab Fires of this round (line reveals and an unattended burner)."""
    game: Literal["labnotes"] = "labnotes"

    def copy(self) -> "State":
        """A copy :meth:`Rules.apply` may change freely."""
        return _copy_state(self)

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


# --- copying: mutable parts copied, immutable ones shared ----------------------------------
def _copier(cls: type) -> Any:
    """A copy function for ``cls`` made from its field declarations, the way
    :mod:`dataclasses` writes ``__init__``: lists of dataclasses are copied
    item by item, lists and dicts shallowly (their items are immutable),
    everything else (strings, numbers, tuples) is shared."""
    hints = get_type_hints(cls)
    lines = ["def copy(o):", "    n = _new(C)"]
    scope: dict[str, Any] = {"_new": object.__new__, "C": cls}
    for f in fields(cls):
        kind = get_origin(hints[f.name]) or hints[f.name]
        args = get_args(hints[f.name])
        if kind is list and args and is_dataclass(args[0]):
            scope[f"copy_{f.name}"] = _copier(args[0])
            lines.append(f"    n.{f.name} = [copy_{f.name}(x) for x in o.{f.name}]")
        elif kind in (list, dict):
            lines.append(f"    n.{f.name} = {kind.__name__}(o.{f.name})")
        else:
            lines.append(f"    n.{f.name} = o.{f.name}")
    exec("\n".join(lines + ["    return n"]), scope)
    return scope["copy"]


# --- JSON ---------------------------------------------------------------------------
_copy_state = _copier(State)
_ADAPTER = TypeAdapter(State)


def state_to_dict(state: State, cols: int = DEFAULT_COLS) -> dict[str, Any]:
    return _ADAPTER.dump_python(state, mode="json", context={"cols": cols})


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "state"


_NESTED: dict[type, dict[str, type]] = {State: {"seats": Sheet, "dice": Die},
                                        Sheet: {"claims": Claim, "burned": Burn}}


def _missing(data: Any, cls: type, where: tuple[Any, ...]) -> list[str]:
    """Fields a saved state leaves out: every one is written, so every one is read
    (the defaults are for the engine's own convenience, not for JSON)."""
    if not isinstance(data, Mapping):
        return []
    out = [f"{_where(where + (f.name,))}: expected a value, found nothing"
           for f in fields(cls) if f.name not in data]
    for name, inner in _NESTED.get(cls, {}).items():
        if isinstance(data.get(name), list):
            for i, item in enumerate(data[name]):
                out.extend(_missing(item, inner, where + (name, i)))
    return out


def state_from_dict(data: Mapping[str, Any], cols: int = DEFAULT_COLS) -> State:
    """Read a state written by :func:`state_to_dict`; the schema is checked
    here (strictly: ``"3"`` is not 3, and no field may be left out), the
    rules' invariants by :meth:`LabNotes.check`."""
    if not isinstance(data, Mapping):
        raise InvalidState(f"state: expected a JSON object, found {type(data).__name__}")
    missing = _missing(data, State, ())
    if missing:
        raise InvalidState("\n".join(missing))
    try:
        state = _ADAPTER.validate_json(json.dumps(data), strict=True)
    except (ValidationError, TypeError, ValueError) as exc:
        if isinstance(exc, ValidationError):
            raise InvalidState("\n".join(f"{_where(e['loc'])}: {describe(e)}" for e in exc.errors())) from None
        raise InvalidState(f"state: not plain JSON ({exc})") from None
    for i, sheet in enumerate(data.get("seats", [])):
        rows = sheet.get("spaces", "").split("/") if isinstance(sheet, Mapping) else []
        if any(len(r) != cols for r in rows):
            raise InvalidState(f"seats.{i}.spaces: expected rows of {cols} spaces joined by '/', "
                               f"found {sheet['spaces']!r}")
    return state
