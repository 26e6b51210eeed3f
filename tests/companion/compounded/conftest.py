"""Compounded at the table: the game registered for these tests (it may
also be installed), tables made through the JSON API, pages read as a
phone reads them, and the policy a robot table plays by."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from engine.compounded import GAME
from labkit import registry
from tests.companion.reading import attr, key, offered, page, section  # noqa: F401 (the tests import them from here)

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve"]


@pytest.fixture(autouse=True)
def compounded() -> Iterator[None]:
    known = "compounded" in registry.games()
    registry.register(GAME)
    yield
    if not known:
        registry.unregister("compounded")


def table(api: Any, players: int = 3, seed: int = 5, options: dict | None = None) -> dict[str, Any]:
    return api.table(game="compounded", seed=seed, players=NAMES[:players], options=options)


PROGRESS = ("place", "claim", "score", "advance", "accept", "propose", "offer_give", "offer_ask")


def robot(actions: list[dict[str, Any]], rnd: random.Random, kind: str | None) -> dict[str, Any]:
    """A table that moves the game on: it trades a little, lets fires burn,
    claims, places and scores when it can."""
    if kind == "trade":
        r = rnd.random()
        for t in ("accept", "propose", "offer_ask", "offer_give"):
            found = [a for a in actions if a["type"] == t]
            if found and r < 0.8:
                return rnd.choice(found)
        opening = [a for a in actions if a["type"] == "trade_with"]
        if opening and r < 0.3:
            return rnd.choice(opening)
        return next(a for a in actions if a["type"] == "done_trading")
    if kind == "extinguish":
        return next(a for a in actions if a["type"] == "pass")
    progress = [a for a in actions if a["type"] in PROGRESS]
    return rnd.choice(progress or actions)


def step(api: Any, code: str, tokens: list[str], rnd: random.Random) -> dict[str, Any]:
    """One robot move by the first scientist to move; returns the table before it."""
    now = api.state(code)
    seat = now["to_move"][0]
    mine = api.state(code, tokens[seat])
    kind = (mine["view"]["deciding"] or {}).get("do")
    response = api.act(code, tokens[seat], robot(mine["actions"], rnd, kind), mine["version"])
    assert response.status_code == 200, response.json
    return mine


def drive(api: Any, code: str, tokens: list[str], until, rnd: random.Random, limit: int = 400) -> dict[str, Any]:
    """Robot moves until ``until(table)`` holds (checked before each move)."""
    for _ in range(limit):
        now = api.state(code)
        if until(now):
            return now
        assert now["status"] != "over", "the game ended first"
        step(api, code, tokens, rnd)
    raise AssertionError("not reached")


def deciding(kind: str):
    return lambda t: t["status"] == "playing" and (t["view"]["deciding"] or {}).get("do") == kind
