"""A card that cannot be printed well stops the print, and says where: an
author's copy of the card data with a name too long for its card and a
character the font cannot draw is reported by ``labkit validate`` with the
file, line and column of each, and ``labkit build`` writes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "organicsoup"


def labkit(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, LABKIT_GAMES="engine.organicsoup:GAME", PYTHONPATH=str(ROOT), COLUMNS="250")
    return subprocess.run([sys.executable, "-m", "labkit.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def broken(tmp_path: Path) -> tuple[Path, int, int]:
    """A copy of the rulebook's cards with two broken recipe rows; their line numbers."""
    folder = tmp_path / "my-soup"
    shutil.copytree(DATA, folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    lines = (folder / "recipes.csv").read_text(encoding="utf-8").splitlines()
    hydrogen = next(i for i, line in enumerate(lines) if line.startswith("hydrogen,basic,"))
    water = next(i for i, line in enumerate(lines) if line.startswith("water,simple,"))
    # A basic recipe is the smallest card: a 39-character name cannot fit it even at the smallest type.
    lines[hydrogen] = "hydrogen,basic,Hydrogen Molecule Made Of Two Hydrogens,[H][H],H2,The lightest gas there is."
    # DejaVu Sans has no Chinese characters.
    lines[water] = "water,simple,Water,O,H2O,Covers about 71% of Earth's surface (水 in Chinese)."
    (folder / "recipes.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, hydrogen + 1, water + 1


def test_validate_names_the_file_line_and_column(broken) -> None:
    folder, name_line, fact_line = broken
    run = labkit("validate", str(folder))
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    shown = f"{folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}/recipes.csv"
    assert f"{shown}:{name_line}: column 'name'" in out and "too long" in out, out
    assert f"{shown}:{fact_line}: column 'fact'" in out and "cannot draw" in out and "水" in out, out


def test_build_prints_nothing(broken, tmp_path: Path) -> None:
    folder, name_line, _ = broken
    out_dir = tmp_path / "out"
    run = labkit("build", "--data", str(folder), "--out", str(out_dir))
    assert run.returncode != 0
    assert f"recipes.csv:{name_line}: column 'name' (C)" in run.stdout + run.stderr
    assert not list(out_dir.rglob("*.pdf")) and not list(out_dir.rglob("*.svg"))
