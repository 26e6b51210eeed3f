"""What a bot does in the Discover phase's free trades (:meth:`Compounded.proposals`).

A free trade is built in steps a phone can take one at a time (open an
offer, add what you give and ask, propose; the other scientist accepts or
declines: :mod:`engine.compounded.discover`). Weighed one step at a time,
each step of building an offer changes nothing a bot can value, so bots
picked steps at random: offers no player would make ("3 H for your 1 H"),
cancelled a moment later, a score of log lines a minute. So a bot trades
like a player who has thought first:

* it answers the offers made to it first (accept or decline: the bot's
  level weighs the two);
* it makes at most one offer a phase (:data:`OFFERS`: a bot's habit, not
  a rule), and only the one-for-one exchange that helps it most, by at
  least :data:`GAIN`, and leaves the other scientist no worse off by the
  same evaluation (an offer a person can take seriously);
* it builds that offer step by step and proposes it, then waits for the
  answer (:func:`waits`: the bot makes no move until the table changes), so
  a person has all the time they need to read it;
* then, with nothing left to answer, it is done trading.

Everything it reads lies face up (the Workbenches and the offers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.compounded.evaluate import bench_worth
from engine.compounded.state import State, add, take
from engine.core import Action

if TYPE_CHECKING:
    from engine.compounded.flow import Rules

OFFERS = 1
"""Offers a bot opens in one Discover phase (a habit of the bots, not a rule:
the rules let a scientist open up to ``discover.MAX_OFFERS``)."""
GAIN = 0.5
"""The least a bot's worth (:func:`engine.compounded.evaluate.worth`) must
grow by for an exchange to be worth offering: half a point, an element's
end value."""


def _task(s: State) -> dict | None:
    task = s.agenda[0] if s.agenda and not s.over else None
    return task if task is not None and task.get("do") == "trade" else None


def _mine(task: dict, seat: int) -> dict | None:
    return next((o for o in task["offers"] if o["from"] == seat), None)


def _to_answer(task: dict, seat: int) -> bool:
    return any(o["to"] == seat and o["proposed"] for o in task["offers"])


def waits(s: State, seat: int) -> bool:
    """Whether ``seat``'s bot waits for an answer: its offer is proposed and
    nobody's offer waits for its own answer."""
    task = _task(s)
    if task is None or task["done"][seat]:
        return False
    mine = _mine(task, seat)
    return mine is not None and mine["proposed"] and not _to_answer(task, seat)


def best_exchange(r: "Rules", s: State, seat: int, partners: list[int]) -> tuple[int, str, str] | None:
    """The one-for-one exchange ``(partner, element given, element asked)``
    that raises ``seat``'s worth most, by at least :data:`GAIN`, and lowers
    the partner's not at all; ``None`` if there is none.

    >>> from tests.engine.compounded.helpers import GAME
    >>> s = GAME.setup(2, seed=1)
    >>> best_exchange(GAME.rules, s, 0, [1]) is None or len(best_exchange(GAME.rules, s, 0, [1])) == 3
    True
    """
    work = s.copy()
    mine = work.scientists[seat].bench
    worth = bench_worth(r, work)  # only the two Workbenches change below
    base_me = worth(seat)
    best: tuple[float, int, str, str] | None = None
    for t in partners:
        theirs = work.scientists[t].bench
        base_them = worth(t)
        for give in list(mine):
            for get in list(theirs):
                if give == get:
                    continue
                take(mine, give), add(theirs, give), take(theirs, get), add(mine, get)
                gain, loss = worth(seat) - base_me, base_them - worth(t)
                take(mine, get), add(theirs, get), take(theirs, give), add(mine, give)
                if gain >= GAIN and loss <= 1e-9 and (best is None or gain > best[0]):
                    best = (gain, t, give, get)
    return None if best is None else best[1:]


def proposals(r: "Rules", s: State, seat: int, offered: list[Action]) -> list[Action]:
    """The trade steps a bot weighs, among ``offered`` (the seat's legal actions)."""
    task = _task(s)
    if task is None:
        return offered
    answers = [a for a in offered if a["type"] in ("accept", "decline")]
    if answers:
        return answers
    mine = _mine(task, seat)
    if mine is not None and mine["proposed"]:
        return []   # waiting for the answer (see ``waits``)
    done = [a for a in offered if a["type"] == "done_trading"]
    if mine is None:
        if task["opened"][seat] >= OFFERS:
            return done
        partners = [a["seat"] for a in offered if a["type"] == "trade_with"]
        plan = best_exchange(r, s, seat, partners)
        return [{"type": "trade_with", "seat": plan[0]}] if plan else done
    plan = best_exchange(r, s, seat, [mine["to"]])
    if plan is None or any(e != plan[1] for e in mine["give"]) or any(e != plan[2] for e in mine["get"]):
        return [a for a in offered if a["type"] == "cancel_offer"]   # the board changed: no longer worth it
    if not mine["give"]:
        step = {"type": "offer_give", "element": plan[1]}
    elif not mine["get"]:
        step = {"type": "offer_ask", "element": plan[2]}
    else:
        step = {"type": "propose"}
    return [step] if step in offered else done
