"""Bots in the free trades (engine/compounded/bot_trades.py): every offer a
bot proposes is one element for another that raises its worth and lowers
nobody's, a bot opens at most one offer a phase and never cancels one it
proposed, and it waits for the answer rather than moving on. Played by
every level on three-player tables (two players trade with the dish)."""

from __future__ import annotations

import pytest

from engine.bots import choose
from engine.bots.levels import next_mover
from engine.bots.stream import arena_rng, decision_rng
from engine.compounded import bot_trades
from engine.compounded.evaluate import worth
from tests.engine.compounded.helpers import GAME, RULES

LEVELS = ("random", "greedy", "greedy")


def _play(seed: int):
    """A three-player bot game, yielding (state, seat, action) for every action."""
    s = GAME.setup(3, seed)
    order = arena_rng(seed)
    for n in range(4000):
        if GAME.is_over(s):
            return
        seat = next_mover(GAME, s, order)
        action = choose(GAME, s, seat, LEVELS[seat], decision_rng(seed, seat, n))
        yield s, seat, action
        s = GAME.apply(s, seat, action)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bot_offers_help_the_bot_and_wrong_nobody(seed: int) -> None:
    proposed = 0
    for s, seat, action in _play(seed):
        task = s.agenda[0]
        assert not bot_trades.waits(s, seat)             # a waiting bot is never asked when another can move
        if task["do"] != "trade":
            continue
        mine = next((o for o in task["offers"] if o["from"] == seat), None)
        if action["type"] == "trade_with":
            assert task["opened"][seat] < bot_trades.OFFERS      # one offer a phase
        if action["type"] == "cancel_offer":
            assert not mine["proposed"]                  # never takes back what it showed
        if action["type"] == "propose":
            proposed += 1
            give, get = mine["give"], mine["get"]
            assert len(give) == len(get) == 1 and sum(give.values()) == sum(get.values()) == 1
            assert give.keys() != get.keys()             # never "1 H for your 1 H"
            after = GAME.apply(GAME.apply(s, seat, action), mine["to"], {"type": "accept", "seat": seat})
            assert worth(RULES, after, seat) - worth(RULES, s, seat) >= bot_trades.GAIN
            assert worth(RULES, after, mine["to"]) >= worth(RULES, s, mine["to"]) - 1e-9
    assert proposed > 0


def test_a_bot_with_an_offer_out_waits_and_answers_offers_to_it() -> None:
    """Once its offer is proposed the bot's proposals are empty (it waits),
    unless an offer to it waits for its answer."""
    seen_wait = seen_answer = False
    for s, seat, action in _play(5):
        task = s.agenda[0]
        if task["do"] != "trade":
            continue
        for other in s.order():
            if task["done"][other]:
                continue
            mine = next((o for o in task["offers"] if o["from"] == other), None)
            to_answer = any(o["to"] == other and o["proposed"] for o in task["offers"])
            if mine is not None and mine["proposed"]:
                if to_answer:
                    seen_answer = True
                    assert {a["type"] for a in GAME.proposals(s, other)} <= {"accept", "decline"}
                else:
                    seen_wait = True
                    assert GAME.waits(s, other) and GAME.proposals(s, other) == []
    assert seen_wait
