"""What every legal Compounded state keeps: nothing lost, nothing invented.

* the 90 element gems are all somewhere: bag, workbenches, compounds, the
  Lead Scientist tray, the Evaporating Trade Dish, or an explosion in the air;
* every card is in exactly one place: deck, grid or discard pile;
* the 30 flame tokens and 35 tool tiles add up;
* no two score markers share a space on the track;
* claims fit their spots, and tokens match the Study level.
"""

from __future__ import annotations

from collections import Counter

from engine.compounded.cards import ELEMENTS
from engine.compounded.flow import Rules
from engine.compounded.state import State, cell_of, tool_of
from engine.core import InvalidState


def gems(s: State) -> Counter:
    """Every gem on the table, by element."""
    out: Counter = Counter()
    for counts in [s.bag, s.tray, s.dish, *(sc.bench for sc in s.scientists), *(c.elements for c in s.grid)]:
        out.update(counts)
    for task in s.agenda:
        if task["do"] == "scatter":
            out.update(task["elements"])
    return out


def check(r: Rules, s: State) -> None:
    problems = []
    have = gems(s)
    if any(have[e] != r.distribution[e] for e in ELEMENTS):
        problems.append(f"element gems: expected {r.distribution}, found {dict(have)}")
    cards = s.deck + s.lab_partner_deck + s.discard + [c.card for c in s.grid if c.card]
    every = list(r.cards.deck) + (list(r.cards.lab_partners) if s.options["lab_partners"] else [])
    if sorted(cards) != sorted(every):
        problems.append("cards: some card is lost, doubled or invented")
    if len(s.grid) != s.rows * s.cols or len(s.scientists) != s.players:
        problems.append("the grid or the table has the wrong size")
    flames = s.flame_supply + sum(c.flames for c in s.grid)
    if flames != r.cards.table.flame_tokens:
        problems.append(f"flame tokens: expected {r.cards.table.flame_tokens}, found {flames}")
    for tool, n in r.tool_counts.items():
        held = sum(tool in sc.tools for sc in s.scientists)
        if held + s.tool_supply.get(tool, 0) != n:
            problems.append(f"{tool}: expected {n} tiles, found {held} held and {s.tool_supply.get(tool, 0)} in supply")
    scores = [sc.score for sc in s.scientists if sc.score > 0]
    if len(scores) != len(set(scores)):
        problems.append(f"two score markers share a space: {scores}")
    for seat, sc in enumerate(s.scientists):
        if sc.score != sum(sc.lines.values()):
            problems.append(f"scientist {seat + 1}: score {sc.score} is not the sum of its lines")
        if len(sc.tokens) != r.tracks["study"].levels[sc.level("study")]:
            problems.append(f"scientist {seat + 1}: {len(sc.tokens)} claim tokens for their Study level")
    for i, c in enumerate(s.grid):
        claims = r.claimants(s, i)
        if claims and not r.compound(c.card):
            problems.append(f"space {i}: a claim on no compound")
        elif claims and len(claims) > r.spots(s, i):
            problems.append(f"space {i}: more claims than claim spots")
        if c.card and r.compound(c.card) and any(c.elements.get(e, 0) > n for e, n in r.compound(c.card).needs):
            problems.append(f"space {i}: more elements than the compound needs")
    spaces = [tool_of(t) for sc in s.scientists for t in sc.tokens if tool_of(t)]
    if len(spaces) != len(set(spaces)):
        problems.append("two claim tokens on one tool refresh space")
    if any(cell_of(t) is not None and not 0 <= cell_of(t) < len(s.grid) for sc in s.scientists for t in sc.tokens):
        problems.append("a claim token off the grid")
    if problems:
        raise InvalidState("; ".join(problems))
