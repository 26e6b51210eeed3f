"""The design doc (docs/design/organicsoup.md): the deck can be won, checked
in code, and every numbered reading of the rulebook names a test that exists."""

from __future__ import annotations

import ast
import re

import pytest

from engine.organicsoup.atoms import fits, times
from engine.organicsoup.finder import find_products, total_atoms
from tests.engine.organicsoup.conftest import ROOT, at, ingredient as ing, react

DOC = ROOT / "docs" / "design" / "organicsoup.md"


def basic_and_simple(cards):
    return [r for r in cards.recipes if r.level in ("basic", "simple")]


def test_every_recipe_fits_in_the_atom_deck(cards):
    """A winning molecule the atom deck cannot hold would be a bug."""
    for r in cards.recipes:
        assert fits(r.atoms, cards.atom_deck), r.name


def test_every_simple_recipe_can_be_formed_from_basic_molecules(cards):
    """One or two molecules of it, from Graphite, Hydrogen, Nitrogen and
    Oxygen molecules alone (N2 + O2 make two Nitric Oxide)."""
    basics = cards.level("basic")
    for r in cards.level("simple"):
        assert any(find_products(times(r.atoms, k), basics) for k in (1, 2)), r.name


@pytest.mark.parametrize("level", ["complex", "amino"])
def test_every_larger_recipe_can_be_formed_from_basic_and_simple_molecules(cards, level):
    """Design doc, "Why the deck can be won": one molecule of each complex
    and amino/nucleic recipe is a reaction of basic and simple molecules,
    which any player can build once those recipes are on the board."""
    for r in cards.level(level):
        route = find_products(r.atoms, basic_and_simple(cards))
        assert route is not None, r.name
        assert total_atoms(cards, route) == r.atoms


def test_the_nitrogen_rule_and_its_radicals(cards):
    """Closed-shell molecules hold Hydrogen and Nitrogen both odd or both
    even; only the radicals (Nitric Oxide, Nitrogen Dioxide) do not."""
    breaks = {r.id for r in cards.recipes if (r.atoms[1] + r.atoms[2]) % 2}
    radicals = {r.id for r in cards.recipes if any(r.structure.radicals) and r.id != "graphite"}
    assert breaks == radicals == {"nitric-oxide", "nitrogen-dioxide"}


def test_glutamic_acid_from_basic_molecules_and_ammonia(game):
    """The design doc's example: 5 Graphite + 1 Ammonia + 3 Hydrogen + 2
    Oxygen react into Glutamic Acid, for a player with a complex recipe in
    front of him and Glutamic Acid in hand."""
    s = at("graphite*5 ammonia hydrogen*3 oxygen*2 +propane ?glutamic-acid | +ammonia")
    after = game.apply(s, 0, react([ing(0, "graphite", 5), ing(0, "ammonia"), ing(0, "hydrogen", 3),
                                    ing(0, "oxygen", 2)], {"glutamic-acid": 1}))
    assert after.winner == 0


def readings() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Rules the rulebook leaves open", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", section, re.S | re.M)
    return [(int(n), body) for n, body in items]


def defined_tests(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_reading_names_a_test_that_exists():
    found = readings()
    assert [n for n, _ in found] == list(range(1, len(found) + 1)) and len(found) >= 15
    here = ROOT / "tests" / "engine" / "organicsoup"
    for n, body in found:
        named = re.findall(r"`(test_\w+\.py)::(test_\w+)`", body)
        assert named, f"reading {n} names no test"
        for file, test in named:
            assert test in defined_tests(here / file), f"reading {n}: {file}::{test} does not exist"
