"""An author's broken Synthesis card never reaches paper: ``labkit validate``
names its file, line and column, and a build stops before writing anything.
A card of a YAML deck (chains.yaml) is named by its own line, not the file's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "synthesis"


def labkit(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250"}
    if "engine.synthesis" not in env.get("LABKIT_GAMES", ""):
        env["LABKIT_GAMES"] = ",".join(filter(None, [env.get("LABKIT_GAMES"), "engine.synthesis:GAME"]))
    return subprocess.run([sys.executable, "-m", "labkit", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def line_of(path: Path, start: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.strip().startswith(start))


@pytest.fixture
def broken(tmp_path) -> Path:
    copy = tmp_path / "my-synthesis"
    shutil.copytree(DATA, copy)
    deck = copy / "patterns.csv"
    text = deck.read_text()
    long = "Choose a colour. " + "3 points for each molecule of that colour next to the starting molecule. " * 6
    text = text.replace('"Choose a colour. 3 points for each molecule of that colour next to the starting molecule."',
                        f'"{long.strip()}"', 1)
    deck.write_text(text)
    chains = copy / "chains.yaml"
    chains.write_text(chains.read_text().replace("name: Horseshoe", "name: Horseshoe \u9a6c\u8e44", 1))
    return copy


def test_a_broken_card_is_named_and_nothing_is_printed(broken, tmp_path):
    first_shell = line_of(broken / "patterns.csv", "first-shell,")
    horseshoe = line_of(broken / "chains.yaml", "- id: horseshoe")
    checked = labkit("validate", str(broken))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    out = " ".join((checked.stdout + checked.stderr).split())
    assert f"patterns.csv:{first_shell}: column 'text' (J): is " in out and "characters too long" in out
    assert f"chains.yaml:{horseshoe}: column 'name': has characters the printed font cannot draw" in out
    assert "U+9A6C" in out
    # the same problems stop a build before it writes a file
    target = tmp_path / "out"
    built = labkit("build", "--data", str(broken), "--out", str(target))
    assert built.returncode != 0
    said = " ".join((built.stdout + built.stderr).split())
    assert f"patterns.csv:{first_shell}" in said and f"chains.yaml:{horseshoe}" in said
    assert not list(target.rglob("*.pdf")) and not list(target.rglob("*.svg"))


def test_the_rulebooks_set_validates():
    """By its folder (an author's way) and by the game's name (`labkit validate synthesis`)."""
    checked = labkit("validate", str(DATA), "synthesis")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert " ".join(checked.stdout.split()).count("ok cardsdata/synthesis (synthesis)") == 2
