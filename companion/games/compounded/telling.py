"""Compounded's log, the words and the actions: the names every sentence
uses (a compound with its place on the grid, an element, a tool, a track)
and one sentence or two for each decision a scientist answers, told from the
decision (the agenda's first task before the action), the action and the two
states. :mod:`.narrate` adds what the agenda then did by itself."""

from __future__ import annotations

from typing import Any, Callable

from engine.compounded.cards import ELEMENTS
from engine.compounded.state import cell_of

ELEMENT_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "Ca": "Calcium", "S": "Sulfur"}
GAINS = {"discover": "now draws {n} elements in the Discover phase", "study": "now has {n} claim token{s}",
         "research": "now places {n} elements in the Research phase", "lab": "now keeps {n} elements on the Workbench"}
"""What a track's number means for its scientist, said after a move up."""


def and_(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def gems(counts: dict[str, int]) -> str:
    """``{"H": 2, "O": 1}`` as "2 Hydrogen and 1 Oxygen", in Workbench order."""
    parts = [f"{counts[e]} {ELEMENT_WORDS.get(e, e)}" for e in ELEMENTS if counts.get(e)]
    return and_(parts) if parts else "nothing"


def minus(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {e: a.get(e, 0) - b.get(e, 0) for e in ELEMENTS if a.get(e, 0) > b.get(e, 0)}


class Told:
    """One action and the states around it, with the words every sentence needs."""

    def __init__(self, game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
                 names: list[str]) -> None:
        self.game, self.rules, self.cards = game, game.rules, game.cards
        self.before, self.after, self.seat, self.a, self.names = before, after, seat, action, names
        self.task = before.agenda[0] if before.agenda else {}
        """The decision the action answered."""
        self.who = self.name(seat)
        self.said_points: set[tuple[int, str]] = set()
        """Score lines the action's own sentence already told."""

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else self.game.seat_name(seat)

    def where(self, i: int) -> str:
        return f"row {i // self.before.cols + 1}, column {i % self.before.cols + 1}"

    def card(self, card: str | None) -> str:
        compound = self.rules.compound(card)
        return compound.name if compound else "the Lab Fire" if self.rules.is_lab_fire(card) else "an empty space"

    def cell(self, i: int, state: Any = None) -> str:
        """The compound on space ``i`` (as it is before the action, or in ``state``) and its place."""
        return f"{self.card((state or self.before).grid[i].card)} ({self.where(i)})"

    def tool(self, tool: str) -> str:
        row = self.cards.tools.get(tool)
        return row.name if row else tool

    def reward(self, reward: str) -> str:
        row = self.cards.tools.get(reward) or self.cards.reactions.get(reward)
        return row.name if row else reward

    def track(self, track: str) -> str:
        return self.rules.tracks[track].name

    def gain(self, seat: int, track: str) -> str:
        n = self.rules.value(self.after, seat, track)
        return GAINS[track].format(n=n, s="s" if n != 1 else "")


# --- the actions, by the decision they answer ---------------------------------------
def _offer(t: Told, giver: int, taker: int) -> dict[str, Any]:
    return next((o for o in t.task.get("offers", []) if o["from"] == giver and o["to"] == taker),
                {"give": {}, "get": {}})


def _mine(t: Told) -> dict[str, Any]:
    return next((o for o in t.task.get("offers", []) if o["from"] == t.seat), {"to": t.seat, "give": {}, "get": {}})


def _trade(t: Told) -> list[str]:
    """An offer is told once it is shown (proposed), whole; writing it (opening
    it, each element added, dropping it unshown) is seen on the phones' offer
    panels as it happens and leaves no line: a table trading at once filled
    the log with a line an element."""
    kind, a = t.a["type"], t.a
    if kind in ("trade_with", "offer_give", "offer_ask"):
        return []
    if kind in ("propose", "cancel_offer"):
        mine = _mine(t)
        to = t.name(mine["to"])
        if kind == "propose":
            return [f"{t.who} proposed a trade to {to}: {gems(mine['give'])} for {gems(mine['get'])}."]
        return [f"{t.who} withdrew the offer to {to}."] if mine.get("proposed") else []
    if kind in ("accept", "decline"):
        offer, giver = _offer(t, a["seat"], t.seat), t.name(a["seat"])
        if kind == "decline":
            return [f"{t.who} declined {giver}'s offer."]
        return [f"{t.who} accepted {giver}'s trade: {giver}'s {gems(offer['give'])} "
                f"for {t.who}'s {gems(offer['get'])}."]
    return [f"{t.who} finished trading."]


def _dish(t: Told) -> list[str]:
    if t.a["type"] == "pass":
        return [f"{t.who} passed: no more dish trades this phase."]
    give, take = t.a["give"], t.a["take"]
    out = [f"{t.who} traded 1 {ELEMENT_WORDS[give]} for the dish's {ELEMENT_WORDS[take]}."]
    kept = dict(t.before.dish)
    kept[take] -= 1
    kept[give] = kept.get(give, 0) + 1
    if {e: n for e, n in kept.items() if n} != t.after.dish:
        out.append(f"The dish shows three of a kind: its elements evaporate to the tray and new ones are "
                   f"drawn: {gems(t.after.dish)}.")
    return out


def _discard(t: Told) -> list[str]:
    return [f"{t.who} discarded 1 {ELEMENT_WORDS[t.a['element']]} to the Lead Scientist tray."]


def _claim(t: Told) -> list[str]:
    a = t.a
    jump = "Claim Jump: " if t.task.get("do") == "claim_jump" else ""
    if a["type"] == "keep":
        return [f"{t.who} kept the claim tokens where they are."]
    if a["type"] == "pass":
        return [f"{t.who} made no Claim Jump."]
    was = t.before.scientists[t.seat].tokens[a["token"]]
    if "cell" in a:
        old = cell_of(was)
        if old is not None:
            return [f"{jump}{t.who} moved a claim token from {t.cell(old)} to {t.cell(a['cell'])}."]
        return [f"{jump}{t.who} claimed {t.cell(a['cell'])}."]
    tool, tools = a["tool"], t.before.scientists[t.seat].tools
    name = t.tool(tool)
    if tool not in tools:
        why = f"{t.who} has no {name}, but it keeps the space from the others"
    elif tools[tool]:
        why = f"{t.who}'s {name} is already full"
    else:
        why = f"{t.who}'s {name} is refilled"
    return [f"{jump}{t.who} moved a claim token to the {name} refresh space: {why}."]


def _research(t: Told) -> list[str]:
    a, kind = t.a, t.a["type"]
    if kind == "exchange":
        return [f"{t.who} exchanged {t.task['rate']} {ELEMENT_WORDS[a['give']]} for 1 "
                f"{ELEMENT_WORDS[a['take']]} from the bag."]
    if kind == "use_tool" and a["tool"] == "pipette":
        return [f"{t.who} used the {t.tool('pipette')}: exchanges are 2 for 1 this turn."]
    if kind == "use_tool":
        return [f"{t.who} used the {t.tool(a['tool'])}: {t.who} may place elements from the tray this turn, "
                "and exchanges none."]
    if kind == "place":
        source = " from the tray" if a.get("from") == "tray" else ""
        placed = f"{t.who} placed {ELEMENT_WORDS[a['element']]}{source} on {t.cell(a['cell'])}."
        return [placed] + _completed(t, a["cell"])
    placed = t.task.get("placed", 0)
    return [f"{t.who} finished placing ({placed} element{'s' if placed != 1 else ''})."]


def _completed(t: Told, i: int) -> list[str]:
    """The last element on a compound completes it: who will score it."""
    cell = t.after.grid[i]
    if not cell.complete or t.before.grid[i].complete:
        return []
    done = f"{t.cell(i)} is complete"
    if cell.completed_by is None:  # finished by an explosion: scoring is over this round
        return [f"{done}: it scores in the next Lab phase."]
    holders = sorted({s for s, sc in enumerate(t.after.scientists) for k in sc.tokens if k == f"cell:{i}"})
    if t.seat in cell.marks and t.seat not in t.before.grid[i].marks:
        return [f"{done}: {t.who} marks it with a claim token from the reserve and will score it."]
    if t.seat in holders:  # with the other claimant of a Lab Partner card, if there is one
        return [f"{done}: {and_([t.name(s) for s in holders])} will score it in the Lab phase."]
    scorers = and_([t.name(s) for s in holders + list(cell.marks)]) or "nobody"
    card = t.rules.compound(cell.card)
    bonus = f", and {t.who} shares its bonus ({t.reward(card.reward)})" if card and card.reward else ""
    return [f"{done}: {scorers} will score it{bonus}."]


def _burner(t: Told) -> list[str]:
    if t.a["type"] == "pass":
        return [f"{t.who} kept the {t.tool('bunsen_burner')}."]
    return [f"{t.who} used the {t.tool('bunsen_burner')}: {t.cell(t.a['cell'])} gains a flame token."]


def _score(t: Told) -> list[str]:
    i = t.a["cell"]
    card = t.rules.compound(t.before.grid[i].card)
    flames = t.before.grid[i].flames
    got = t.after.scientists[t.seat].lines.get("compounds", 0) - t.before.scientists[t.seat].lines.get("compounds", 0)
    t.said_points.add((t.seat, "compounds"))
    less = (f" ({card.points}, less {2 * flames} for {flames} flame token{'s' if flames > 1 else ''})"
            if card and flames else "")
    return [f"{t.who} scored {t.cell(i)}: {got} point{'s' if got != 1 else ''}{less}."]


def _journal(t: Told) -> list[str]:
    if t.a["type"] == "pass":
        return [f"{t.who} kept the {t.tool('journal')}."]
    return [f"{t.who} used the {t.tool('journal')}: 1 {ELEMENT_WORDS[t.a['element']]} from "
            f"{t.cell(t.task['cell'])} goes back to {t.who}'s Workbench."]


def _advance(t: Told) -> list[str]:
    track = t.a["track"]
    return [f"{t.who} moved the {t.track(track)} experiment up 1: {t.who} {t.gain(t.seat, track)}."]


def _grant(t: Told) -> list[str]:
    low, track = t.a["seat"], t.a["track"]
    return [f"Grant: {t.who} moved {t.name(low)}'s {t.track(track)} experiment up 1 (the lowest score): "
            f"{t.name(low)} {t.gain(low, track)}."]


def _cylinder(t: Told) -> list[str]:
    if t.a["type"] == "pass":
        return [f"{t.who} kept the {t.tool('graduated_cylinder')}."]
    return [f"{t.who} used the {t.tool('graduated_cylinder')}: {t.track(t.a['from'])} down 1, "
            f"{t.track(t.a['to'])} up 1."]


def _extinguish(t: Told) -> list[str]:
    if t.a["type"] == "pass":
        return [f"{t.who} let the Lab Fire burn."]
    where = t.task.get("cell")
    put_out = f"the Lab Fire ({t.where(where)}) is discarded" if where is not None else "the Lab Fire is put out"
    return [f"{t.who} used the {t.tool('fire_extinguisher')}: {put_out}."]


def _scatter(t: Told) -> list[str]:
    moved = f"{t.who} moved 1 {ELEMENT_WORDS[t.a['element']]} from the explosion ({t.where(t.task['from'])})"
    if "cell" not in t.a:
        return [f"{moved} to the tray: no neighbour needs it."]
    return [f"{moved} to {t.cell(t.a['cell'])}."] + _completed(t, t.a["cell"])


DECISIONS: dict[str, Callable[[Told], list[str]]] = {
    "trade": _trade, "dish": _dish, "discard": _discard, "claims": _claim, "claim_jump": _claim,
    "research_turn": _research, "burner": _burner, "score_turn": _score, "journal": _journal,
    "advance": _advance, "grant": _grant, "cylinder": _cylinder, "extinguish": _extinguish, "scatter": _scatter,
}
