"""A Lab Notes robot that fills its sheet, for driving a table to its end quickly.

>>> import random
>>> robot_move([{"type": "finish"}, {"type": "notate", "element": "H", "space": 3}], random.Random(1))
{'type': 'notate', 'element': 'H', 'space': 3}
"""

from __future__ import annotations

import random
from typing import Any

# What a player who only wants the game to move on does first.
_EAGER = ("roll", "take_die", "burn", "choose_element", "notate", "claim", "bet")
_LAST = ("finish", "trash")


def robot_move(actions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A legal move that fills the sheet: take, notate and claim before
    finishing, so a game driven by it reaches its end quickly."""
    for kind in _EAGER:
        options = [a for a in actions if a["type"] == kind]
        if options:
            return rnd.choice(options)
    for kind in _LAST:
        options = [a for a in actions if a["type"] == kind]
        if options:
            return options[0]
    return rnd.choice(actions)
