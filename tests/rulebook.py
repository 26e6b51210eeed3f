"""Tests that follow a rulebook sentence say so with :func:`follows`::

    @follows("compounded.md", "You may complete a compound that someone else has claimed")
    def test_completing_anothers_claim():
        ...

The decorator changes nothing about the test: the rule is checked on every
machine. What it adds is that the quote is the rulebook's own:
``tests/test_rulebook_quotes.py`` finds every ``follows(...)`` under
``tests/`` (by reading the source, so no test module need be imported) and
checks that each quote is in its rulebook, word for word up to spacing,
quotation marks and case. The rulebooks live beside the checkout
(``../shared/rules``); where they are not, that one check skips and says so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, TypeVar

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "rules"

F = TypeVar("F", bound=Callable[..., object])


def follows(rulebook: str, *sentences: str) -> Callable[[F], F]:
    """Mark a test as following ``sentences`` of ``rulebook`` (a file name in ``../shared/rules``)."""
    if not sentences:
        raise TypeError("follows() needs at least one quoted sentence")

    def mark(test: F) -> F:
        test.rulebook_quotes = (rulebook, sentences)  # type: ignore[attr-defined]
        return test

    return mark


def normalised(text: str) -> str:
    """Text as compared: markdown emphasis, quotation marks and spacing ignored, case folded."""
    text = re.sub(r"[*_`]", "", text)
    text = re.sub(r"[\u2018\u2019\u201c\u201d\"']", "", text)
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text).strip().casefold()
