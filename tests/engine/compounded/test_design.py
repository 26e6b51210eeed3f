"""The design doc (docs/design/compounded.md): every numbered reading of the
rulebook, in the engine's section and at the table's, names a test that
exists (in tests/engine/compounded or tests/companion/compounded), and the
numbers run 1, 2, 3 ... without a gap. The readings not tested elsewhere
are tested here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.engine.compounded.helpers import GAME, fresh
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
