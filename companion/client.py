"""A small client of the companion's JSON API (described at
``/api/openapi.json``), for scripts, tests and the load benchmark; and a
robot player that fills its sheet, for driving a game to its end.

>>> robot_move([{"type": "finish"}, {"type": "notate", "element": "H", "space": 3}], random.Random(1))
{'type': 'notate', 'element': 'H', 'space': 3}
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         timeout: float = 20) -> tuple[int, Any]:
    """One API request: ``(HTTP status, decoded JSON body)``. A seat or the
    host acts with its token (``Authorization: Bearer``)."""
    data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


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
