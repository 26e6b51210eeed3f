"""What the Compounded rules booklet and player aid say about the rules a
review found stated wrongly, each against the rulebook's sentence and the
engine. (tests/generator/test_booklets.py checks the tables, the coverage
of the rulebook and the PDFs.)"""

from __future__ import annotations

import re
from pathlib import Path

from engine.compounded.lab import compound_points
from tests.engine.compounded.helpers import CARDS, GAME, RULES, at, bench, fresh, put
from tests.rulebook import follows

FOLDER = Path(__file__).resolve().parents[3] / "templates" / "compounded"
BOOKLET = (FOLDER / "booklet.md").read_text("utf-8")
AID = (FOLDER / "player-aid.md").read_text("utf-8")


def section(title: str) -> str:
    start = BOOKLET.index(title)
    end = BOOKLET.find("\n## ", start + 1)
    return BOOKLET[start:end]


def steps(text: str) -> list[str]:
    """The top-level numbered steps of ``text``, each with its indented lines."""
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"^\d+\. ", line):
            out.append(line)
        elif out and line.startswith("   "):
            out[-1] += "\n" + line
    return out


@follows("compounded.md", "Scientists may trade 3 of a kind for any element in the bag.")
def test_an_exchange_takes_any_element_in_the_bag():
    research = section("### Research (green)")
    assert "different element" not in BOOKLET
    assert "any one element you choose out of the bag" in research and "even one of the kind you gave" in research
    s = fresh(3)
    s = bench(s, 0, {"O": 3})
    s = at(s, {"do": "research"}, {"do": "end_round"})
    assert {"type": "exchange", "give": "O", "take": "O"} in GAME.actions(s, 0)


@follows("compounded.md", "The Lab Fire card remains in the Research Field until the end of the NEXT Lab phase.")
def test_a_lab_fire_card_stays_until_the_end_of_the_next_lab_phase():
    fires = section("## Lab Fires and explosions")
    assert "stays in its grid space until the end of the next Lab phase" in fires
    assert "just before this refill" not in BOOKLET and "until the refill" not in BOOKLET
    lab = steps(section("### Lab (purple)"))
    refill = next(i for i, s in enumerate(lab) if s.split(". ", 1)[1].startswith("Refill the grid"))
    leaves = next(i for i, s in enumerate(lab) if "from the previous round" in s)
    assert leaves == refill + 1 and "at the end of this Lab phase it leaves" in lab[leaves]
    aid = AID[AID.index("**Lab**"):]
    assert aid.index("Refill the grid") < aid.index("Lab Fire leaves now")
    # the engine: after the next Lab phase's refill, the old fire is gone and its space is refilled
    s = fresh(3)
    fire = sorted(CARDS.lab_fires)[0]
    s = put(s, 0, fire)
    s.grid[0].since = s.round
    s.round += 1
    s = at(s, {"do": "lab_tail"}, {"do": "end_round"})
    assert fire in s.discard and RULES.compound(s.grid[0].card)


@follows("compounded.md", "You score the indicated number of points. Each Flame token on the compound reduces "
         "the score by 2.")
def test_no_floor_under_a_burnt_compound():
    """The booklet said "A compound never scores less than 0"; the rulebook has no such rule. Its
    question about it now gives Ammonia, as the engine scores it."""
    for text in (BOOKLET, AID):
        assert "less than 0" not in text and "never below 0" not in text and "0 at worst" not in text
    ammonia = RULES.compound("ammonia")
    s = fresh(3)
    s = put(s, 0, "ammonia", flames=ammonia.flame_slots)
    back = -compound_points(RULES, s, 0)
    assert (ammonia.points, s.grid[0].flames, back) == (6, 4, 2)
    assert (f"Ammonia, worth {ammonia.points}, with all four of its flame slots full, "
            f"moves your marker back {back}") in BOOKLET


@follows("compounded.md", "Each scientist may take turns trading 1 element, until both pass.")
def test_the_two_player_dish_has_no_swap_cap_in_print():
    """The engine stops a scientist after as many swaps as the dish holds: a bound so that bots and idle
    phones always end the phase (docs/design/compounded.md, reading 8), not a rule to print."""
    dish = section("### Two scientists: the Evaporating Trade Dish")
    assert "Trading is over when both of you have passed" in dish
    assert "at most" not in dish and "as many times as the dish" not in BOOKLET
    design = (FOLDER.parents[1] / "docs" / "design" / "compounded.md").read_text("utf-8")
    assert re.search(r"8\. \*\*Dish trading\*\*.*?a bound, not a rule", design, re.S)
