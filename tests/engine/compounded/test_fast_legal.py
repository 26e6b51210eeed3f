"""A bot's move is checked without listing every choice (``Decision.legal``
for placements and claims, engine/compounded/research.py and study.py):
the check must say what the full list says, for the choices and for the
near misses around them, in every state of a few bot games."""

from __future__ import annotations

from engine.bots import choose
from engine.bots.levels import next_mover
from engine.bots.stream import arena_rng, decision_rng
from engine.compounded.flow import DECISIONS, _legal
from engine.compounded.state import ELEMENTS
from tests.engine.compounded.helpers import GAME, RULES


def _near(s, a: dict) -> list[dict]:
    """The action, and every variant a phone might send by mistake."""
    out = [a]
    if a["type"] == "place":
        out += [{**a, "cell": i} for i in range(-1, len(s.grid) + 1)] + [{**a, "element": e} for e in ELEMENTS]
        out += [{**a, "from": "tray"}, {**a, "from": "bag"}, {**a, "cell": True}, {**a, "cell": str(a["cell"])},
                {**a, "extra": 1}, {"type": "place", "element": a["element"]}]
    elif a["type"] == "claim":
        out += [{**a, "token": k} for k in range(-1, 4)] + [{**a, "token": True}, {**a, "extra": 1}]
        out += [{"type": "claim", "token": a["token"], "cell": i} for i in range(-1, len(s.grid) + 1)]
        out += [{"type": "claim", "token": a["token"], "tool": t} for t in (*RULES.refresh_spaces, "spoon", 3)]
        out += [{"type": "claim", "token": a["token"], "cell": 0, "tool": "pipette"}]
    return out


def test_the_quick_check_agrees_with_the_list_of_choices() -> None:
    seed = 3
    s, order, checked = GAME.setup(3, seed, {"lab_partners": True}), arena_rng(seed), 0
    for n in range(400):
        if GAME.is_over(s):
            break
        seat = next_mover(GAME, s, order)
        task = s.agenda[0]
        d = DECISIONS[task["do"]]
        if d.legal is not None:
            choices = d.choices(RULES, s, task, seat)
            for a in choices:
                for b in _near(s, a):
                    quick = d.legal(RULES, s, task, seat, b)
                    if quick is not None:
                        assert quick == _legal(b, choices), (task["do"], b)
                        checked += 1
        s = GAME.apply(s, seat, choose(GAME, s, seat, ("random", "greedy", "random")[seat], decision_rng(seed, seat, n)))
    assert checked > 1000
