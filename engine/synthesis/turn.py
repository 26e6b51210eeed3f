"""A turn of Synthesis: Preparation (the disc turns, the yellow player rolls)
and Synthesis (everyone at once draws the rolled bond, mutated).

Each seat works through its own to-do list, in this order:

1. a choice the rules leave to the player, as soon as it arises: shade an
   elemental molecule or not; draw an active molecule's bond or not;
2. the rolled bond (twice with the "twice" mutation);
3. any number of free bonds, at any time, then ``finish``.

A seat with nothing left to decide and no free bond in hand is done at
once; a rolled bond that fits nowhere is skipped at once unless a free bond
could still make room for it (then the player may ``pass``). When every
seat is done the next turn begins; after the last, the ``final`` phase lets
players draw their unused free bonds (End of the Game 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Action, IllegalAction
from engine.rng import Rng
from engine.synthesis.bonds import any_legal, is_legal, legal, placements
from engine.synthesis.formula import LINE
from engine.synthesis.state import Seat, State

if TYPE_CHECKING:
    from engine.synthesis.rules import Rules


# --- what a seat may draw -------------------------------------------------------------
def _rolled(rules: "Rules", state: State, seat: int) -> tuple:
    """What :func:`legal` and its kin read for this turn's bond, mutation
    applied: its placements, the occupied edges, the anchors, and whether it
    must connect."""
    s = state.seats[seat]
    f = rules.formula(state, seat)
    assert state.roll is not None
    shape, mutation = state.roll
    return (placements(f.lattice, rules.shape(shape), mutation), f.occupied(s.lines), f.anchors(s.lines),
            mutation != "no_connect")


def bond_masks(rules: "Rules", state: State, seat: int) -> list[int]:
    """Every legal drawing of this turn's bond, mutation applied, as edge masks."""
    kept, occupied, anchors, connect = _rolled(rules, state, seat)
    return legal(kept, occupied, anchors, must_connect=connect)


def fits(rules: "Rules", state: State, seat: int, mask: int, shape: str | None = None) -> bool:
    """Whether ``mask`` is a legal drawing of this turn's bond (``shape``:
    of that shape, unmutated, as :func:`plain_masks` lists them)."""
    if shape is None:
        return is_legal(*_rolled(rules, state, seat), mask)
    s = state.seats[seat]
    f = rules.formula(state, seat)
    return is_legal(placements(f.lattice, rules.shape(shape), None), f.occupied(s.lines), f.anchors(s.lines), True,
                    mask)


def _bond_fits_somewhere(rules: "Rules", state: State, seat: int) -> bool:
    """Whether :func:`bond_masks` has any drawing, found without listing them all."""
    kept, occupied, anchors, connect = _rolled(rules, state, seat)
    return any_legal(kept, occupied, anchors, must_connect=connect)


def plain_masks(rules: "Rules", state: State, seat: int, shape: str) -> list[int]:
    """Every legal drawing of ``shape`` with no mutation (active molecules'
    bonds ignore the Mutation die; a free bond is one line)."""
    s = state.seats[seat]
    f = rules.formula(state, seat)
    return legal(placements(f.lattice, rules.shape(shape), None), f.occupied(s.lines), f.anchors(s.lines))


def seat_actions(rules: "Rules", state: State, seat: int) -> list[Action]:
    s = state.seats[seat]
    f = rules.formula(state, seat)
    labels = rules.labels(state, seat)
    if state.phase not in ("synthesis", "final") or s.done:
        return []
    if s.pending:
        p = s.pending[0]
        where = f.lattice.hex_label(p.hexagon)
        if p.kind == "elemental":
            return [{"type": "elemental", "hexagon": where, "shade": True},
                    {"type": "elemental", "hexagon": where, "shade": False}]
        return ([{"type": "active_bond", "lines": labels(m)} for m in plain_masks(rules, state, seat, p.shape)]
                + [{"type": "decline"}])
    out: list[Action] = []
    if s.todo:
        masks = bond_masks(rules, state, seat)
        out += [{"type": "bond", "lines": labels(m)} for m in masks]
        if not masks:
            out.append({"type": "pass"})
    if f.free_left(s) > 0:
        for m in plain_masks(rules, state, seat, LINE):
            line = labels(m)[0]
            out += [{"type": "free_bond", "line": line, "colour": c} for c in rules.colour_ids]
    if not s.todo:
        out.append({"type": "finish"})
    return out


# --- reading actions ------------------------------------------------------------------
def _lines(rules: "Rules", state: State, seat: int, value: Any) -> int:
    f = rules.formula(state, seat)
    if not isinstance(value, list) or not value:
        raise IllegalAction('Name the lines of the bond, like {"lines": ["C4:E", "C4:NE"]}.')
    mask = 0
    for text in value:
        try:
            e = f.lattice.parse_edge(text)
        except ValueError as exc:
            raise IllegalAction(f"{exc}.") from None
        if mask >> e & 1:
            raise IllegalAction(f"The line {text} is named twice.")
        mask |= 1 << e
    return mask


def _free(rules: "Rules", state: State, seat: int) -> Seat:
    s = state.seats[seat]
    if state.phase not in ("synthesis", "final"):
        raise IllegalAction("Bonds are drawn during Synthesis, after the roll.")
    if s.done:
        raise IllegalAction("You have finished this turn.")
    return s


def _no_choice_waiting(rules: "Rules", s: Seat) -> None:
    if s.pending:
        p = s.pending[0]
        what = "shade the elemental molecule" if p.kind == "elemental" else "draw the active molecule's bond"
        raise IllegalAction(f"First choose whether to {what} you just closed.")


# --- handlers (each changes a fresh copy of the state) ----------------------------------
def roll(rules: "Rules", state: State, seat: int, action: Action) -> None:
    if state.phase != "roll":
        raise IllegalAction("The dice are rolled at the start of a turn.")
    roller = rules.roller(state)
    if seat != roller:
        raise IllegalAction(f"The player beside {rules.disc.roller_colour} rolls the dice "
                            f"({rules.seat_name(roller)} this turn).")
    rng = Rng(state.rng)
    bond = rules.bond_ids[rng.below(len(rules.bond_ids))]
    mutation = rules.mutation_ids[rng.below(len(rules.mutation_ids))]
    state.rng = rng.state
    state.roll = (bond, mutation)
    state.phase = "synthesis"
    for s in state.seats:
        s.todo = 2 if mutation == "twice" else 1
        s.done = False
    settle(rules, state, range(state.players))


def bond(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    _no_choice_waiting(rules, s)
    if not s.todo:
        raise IllegalAction("You have drawn this turn's bond already.")
    mask = _lines(rules, state, seat, action["lines"])
    if not fits(rules, state, seat, mask):
        raise IllegalAction(rules.why_not(state, seat, mask))
    assert state.roll is not None
    s.todo -= 1
    rules.formula(state, seat).draw(s, mask, rules.marker(state, seat), state.roll[0], state.turn)
    settle(rules, state, [seat])


def pass_bond(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    _no_choice_waiting(rules, s)
    if not s.todo:
        raise IllegalAction("There is no bond left to draw this turn.")
    if bond_masks(rules, state, seat):
        raise IllegalAction("The bond fits on your formula: you must draw it.")
    s.todo = 0
    settle(rules, state, [seat])


def elemental(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    if not s.pending or s.pending[0].kind != "elemental":
        raise IllegalAction("There is no elemental molecule to decide on.")
    f = rules.formula(state, seat)
    p = s.pending[0]
    if action["hexagon"] != f.lattice.hex_label(p.hexagon):
        raise IllegalAction(f"The molecule to decide on is {f.lattice.hex_label(p.hexagon)}.")
    if type(action["shade"]) is not bool:
        raise IllegalAction("Shade it (true) or not (false).")
    s.pending = s.pending[1:]
    f.decide_elemental(s, p.hexagon, action["shade"])
    settle(rules, state, [seat])


def active_bond(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    if not s.pending or s.pending[0].kind != "active":
        raise IllegalAction("No active molecule is offering a bond.")
    p = s.pending[0]
    mask = _lines(rules, state, seat, action["lines"])
    if not fits(rules, state, seat, mask, p.shape):
        raise IllegalAction(rules.why_not(state, seat, mask, p.shape))
    s.pending = s.pending[1:]
    rules.formula(state, seat).draw(s, mask, p.colour, p.shape, state.turn)
    settle(rules, state, [seat])


def decline(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    if not s.pending or s.pending[0].kind != "active":
        raise IllegalAction("No active molecule is offering a bond.")
    s.pending = s.pending[1:]  # "you cannot add it later"
    settle(rules, state, [seat])


def free_bond(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    _no_choice_waiting(rules, s)
    f = rules.formula(state, seat)
    if f.free_left(s) <= 0:
        raise IllegalAction("You have no free bond: complete a row, a column or an elemental pair to earn one.")
    colour = action["colour"]
    if colour not in rules.colour_ids:
        raise IllegalAction(f"A free bond is drawn with any marker: {', '.join(rules.colour_ids)}.")
    mask = _lines(rules, state, seat, [action["line"]])
    if not fits(rules, state, seat, mask, LINE):
        raise IllegalAction(rules.why_not(state, seat, mask, LINE))
    s.free_used += 1
    f.draw(s, mask, rules.letters[colour], LINE, state.turn)
    settle(rules, state, [seat])


def finish(rules: "Rules", state: State, seat: int, action: Action) -> None:
    s = _free(rules, state, seat)
    _no_choice_waiting(rules, s)
    if s.todo:
        raise IllegalAction("Draw this turn's bond first.")
    s.done = True
    settle(rules, state, [])


def choose_goals(rules: "Rules", state: State, seat: int, action: Action) -> None:
    if state.phase != "choose":
        raise IllegalAction("Goal cards are chosen before the first turn (Unpredictable Consequences).")
    chains, patterns = state.offer
    if action["chain"] not in chains or action["pattern"] not in patterns:
        raise IllegalAction(f"Choose one of the Molecular Chain cards ({', '.join(chains)}) and one of the "
                            f"Molecular Pattern cards ({', '.join(patterns)}).")
    state.chain_card, state.pattern_card = action["chain"], action["pattern"]
    state.offer = ((), ())
    state.phase = "roll"


# --- moving on -------------------------------------------------------------------------
def settle(rules: "Rules", state: State, seats) -> None:
    """Mark done the given seats that have nothing left to do, then move the
    game on when every seat is done."""
    for i in seats:
        _settle_seat(rules, state, i)
    while state.phase in ("synthesis", "final") and all(s.done for s in state.seats):
        if state.phase == "synthesis" and state.turn < rules.turns:
            state.turn += 1
            state.phase = "roll"
            state.roll = None
        elif state.phase == "synthesis":
            state.phase = "final"
            state.roll = None
            for i, s in enumerate(state.seats):
                s.done = False
                s.todo = 0
                _settle_seat(rules, state, i)
        else:
            state.phase = "over"


def _settle_seat(rules: "Rules", state: State, seat: int) -> None:
    s = state.seats[seat]
    if s.done or s.pending:
        return
    free = rules.formula(state, seat).free_left(s)
    if s.todo and not free and not _bond_fits_somewhere(rules, state, seat):
        s.todo = 0  # it fits nowhere, and no free bond can make room
    if not s.todo and not free:
        s.done = True
