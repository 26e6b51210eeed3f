"""Soft hyphens in long card names (companion/hyphens.py); the browser
test that every name breaks only where a hyphen shows is in test_layouts.py."""

from __future__ import annotations

from typing import Any

from companion.hyphens import SOFT_HYPHEN, soft_hyphens
from companion.plugins import ascii_html


def test_a_long_name_gets_soft_hyphens_between_its_parts_and_reads_the_same() -> None:
    marked = soft_hyphens("Nitromethane")
    assert SOFT_HYPHEN in marked and marked.replace(SOFT_HYPHEN, "") == "Nitromethane"
    assert "Meth\u00adane\u00adthiol" in soft_hyphens("Methanethiol")


def test_short_words_and_the_spaces_between_words_are_left_as_they_are() -> None:
    assert soft_hyphens("Urea") == "Urea"
    assert soft_hyphens("Nitric Acid") == "Nitric Acid"
    two = soft_hyphens("Dinitrogen Tetroxide")
    assert two.count(" ") == 1 and two.replace(SOFT_HYPHEN, "") == "Dinitrogen Tetroxide"


def test_the_compounded_grid_draws_its_names_with_them(app: Any, api: Any) -> None:
    table = api.table(game="compounded", players=["Ada", "Bo"], seed=7)   # Nitromethane on the grid
    page = app.test_client().get(f"/t/{table['code']}").get_data(as_text=True)
    assert ascii_html(soft_hyphens("Nitromethane")) in page
