"""Shared by the bot tests: every registered game, and a small budget that
keeps a planner game to a few seconds (the bench measures real budgets)."""

from __future__ import annotations

import pytest

from engine.bots import Budget
from labkit import registry
from labkit.cardsets import new_game

NAMES = registry.names()
SMALL = Budget(iterations=4, depth=2, width=3, sample=3)
"""The planner's whole machinery (pruning, halving, greedy rollouts) at a
size a test can afford; how strong it is belongs to ``make bench``."""


@pytest.fixture(scope="module", params=NAMES)
def game(request):
    return new_game(registry.find(request.param))


def table_size(game) -> int:
    """Two players where the box allows, so that there is someone to beat."""
    return max(2, game.min_players) if game.max_players >= 2 else game.min_players
