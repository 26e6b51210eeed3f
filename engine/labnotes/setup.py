"""Setup (rulebook, Setup 1-4): the dice for the player count, the notecard
line of two, and one liquid, one solid and one gas tool.

Options a host may give: ``first_game`` (the rulebook's recommended tools),
``tools`` (three tool ids of the host's choice) and ``lead`` (the seat of the
first player: "whoever most recently mixed multiple liquids together").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from engine.core import IllegalAction
from engine.labnotes.state import EMPTY, Die, Sheet, State
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

OPTIONS = ("first_game", "tools", "lead")
STATES = ("liquid", "solid", "gas")


def setup(r: "Rules", players: int, seed: int, options: Mapping[str, Any] | None) -> State:
    per = r.data.dice.per_players
    if type(players) is not int or players not in per:
        raise IllegalAction(f"Lab Notes is for {min(per)} to {max(per)} players, not {players!r}.")
    if type(seed) is not int:
        raise IllegalAction(f"The seed must be a whole number, found {seed!r}.")
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction("Setup options are a JSON object, like {\"first_game\": true}.")
    options = dict(options or {})
    if not isinstance(options.get("first_game", False), bool):
        raise IllegalAction("The first_game option is true or false.")
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise IllegalAction(f"Unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)}).")
    rng = Rng(seed)
    tools = choose_tools(r, rng, options)
    lead = options.get("lead", 0)
    if type(lead) is not int or not 0 <= lead < players:
        raise IllegalAction(f"The lead player must be a seat from 0 to {players - 1}, found {lead!r}.")
    need = r.in_play(players)
    dice, seen = [], dict.fromkeys(need, 0)
    for colour in r.dice_colours:
        seen[colour] = seen.get(colour, 0) + 1
        dice.append(Die(colour, None, "cup" if seen[colour] <= need.get(colour, 0) else "box", None))
    deck = list(r.card_ids)
    rng.shuffle(deck)
    # Setup 3: flip 2 notecards; Lab Fires are set aside, then shuffled back.
    line: list[str] = []
    aside: list[str] = []
    while len(line) < 2 and deck:
        card = deck.pop(0)
        (aside if card in r.lab_fires else line).insert(0, card)
    if aside:
        deck.extend(aside)
        rng.shuffle(deck)
    return State(players=players, tools=tools, rng=rng.state, dice=dice, deck=deck, line=line, discard=[],
                 seats=[Sheet(EMPTY * r.size) for _ in range(players)], lead=lead)


def choose_tools(r: "Rules", rng: Rng, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Setup 4: one liquid, one solid and one gas tool, at random unless the
    host chose them (or the first game's)."""
    by_state = {s: [t for t in r.tools.values() if t.state == s] for s in STATES}
    if "tools" in options:
        if options.get("first_game"):
            raise IllegalAction("Choose either the first-game tools or a list of tools, not both.")
        chosen = options["tools"]
        if not isinstance(chosen, (list, tuple)) or not all(isinstance(t, str) for t in chosen):
            raise IllegalAction("The tools option is a list of three tool ids.")
        for t in chosen:
            if t not in r.tools:
                raise IllegalAction(f"{t!r} is not a tool of this game (tools: {', '.join(r.tools)}).")
        states = sorted(r.tools[t].state for t in chosen)
        if len(chosen) != 3 or states != ["gas", "liquid", "solid"]:
            raise IllegalAction("Choose one liquid, one solid and one gas tool.")
        return tuple(chosen)
    if options.get("first_game"):
        firsts = tuple(next((t.id for t in by_state[s] if t.first_game), "") for s in STATES)
        if not all(firsts):
            raise IllegalAction("This card set has no first-game tool of every state.")
        return firsts
    if not all(by_state.values()):
        raise IllegalAction("This card set lacks a liquid, a solid or a gas tool.")
    return tuple(rng.choice(by_state[s]).id for s in STATES)
