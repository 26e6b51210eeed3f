"""Lab Notes rules: one card set's lookups, who may act, and the dispatch of
actions to the rulebook's phases.

A round runs through phases (design doc, rule 1)::

    roll -> select -> notate -> [fire] -> roll (next lead) ... -> over

The phases live in their own modules, named as the rulebook names them:
:mod:`.setup` (Setup), :mod:`.dice` (Roll Dice, Select Element Dice),
:mod:`.notate` (Notate Elements, Connecting Elements, Bunsen Burners, Score &
Claim Notecards), :mod:`.tools` (Earning & Using Tool Cards: the table of
abilities) and :mod:`.cardline` (Refill Notecards, Lab Fires, End Game).

Actions are JSON objects with a ``"type"``; spaces are indexes
``row * cols + col`` into the compound field (see :func:`space_label`).

``{"type": "roll"}``
    Roll phase, the lead player: roll every die in play.
``{"type": "reroll", "dice": [i, ...]}``
    Select phase, the picker, with the Centrifuge: reroll the chosen
    available dice. The first reroll of a pick pays the tool's icons; at most
    two rerolls per pick.
``{"type": "take_die", "die": i}``
    Select phase, in turn order from the lead. When one die is left it
    becomes the Community die.
``{"type": "notate", "element": "H", "space": k}``
    Notate phase: place one of your pending elements on an empty space.
``{"type": "bond", "spaces": [a, b]}``
    Raise the bond between two adjacent elements by one step; one of them
    must be an element you placed this turn.
``{"type": "trash", "element": "H"}``
    Fill your next trash can instead of notating. Filling the last can
    triggers the Bunsen Burner at once.
``{"type": "burn", "space": k}``
    Burn an empty space you owe: a Bunsen Burner (die or full trash) in the
    notate phase, a Lab Fire (two burns each) in the fire phase.
``{"type": "choose_element", "element": "C"}``
    After a Bunsen Burner's burn: the element you gain. You must notate it
    at once.
``{"type": "use_tool", "tool": id, ...}``
    A tool's ability, with the fields its row in :data:`.tools.ABILITIES` names.
``{"type": "claim", "notecard": id}``
    Check a notecard box with an unused complete compound of the card's
    structure.
``{"type": "finish"}``
    End your notating for the turn (nothing may be pending or owed).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.chem import Molecule
from engine.core import Action, IllegalAction
from engine.hexgrid import HexField
from engine.labnotes import cardline, dice, notate, setup, tools
from engine.labnotes.cards import LabNotesData
from engine.labnotes.reading import name_of, whole_number
from engine.labnotes.scoring import molecule_shape
from engine.labnotes.state import BURNER, ELEMENTS, VALENCE, Sheet, State, field_layout, space_label

Handler = Callable[["Rules", State, int, Action], None]

ACTIONS: dict[str, tuple[tuple[str, ...], Handler]] = {
    "roll": ((), dice.roll),
    "take_die": (("die",), dice.take_die),
    "reroll": (("dice",), tools.reroll),
    "notate": (("element", "space"), notate.notate),
    "bond": (("spaces",), notate.bond),
    "trash": (("element",), notate.trash),
    "burn": (("space",), notate.burn),
    "choose_element": (("element",), notate.choose_element),
    "use_tool": (("tool",), tools.use_tool),
    "claim": (("notecard",), notate.claim),
    "finish": ((), notate.finish),
}
"""Every action: the fields it carries and the phase module that applies it."""


class Rules:
    """Lab Notes rules bound to one card set: what the cards fix, worked out
    once (neighbours, tool and notecard structures), and the helpers every
    phase uses. Every rule is pure except on the fresh copy :meth:`apply` makes."""

    def __init__(self, data: LabNotesData) -> None:
        self.data = data
        self.rows, self.cols = data.sheet.field.rows, data.sheet.field.cols
        self.size = self.rows * self.cols
        hexfield = HexField(self.rows, self.cols)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(r * self.cols + c for r, c in hexfield.neighbours((i // self.cols, i % self.cols)))
            for i in range(self.size))
        self.field = field_layout(self.rows, self.cols)
        """Where each space is and what it is called, for the printed sheet and the phones."""
        self.adjacent = tuple(frozenset(n) for n in self.neighbours)
        self.trash_cans = data.sheet.trash_cans
        self.track = data.sheet.tools_track
        self.boxes = data.sheet.notecard_boxes
        self.dice_colours = [d.colour for d in data.dice.dice for _ in range(d.count)]
        self.faces = {d.colour: tuple(d.faces) for d in data.dice.dice}
        self.tools = {t.id: t for t in data.tools}
        self.tool_shapes = {t.id: (m, molecule_shape(m)) for t, m in ((t, t.molecule()) for t in data.tools)}
        self.cards = {c.id: c for c in data.notecards}
        self.card_ids = sorted(self.cards)
        self.lab_fires = frozenset(c.id for c in data.notecards if c.is_lab_fire)
        self.card_shapes: dict[str, tuple[Molecule, tuple]] = {
            c.id: (m, molecule_shape(m)) for c, m in
            ((c, c.molecule()) for c in data.notecards if not c.is_lab_fire)}

    # --- lookups ---------------------------------------------------------------------
    def label(self, space: int) -> str:
        return space_label(space, self.cols)

    def open_track(self, sheet: Sheet) -> int:
        """Tools-track spaces open: those open from the start, plus those the
        first notecards claimed opened."""
        return self.track.open + sum(self.track.opened_by_notecard[:len(sheet.claims)])

    def track_room(self, sheet: Sheet) -> int:
        return self.open_track(sheet) - sheet.tool_marks

    def room(self, sheet: Sheet, space: int) -> int:
        """Bonds the element on ``space`` can still take."""
        return VALENCE[sheet.spaces[space]] - sheet.bonds_used(space)

    def tool_name(self, tool: str) -> str:
        return self.tools[tool].name if tool in self.tools else tool

    def in_play(self, players: int) -> dict[str, int]:
        return dict(self.data.dice.per_players[players])

    # --- checks every phase uses ---------------------------------------------------------
    def seat_turn(self, s: State, seat: int, phase: str, what: str) -> Sheet:
        if s.phase != phase:
            raise IllegalAction(f"You cannot {what} now: the table is in the {s.phase} phase.")
        sh = s.seats[seat]
        if phase == "notate" and sh.done:
            raise IllegalAction("You have finished notating this turn.")
        return sh

    def must_place(self, sh: Sheet) -> str | None:
        """The Bunsen Burner's element, which is notated at once."""
        for e, src in sh.pending:
            if src == "burner":
                return e
        return None

    def not_blocked(self, sh: Sheet) -> None:
        if sh.burns:
            raise IllegalAction("Burn a space first: the Bunsen Burner acts immediately.")
        if sh.choosing:
            raise IllegalAction("Choose the Bunsen Burner's element first.")
        must = self.must_place(sh)
        if must:
            raise IllegalAction(f"Notate the Bunsen Burner's {name_of(must)} first: it is notated at once.")

    def space(self, value: Any) -> int:
        k = whole_number(value, "A space")
        if not 0 <= k < self.size:
            raise IllegalAction(f"Space {k} is not on the compound field.")
        return k

    def element(self, value: Any) -> str:
        if not isinstance(value, str) or value not in VALENCE:
            raise IllegalAction(f"{value!r} is not an element of Lab Notes (H, O, N or C).")
        return value

    def pair(self, value: Any) -> tuple[int, int]:
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise IllegalAction("A bond joins two spaces: give \"spaces\": [a, b].")
        a, b = self.space(value[0]), self.space(value[1])
        if a == b:
            raise IllegalAction("A bond joins two different spaces.")
        return a, b

    # --- who may act, and what -----------------------------------------------------------
    def to_move(self, s: State) -> list[int]:
        if s.phase == "roll":
            return [s.lead]
        if s.phase == "select":
            return [s.picker()]
        if s.phase == "notate":
            return [i for i, sh in enumerate(s.seats) if not sh.done]
        if s.phase == "fire":
            return [i for i, sh in enumerate(s.seats) if sh.fires or sh.burns]
        return []

    def actions(self, s: State, seat: int) -> list[Action]:
        if type(seat) is not int or not 0 <= seat < s.players or seat not in self.to_move(s):
            return []
        if s.phase in ("roll", "select"):
            return dice.offers(self, s, seat) + tools.offers(self, s, seat)
        if s.phase == "fire":
            return notate.fire_offers(self, s, seat) + tools.offers(self, s, seat)
        return notate.offers(self, s, seat)

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None) -> State:
        return setup.setup(self, players, seed, options)

    def apply(self, state: State, seat: int, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise IllegalAction('An action is a JSON object with a "type".')
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ACTIONS:
            raise IllegalAction(f"Unknown action {kind!r} (known: {', '.join(ACTIONS)}).")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        fields, handler = ACTIONS[kind]
        allowed = set(fields) | {"type"} | tools.extra_fields(action)
        extra = sorted(set(action) - allowed)
        if extra:
            raise IllegalAction(f"A {kind} action has no field {extra[0]!r}.")
        missing = [f for f in allowed if f not in action]
        if missing:
            raise IllegalAction(f"A {kind} action needs {sorted(missing)[0]!r}.")
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        s = state.copy()
        handler(self, s, seat, action)
        cardline.settle(self, s)
        return s


__all__ = ["ACTIONS", "BURNER", "ELEMENTS", "Rules"]
