"""The scoreboard is larger than a page: printed in overlapping tiles, each
named, with registration crosses on the shared strips and a line that says
where it goes; together they carry the whole board."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from tests.generator.compounded.pdftext import face_texts
from tests.generator.pdfinspect import MM, inspect, page_box

BOARD_MM = (400, 280)
OVERLAP_MM = 10


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scoreboard_is_tiled_with_assembly_marks(built, paper):
    reader = PdfReader(built / paper / f"compounded-{paper}-scoreboard.pdf")
    pages = len(reader.pages)
    assert pages > 1, "the board is larger than the paper"
    labels, widths, heights = set(), {}, {}
    for i in range(pages):
        text = reader.pages[i].extract_text()
        found = re.search(r"tile ([A-Z])(\d) of (\d+)", text)
        assert found and int(found.group(3)) == pages, text
        row, col = found.group(1), int(found.group(2))
        labels.add((row, col))
        if col > 1:
            assert f"slide its left {OVERLAP_MM} mm under {row}{col - 1}" in text
        if row > "A":
            assert f"its top {OVERLAP_MM} mm under {chr(ord(row) - 1)}{col}" in text
        placements, marks = inspect(reader, i)
        assert [p.name.split(".")[0] for p in placements] == ["scoreboard"]
        assert len(marks) >= 4, "registration crosses on the glue strips"
        trim = page_box(reader, i, "/TrimBox")
        widths[col] = (trim.x2 - trim.x) / MM
        heights[row] = (trim.y2 - trim.y) / MM
    rows = sorted({r for r, _ in labels})
    cols = sorted({c for _, c in labels})
    assert labels == {(r, c) for r in rows for c in cols}
    # neighbours share the overlap; together the tiles are the whole board
    assert abs(sum(widths.values()) - OVERLAP_MM * (len(cols) - 1) - BOARD_MM[0]) < 0.5
    assert abs(sum(heights.values()) - OVERLAP_MM * (len(rows) - 1) - BOARD_MM[1]) < 0.5


def test_the_scoreboard_carries_the_track_past_88_and_its_spaces(built):
    (items,) = face_texts(built / "a4" / "compounded-a4-scoreboard.pdf").values()
    numbers = [int(t) for t in items if t.isdigit()]
    assert set(range(1, 131)) <= set(numbers)          # an 88-point game and past it
    assert items[items.index("56") + 1] == "END 2-3" and items[items.index("88") + 1] == "END 4-5"
    for word in ("CLAIM RESERVE", "START", "COMPOUND DECK", "30 FLAME TOKENS", "THE END",
                 "FIRE EXTINGUISHER", "PIPETTE", "SAFETY GOGGLES", "JOURNAL", "GRADUATED CYLINDER", "BUNSEN BURNER"):
        assert word in items, word
    for colour in ("WHITE", "PINK", "TEAL", "GREY", "BROWN"):
        assert colour in items                          # each claim reserve says whose it is
    assert items.count("CLAIM") == 6                    # one claim spot per tool refresh space
