"""The Organic Soup state: plain data, copied cheaply, read back with validation.

Inside the engine a state is a few small slotted dataclasses; outside it is
JSON (:func:`state_to_dict`, :func:`state_from_dict`, which raises
:class:`~engine.core.InvalidState` naming the field). Atom cards are letters:
the ``soup`` is its atoms sorted (``"CHHNOO"``: the soup is a face-up heap,
its order means nothing), the atom deck ``atoms`` is read from the top.
Recipes and molecule types are recipe ids (``"nitric-oxide"``).

>>> s = State(players=2, rng=1, soup="CHHHHNNNOOOO", atoms="CO", middle=["graphite"],
...           decks={"simple": [], "complex": [], "amino": []},
...           seats=[Seat(["water"], ["oxygen"], {"oxygen": 2}), Seat()], dealt=["water", "ozone"])
>>> data = state_to_dict(s)
>>> data["seats"][0]
{'hand': ['water'], 'recipes': ['oxygen'], 'molecules': {'oxygen': 2}, 'shown': False}
>>> state_to_dict(state_from_dict(data)) == data
True
>>> state_from_dict({**data, "soup": "CHX"})
Traceback (most recent call last):
...
engine.core.InvalidState: soup: expected text matching ^[CHNO]*$, found 'CHX'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import InvalidState
from engine.data import describe

PHASES = ("play", "end", "over")
"""``play``: build or react; ``end``: the turn's action is done and the hand
is full, so the player may swap a recipe (rulebook, "Always end a turn with
one of each recipe type"); ``over``: the game has ended."""
HAND_LEVELS = ("simple", "complex", "amino")
"""A hand holds one recipe of each of these levels (basic recipes start on the table)."""


@dataclass(slots=True)
class Seat:
    """One player: recipes in hand, and in front of him his recipes and molecules."""

    hand: list[str] = field(default_factory=list)
    """Recipe ids, in level order: simple, complex, amino/nucleic."""
    recipes: list[str] = field(default_factory=list)
    """Recipes in front of him, in the order he took them."""
    molecules: dict[str, int] = field(default_factory=dict)
    """Molecules in front of him: how many of each type (never zero)."""
    shown: bool = False
    """The simple recipe dealt to him face up at setup is still in his hand:
    the whole table saw it, so it is no secret (design doc, reading 13)."""

    def copy(self) -> "Seat":
        return Seat(list(self.hand), list(self.recipes), dict(self.molecules), self.shown)


@dataclass(slots=True)
class State:
    players: int
    rng: int
    soup: str
    """The atoms face up in the middle, sorted."""
    atoms: str
    """The atom draw deck, face down, top card first."""
    middle: list[str]
    """Basic recipes still face up in the middle of the table."""
    decks: dict[str, list[str]]
    """The simple, complex and amino/nucleic recipe draw decks, top card first."""
    seats: list[Seat]
    dealt: list[str]
    """The simple recipe dealt face up to each seat at setup, which chose the first player."""
    first: int = 0
    turn: int = 0
    """The seat whose turn it is."""
    phase: str = "play"
    winner: int | None = None
    """Who created life (an amino/nucleic molecule), if someone did."""
    life: str | None = None
    """The amino/nucleic molecule created."""

    def copy(self) -> "State":
        return State(self.players, self.rng, self.soup, self.atoms, list(self.middle),
                     {k: list(v) for k, v in self.decks.items()}, [s.copy() for s in self.seats],
                     list(self.dealt), self.first, self.turn, self.phase, self.winner, self.life)

    def owner(self, recipe: str) -> int | None:
        """The seat with ``recipe`` in front of him, or ``None``."""
        for i, seat in enumerate(self.seats):
            if recipe in seat.recipes:
                return i
        return None

    def on_board(self, recipe: str) -> bool:
        """Face up on the table: in the middle or in front of anyone."""
        return recipe in self.middle or self.owner(recipe) is not None

    def board(self) -> list[str]:
        """Every face-up recipe: the middle, then each seat's in turn."""
        return [*self.middle, *(r for seat in self.seats for r in seat.recipes)]


# --- JSON -----------------------------------------------------------------------
def state_to_dict(state: State) -> dict[str, Any]:
    return {
        "game": "organicsoup",
        "players": state.players,
        "rng": state.rng,
        "soup": state.soup,
        "atoms": state.atoms,
        "middle": list(state.middle),
        "decks": {level: list(state.decks[level]) for level in HAND_LEVELS},
        "seats": [{"hand": list(s.hand), "recipes": list(s.recipes),
                   "molecules": dict(sorted(s.molecules.items())), "shown": s.shown} for s in state.seats],
        "dealt": list(state.dealt),
        "first": state.first,
        "turn": state.turn,
        "phase": state.phase,
        "winner": state.winner,
        "life": state.life,
    }


_Strict = ConfigDict(extra="forbid", strict=True)
Count = Annotated[int, Field(ge=0)]
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
Atoms = Annotated[str, Field(pattern=r"^[CHNO]*$", max_length=1000)]


class SeatModel(BaseModel):
    model_config = _Strict
    hand: list[Id] = Field(max_length=3)
    recipes: list[Id]
    molecules: dict[Id, Annotated[int, Field(ge=1)]]
    shown: bool


class DecksModel(BaseModel):
    model_config = _Strict
    simple: list[Id]
    complex: list[Id]
    amino: list[Id]


class StateModel(BaseModel):
    """The JSON schema of an Organic Soup state (what :func:`state_to_dict` writes)."""

    model_config = _Strict
    game: Literal["organicsoup"]
    players: Annotated[int, Field(ge=1, le=20)]
    rng: Annotated[int, Field(ge=0, lt=1 << 64)]
    soup: Atoms
    atoms: Atoms
    middle: list[Id]
    decks: DecksModel
    seats: list[SeatModel]
    dealt: list[Id]
    first: Count
    turn: Count
    phase: Literal["play", "end", "over"]
    winner: Count | None
    life: Id | None


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "state"


def state_from_dict(data: Mapping[str, Any]) -> State:
    """Read a state written by :func:`state_to_dict`: the schema is checked
    here, the rules' invariants by :func:`engine.organicsoup.invariants.check`."""
    if not isinstance(data, Mapping):
        raise InvalidState(f"state: expected a JSON object, found {type(data).__name__}")
    try:
        m = StateModel.model_validate(data)
    except ValidationError as exc:
        raise InvalidState("\n".join(f"{_where(e['loc'])}: {describe(e)}" for e in exc.errors())) from None
    if "".join(sorted(m.soup)) != m.soup:
        raise InvalidState(f"soup: expected its atoms sorted, found {m.soup!r}")
    return State(players=m.players, rng=m.rng, soup=m.soup, atoms=m.atoms, middle=list(m.middle),
                 decks={"simple": list(m.decks.simple), "complex": list(m.decks.complex),
                        "amino": list(m.decks.amino)},
                 seats=[Seat(list(s.hand), list(s.recipes), dict(s.molecules), s.shown) for s in m.seats],
                 dealt=list(m.dealt), first=m.first, turn=m.turn, phase=m.phase, winner=m.winner, life=m.life)
