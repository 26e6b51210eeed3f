"""What an author reads when card data is broken: the line to fix, the
column as their spreadsheet heads it, and nothing else on the terminal."""

from __future__ import annotations

import pytest

from engine.chem import ChemistryError, element
from engine.data import CardFiles, DataError, Model, Problem, parse_yaml


class Doc(Model):
    dice: list[dict]
    face_mm: int = 20


GOOD = """dice:
  - colour: white
    count: 3
    faces: [H, H, H, O, O, N]
  - colour: yellow
    count: 3
face_mm: 20
"""


@pytest.mark.parametrize("broken_line, replacement", [
    (3, "    count 3"),                        # a key without its colon: PyYAML notices on line 4
    (4, "    faces: [H, H, H, O, O, N"),       # a list never closed: noticed on line 5
    (5, '  - colour: "yellow'),               # a quote never closed: noticed at the end of the file
    (7, "face_mm: 20: 3"),                     # a second colon: noticed where it is
])
def test_a_yaml_syntax_error_names_the_line_to_fix(broken_line: int, replacement: str) -> None:
    lines = GOOD.splitlines()
    lines[broken_line - 1] = replacement
    with pytest.raises(DataError) as caught:
        parse_yaml("\n".join(lines) + "\n", "dice.yaml", Doc)
    (problem,) = caught.value.problems
    assert problem.line == broken_line, str(problem)
    assert str(problem).startswith(f"dice.yaml:{broken_line}: not valid YAML: ")


def test_a_yaml_indentation_error_names_the_line_that_is_out_of_place() -> None:
    text = GOOD.replace("    count: 3\n    faces", "  count: 3\n    faces", 1)
    with pytest.raises(DataError) as caught:
        parse_yaml(text, "dice.yaml", Doc)
    assert caught.value.problems[0].line == 3, str(caught.value)


def test_an_unknown_element_is_a_sentence_and_rdkit_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ChemistryError, match="'Zz' is not an element"):
        element("Zz")
    assert element("Og").name == "Oganesson"      # every element of the periodic table is still known
    out, err = capfd.readouterr()                 # file descriptors: RDKit writes from C++
    assert out == "" and err == "", (out + err)[:300]


def test_a_column_is_named_as_the_spreadsheet_heads_it() -> None:
    files = CardFiles({"deck.csv": b"id,name,points\nwater,Water,three\n", "rules.yaml": b"x: 1\n"}, "my-set")
    problems = [Problem("my-set/deck.csv", 2, "points", "expected a whole number, found 'three'"),
                Problem("my-set/deck.csv", 2, "colour", "not a column of the file"),
                Problem("my-set/rules.yaml", 1, "x", "too small", label="key")]
    shown = [str(p) for p in files.numbered(problems)]
    assert shown == ["my-set/deck.csv:2: column 'points' (C): expected a whole number, found 'three'",
                     "my-set/deck.csv:2: column 'colour': not a column of the file",
                     "my-set/rules.yaml:1: key 'x': too small"]
