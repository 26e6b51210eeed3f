"""What every legal Synthesis state keeps; :meth:`Synthesis.check` raises
:class:`~engine.core.InvalidState` naming the first broken one. ``from_dict``
runs it, so a state read from outside is one the rules could have reached
(as far as can be told without the action log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import InvalidState
from engine.synthesis.state import MODES, PHASES, UNDRAWN, State

if TYPE_CHECKING:
    from engine.synthesis.rules import Rules


def check(rules: "Rules", state: State) -> None:
    problem = _first_problem(rules, state)
    if problem:
        raise InvalidState(problem)


def _first_problem(rules: "Rules", state: State) -> str | None:
    cards = rules.cards
    if state.players != len(state.seats) or not 1 <= state.players <= rules.disc.max_players:
        return f"players: {state.players} players but {len(state.seats)} seats"
    if state.phase not in PHASES or state.mode not in MODES:
        return f"phase/mode: unknown {state.phase!r} / {state.mode!r}"
    if not 1 <= state.turn <= rules.turns:
        return f"turn: expected 1 to {rules.turns}, found {state.turn}"
    if state.phase == "synthesis":
        if state.roll is None or state.roll[0] not in cards.bonds or state.roll[1] not in cards.mutations:
            return f"roll: expected a Bond die shape and a Mutation face, found {state.roll!r}"
    elif state.roll is not None:
        return f"roll: the dice are only showing during Synthesis (phase {state.phase})"
    if state.phase in ("final", "over") and state.turn != rules.turns:
        return f"turn: the game ends after turn {rules.turns}"
    for key, deck in (("chain_card", cards.chains), ("pattern_card", cards.patterns), ("project", cards.projects)):
        value = getattr(state, key)
        if value is not None and value not in deck:
            return f"{key}: unknown card {value!r}"
    if state.mode != "standard" and state.players != 1:
        return "mode: the solo modes are for one player"
    if state.mode in ("predictable", "unpredictable") and state.project is None:
        return "project: this solo mode needs a Project card"
    if state.phase == "choose":
        if state.mode != "unpredictable" or len(state.offer[0]) != 2 or len(state.offer[1]) != 2:
            return "offer: choosing goal cards needs two of each (Unpredictable Consequences)"
    elif state.offer != ((), ()):
        return "offer: the goal cards were chosen already"
    if state.mode == "unpredictable" and state.phase != "choose" and not (state.chain_card and state.pattern_card):
        return "chain_card: Unpredictable Consequences plays one Chain and one Pattern card"
    boards = [s.board for s in state.seats]
    if len(set(boards)) != len(boards):
        return "seats: two players share a board"
    problem = rules.disc.check_boxes([s.box for s in state.seats], state.players)
    if problem:
        return f"seats: {problem}"
    for i, s in enumerate(state.seats):
        found = _seat_problem(rules, state, i)
        if found:
            return f"seats.{i}: {found}"
    return None


def _seat_problem(rules: "Rules", state: State, i: int) -> str | None:
    s = state.seats[i]
    if (s.board, state.side) not in rules.formulas:
        return f"board {s.board!r} has no side {state.side}"
    f = rules.formula(state, i)
    lat = f.lattice
    if len(s.lines) != len(lat.edges):
        return f"lines: expected {len(lat.edges)} characters, found {len(s.lines)}"
    letters = set(rules.colour_names)
    if set(s.lines) - letters - {UNDRAWN}:
        return f"lines: unknown colour letters {sorted(set(s.lines) - letters - {UNDRAWN})}"
    if f.drawn(s.lines) & f.layout.fixed:
        return "lines: a line is drawn over a printed line or the starting molecule"
    seen = [m.hexagon for m in s.molecules]
    if len(seen) != len(set(seen)):
        return "molecules: a hexagon is recorded twice"
    if sorted(seen) != f.closed(s.lines):
        return "molecules: the recorded molecules are not the closed hexagons"
    pending_elemental = {p.hexagon for p in s.pending if p.kind == "elemental"}
    rows: dict[int, list[int]] = {}
    for m in s.molecules:
        where = f"molecules {lat.hex_label(m.hexagon)}"
        colours = f.colours(s.lines, m.hexagon)
        if m.colour not in letters or m.volume != colours.count(m.colour) or m.volume < 1:
            return f"{where}: volume {m.volume} in {m.colour!r} does not match its lines"
        if not 1 <= m.turn <= state.turn:
            return f"{where}: made on turn {m.turn}"
        one_colour = m.hexagon in f.layout.elemental and all(c == m.colour for c in colours)
        if (m.elemental is not False) != (m.hexagon in pending_elemental or bool(m.elemental)):
            return f"{where}: an undecided elemental molecule must be waiting for a choice"
        if m.elemental is not False and not one_colour:
            return f"{where}: only a shape's hexagon in one colour can be elemental"
        if m.row is not None:
            if m.elemental is not False:
                return f"{where}: an elemental molecule takes no table cell"
            rows.setdefault(m.volume, []).append(m.row)
    for volume, taken in rows.items():
        if sorted(taken) != list(range(len(taken))) or len(taken) > f.heights[volume - 1]:
            return f"table: column {volume} is not filled from the bottom"
    for m in s.molecules:
        if m.row is None and m.elemental is False and len(rows.get(m.volume, [])) < f.heights[m.volume - 1]:
            return f"molecules {lat.hex_label(m.hexagon)}: left out of column {m.volume}, which has room"
    if s.free_used > len(f.free_earned(s)):
        return "free_used: more free bonds drawn than earned"
    for p in s.pending:
        if p.kind == "active" and (p.hexagon not in f.layout.active or p.shape not in rules.shapes
                                   or p.colour not in letters):
            return f"pending: {lat.hex_label(p.hexagon)} offers no such bond"
    if state.phase not in ("synthesis",) and s.todo:
        return "todo: bonds are owed only during Synthesis"
    if s.todo > (2 if state.roll and state.roll[1] == "twice" else 1):
        return f"todo: {s.todo} bonds owed this turn"
    if state.phase in ("synthesis", "final") and s.done and (s.todo or s.pending):
        return "done: a player with something left to do has finished"
    if state.phase == "over" and (s.pending or not s.done):
        return "done: the game is over but a player still has something to do"
    return None
