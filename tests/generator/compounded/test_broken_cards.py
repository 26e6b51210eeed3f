"""An author's broken card never reaches paper: ``labkit validate`` names
its file, line and column, and a build stops before writing anything."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "compounded"


def labkit(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250"}
    if "engine.compounded" not in env.get("LABKIT_GAMES", ""):
        env["LABKIT_GAMES"] = ",".join(filter(None, [env.get("LABKIT_GAMES"), "engine.compounded:GAME"]))
    return subprocess.run([sys.executable, "-m", "labkit", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def line_of(path: Path, start: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(start))


@pytest.fixture
def broken(tmp_path) -> Path:
    copy = tmp_path / "mylab"
    shutil.copytree(DATA, copy)
    deck = copy / "compounds.csv"
    text = deck.read_text()
    text = text.replace("water,compound,Water,", "water,compound,Water of Crystallisation Kept In A Dish,", 1)
    text = text.replace("ozone,compound,Ozone,", "ozone,compound,Ozone \u6c34,", 1)  # a character DejaVu lacks
    deck.write_text(text)
    return copy


def test_a_broken_card_is_named_and_nothing_is_printed(broken, tmp_path):
    deck = broken / "compounds.csv"
    water, ozone = line_of(deck, "water,"), line_of(deck, "ozone,")
    checked = labkit("validate", str(broken))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    out = " ".join((checked.stdout + checked.stderr).split())
    assert f"compounds.csv:{water}: column 'name' (C): is " in out and "characters too long" in out
    assert f"compounds.csv:{ozone}: column 'name' (C): has characters the printed font cannot draw" in out
    assert "2 problems" in out
    # the same problems stop a build before it writes a file
    target = tmp_path / "out"
    built = labkit("build", "--data", str(broken), "--out", str(target))
    assert built.returncode != 0
    assert f"compounds.csv:{water}" in " ".join((built.stdout + built.stderr).split())
    assert not list(target.rglob("*.pdf")) and not list(target.rglob("*.svg"))


def test_the_rulebooks_set_validates():
    checked = labkit("validate", str(DATA))
    assert checked.returncode == 0, checked.stdout + checked.stderr
