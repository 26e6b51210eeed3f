"""engine/ stands alone: it imports nothing from generator/, companion/ or
labkit/ or reader/, nor Flask, reportlab, svgwrite, svglib or OpenCV (STYLE.md: dependencies
point one way), and its randomness comes only from engine.rng."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = {"generator", "companion", "labkit", "reader", "flask", "flask_htmx", "reportlab", "svgwrite", "svglib", "cv2"}
NO_CHANCE = {"random", "secrets", "time", "datetime"}
"""Rules take no randomness but the state's generator, and never read the clock."""

MODULES = sorted(ENGINE.rglob("*.py"))


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_there_are_engine_modules_to_scan():
    assert ENGINE / "core.py" in MODULES and ENGINE / "labnotes" / "rules.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_nothing_forbidden(path):
    bad = imported(path) & FORBIDDEN
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_takes_no_chance_outside_its_generator(path):
    bad = imported(path) & NO_CHANCE
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: use engine.rng"


def test_importing_every_engine_module_loads_nothing_forbidden():
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in MODULES]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "from labkit.registry import games\n"
            "from labkit.cardsets import new_game\n"
            "for g in games().values(): new_game(g).setup(g.min_players, 1)\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "engine" in loaded
    bad = loaded & (FORBIDDEN - {"labkit"})
    assert not bad, f"importing engine loads {sorted(bad)}"
