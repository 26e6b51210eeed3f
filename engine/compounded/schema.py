"""Reading a Compounded state back from JSON, checking its shape and naming
the field that is wrong (the rules' invariants are checked after, by
:func:`engine.compounded.invariants.check`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.compounded.cards import ELEMENTS, TOOLS, TRACKS
from engine.compounded.flow import AUTOMATIC, DECISIONS
from engine.compounded.state import Cell, Scientist, State
from engine.core import InvalidState
from engine.data import describe

_Strict = ConfigDict(extra="forbid", strict=True)
Count = Annotated[int, Field(ge=0)]
Seat = Annotated[int, Field(ge=0, le=4)]
Counts = dict[Literal[ELEMENTS], Annotated[int, Field(ge=1)]]  # type: ignore[valid-type]
Id = Annotated[str, Field(min_length=1, max_length=80)]
Token = Annotated[str, Field(pattern=r"^(bench|cell:\d{1,2}|tool:[a-z_]+)$")]


class CellModel(BaseModel):
    model_config = _Strict
    card: Id | None
    elements: Counts
    flames: Count
    marks: list[Seat]
    complete: bool
    completed_by: Seat | None
    ready: bool
    since: Count


class ScientistModel(BaseModel):
    model_config = _Strict
    bench: Counts
    tracks: dict[Literal[TRACKS], Count]  # type: ignore[valid-type]
    score: Count
    lines: dict[str, Count]
    tools: dict[Literal[TOOLS], bool]  # type: ignore[valid-type]
    tokens: list[Token]


class TaskModel(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    do: str


class StateModel(BaseModel):
    model_config = _Strict
    game: Literal["compounded"]
    players: Annotated[int, Field(ge=2, le=5)]
    options: dict[str, Any]
    rng: Annotated[int, Field(ge=0, lt=1 << 64)]
    rows: Annotated[int, Field(ge=2, le=6)]
    cols: Annotated[int, Field(ge=2, le=6)]
    lab_partner_cells: list[Count]
    bag: Counts
    tray: Counts
    dish: Counts
    deck: list[Id]
    lab_partner_deck: list[Id]
    discard: list[Id]
    grid: list[CellModel]
    scientists: list[ScientistModel]
    flame_supply: Count
    tool_supply: dict[Literal[TOOLS], Count]  # type: ignore[valid-type]
    agenda: list[TaskModel]
    round: Annotated[int, Field(ge=1)]
    lead: Seat
    phase: Literal["discover", "study", "research", "lab", "over"]
    final_round: Annotated[int, Field(ge=1)] | None
    over: str | None
    fires: Count


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "state"


def state_from_dict(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping):
        raise InvalidState(f"state: expected a JSON object, found {type(data).__name__}")
    try:
        m = StateModel.model_validate(dict(data))
    except ValidationError as exc:
        raise InvalidState("\n".join(f"{_where(e['loc'])}: {describe(e)}" for e in exc.errors())) from None
    for k, t in enumerate(data["agenda"]):
        if t["do"] not in AUTOMATIC and t["do"] not in DECISIONS:
            raise InvalidState(f"agenda.{k}.do: {t['do']!r} is no step of Compounded")
    opts = m.options
    if (opts.get("trading") not in ("free", "dish") or type(opts.get("dish_size")) is not int
            or type(opts.get("lab_partners")) is not bool or len(opts) != 3):
        raise InvalidState("options: expected trading (free or dish), dish_size and lab_partners")
    ordered = lambda c: {e: c[e] for e in ELEMENTS if e in c}  # noqa: E731
    grid = [Cell(c.card, ordered(c.elements), c.flames, list(c.marks), c.complete, c.completed_by, c.ready, c.since)
            for c in m.grid]
    scientists = [Scientist(ordered(sc.bench), [sc.tracks.get(t, 0) for t in TRACKS], sc.score, dict(sc.lines),
                            dict(sc.tools), list(sc.tokens)) for sc in m.scientists]
    return State(players=m.players, options=dict(opts), rng=m.rng, rows=m.rows, cols=m.cols,
                 lab_partner_cells=list(m.lab_partner_cells), bag=ordered(m.bag), tray=ordered(m.tray),
                 dish=ordered(m.dish), deck=list(m.deck), lab_partner_deck=list(m.lab_partner_deck),
                 discard=list(m.discard), grid=grid, scientists=scientists, flame_supply=m.flame_supply,
                 tool_supply=dict(m.tool_supply), agenda=[dict(t) for t in data["agenda"]], round=m.round,
                 lead=m.lead, phase=m.phase, final_round=m.final_round, over=m.over, fires=m.fires)
