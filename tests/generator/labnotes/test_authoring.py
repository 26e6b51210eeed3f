"""An author's card set, tried as a new user would: every mistake that used
to print badly or pass ``labkit validate`` with "ok" is now an error naming
the file, the line, the column and what to do, and nothing is printed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.build import BuildError, BuildOptions, build
from tests.generator.labnotes.test_data_and_cli import DATA, edit, labkit

FACT = ("Ammonia is made from the nitrogen of the air and hydrogen by the Haber-Bosch process, which feeds "
        "about half of the people alive today through fertiliser; it is also a refrigerant, a cleaner, a "
        "fuel that burns without carbon dioxide, and one of the most produced chemicals of all, at well over "
        "one hundred million tonnes a year.")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dst = tmp_path / "my-lab"
    shutil.copytree(DATA, dst)
    return dst


def _refused(copy: Path, tmp_path: Path) -> str:
    """``labkit validate`` fails with every problem, and a build writes nothing."""
    r = labkit("validate", str(copy))
    assert r.returncode == 1 and "Traceback" not in r.stderr and "nothing was printed" in r.stderr, r.stderr
    out = tmp_path / "out"
    with pytest.raises(BuildError):
        build(BuildOptions(data_dir=copy, out=out, papers=("a4",)))
    assert not out.exists() or not list(out.rglob("*.pdf"))
    return r.stderr


def test_a_fact_too_long_for_its_card(copy, tmp_path):
    assert len(FACT) > 300
    edit(copy / "notecards.csv", "Made from the nitrogen of the air by the Haber-Bosch process to feed crops.", f'"{FACT}"')
    text = _refused(copy, tmp_path)
    assert "notecards.csv:2: column 'fact' (F): is " in text and "characters too long for its" in text
    assert "shorten it (on the notecards and lab fires)" in text


def test_a_tool_ability_too_long_for_its_card(copy, tmp_path):
    edit(copy / "tools.csv", "Ignore a Lab Fire.", '"' + "Ignore a Lab Fire. " * 16 + '"')
    text = _refused(copy, tmp_path)
    assert "tools.csv:4: column 'ability' (H): is " in text and "characters too long" in text


def test_characters_the_font_cannot_draw(copy, tmp_path):
    edit(copy / "notecards.csv", "methane,compound,Methane,", "methane,compound,Méthane ☢ 甲烷,")
    text = _refused(copy, tmp_path)
    assert ("notecards.csv:3: column 'name' (C): has characters the printed font cannot draw: "
            "'甲' (U+7532), '烷' (U+70F7)") in text
    assert text.count("notecards.csv:3:") == 1          # said once, where the author can fix it


def test_greek_and_cyrillic_print(copy, tmp_path):
    edit(copy / "notecards.csv", "methane,compound,Methane,", "methane,compound,Метан (μεθάνιο),")
    r = labkit("validate", str(copy))
    assert r.returncode == 0, r.stderr


def test_a_file_not_saved_as_utf8(copy, tmp_path):
    path = copy / "notecards.csv"
    path.write_bytes(path.read_bytes().replace("Wöhler".encode(), "Wöhler".encode("latin-1")))
    text = _refused(copy, tmp_path)
    assert "notecards.csv:15: is not UTF-8 text" in text and "save it as UTF-8" in text


def test_a_semicolon_separated_file(copy, tmp_path):
    path = copy / "tools.csv"
    lines = [line.replace(",", ";") for line in path.read_text().splitlines()]
    path.write_text("\n".join(lines) + "\n")
    text = _refused(copy, tmp_path)
    assert "tools.csv:1: the columns are separated by semicolons (;), not commas" in text
    assert text.count("tools.csv") == 1


def test_a_missing_column_is_one_error_about_the_header(copy, tmp_path):
    path = copy / "notecards.csv"
    rows = [line.split(",", 1)[1] for line in path.read_text().splitlines()]   # no id column
    path.write_text("\n".join(rows) + "\n")
    text = _refused(copy, tmp_path)
    assert "notecards.csv:1: the header has missing column 'id'" in text
    assert text.count("notecards.csv") == 1


def test_an_unclosed_quote_names_the_line_it_opened(copy, tmp_path):
    edit(copy / "notecards.csv", "methanol,compound,Methanol,CH3OH,CO,Wood", "methanol,compound,Methanol,CH3OH,CO,\"Wood")
    text = _refused(copy, tmp_path)
    assert "notecards.csv:6: a quoted cell opens here" in text and "add the closing quote" in text


def test_a_tool_whose_ability_the_rules_do_not_know(copy, tmp_path):
    """A new tool id prints, but no rule would play it: an error, never dropped in silence."""
    edit(copy / "tools.csv", "fume-hood,Fume Hood,", "smoke-machine,Smoke Machine,")
    text = _refused(copy, tmp_path)
    assert ("tools.csv:7: column 'id' (A): expected the id of a tool whose ability the rules know "
            "(centrifuge, retort-flask, fire-suppressant, pipette, mortar-and-pestle, fume-hood), "
            "found 'smoke-machine'") in text
