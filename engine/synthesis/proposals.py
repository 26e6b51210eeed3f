"""The actions a bot weighs (:meth:`engine.core.Game.proposals`): fewer
than a phone is offered where the list is long.

A rolled bond fits a board in up to two hundred ways, and a free bond is
any open line in any of four colours; applying each to see what it does is
most of a bot's time. Most are alike to a player who plans: what counts
is which hexagons a drawing closes or brings near closing. So each drawing
is judged first by that alone, from the lines themselves (no move is made),
and a bot weighs the best :data:`KEEP` of them; every other action (the
elemental choice, finish, pass, decline) it weighs in full. Boards are
public, so nothing here reads what the seat may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action
from engine.synthesis.evaluate import NEAR
from engine.synthesis.formula import LINE, Formula
from engine.synthesis.state import State
from engine.synthesis.turn import bond_masks, plain_masks

if TYPE_CHECKING:
    from engine.synthesis.rules import Rules

KEEP = 30
"""Drawings of a rolled or an active molecule's bond weighed."""
KEEP_FREE = 5
"""Lines weighed for a free bond (each in every colour)."""
CLOSES = 4.0
"""A hexagon a drawing closes, against :data:`~engine.synthesis.evaluate.NEAR` for one it brings near."""


def proposals(rules: "Rules", state: State, seat: int) -> list[Action]:
    offered = rules.actions(state, seat)
    if len(offered) <= KEEP + 2:
        return offered
    s = state.seats[seat]
    f = rules.formula(state, seat)
    labels = rules.labels(state, seat)
    present = f.occupied(s.lines)
    if s.pending:  # an active molecule's bond (an elemental choice has two actions)
        masks = _best(f, present, plain_masks(rules, state, seat, s.pending[0].shape), KEEP)
        return [{"type": "active_bond", "lines": labels(m)} for m in masks] + [{"type": "decline"}]
    out: list[Action] = []
    if s.todo:
        masks = bond_masks(rules, state, seat)
        out += [{"type": "bond", "lines": labels(m)} for m in _best(f, present, masks, KEEP)]
        if not masks:
            out.append({"type": "pass"})
    if f.free_left(s) > 0:
        for m in _best(f, present, plain_masks(rules, state, seat, LINE), KEEP_FREE):
            line = labels(m)[0]
            out += [{"type": "free_bond", "line": line, "colour": c} for c in rules.colour_ids]
    if not s.todo:
        out.append({"type": "finish"})
    return out


def _best(f: Formula, present: int, masks: list[int], keep: int) -> list[int]:
    """The ``keep`` drawings that close or near-close the most, in the order offered."""
    if len(masks) <= keep:
        return masks
    lat = f.lattice
    start = f.layout.start

    def promise(m: int) -> float:
        after = present | m
        touched = {h for e in lat.edges_of_mask(m) for h in lat.edge_hexes[e] if h != start}
        value = 0.0
        for h in touched:
            if lat.hex_mask[h] & present == lat.hex_mask[h]:
                continue  # closed already
            k = (lat.hex_mask[h] & after).bit_count()
            value += CLOSES if k == 6 else NEAR.get(k, 0.0)
        return value

    ranked = sorted(range(len(masks)), key=lambda i: (-promise(masks[i]), i))
    return [masks[i] for i in sorted(ranked[:keep])]
