"""The design doc (docs/design/synthesis.md): every numbered reading of the
rulebook names a test that exists, and the figures it gives for the cards
are the data's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "design" / "synthesis.md"
HERE = ROOT / "tests" / "engine" / "synthesis"


def readings() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Rules the rulebook leaves open", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", section, re.S | re.M)
    return [(int(n), body) for n, body in items]


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_reading_names_a_test_that_exists():
    found = readings()
    assert [n for n, _ in found] == list(range(1, len(found) + 1)) and len(found) >= 25
    for n, body in found:
        # a test beside this one (test_x.py) or anywhere under tests/ (tests/.../test_x.py)
        named = re.findall(r"`((?:tests/[\w/]+/)?test_\w+\.py)::(test_\w+)`", body)
        assert named, f"reading {n} names no test"
        for file, test in named:
            path = ROOT / file if file.startswith("tests/") else HERE / file
            assert test in defined_tests(path), f"reading {n}: {file}::{test} does not exist"


def test_the_card_figures_in_the_doc_are_the_datas(game):
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "side A 5, 6, 6, 6, 4, 3" in text and "side B 4, 6, 7, 7, 4, 2" in text
    for card in game.cards.chains.values():
        assert card.row.name in text
    assert len(game.cards.layouts) == 24 and "24 layouts" in text
