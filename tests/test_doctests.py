"""The `>>>` examples in every module's docstrings run, so they stay true
(the engine's, and the faces' and benches' too: a drawing helper's example
is as much a promise as a rule's)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.conftest import ROOT
PACKAGES = ("engine", "companion", "generator", "labkit", "bench", "reader")
MODULES = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                 for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                 if p.name != "__main__.py")   # running a package's __main__ would start it


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"


def test_the_examples_are_found() -> None:
    """The collection above reaches beyond the engine (it once read the engine alone)."""
    finder = doctest.DocTestFinder()
    found = {name.split(".")[0] for name in MODULES
             if any(t.examples for t in finder.find(importlib.import_module(name)))}
    assert {"engine", "companion", "bench"} <= found, found
