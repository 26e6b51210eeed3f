"""The Synthesis game log in words: what an action did, told by comparing the
state before it with the state after ("Ada rolled the dice: an Arc, with
Twice", "Bo drew an Arc in red: C4:E, C4:NE, C5:NE", "Bo created a red
molecule of volume 3 in C4"). The referee calls :func:`narrate` once per
action; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any, Callable

from companion.games.synthesis.controls import an


class _Told:
    """One action and the states around it, with the words every sentence needs."""

    def __init__(self, game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
                 names: list[str]) -> None:
        self.game, self.rules, self.cards = game, game.rules, game.cards
        self.before, self.after, self.seat, self.a, self.names = before, after, seat, action, names
        self.who = self.name(seat)
        self.colour_of = self.rules.colour_names

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else self.game.seat_name(seat)

    def shape(self, shape: str) -> str:
        return "free bond" if shape == "line" else self.cards.bonds[shape].name

    def label(self, seat: int, h: int) -> str:
        return self.rules.formula(self.after, seat).lattice.hex_label(h)

    def marker(self, state: Any, seat: int) -> str:
        return self.colour_of[self.rules.marker(state, seat)]

    def created(self, seat: int) -> list[str]:
        """The molecules this action closed, and what each asks of the player."""
        was = {m.hexagon for m in self.before.seats[seat].molecules}
        lay = self.rules.formula(self.after, seat).layout
        out = []
        for m in self.after.seats[seat].molecules:
            if m.hexagon in was:
                continue
            where, colour = self.label(seat, m.hexagon), self.colour_of[m.colour]
            if m.elemental is None:
                out.append(f"{self.name(seat)} closed {where}, a {lay.elemental[m.hexagon]} hexagon, all in "
                           f"{colour}: an elemental molecule if shaded.")
            else:
                out.append(f"{self.name(seat)} created a {colour} molecule of volume {m.volume} in {where}"
                           + (f" (volume table: column {m.volume}, row {m.row + 1})." if m.row is not None
                              else f" (column {m.volume} is full: no cell)."))
            icon = lay.active.get(m.hexagon)
            if icon is not None:
                offer = [p for p in self.after.seats[seat].pending if p.kind == "active" and p.hexagon == m.hexagon]
                if offer:
                    out.append(f"{where} is an active molecule: {self.name(seat)} may draw "
                               f"{an(self.shape(offer[0].shape))} now.")
        return out + self.earned(seat)

    def earned(self, seat: int) -> list[str]:
        f = self.rules.formula(self.after, seat)
        before = f.free_earned(self.before.seats[seat])
        new = [x for x in f.free_earned(self.after.seats[seat]) if x not in before]
        return [f"{self.name(seat)} earned a free bond ({', '.join(new)})."] if new else []


def _roll(t: _Told) -> list[str]:
    if t.after.roll is None:   # nobody could draw it: the turn is over already
        return [f"{t.who} rolled the dice: the bond fits on nobody's formula."]
    bond, mutation = t.after.roll
    m = t.cards.mutations[mutation]
    out = [f"{t.who} rolled the dice: {an(t.cards.bonds[bond].name)}, with {m.name} ({m.kind})."]
    for i, (was, now) in enumerate(zip(t.before.seats, t.after.seats)):
        if now.done and not now.todo:
            out.append(f"{t.name(i)}'s bond fits nowhere on the formula: skipped.")
    return out


def _lines(t: _Told) -> str:
    return ", ".join(t.a["lines"])


def _bond(t: _Told) -> list[str]:
    shape = t.before.roll[0]
    return [f"{t.who} drew {an(t.shape(shape))} in {t.marker(t.before, t.seat)}: {_lines(t)}."] + t.created(t.seat)


def _active(t: _Told) -> list[str]:
    p = t.before.seats[t.seat].pending[0]
    return [f"{t.who} drew the active molecule's {t.shape(p.shape)} in {t.colour_of[p.colour]}: {_lines(t)}."
            ] + t.created(t.seat)


def _decline(t: _Told) -> list[str]:
    p = t.before.seats[t.seat].pending[0]
    return [f"{t.who} declined the bond of the active molecule {t.label(t.seat, p.hexagon)}."]


def _elemental(t: _Told) -> list[str]:
    where = t.a["hexagon"]
    m = next(x for x in t.after.seats[t.seat].molecules if t.label(t.seat, x.hexagon) == where)
    shape = t.rules.formula(t.after, t.seat).layout.elemental[m.hexagon]
    if t.a["shade"]:
        return [f"{t.who} shaded {where} as a {t.colour_of[m.colour]} elemental molecule ({shape})."] + t.earned(t.seat)
    cell = f"column {m.volume}, row {m.row + 1}" if m.row is not None else f"column {m.volume} is full"
    return [f"{t.who} kept {where} as a normal molecule of volume {m.volume} ({cell})."] + t.earned(t.seat)


def _free(t: _Told) -> list[str]:
    return [f"{t.who} drew a free bond in {t.a['colour']}: {t.a['line']}."] + t.created(t.seat)


def _pass(t: _Told) -> list[str]:
    return [f"{t.who} passed: the bond fits nowhere."]


def _finish(t: _Told) -> list[str]:
    return [f"{t.who} is done with the free bonds." if t.before.phase == "final" else f"{t.who} finished the turn."]


def _choose(t: _Told) -> list[str]:
    chain, pattern = t.cards.chains[t.a["chain"]].row.name, t.cards.patterns[t.a["pattern"]].row.name
    return [f"{t.who} kept the Molecular Chain card {chain} and the Molecular Pattern card {pattern}."]


ACTIONS: dict[str, Callable[[_Told], list[str]]] = {
    "roll": _roll, "bond": _bond, "active_bond": _active, "decline": _decline, "elemental": _elemental,
    "free_bond": _free, "pass": _pass, "finish": _finish, "choose_goals": _choose,
}


def _moved_on(t: _Told) -> list[str]:
    before, after = t.before, t.after
    if after.phase == "over" and before.phase != "over":
        result = t.game.result(after)
        if len(result.scores) == 1 and "solo" in result.scores[0].details:
            s = result.scores[0]
            missed = [g["goal"] for g in s.details["solo"]["goals"] if not g["met"]]
            return [f"The game is over: {t.name(0)} met every goal, with {s.total} points." if not missed else
                    f"The game is over: {t.name(0)} missed {', '.join(missed)}; {s.total} points."]
        best = max(s.total for s in result.scores)
        who = " and ".join(t.name(s) for s in result.winners)
        verb = "wins" if len(result.winners) == 1 else "share the win"
        return [f"The game is over: {who} {verb} with {best} points."]
    if after.phase == "final" and before.phase != "final":
        return [f"All {t.rules.turns} turns are played: unused free bonds may still be drawn."]
    if after.turn > before.turn:
        held = ", ".join(f"{t.name(i)} {t.marker(after, i)}" for i in range(after.players))
        return [f"Turn {after.turn}: the ring turns ({held}); {t.name(t.rules.roller(after))} rolls."]
    return []


def narrate(game: Any, before: Any, seat: int, action: dict[str, Any], after: Any, names: list[str]) -> list[str]:
    """The game log's sentences for one action (``Plugin.narrate``)."""
    t = _Told(game, before, seat, action, after, names)
    said = ACTIONS.get(action.get("type"), lambda t: [f"{t.who}: {action.get('type')}."])(t)
    return said + _moved_on(t)
