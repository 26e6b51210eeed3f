"""A broken set shows every error in ``labkit validate``, at once, each with
its file, line and column: a structure that is not a molecule, a compound
the game's rules cannot build, a missing column, a file that is not UTF-8
(issue 19). The same from the set's zip, as it will be at upload."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
import yaml

from labkit.setfiles import SET_MANIFEST


def set_cell(path: Path, card: str, column: str, value: str) -> int:
    """Change one cell of a deck (the row whose first cell is ``card``); its line."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    at = next(i for i, row in enumerate(rows) if row and row[0] == card)
    if column in rows[0]:  # (a formula column, where a game prints one)
        rows[at][rows[0].index(column)] = value
    _write(path, rows)
    return at + 1  # one row a line in these decks


def drop_column(path: Path, column: str) -> None:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    i = rows[0].index(column)
    _write(path, [row[:i] + row[i + 1:] for row in rows])


def _write(path: Path, rows) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def not_utf8(path: Path) -> int:
    """A Latin-1 é added as the file's second line (a YAML comment); that line."""
    first, rest = path.read_bytes().split(b"\n", 1)
    path.write_bytes(first + b"\n# caf\xe9\n" + rest)
    return 2


def break_labnotes(d: Path) -> list[str]:
    deck = d / "notecards.csv"
    methane = set_cell(deck, "methane", "structure", "C(C")
    ammonia = set_cell(deck, "ammonia", "structure", "C" * 20)
    set_cell(deck, "ammonia", "formula", "C20H42")
    drop_column(d / "tools.csv", "id")
    dice = not_utf8(d / "dice.yaml")  # (not the sheet: without its field, buildability cannot be checked)
    return [f"notecards.csv:{methane}: column 'structure'", "'C(C': its brackets ( ) do not pair up",
            f"notecards.csv:{ammonia}: column 'structure'", "cannot be built on a 6x6 compound field",
            "tools.csv:1: the header has missing column 'id'",
            f"dice.yaml:{dice}: is not UTF-8 text (byte 0xe9"]


def break_compounded(d: Path) -> list[str]:
    hydrogen = set_cell(d / "compounds.csv", "hydrogen", "smiles", "[H][H](")
    oxygen = set_cell(d / "compounds.csv", "oxygen", "smiles", "C" * 42)
    set_cell(d / "compounds.csv", "oxygen", "formula", "C42H86")
    drop_column(d / "lab_partners.csv", "name")
    reactions = not_utf8(d / "reactions.csv")
    return [f"compounds.csv:{hydrogen}: column 'smiles'", "'[H][H](': its brackets ( ) do not pair up",
            f"compounds.csv:{oxygen}: column 'smiles'", "needs 42 Carbon but the game has only",
            "lab_partners.csv:1: the header has missing column 'name'",
            f"reactions.csv:{reactions}: is not UTF-8 text (byte 0xe9"]


def break_organicsoup(d: Path) -> list[str]:
    ethanol = set_cell(d / "recipes.csv", "ethanol", "smiles", "CC(O")
    hydrogen = set_cell(d / "recipes.csv", "hydrogen", "smiles", "C" * 42)  # a basic recipe: one element
    set_cell(d / "recipes.csv", "hydrogen", "formula", "C42H86")
    drop_column(d / "atoms.csv", "count")
    turns = not_utf8(d / "turn-sequence.yaml")
    return [f"recipes.csv:{ethanol}: column 'smiles'", "'CC(O': its brackets ( ) do not pair up",
            f"recipes.csv:{hydrogen}: column 'smiles'", "a basic recipe is one element in molecular form, found C42H86",
            "atoms.csv:1: the header has missing column 'count'",
            f"turn-sequence.yaml:{turns}: is not UTF-8 text (byte 0xe9"]


def break_synthesis(d: Path) -> list[str]:
    # Synthesis draws its molecules as bond shapes: a bond in two pieces is no molecule
    dice = d / "dice.yaml"
    text = dice.read_text(encoding="utf-8")
    line = text[:text.index("lines: A1:NE A1:E ")].count("\n") + 1
    dice.write_text(text.replace("lines: A1:NE A1:E ", "lines: A1:NE C4:E ", 1), encoding="utf-8")
    drop_column(d / "patterns.csv", "points")
    boards = not_utf8(d / "boards.yaml")
    return [f"dice.yaml:{line}: key 'bond_die.0.lines': expected a bond of two or more lines in one piece",
            "patterns.csv:1: the header has missing column 'points'",
            f"boards.yaml:{boards}: is not UTF-8 text (byte 0xe9"]


BREAKS = {"labnotes": break_labnotes, "compounded": break_compounded, "organicsoup": break_organicsoup,
          "synthesis": break_synthesis}


@pytest.mark.parametrize("game", sorted(BREAKS))
def test_every_error_of_a_broken_set_is_shown_at_once(game, tmp_path, labkit):
    folder = tmp_path / "broken"
    assert labkit("new-set", game, folder).code == 0
    expected = BREAKS[game](folder)
    for target in (folder, None):
        if target is None:  # the same from its zip (packed by hand: pack refuses a broken set)
            from labkit.setfiles import write_zip
            target = tmp_path / "broken.zip"
            target.write_bytes(write_zip({p.name: p.read_bytes() for p in folder.iterdir()}))
        checked = labkit("validate", target)
        assert checked.code == 1, checked
        missing = [e for e in expected if e not in checked.text]
        assert not missing, f"{missing} not in: {checked.text}"
        assert "nothing was printed" in checked.text
    assert (folder / SET_MANIFEST).exists()


def test_a_large_branched_compound_is_refused_within_the_search_bound(tmp_path, labkit):
    folder = tmp_path / "branched"
    assert labkit("new-set", "labnotes", folder).code == 0
    line = set_cell(folder / "notecards.csv", "methane", "structure", "CC(C)(C)C(C)(C)C")
    set_cell(folder / "notecards.csv", "methane", "formula", "C8H18")
    checked = labkit("validate", folder)
    assert checked.code == 1
    assert f"notecards.csv:{line}: column 'structure'" in checked.text
    assert "no way to place it was found within the search's bound" in checked.text


def test_validate_and_build_name_the_card_and_column_of_text_outside_the_safe_zone(tmp_path, labkit):
    """An author's set whose compound cards keep 12 mm clear: the names are data (file, line, column),
    the card's own words ("PTS") are named by the card; the build stops before writing."""
    folder = tmp_path / "set"
    assert labkit("new-set", "compounded", folder).code == 0
    manifest = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    cards = next(c for c in manifest["components"] if c["id"] == "compound-cards")
    cards["safe_zone"] = {"mm": 12, "why": "a test: far more than any card can keep clear"}
    (folder / "game.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")
    line = next(i for i, row in enumerate((folder / "compounds.csv").read_text().splitlines(), 1)
                if row.startswith("hydrogen,"))
    checked = labkit("validate", folder)
    assert checked.code == 1
    assert (f"compounds.csv:{line}: column 'name' (C): the text 'Hydrogen' comes 4.0 mm from the trim "
            "(the safe zone is 12 mm), on the compound cards and lab fires (compound-cards/hydrogen)") in checked.text
    assert f"compounds.csv:{line}: the text 'PTS' comes" in checked.text
    built = labkit("build", "--data", folder, "--out", tmp_path / "out", "--no-svg")
    assert built.code == 1 and "safe zone is 12 mm" in built.text
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))
