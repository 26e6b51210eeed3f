"""Synthesis rules: one card set's lookups, who may act, and the dispatch of
actions to the rulebook's parts (:mod:`.setup`, :mod:`.turn`).

Actions are JSON objects with a ``"type"``; a line is named by a hexagon and
one of its sides (``"C4:E"``, the same line as ``"C5:W"``), a hexagon by its
row letter and column (``"C4"``).

``{"type": "choose_goals", "chain": id, "pattern": id}``
    Unpredictable Consequences, before the first turn: keep one of the two
    Molecular Chain cards and one of the two Molecular Pattern cards drawn.
``{"type": "roll"}``
    The player beside yellow on the disc rolls the Bond and Mutation dice.
``{"type": "bond", "lines": [...]}``
    Draw this turn's bond, mutation applied, in your marker's colour: the
    lines name exactly the drawing (optional mutations are applied or not
    by what is drawn). Twice with the "twice" mutation.
``{"type": "pass"}``
    The bond fits nowhere (offered only while a free bond could change that;
    otherwise it is skipped at once).
``{"type": "elemental", "hexagon": "C4", "shade": true}``
    You closed a hexagon showing a shape with lines of one colour: shade it
    as an elemental molecule, or not.
``{"type": "active_bond", "lines": [...]}`` / ``{"type": "decline"}``
    You closed an active molecule: draw its bond now (no mutation, same
    marker), or give it up for good.
``{"type": "free_bond", "line": "C4:E", "colour": "red"}``
    Draw one of your free bonds: one line, any marker.
``{"type": "finish"}``
    End your turn (or, after the last turn, your free bonds).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.core import Action, IllegalAction
from engine.synthesis import setup as setup_mod
from engine.synthesis import turn
from engine.synthesis.bonds import Shape, connected
from engine.synthesis.cards import SynthesisCards
from engine.synthesis.disc import Disc
from engine.synthesis.formula import LINE, Formula
from engine.synthesis.lattice import side
from engine.synthesis.state import State

Handler = Callable[["Rules", State, int, Action], None]

ACTIONS: dict[str, tuple[tuple[str, ...], Handler]] = {
    "choose_goals": (("chain", "pattern"), turn.choose_goals),
    "roll": ((), turn.roll),
    "bond": (("lines",), turn.bond),
    "pass": ((), turn.pass_bond),
    "elemental": (("hexagon", "shade"), turn.elemental),
    "active_bond": (("lines",), turn.active_bond),
    "decline": ((), turn.decline),
    "free_bond": (("line", "colour"), turn.free_bond),
    "finish": ((), turn.finish),
}
"""Every action: the fields it carries and the handler that applies it."""


class Rules:
    """Synthesis rules bound to one card set; every method is pure except on
    the fresh copy :meth:`apply` makes."""

    def __init__(self, cards: SynthesisCards) -> None:
        self.cards = cards
        r = cards.rules
        self.turns = r.turns
        self.disc = Disc(tuple(r.disc.ring), r.disc.roller, r.disc.names_per_box)
        self.colour_ids = tuple(c.id for c in r.colours)
        self.letters = {c.id: c.letter for c in r.colours}
        self.colour_names = {c.letter: c.id for c in r.colours}
        self.bond_ids = tuple(cards.bonds)
        self.mutation_ids = tuple(cards.mutations)
        self.formulas = {key: Formula(lay) for key, lay in cards.layouts.items()}
        self.shapes: dict[str, Shape] = {k: b.lines for k, b in cards.bonds.items()}
        self.shapes[LINE] = frozenset({side((0, 0), 0)})

    # --- lookups ----------------------------------------------------------------
    def formula(self, state: State, seat: int) -> Formula:
        return self.formulas[(state.seats[seat].board, state.side)]

    def shape(self, shape_id: str) -> Shape:
        return self.shapes[shape_id]

    def labels(self, state: State, seat: int) -> Callable[[int], list[str]]:
        """Edge mask -> the lines' names, cached per formula (the phones ask often)."""
        lat = self.formula(state, seat).lattice
        cache = lat.__dict__.setdefault("_mask_labels", {})

        def names(mask: int) -> list[str]:
            got = cache.get(mask)
            if got is None:
                got = cache[mask] = [lat.edge_labels[e] for e in lat.edges_of_mask(mask)]
            return list(got)
        return names

    def marker(self, state: State, seat: int) -> str:
        """The letter of the seat's marker this turn (Preparation 3)."""
        return self.letters[self.disc.colour(state.seats[seat].box, state.turn)]

    def roller(self, state: State) -> int:
        return self.disc.roller([s.box for s in state.seats], state.turn)

    def seat_name(self, seat: int) -> str:
        return f"Player {seat + 1}"

    def why_not(self, state: State, seat: int, mask: int, shape: str | None = None) -> str:
        """The rule a refused drawing breaks, in the player's words."""
        f = self.formula(state, seat)
        s = state.seats[seat]
        lat = f.lattice
        over = mask & f.occupied(s.lines)
        if over:
            e = lat.edges_of_mask(over)[0]
            kind = ("a side of the starting molecule S" if f.layout.start_mask >> e & 1
                    else "printed on the board" if f.layout.printed >> e & 1 else "drawn already")
            return f"The line {lat.edge_labels[e]} is {kind}: bonds are never drawn over other lines."
        lines = [lat.edges[e] for e in lat.edges_of_mask(mask)]
        if not connected(lines):
            return "A bond is drawn in one piece: no mutation may split it."
        no_connect = shape is None and state.roll is not None and state.roll[1] == "no_connect"
        if not no_connect and not lat.vertex_mask(mask) & f.anchors(s.lines):
            return "A new bond must touch your bonds or the starting molecule S."
        if shape is None:
            assert state.roll is not None
            name = self.cards.bonds[state.roll[0]].name
            mutation = self.cards.mutations[state.roll[1]].name
            return f"Those lines are not the rolled {name} with the {mutation} mutation (turn or mirror it as you like)."
        if shape == LINE:
            return "A free bond is one line."
        return f"Those lines are not the {self.cards.bonds[shape].name} this molecule offers."

    # --- the contract -------------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None) -> State:
        return setup_mod.setup(self, players, seed, options)

    def to_move(self, state: State) -> list[int]:
        if state.phase == "choose":
            return [0]
        if state.phase == "roll":
            return [self.roller(state)]
        if state.phase in ("synthesis", "final"):
            return [i for i, s in enumerate(state.seats) if not s.done]
        return []

    def actions(self, state: State, seat: int) -> list[Action]:
        if type(seat) is not int or not 0 <= seat < state.players:
            return []
        if state.phase == "choose":
            if seat != 0:
                return []
            return [{"type": "choose_goals", "chain": c, "pattern": p}
                    for c in state.offer[0] for p in state.offer[1]]
        if state.phase == "roll":
            return [{"type": "roll"}] if seat == self.roller(state) else []
        return turn.seat_actions(self, state, seat)

    def apply(self, state: State, seat: int, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise IllegalAction('An action is a JSON object with a "type".')
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ACTIONS:
            raise IllegalAction(f"Unknown action {kind!r} (known: {', '.join(ACTIONS)}).")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        fields, handler = ACTIONS[kind]
        extra = sorted(set(action) - set(fields) - {"type"})
        if extra:
            raise IllegalAction(f"A {kind} action has no field {extra[0]!r}.")
        missing = [f for f in fields if f not in action]
        if missing:
            raise IllegalAction(f"A {kind} action needs {missing[0]!r}.")
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        s = state.copy()
        handler(self, s, seat, action)
        return s
