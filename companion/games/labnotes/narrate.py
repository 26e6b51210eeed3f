"""The Lab Notes game log in words: what an action did, told by comparing the
state before it with the state after ("Ada took the white die H", "Bo drew a
double bond B3=B4", "Lab Fire: everyone burns 2 spaces"). The referee calls
:func:`narrate` once per action; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.chem import ELEMENT_NAMES
from engine.labnotes.state import BURNER, LINE_POINTS, bond_key
from companion.games.labnotes.words import SHORT

BOND_WORDS = {1: ("a single bond", "-"), 2: ("a double bond", "="), 3: ("a triple bond", "\u2261")}


class _Told:
    """One action and the states around it, with the words every sentence needs."""

    def __init__(self, game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
                 names: list[str]) -> None:
        self.game, self.rules, self.seat, self.a = game, game.rules, seat, action
        self.before, self.after = before, after
        self.names = names
        self.who = self.name(seat)
        self.mine, self.was = after.seats[seat], before.seats[seat]

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else self.game.seat_name(seat)

    def label(self, space: int) -> str:
        return self.rules.label(space)

    def bond(self, pair: list[int]) -> str:
        a, b = sorted(pair)
        words, sign = BOND_WORDS.get(self.mine.bonds.get(bond_key(a, b), 0), ("a bond", "-"))
        return f"{words} {self.label(a)}{sign}{self.label(b)}"

    def tool(self, tool_id: str) -> str:
        return self.rules.tool_name(tool_id)


def _die(d: Any) -> str:
    return f"the {d.colour} Bunsen Burner die" if d.face == BURNER else f"the {d.colour} die {d.face}"


def _up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _face(d: Any) -> str:
    return f"{d.colour} {'Bunsen Burner' if d.face == BURNER else d.face}"


def _roll(t: _Told) -> list[str]:
    return [f"{t.who} rolled the dice: {', '.join(_face(d) for d in t.after.dice if d.place == 'pool')}."]


def _reroll(t: _Told) -> list[str]:
    news = ", ".join(_face(d) for i, d in enumerate(t.after.dice) if i in t.a["dice"])
    return [f"{t.who} rerolled with the Centrifuge: {news}."]


def _take(t: _Told) -> list[str]:
    out = [f"{t.who} took {_die(t.after.dice[t.a['die']])}."]
    community = t.after.community()
    if t.before.phase == "select" and community is not None:
        if community.face == BURNER:
            out.append(f"{_up(_die(community))} is the Community die: left unattended, it becomes a Lab Fire.")
        else:
            out.append(f"{_up(_die(community))} is the Community die.")
    return out


def _notate(t: _Told) -> list[str]:
    return [f"{t.who} notated {t.a['element']} on {t.label(t.a['space'])}."]


def _bond(t: _Told) -> list[str]:
    return [f"{t.who} drew {t.bond(t.a['spaces'])}."] + _unlocked(t)


def _unlocked(t: _Told) -> list[str]:
    out = []
    for tool in t.mine.tools[len(t.was.tools):]:
        card = t.rules.tools[tool]
        out.append(f"{t.who} built {card.compound} and unlocked the {card.name}.")
    return out


def _trash(t: _Told) -> list[str]:
    out = [f"{t.who} trashed {t.a['element']}."]
    if len(t.mine.trash) == t.rules.trash_cans:
        out.append(f"{t.who}'s trash is full: the Bunsen Burner burns a space.")
    return out


def _burn(t: _Told) -> list[str]:
    # the burn of the space chosen: a burn that ends the game is followed
    # by the end's own burns (elements with no bond), told on their own line
    new = [b for b in t.mine.burned[len(t.was.burned):] if b.space == t.a["space"]]
    cause = f" ({SHORT.get(new[0].cause, new[0].cause)})" if new else ""
    return [f"{t.who} burned {t.label(t.a['space'])}{cause}."]


def _choose(t: _Told) -> list[str]:
    return [f"{t.who} chose {ELEMENT_NAMES.get(t.a['element'], t.a['element'])} from the Bunsen Burner."]


def _use_tool(t: _Told) -> list[str]:
    tool, name = t.a["tool"], t.tool(t.a["tool"])
    if tool == "pipette":
        said = f"{t.who} used the {name}: {t.bond(t.a['spaces'])}."
    elif tool == "mortar-and-pestle":
        ground = next((e for e, src in t.mine.pending if (e, src) not in t.was.pending), "?")
        said = f"{t.who} ground {t.a['element']} to {ground} with the {name}."
    elif tool == "retort-flask":
        die = t.after.die_of(t.seat)
        said = f"{t.who} used the {name}: {die.face if die else '?'} again instead of the Community die."
    elif tool == "fire-suppressant":
        said = f"{t.who} used the {name}: one Lab Fire ignored."
    elif tool == "fume-hood":
        said = f"{t.who} used the {name}: the last trash can ({t.was.trash[-1:] or '?'}) is erased."
    else:
        said = f"{t.who} used the {name}."
    return [said] + _unlocked(t)


def _claim(t: _Told) -> list[str]:
    claim = t.mine.claims[-1]
    out = [f"{t.who} claimed {t.rules.cards[claim.notecard].name} for {claim.points} points."]
    opened = t.rules.open_track(t.mine) - t.rules.open_track(t.was)
    if opened:
        out.append(f"{t.who}'s tools track opens {opened} more space{'s' if opened > 1 else ''}.")
    return out


def _finish(t: _Told) -> list[str]:
    return [f"{t.who} finished notating."]


ACTIONS: dict[str, Callable[[_Told], list[str]]] = {
    "roll": _roll, "reroll": _reroll, "take_die": _take, "notate": _notate, "bond": _bond, "trash": _trash,
    "burn": _burn, "choose_element": _choose, "use_tool": _use_tool, "claim": _claim, "finish": _finish,
}


def _round_end(t: _Told) -> list[str]:
    """What the end of a round did: the line refilled, Lab Fires, the next lead, the end."""
    before, after, out = t.before, t.after, []
    if before.phase != "notate" or after.phase == "notate":
        return out
    revealed = [c for c in after.line + after.discard if c not in before.line + before.discard]
    for i, card in enumerate(after.line):
        if card in revealed:
            out.append("A Lab Fire is revealed in the notecard line!" if card in t.rules.lab_fires else
                       f"{t.rules.cards[card].name} is revealed in the notecard line ({LINE_POINTS[i]} points).")
    met = [c for c in after.discard if c in t.rules.lab_fires and c not in before.discard]
    if len(met) > 1:
        out.append("Two Lab Fires met in the line: they are discarded and the line refilled.")
    community = before.community()
    if community is not None and community.face == BURNER:
        out.append("The Bunsen Burner was left unattended: it is a Lab Fire.")
    if after.phase == "fire":
        fires = after.fires
        suppress = " (or uses the Fire Suppressant)" if "fire-suppressant" in after.tools else ""
        out.append(f"Lab Fire: everyone burns 2 spaces{suppress}." if fires == 1 else
                   f"{fires} Lab Fires: everyone burns 2 spaces for each{suppress}.")
    return out


def _turn_end(t: _Told) -> list[str]:
    before, after, out = t.before, t.after, []
    if after.phase == "over" and before.phase != "over":
        for seat, (was, now) in enumerate(zip(before.seats, after.seats)):
            lone = [t.label(b.space) for b in now.burned[len(was.burned):] if b.cause == "unconnected"]
            if lone:
                out.append(f"{t.name(seat)}'s elements with no bond burn: {', '.join(lone)}.")
        result = t.game.result(after)
        winners = " and ".join(t.name(s) for s in result.winners)
        best = max(s.total for s in result.scores)
        out.append(f"The game is over: {winners} {'wins' if len(result.winners) == 1 else 'share the win'} "
                   f"with {best} points.")
    elif after.round > before.round:
        out.append(f"Round {after.round}: {t.name(after.lead)} leads and rolls the dice.")
    return out


def narrate(game: Any, before: Any, seat: int, action: dict[str, Any], after: Any, names: list[str]) -> list[str]:
    """The game log's sentences for one action (``Plugin.narrate``)."""
    t = _Told(game, before, seat, action, after, names)
    said = ACTIONS.get(action.get("type"), lambda t: [f"{t.who}: {action.get('type')}."])(t)
    return said + _round_end(t) + _turn_end(t)
