"""The design doc (docs/design/compounded.md): every numbered reading of the
rulebook, in the engine's section and at the table's, names a test that
exists (in tests/engine/compounded or tests/companion/compounded), and the
numbers run 1, 2, 3 ... without a gap. The readings not tested elsewhere
are tested here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.engine.compounded.helpers import CARDS, GAME, fresh
from tests.rulebook import follows

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "design" / "compounded.md"
FOLDERS = (ROOT / "tests" / "engine" / "compounded", ROOT / "tests" / "companion" / "compounded")


def readings() -> list[tuple[int, str]]:
    """``(number, text)`` of every numbered reading: a line ``N. **...`` up to the next one or a blank line."""
    text = DOC.read_text(encoding="utf-8")
    return [(int(n), body) for n, body in re.findall(r"^(\d+)\. (\*\*.*?)(?=^\d+\. |^\s*$)", text, re.S | re.M)]


def defined_tests() -> set[str]:
    out = set()
    for folder in FOLDERS:
        for path in folder.glob("test_*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    return out


def test_every_reading_names_a_test_that_exists():
    found = readings()
    assert [n for n, _ in found] == list(range(1, len(found) + 1)) and len(found) >= 30
    tests = defined_tests()
    for n, body in found:
        named = re.findall(r"`(test_\w+)`", body)
        assert named, f"reading {n} names no test"
        missing = [t for t in named if t not in tests]
        assert not missing, f"reading {n} names tests that do not exist: {missing}"


@follows("compounded.md", "The first player (scientist) is whoever most recently mixed two liquids together.")
def test_the_first_lead_scientist_is_seat_0_unless_the_table_names_one():
    """Reading 29: the setup option ``lead``."""
    assert fresh(3).lead == 0 and GAME.to_move(fresh(3)) == [0]
    s = fresh(4, lead=2)
    assert s.lead == 2 and GAME.to_move(s) == [2] and s.order() == [2, 3, 0, 1]


@follows("compounded.md", "If you reach the top, you immediately score 10 points!", "The top nets you 5 points",
         "Everyone starts being able to place 2 elements.", "At the start of the game, everyone can keep 3 elements "
         "on their board.")
def test_the_experiment_tracks_start_and_top_as_the_rulebook_says():
    """Reading 32: the starts and the tops are the rulebook's; the steps between are ours, from the data."""
    tracks = {t.id: t for t in CARDS.workbench.tracks}
    assert [tracks[t].levels[0] for t in ("discover", "study", "research", "lab")] == [3, 1, 2, 3]
    assert [tracks[t].top_points for t in ("discover", "study", "research")] == [10, 5, 10]
    assert all(len(t.levels) == 7 for t in tracks.values()) and tracks["study"].journal_at == 3
    assert tracks["lab"].advance_points[1:] == [1, 1, 2, 2, 3, 3]  # points for reaching each place


@follows("compounded.md", "35 Tool tiles", "Each scientist takes 1 red Fire Extinguisher tool, from the tool tiles.")
def test_the_tool_tiles_are_thirty_five():
    """Reading 33: 35 tiles, one Fire Extinguisher for each of up to 5 scientists, 6 of each other tool."""
    counts = {t.id: t.count for t in CARDS.tools.values()}
    assert sum(counts.values()) == 35 and counts.pop("fire_extinguisher") == 5 and set(counts.values()) == {6}
