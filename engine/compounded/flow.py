"""The agenda: how a round moves on, and who decides what.

Every rule is a task on the state's agenda (a list, the first task next).
An *automatic* task runs by itself (draws, the refill, a fire's flames); a
*decision* waits for a seat: it names who decides, lists their legal
choices as JSON actions, explains a refusal in the player's words, and
resolves a choice. Phase modules register their tasks here, in two tables
(boardgame.io's ``moves`` map: no if/elif over names):

>>> sorted(AUTOMATIC) == sorted(set(AUTOMATIC))
True

:class:`Rules` binds the tables to one card set and holds what every phase
needs to know about the table (grid neighbours, track values, who claims a
compound).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from engine.compounded.cards import ELEMENTS, TRACKS, Compound, CompoundedCards
from engine.compounded.chemistry import element_values
from engine.compounded.state import Cell, State, cell_of
from engine.core import Action, IllegalAction

Task = dict[str, Any]


@dataclass(frozen=True)
class Decision:
    """A task that waits for a player."""

    seats: Callable[["Rules", State, Task], list[int]]
    """Who decides now ([] when nothing is left to decide: the task is dropped)."""
    choices: Callable[["Rules", State, Task, int], list[Action]]
    resolve: Callable[["Rules", State, Task, int, Action], None]
    """Carry out a legal choice on the (fresh copy of the) state; drop or update the task."""
    why: Callable[["Rules", State, Task, int, Action], str | None] | None = None
    """A refusal in the player's words for a choice not in ``choices`` (``None``: the generic one)."""
    refusal: str = "That is not one of your choices now."
    legal: Callable[["Rules", State, Task, int, Action], bool | None] | None = None
    """Whether a choice is one of ``choices``, told without listing them all
    (``None``: not known, list them): a bot weighs every action it may take,
    and listing the choices again for each one cost more than the move."""


AUTOMATIC: dict[str, Callable[["Rules", State, Task], None]] = {}
DECISIONS: dict[str, Decision] = {}


def automatic(name: str):
    def register(fn):
        AUTOMATIC[name] = fn
        return fn
    return register


def decision(name: str, **kw):
    def register(fn_seats):
        DECISIONS[name] = Decision(seats=fn_seats, **kw)
        return fn_seats
    return register


def then(s: State, *tasks: Task) -> None:
    """Put ``tasks`` at the front of the agenda, in the order given."""
    s.agenda[0:0] = list(tasks)


def canonical(action: Any) -> str | None:
    try:
        return json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return None


class Rules:
    """The rules bound to one card set."""

    def __init__(self, cards: CompoundedCards) -> None:
        self.cards = cards
        self.distribution = cards.distribution
        self.values = element_values(self.distribution)
        self.tracks = {t.id: t for t in cards.workbench.tracks}
        self.state_track = {t.state: t.id for t in cards.workbench.tracks if t.state}
        self.journal_at = self.tracks["study"].journal_at
        self.end_at = dict(cards.table.scoreboard.end_at)
        self.refresh_spaces = tuple(cards.table.scoreboard.refresh_spaces)
        self.tool_counts = {t.id: t.count for t in cards.tools.values()}
        # Looked up for every cell on every move a bot weighs: read once from the cards.
        self.needs = {c.id: c.needs for c in cards.compounds.values()}
        self.sizes = {c.id: c.size for c in cards.compounds.values()}
        self.points = {c.id: c.points for c in cards.compounds.values()}

    # --- cards and cells -----------------------------------------------------------
    def compound(self, card: str | None) -> Compound | None:
        return self.cards.compounds.get(card) if card else None

    def is_lab_fire(self, card: str | None) -> bool:
        return card in self.cards.lab_fires

    def missing(self, cell: Cell) -> dict[str, int]:
        """Elements the compound on ``cell`` still needs."""
        needs = self.needs.get(cell.card) if cell.card else None
        if needs is None or cell.complete:
            return {}
        on = cell.elements
        return {e: n - on.get(e, 0) for e, n in needs if n > on.get(e, 0)}

    def open_compounds(self, s: State) -> list[int]:
        """Spaces holding a compound that can still take elements."""
        needs = self.needs
        return [i for i, c in enumerate(s.grid) if not c.complete and c.card in needs]

    def neighbours(self, s: State, i: int) -> list[int]:
        """Spaces above, below, left and right of ``i``."""
        r, c = divmod(i, s.cols)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < s.rows and 0 <= c + dc < s.cols:
                out.append((r + dr) * s.cols + c + dc)
        return out

    def spots(self, s: State, i: int) -> int:
        """Claim spots of the card on space ``i``: 2 on a Lab Partner card."""
        card = self.compound(s.grid[i].card)
        return 2 if card and card.lab_partner else 1

    def claimants(self, s: State, i: int) -> list[int]:
        """Who claims space ``i``, once per claim (tokens and completion marks), in seat order."""
        where = f"cell:{i}"
        out = [seat for seat, sc in enumerate(s.scientists) if where in sc.tokens for t in sc.tokens if t == where]
        marks = s.grid[i].marks
        return sorted(out + marks) if marks else out

    def tool_space_holder(self, s: State, tool: str) -> int | None:
        where = f"tool:{tool}"
        return next((seat for seat, sc in enumerate(s.scientists) if where in sc.tokens), None)

    # --- tracks ----------------------------------------------------------------------
    def value(self, s: State, seat: int, track: str) -> int:
        """The number next to the scientist's piece on ``track``."""
        return self.tracks[track].levels[s.scientists[seat].level(track)]

    def at_top(self, s: State, seat: int, track: str) -> bool:
        return s.scientists[seat].level(track) >= self.tracks[track].top

    def lowest(self, s: State) -> list[int]:
        low = min(sc.score for sc in s.scientists)
        return [seat for seat in s.order() if s.scientists[seat].score == low]

    # --- the contract's three verbs ----------------------------------------------
    def to_move(self, s: State) -> list[int]:
        if s.over or not s.agenda:
            return []
        task = s.agenda[0]
        d = DECISIONS.get(task["do"])
        return d.seats(self, s, task) if d else []

    def actions(self, s: State, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in self.to_move(s):
            return []
        task = s.agenda[0]
        return DECISIONS[task["do"]].choices(self, s, task, seat)

    def apply(self, s: State, seat: int, action: Action) -> State:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action is a JSON object with a "type", like {"type": "done"}.')
        if s.over:
            raise IllegalAction("The game is over.")
        movers = self.to_move(s)
        if type(seat) is not int or not 0 <= seat < s.players:
            raise IllegalAction(f"There is no scientist {seat!r} at this table.")
        if seat not in movers:
            names = ", ".join(f"Scientist {m + 1}" for m in movers)
            raise IllegalAction(f"It is not your turn: waiting for {names}.")
        task = s.agenda[0]
        d = DECISIONS[task["do"]]
        legal = d.legal(self, s, task, seat, action) if d.legal else None
        if legal is None:
            legal = _legal(action, d.choices(self, s, task, seat))
        if not legal:
            try:
                reason = d.why(self, s, task, seat, action) if d.why else None
            except (TypeError, ValueError, KeyError, IndexError):  # a field of the wrong kind: the plain refusal
                reason = None
            raise IllegalAction(reason or d.refusal)
        out = s.copy()
        d.resolve(self, out, out.agenda[0], seat, action)
        run(self, out)
        return out


def _legal(action: Action, choices: list[Action]) -> bool:
    """Whether ``action`` is one of ``choices`` as JSON (a ``true`` is no
    ``1``). The plain comparison, with the kinds of the values, finds it
    first: writing every choice as JSON for every move cost more than the
    rest of a move (a bot weighs thousands a second)."""
    if any(a == action and _same_kinds(a, action) for a in choices):
        return True
    mine = canonical(action)
    return mine is not None and mine in {canonical(a) for a in choices}


def _same_kinds(a: Any, b: Any) -> bool:
    """Whether two equal values are also equal as JSON: the same kind at
    every level (``True == 1`` and ``1 == 1.0`` in Python, not in JSON)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return all(_same_kinds(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return all(_same_kinds(x, y) for x, y in zip(a, b))
    return True


def run(r: Rules, s: State) -> None:
    """Carry out automatic tasks until a decision waits (or the game is over)."""
    guard = 0
    while s.agenda and not s.over:
        guard += 1
        if guard > 100_000:  # a bound, not a rule: a loop here is a bug, and a hung phone is worse
            raise RuntimeError("the agenda does not settle")
        task = s.agenda[0]
        kind = task["do"]
        if kind in AUTOMATIC:
            s.agenda.pop(0)
            AUTOMATIC[kind](r, s, task)
        elif not DECISIONS[kind].seats(r, s, task):
            s.agenda.pop(0)
        else:
            return


def element_word(e: str) -> str:
    return {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "Ca": "Calcium", "S": "Sulfur"}.get(e, str(e))


def cell_word(s: State, i: Any) -> str:
    if type(i) is not int or not 0 <= i < len(s.grid):
        return f"space {i!r}"
    return f"row {i // s.cols + 1}, column {i % s.cols + 1}"


__all__ = ["AUTOMATIC", "DECISIONS", "Decision", "ELEMENTS", "Rules", "TRACKS", "Task", "automatic", "canonical",
           "cell_of", "cell_word", "decision", "element_word", "run", "then"]
