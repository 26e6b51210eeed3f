"""Synthesis at the table: the game registered for these tests (it may also
be installed), tables made through the JSON API, pages read as a phone reads
them, and the robot a table plays by."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from engine.synthesis import GAME
from labkit import registry
from tests.companion.reading import attr, key, offered, page, section  # noqa: F401 (the tests import them from here)

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture(autouse=True)
def synthesis() -> Iterator[None]:
    known = "synthesis" in registry.games()
    registry.register(GAME)
    yield
    if not known:
        registry.unregister("synthesis")


def table(api: Any, players: int = 2, seed: int = 5, options: dict | None = None) -> dict[str, Any]:
    return api.table(game="synthesis", seed=seed, players=NAMES[:players], options=options)


def robot(actions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A player that moves the game on: draws the bond, takes what molecules
    offer, uses a free bond now and then, and finishes."""
    for kind in ("choose_goals", "roll", "elemental", "active_bond", "bond"):
        found = [a for a in actions if a["type"] == kind]
        if found:
            return rnd.choice(found)
    free = [a for a in actions if a["type"] == "free_bond"]
    if free and rnd.random() < 0.5:
        return rnd.choice(free)
    for kind in ("pass", "decline", "finish"):
        found = [a for a in actions if a["type"] == kind]
        if found:
            return found[0]
    return rnd.choice(actions)


def step(api: Any, code: str, tokens: list[str], rnd: random.Random) -> dict[str, Any]:
    """One robot move by the first seat to move; returns the table before it."""
    now = api.state(code)
    seat = now["to_move"][0]
    mine = api.state(code, tokens[seat])
    response = api.act(code, tokens[seat], robot(mine["actions"], rnd), mine["version"])
    assert response.status_code == 200, response.json
    return mine


def drive(api: Any, code: str, tokens: list[str], until, rnd: random.Random, limit: int = 2000) -> dict[str, Any]:
    """Robot moves until ``until(table)`` holds (checked before each move)."""
    for _ in range(limit):
        now = api.state(code)
        if until(now):
            return now
        assert now["status"] != "over", "the game ended first"
        step(api, code, tokens, rnd)
    raise AssertionError("not reached")
