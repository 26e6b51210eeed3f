"""Card data validation, the `labkit` command line, incremental builds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from engine.data import DataError
from tests.conftest import load_cards as load  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "labnotes"


def labkit(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "labkit", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env={**os.environ, "COLUMNS": "200"})


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def copy(tmp_path) -> Path:
    dst = tmp_path / "mylab"
    shutil.copytree(DATA, dst)
    return dst


@pytest.fixture
def broken(copy) -> Path:
    edit(copy / "notecards.csv", "methane,compound,Methane,CH4,", "methane,compound,Methane,CH5,")
    edit(copy / "notecards.csv", "ethylene,compound,", "ethylene,compund,")
    edit(copy / "notecards.csv", "urea,compound,Urea,CO(NH2)2,NC(N)=O", "urea,compound,Urea,CO(NH2)2,NC(N)(N)(N)=O")
    edit(copy / "tools.csv", "fume-hood,Fume Hood,gas,Carbon Dioxide,CO2,O=C=O,1,", "fume-hood,Fume Hood,plasma,Carbon Dioxide,CO2,O=C=O,six,")
    edit(copy / "sheet.yaml", "trash_cans: 5", "trash_cans: five")
    return copy


def test_shipped_data_is_valid():
    data = load(DATA)
    assert len(data.tools) == 6 and len(data.notecards) == 20


def test_every_problem_of_a_broken_copy_at_once(broken):
    with pytest.raises(DataError) as info:
        load(broken)
    lines = [str(p) for p in info.value.problems]
    text = "\n".join(lines)
    assert "notecards.csv:3: column 'formula' (D): expected the atoms of CH4 (the structure's formula, in any order), found 'CH5'" in text
    assert "notecards.csv:9: column 'kind' (B): expected 'compound' or 'lab_fire', found 'compund'" in text
    assert "notecards.csv:15: column 'structure' (E): SMILES 'NC(N)(N)(N)=O': Carbon atom 2 has 6 bonds, more than its 4" in text
    assert "tools.csv:7: column 'icons' (G): expected a whole number, found 'six'" in text
    assert "tools.csv:7: column 'state' (C): expected 'liquid', 'solid' or 'gas', found 'plasma'" in text
    assert "sheet.yaml:13: key 'trash_cans': expected a whole number, found 'five'" in text
    assert len(lines) == 6


def test_unknown_column_and_missing_file(copy):
    edit(copy / "tools.csv", "id,name,state", "id,nmae,state")
    (copy / "dice.yaml").unlink()
    with pytest.raises(DataError) as info:
        load(copy)
    text = str(info.value)
    assert ("tools.csv:1: the header has missing column 'name' and unknown column 'nmae' (the columns are: "
            in text)
    assert len([p for p in info.value.problems if "tools.csv" in p.path]) == 1  # one error, not one per row
    assert "dice.yaml: file is missing" in text


def test_chemistry_rules_in_validation(copy):
    edit(copy / "notecards.csv", "ammonia,compound,Ammonia,NH3,N,", "ammonia,compound,Ammonia,NH2,[NH2],")
    edit(copy / "notecards.csv", "methane,compound,Methane,CH4,C,", "methane,compound,Methane,CH4S,CS,")
    edit(copy / "sheet.yaml", "rows: 6", "rows: 2")
    edit(copy / "sheet.yaml", "cols: 6", "cols: 3")
    with pytest.raises(DataError) as info:
        load(copy)
    text = str(info.value)
    assert "notecards.csv:2: column 'structure' (E): expected a complete compound, found 1 open bond(s)" in text
    assert "notecards.csv:3: column 'structure' (E): expected only H, O, N and C, found Sulfur" in text
    assert "notecards.csv:15: column 'structure' (E): cannot be built on a 2x3 compound field" in text  # urea, 8 atoms


def test_validate_command(broken):
    ok = labkit("validate")
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout
    bad = labkit("validate", str(broken))
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    for where in ("notecards.csv:3:", "notecards.csv:9:", "notecards.csv:15:", "tools.csv:7:", "sheet.yaml:13:"):
        assert where in bad.stderr
    assert "6 problems" in bad.stderr


def test_bad_options_are_one_clear_line(tmp_path):
    for args, says in [
        (["build", "--game", "chess"], "Invalid value for '--game'"),
        (["build", "--bleed", "-1"], "Invalid value for '--bleed'"),
        (["build", "--paper", "a3"], "Invalid value for '--paper'"),
        (["build", "--back-offset", "left"], "expected X,Y"),
        (["build", "--data", str(tmp_path / "nope")], "not a folder"),
        (["validate", str(tmp_path / "nope")], "not a folder"),
    ]:
        r = labkit(*args)
        assert r.returncode != 0, args
        assert says in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_build_data_renders_an_authors_changed_copy(copy, tmp_path):
    edit(copy / "tools.csv", "centrifuge,Centrifuge,", "centrifuge,Salad Spinner,")
    edit(copy / "notecards.csv", "Ammonia,NH3", "Smelling Salts,NH3")
    out = tmp_path / "out"
    r = labkit("build", "--data", str(copy), "--out", str(out), "--paper", "a4", "--layout", "grid")
    assert r.returncode == 0, r.stderr
    tools = " ".join(p.extract_text() for p in PdfReader(out / "labnotes" / "a4" / "labnotes-a4-tool-cards.pdf").pages)
    assert "Salad Spinner" in tools and "Centrifuge" not in tools
    notes = " ".join(p.extract_text() for p in PdfReader(out / "labnotes" / "a4" / "labnotes-a4-notecards.pdf").pages)
    assert "Smelling Salts" in notes


def test_build_refuses_broken_data_and_writes_nothing(broken, tmp_path):
    out = tmp_path / "out"
    r = labkit("build", "--data", str(broken), "--out", str(out))
    assert r.returncode == 1 and "tools.csv:7:" in r.stderr and "Traceback" not in r.stderr
    assert not list(out.rglob("*.pdf"))


def test_rebuild_skips_what_did_not_change(copy, tmp_path):
    from generator.build import BuildOptions, build

    opts = BuildOptions(out=tmp_path, data_dir=copy, papers=("a4",))
    first = build(opts)
    assert first.written and len(first.written) == len(first.files)
    second = build(opts)
    assert second.written == []
    edit(copy / "notecards.csv", "The main part of natural gas.", "Most of natural gas.")
    third = build(opts)
    changed = sorted(f.path.name for f in third.written)
    # the rules booklet pictures the methane notecard (not the player aid): it is set again too
    assert changed == ["labnotes-a4-notecards-bleed.pdf", "labnotes-a4-notecards.pdf",
                       "labnotes-a4-rules-booklet.pdf", "labnotes-a4-rules.pdf"]


def test_a_failed_build_leaves_no_half_written_pdf(copy, tmp_path, monkeypatch):
    from generator import pdf
    from generator.build import BuildError, BuildOptions, build
    from generator.svg import RenderError

    out = tmp_path / "out"
    build(BuildOptions(out=out, data_dir=copy, papers=("a4",), layouts=("grid",), svg=False))
    target = out / "labnotes" / "a4" / "labnotes-a4-notecards.pdf"
    before = target.read_bytes()
    edit(copy / "notecards.csv", "The main part of natural gas.", "Changed.")
    calls = {"n": 0}
    real = pdf.to_drawing

    def failing(svg, where):
        calls["n"] += 1
        if calls["n"] > 3:
            raise RenderError(f"{where}: simulated failure")
        return real(svg, where)

    monkeypatch.setattr(pdf, "to_drawing", failing)
    monkeypatch.setattr(pdf, "_DRAWINGS", {})  # no face converted earlier in this process
    with pytest.raises(BuildError, match="simulated failure"):
        build(BuildOptions(out=out, data_dir=copy, papers=("a4",), layouts=("grid",), svg=False))
    assert target.read_bytes() == before  # the old file stands, untouched
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_unknown_font_is_refused():
    from generator.svg import RenderError, to_drawing

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
           '<text x="1" y="5" font-family="Comic Sans MS" font-size="3">Hi</text></svg>')
    with pytest.raises(RenderError, match="Hi|font"):
        to_drawing(svg, "test")


def test_missing_template_field_is_an_error():
    from generator.svg import RenderError, render

    with pytest.raises(RenderError, match="tool-cards/x"):
        render("labnotes/tool-side.svg.j2", {"w": 63, "h": 88, "bleed": 0, "ink_saver": False}, "tool-cards/x")


def test_ink_saver_prints_white_backgrounds(tmp_path):
    from generator.build import BuildOptions, build

    build(BuildOptions(games=["labnotes"], out=tmp_path, papers=("a4",), layouts=("grid",), ink_saver=True))
    svg = (tmp_path / "labnotes" / "svg" / "notecards" / "lab-fire-1-front-ink-saver.svg").read_text()
    assert 'stroke="#d2401e"' in svg          # the fire's colour survives as outlines and text...
    assert '<rect x="0" y="0" width="70" height="120" fill="#ffffff"/>' in svg  # ...on white
    assert not re.search(r'<(rect|path|circle|polygon)[^>]*fill="#d2401e"', svg)
    assert (tmp_path / "labnotes" / "a4" / "labnotes-a4-notecards-ink-saver.pdf").exists()
    assert (tmp_path / "labnotes" / "a4" / "labnotes-a4-rules-ink-saver.pdf").exists()  # not over the normal booklet


# Rulebook, Setup 4: "Tool card reference for the recommended first-game cards".
FIRST_GAME = [
    ("Centrifuge", "liquid", "Water", "H2O",
     "Before you select your die, reroll any number of available dice up to 2 times."),
    ("Retort Flask", "solid", "Carbon Trioxide", "CO3",
     "If it is an element, ignore the final die and notate your die again."),
    ("Fire Suppressant", "gas", "Dinitrogen", "N2", "Ignore a Lab Fire."),
]


def test_first_game_tools_are_the_rulebooks_word_for_word():
    from tests.conftest import RULES

    data = load(DATA)
    firsts = [t for t in data.tools if t.first_game]
    assert [(t.name, t.state, t.compound, t.formula, t.ability) for t in firsts] == FIRST_GAME
    rulebook = RULES / "lab-notes.md"
    if rulebook.exists():
        text = rulebook.read_text()
        for name, state, compound, formula, ability in FIRST_GAME:
            assert f"• {name} ({state.capitalize()}; compound {compound} - {formula}): {ability}" in text
