"""The end of a round: Refill Notecards, Lab Fires, the unattended Bunsen
Burner, the lead passing left, and End Game (rulebook).

:func:`settle` runs after every action: it does what needs no choice (burns
with no empty space left, elements that can go nowhere) and closes a phase
when everyone is done with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.labnotes.scoring import unconnected
from engine.labnotes.state import BURNER, State
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules


def settle(r: "Rules", s: State) -> None:
    if s.phase == "notate":
        for sh in s.seats:
            if not sh.has_empty():
                sh.burns, sh.choosing = 0, False
                if len(sh.trash) >= r.trash_cans:
                    sh.pending = ()
        if all(sh.done for sh in s.seats):
            end_round(r, s)
    elif s.phase == "fire":
        for sh in s.seats:
            if not sh.has_empty():
                sh.burns = sh.fires = 0
        if not any(sh.fires or sh.burns for sh in s.seats):
            end_turn(r, s)


def end_round(r: "Rules", s: State) -> None:
    fires = refill(r, s) if s.claimed else 0
    community = s.community()
    if community is not None and community.face == BURNER:
        fires += 1  # an unattended Bunsen Burner is a Lab Fire for everyone
    s.fires = fires
    for sh in s.seats:
        sh.done, sh.placed, sh.burns = False, (), 0
        sh.fires = fires if sh.has_empty() else 0
    if any(sh.fires for sh in s.seats):
        s.phase = "fire"
    else:
        end_turn(r, s)


def keep_deck(s: State, rng: Rng) -> None:
    """"If the Notecard deck is ever empty, shuffle the discard pile and place
    it face-down to form a new deck": at once, the moment it empties (design
    doc, rule 12), so a card that falls off the line later waits its turn."""
    if not s.deck and s.discard:
        s.deck, s.discard = s.discard, []
        rng.shuffle(s.deck)


def draw(s: State, rng: Rng) -> str | None:
    keep_deck(s, rng)
    if not s.deck:
        return None
    card = s.deck.pop(0)
    keep_deck(s, rng)
    return card


def refill(r: "Rules", s: State) -> int:
    """Refill Notecards: the third card goes, the others shift, a new one
    is revealed. Returns the Lab Fires revealed (design doc, rule 11)."""
    rng = Rng(s.rng)
    fires = 0
    if len(s.line) >= 3:
        s.discard.append(s.line.pop())
    card = draw(s, rng)
    if card is not None:
        s.line.insert(0, card)
        fires += card in r.lab_fires
    for _ in range(4 * len(r.card_ids) + 4):  # ends long before: a bound, not a rule
        if sum(c in r.lab_fires for c in s.line) < 2:
            break
        s.discard.extend(c for c in s.line if c in r.lab_fires)
        s.line = [c for c in s.line if c not in r.lab_fires]
        while len(s.line) < 3:
            card = draw(s, rng)
            if card is None:
                break
            s.line.insert(0, card)
            if card in r.lab_fires:
                fires += 1
                if sum(c in r.lab_fires for c in s.line) >= 2:
                    break
    keep_deck(s, rng)
    s.rng = rng.state
    return fires


def end_turn(r: "Rules", s: State) -> None:
    if any(not sh.has_empty() for sh in s.seats):
        for sh in s.seats:  # End Game: unconnected elements burn, no tool prevents it
            for k in unconnected(sh.spaces, sh.bonds):
                sh.burn(k, "unconnected", s.round)
            sh.new_turn()
        s.phase = "over"
        return
    s.lead = (s.lead + 1) % s.players
    s.round += 1
    s.phase, s.picks, s.rerolls, s.claimed, s.fires = "roll", 0, 0, False, 0
    for d in s.dice:
        if d.place != "box":
            d.face, d.place, d.seat = None, "cup", None
    for sh in s.seats:
        sh.new_turn()
