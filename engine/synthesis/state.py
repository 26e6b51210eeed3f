"""The Synthesis state: plain data, cheap to copy, read back with validation.

Inside the engine a state is small slotted dataclasses; strings and tuples
are shared between copies, so :meth:`State.copy` copies only the seat list.
In JSON a seat's drawn lines are one string with a character per line of
its formula (``.`` not drawn, else the colour letter), like a FEN.

Phases (design doc, reading 1)::

    [choose] -> roll -> synthesis -> roll ... (28 turns) -> final -> over

``choose`` only in Unpredictable Consequences (pick the goal cards);
``final`` lets players draw their unused free bonds before scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PHASES = ("choose", "roll", "synthesis", "final", "over")
MODES = ("standard", "first_steps", "predictable", "unpredictable")
LEVELS = {"easy": "green", "medium": "yellow", "hard": "red"}
"""First Steps difficulty -> the threshold area of the goal cards."""
PROJECT_LEVELS = {1: "green", 2: "yellow", 3: "red"}
"""A Project card's difficulty -> the goal cards' area (Unpredictable Consequences)."""
UNDRAWN = "."


@dataclass(frozen=True, slots=True)
class Molecule:
    """A closed hexagon, as written on the board."""

    hexagon: int
    colour: str
    """Letter of the marker that drew the last bond: the molecule's type."""
    volume: int
    """Lines of the hexagon in that colour (written inside it)."""
    elemental: bool | None
    """Shaded as an elemental molecule; ``None`` while the player chooses."""
    row: int | None
    """The volume table cell it took in column ``volume`` (``None``: none)."""
    turn: int


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice the rules leave to the player, to make before anything else."""

    kind: str
    """``elemental`` (shade it or not) or ``active`` (draw the bond or not)."""
    hexagon: int
    colour: str = ""
    """Active: the marker of the bond that closed it, which draws the new bond."""
    shape: str = ""
    """Active: the bond to draw: a Bond die shape id, or ``line`` (a free bond)."""


@dataclass(slots=True)
class Seat:
    board: str
    box: int
    lines: str
    molecules: tuple[Molecule, ...] = ()
    free_used: int = 0
    todo: int = 0
    """Copies of the rolled bond still to draw this turn (2 with "twice")."""
    pending: tuple[Pending, ...] = ()
    done: bool = False

    def copy(self) -> "Seat":
        # field by field: dataclasses.replace reads the fields anew on every call
        # (a tenth of a bot's time); every field is immutable, so they are shared
        return Seat(self.board, self.box, self.lines, self.molecules, self.free_used, self.todo, self.pending,
                    self.done)


@dataclass(slots=True)
class State:
    players: int
    mode: str
    side: str
    rng: int
    seats: list[Seat]
    turn: int = 1
    phase: str = "roll"
    roll: tuple[str, str] | None = None
    """The Bond die's shape id and the Mutation die's face this turn."""
    chain_card: str | None = None
    pattern_card: str | None = None
    project: str | None = None
    level: str | None = None
    """Solo: the threshold area the goal cards must reach (green, yellow, red)."""
    offer: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """Unpredictable Consequences: the two Chain and two Pattern cards drawn."""

    def copy(self) -> "State":
        return State(self.players, self.mode, self.side, self.rng, [s.copy() for s in self.seats], self.turn,
                     self.phase, self.roll, self.chain_card, self.pattern_card, self.project, self.level, self.offer)


# --- JSON ----------------------------------------------------------------------------
def molecule_to_list(m: Molecule, label) -> list[Any]:
    return [label(m.hexagon), m.colour, m.volume, m.elemental, m.row, m.turn]


def state_to_dict(state: State, label_of) -> dict[str, Any]:
    """``label_of(seat)`` gives the function naming that seat's hexagons."""
    out: dict[str, Any] = {
        "game": "synthesis", "players": state.players, "mode": state.mode, "side": state.side,
        "rng": state.rng, "turn": state.turn, "phase": state.phase,
        "roll": list(state.roll) if state.roll else None,
        "chain_card": state.chain_card, "pattern_card": state.pattern_card, "project": state.project,
        "level": state.level, "offer": {"chain": list(state.offer[0]), "pattern": list(state.offer[1])},
        "seats": [],
    }
    for i, s in enumerate(state.seats):
        label = label_of(i)
        out["seats"].append({
            "board": s.board, "box": s.box, "lines": s.lines,
            "molecules": [molecule_to_list(m, label) for m in s.molecules],
            "free_used": s.free_used, "todo": s.todo,
            "pending": [{"kind": p.kind, "hexagon": label(p.hexagon), "colour": p.colour, "shape": p.shape}
                        for p in s.pending],
            "done": s.done,
        })
    return out
