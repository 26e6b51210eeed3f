"""Reading a Synthesis state back from JSON: the schema (pydantic, strict)
and the conversion of hexagon names to indexes. The rules' invariants are
checked afterwards by :mod:`.invariants`."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import InvalidState
from engine.data import describe
from engine.synthesis.state import MODES, PHASES, Molecule, Pending, Seat, State

_Strict = ConfigDict(extra="forbid", strict=True)
Count = Annotated[int, Field(ge=0)]
Text = Annotated[str, Field(max_length=80)]


class PendingModel(BaseModel):
    model_config = _Strict
    kind: Literal["elemental", "active"]
    hexagon: Text
    colour: Text
    shape: Text


class SeatModel(BaseModel):
    model_config = _Strict
    board: Annotated[str, Field(pattern=r"^[A-Z]$")]
    box: Count
    lines: Annotated[str, Field(pattern=r"^[.a-z]*$", max_length=2000)]
    molecules: list[Annotated[list[Any], Field(min_length=6, max_length=6)]]
    free_used: Count
    todo: Annotated[int, Field(ge=0, le=2)]
    pending: list[PendingModel]
    done: bool


class OfferModel(BaseModel):
    model_config = _Strict
    chain: list[Text]
    pattern: list[Text]


class StateModel(BaseModel):
    """The JSON schema of a Synthesis state (what :func:`.state.state_to_dict` writes)."""

    model_config = _Strict
    game: Literal["synthesis"]
    players: Annotated[int, Field(ge=1, le=8)]
    mode: Literal[MODES]  # type: ignore[valid-type]
    side: Literal["A", "B"]
    rng: Annotated[int, Field(ge=0, lt=1 << 64)]
    turn: Annotated[int, Field(ge=1, le=99)]
    phase: Literal[PHASES]  # type: ignore[valid-type]
    roll: Annotated[list[Text], Field(min_length=2, max_length=2)] | None
    chain_card: Text | None
    pattern_card: Text | None
    project: Text | None
    level: Literal["green", "yellow", "red"] | None
    offer: OfferModel
    seats: list[SeatModel]


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "state"


def state_from_dict(data: Mapping[str, Any], hex_index_of) -> State:
    """``hex_index_of(board_letter)`` gives a function from a hexagon's name to
    its index on that board (raising ``KeyError`` or ``ValueError``)."""
    if not isinstance(data, Mapping):
        raise InvalidState(f"state: expected a JSON object, found {type(data).__name__}")
    try:
        m = StateModel.model_validate(data)
    except ValidationError as exc:
        raise InvalidState("\n".join(f"{_where(e['loc'])}: {describe(e)}" for e in exc.errors())) from None
    seats = []
    for i, s in enumerate(m.seats):
        try:
            index = hex_index_of(s.board)
        except KeyError:
            raise InvalidState(f"seats.{i}.board: there is no board {s.board!r} on side {m.side}") from None
        molecules = []
        for k, row in enumerate(s.molecules):
            label, colour, volume, elemental, cell, turn = row
            where = f"seats.{i}.molecules.{k}"
            if not (isinstance(label, str) and isinstance(colour, str) and type(volume) is int
                    and (elemental is None or type(elemental) is bool)
                    and (cell is None or type(cell) is int) and type(turn) is int):
                raise InvalidState(f"{where}: expected [hexagon, colour, volume, elemental, row, turn], found {row!r}")
            try:
                h = index(label)
            except (KeyError, ValueError) as exc:
                raise InvalidState(f"{where}: {exc}") from None
            molecules.append(Molecule(h, colour, volume, elemental, cell, turn))
        pending = []
        for k, p in enumerate(s.pending):
            try:
                pending.append(Pending(p.kind, index(p.hexagon), p.colour, p.shape))
            except (KeyError, ValueError) as exc:
                raise InvalidState(f"seats.{i}.pending.{k}: {exc}") from None
        seats.append(Seat(s.board, s.box, s.lines, tuple(molecules), s.free_used, s.todo, tuple(pending), s.done))
    roll = (m.roll[0], m.roll[1]) if m.roll else None
    return State(m.players, m.mode, m.side, m.rng, seats, m.turn, m.phase, roll, m.chain_card,
                 m.pattern_card, m.project, m.level, (tuple(m.offer.chain), tuple(m.offer.pattern)))
