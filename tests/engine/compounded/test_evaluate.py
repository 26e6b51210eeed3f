"""The bots' evaluation plays toward what the cards reward
(engine/compounded/evaluate.py): a claim is worth the points of the
compound it is on, so a card whose points an author changes changes where
the bots claim (what a balance report then sees), and placing an element
on one's own claimed compound gains more than holding it."""

from __future__ import annotations

import csv
import io

import pytest

from engine.bots.levels import Budget, play_greedy
from engine.compounded.cards import parse
from engine.compounded.evaluate import worth
from engine.compounded.game import Compounded
from engine.rng import Rng
from tests.engine.compounded.helpers import CARDS, FOLDER, GAME, bench, at, bench, card_files, fill, put

SEEDS = range(8)


def _with_points(card: str, points: int) -> Compounded:
    rows = list(csv.DictReader(io.StringIO((FOLDER / "compounds.csv").read_text())))
    for row in rows:
        if row["id"] == card:
            row["points"] = str(points)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return Compounded(parse(card_files(compounds__csv=out.getvalue())))


def _claims(game: Compounded) -> set[str]:
    """The compounds greedy's first claim goes to, over several decision streams
    (round 1's Study phase: every compound empty, one claim token each)."""
    s = game.setup(2, seed=1)
    picks = [play_greedy(game, s, 0, Rng(k), Budget()) for k in SEEDS]
    return {s.grid[a["cell"]].card if "cell" in a else a["type"] for a in picks}


def test_a_compound_whose_points_are_tripled_draws_the_claims() -> None:
    """Water (3 points) is no first claim in the rulebook's set; tripled, it
    is every time. Before, an empty claim was worth nothing to greedy, and
    its claims fell anywhere (a tripled card drew no more of them)."""
    assert "water" not in _claims(GAME)
    assert _claims(_with_points("water", 3 * CARDS.compounds["water"].points)) == {"water"}


def test_a_compound_made_worthless_draws_no_claims() -> None:
    """Carbon Monoxide (7 points, two elements) is a best first claim in the
    rulebook's set; at 0 points it is never claimed."""
    assert "carbon-monoxide" in _claims(GAME)
    assert "carbon-monoxide" not in _claims(_with_points("carbon-monoxide", 0))


@pytest.mark.parametrize("card", sorted(c.id for c in CARDS.compounds.values()
                                        if c.points > c.size and not c.lab_partner))
def test_placing_on_ones_claimed_compound_beats_holding_the_element(card: str) -> None:
    """At every stage of a compound whose points exceed its elements, from
    empty to one short, seat 0 holding what it still needs is worth less
    than the same with one of them placed (a bot places, it does not hoard)."""
    needs = dict(CARDS.compounds[card].needs)
    order = [e for e, n in needs.items() for _ in range(n)]
    for on in range(len(order)):
        s = put(GAME.setup(2, seed=1), 0, card)
        fill(s, 0, _counts(order[:on]))
        bench(s, 0, _counts(order[on:]))
        bench(s, 1, {})
        s.scientists[0].tokens = ["cell:0"]
        held = worth(GAME.rules, s, 0)
        after = GAME.rules.apply(_research(s), 0, {"type": "place", "element": order[on], "cell": 0})
        assert worth(GAME.rules, after, 0) > held, (card, on)


def _counts(elements: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in elements:
        out[e] = out.get(e, 0) + 1
    return out


def _research(s):
    return at(s, {"do": "research_turn", "seat": 0, "placed": 0, "exchanged": False, "rate": 3, "goggles": False})
