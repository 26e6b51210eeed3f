"""Roll Dice and Select Element Dice (rulebook, Round Order).

The lead rolls every die in play; then each player, in turn order from the
lead, takes one die; the last player chooses from two, and the die left over
becomes the Community die, which everyone notates too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Action, IllegalAction
from engine.labnotes.reading import whole_number
from engine.labnotes.state import BURNER, Sheet, State
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules


def offers(r: "Rules", s: State, seat: int) -> list[Action]:
    if s.phase == "roll":
        return [{"type": "roll"}]
    return [{"type": "take_die", "die": i} for i, d in enumerate(s.dice) if d.place == "pool"]


def roll(r: "Rules", s: State, seat: int, a: Action) -> None:
    if s.phase != "roll":
        raise IllegalAction("The dice are rolled only at the start of a round.")
    if seat != s.lead:
        raise IllegalAction("Only the lead player rolls the dice.")
    rng = Rng(s.rng)
    for d in s.dice:
        if d.place == "cup":
            d.face, d.place = rng.choice(r.faces[d.colour]), "pool"
    s.rng = rng.state
    s.phase, s.picks, s.rerolls = "select", 0, 0


def pool_die(s: State, value: Any) -> int:
    i = whole_number(value, "A die")
    if not 0 <= i < len(s.dice) or s.dice[i].place != "pool":
        raise IllegalAction(f"Die {i} is not available.")
    return i


def picker(r: "Rules", s: State, seat: int, what: str) -> Sheet:
    r.seat_turn(s, seat, "select", what)
    if seat != s.picker():
        raise IllegalAction("It is not your pick yet: dice are taken in turn order from the lead player.")
    return s.seats[seat]


def take_die(r: "Rules", s: State, seat: int, a: Action) -> None:
    picker(r, s, seat, "take a die")
    d = s.dice[pool_die(s, a["die"])]
    d.place, d.seat = "seat", seat
    s.picks += 1
    s.rerolls = 0
    if s.picks == s.players:
        for d in s.dice:
            if d.place == "pool":
                d.place = "community"
        start_notate(s)


def start_notate(s: State) -> None:
    """Everyone now knows their die and the Community die: notate them."""
    s.phase = "notate"
    community = s.community()
    assert community is not None
    for i, sh in enumerate(s.seats):
        die = s.die_of(i)
        assert die is not None
        pending = []
        sh.burns = 0
        if die.face == BURNER:
            sh.burns = 1  # the burner burns first, then gives any element
        else:
            pending.append((die.face, "die"))
        if community.face != BURNER:
            pending.append((community.face, "community"))
        sh.pending, sh.choosing, sh.placed, sh.done = tuple(pending), False, (), False
