"""What a balance report reads from Lab Notes (:meth:`engine.core.Game.card_uses`):
notecards **claimed** (a box of the sheet checked for the card), and tool
cards **unlocked** (on the Tools track) and **used** (an ability applied).

>>> from engine.labnotes.state import Claim
>>> from labkit.cardsets import NamedGame
>>> s = NamedGame("labnotes")().setup(2, seed=1)
>>> t = s.copy()
>>> t.seats[1].claims += (Claim("ammonia", 6, (0, 1)),)
>>> card_uses(s, t)
((1, 'ammonia', 'claimed'),)
"""

from __future__ import annotations

from collections import Counter

from engine.labnotes.rules import Rules
from engine.labnotes.state import State

END = "a note sheet is full"
"""The rulebook's one end: after the turn in which a sheet has no empty space."""


def card_names(rules: Rules) -> dict[str, str]:
    """Every notecard but the Lab Fires (no one claims those), then every tool card."""
    out = {cid: card.name for cid, card in sorted(rules.cards.items()) if cid not in rules.lab_fires}
    out.update({tid: tool.name for tid, tool in rules.tools.items()})
    return out


def _new(was: tuple, now: tuple) -> list:
    """What ``now`` holds beyond ``was`` (a turn's list starts empty again at a new turn)."""
    return list((Counter(now) - Counter(was)).elements()) if now[:len(was)] == was else list(now)


def card_uses(before: State, after: State) -> tuple[tuple[int, str, str], ...]:
    out: list[tuple[int, str, str]] = []
    for seat, (was, now) in enumerate(zip(before.seats, after.seats)):
        out += [(seat, c.notecard, "claimed") for c in now.claims[len(was.claims):]]
        out += [(seat, t, "unlocked") for t in now.tools[len(was.tools):]]
        out += [(seat, t, "used") for t in _new(was.used, now.used)]
    return tuple(out)
