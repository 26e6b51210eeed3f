"""The pipeline carries kinds of component the other games need, with no
change to its core: tiled boards, hexagonal lattices, round parts, cards of
other sizes. Built from synthetic pieces, inspected as real PDFs."""

from __future__ import annotations


from pypdf import PdfReader

from generator.geometry import CARD_SIZES, Rect
from generator.impose import layout, tiles
from generator.pdf import Face, Piece, SheetPdf, write_pieces, write_tiles
from tests.generator.pdfinspect import MM, inspect, page_box


def board_svg(w: float, h: float) -> str:
    hexes = "".join(
        f'<circle cx="{10 + c * 20 + (10 if r % 2 else 0)}" cy="{10 + r * 17.3}" r="9" fill="none" stroke="#000" stroke-width="0.3"/>'
        for r in range(int(h // 17.3)) for c in range(int(w // 20)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff" stroke="#000"/>{hexes}'
            f'<text x="{w / 2}" y="{h / 2}" font-family="DejaVu Sans" font-size="12" text-anchor="middle">SCOREBOARD</text></svg>')


def test_a_board_bigger_than_the_paper_is_tiled_with_overlaps(tmp_path):
    board = (420.0, 297.0)  # an A3 board on A4 paper
    tiling = tiles("a4", board)
    assert len(tiling.tiles) == 2 or len(tiling.tiles) == 4
    # Tiles cover the whole board, and neighbours share exactly the overlap.
    covered = Rect.union([t.region for t in tiling.tiles])
    assert abs(covered.w - board[0]) < 1e-6 and abs(covered.h - board[1]) < 1e-6
    by = {(t.row, t.col): t for t in tiling.tiles}
    for (r, c), t in by.items():
        if (r, c + 1) in by:
            assert abs(t.region.x2 - by[(r, c + 1)].region.x - tiling.overlap) < 1e-6
        if (r + 1, c) in by:
            assert abs(by[(r + 1, c)].region.y2 - t.region.y - tiling.overlap) < 1e-6
    piece = Piece("scoreboard", "Scoreboard", board, Face("board.scoreboard.front", board_svg(*board)))
    path = tmp_path / "board.pdf"
    with SheetPdf(path, title="board") as pdf:
        write_tiles(pdf, piece, tiling, "Test")
    reader = PdfReader(path)
    assert len(reader.pages) == len(tiling.tiles)
    for i, t in enumerate(tiling.tiles):
        text = reader.pages[i].extract_text()
        assert f"tile {t.label}" in text
        placements, marks = inspect(reader, i)
        assert len(placements) == 1
        trim = page_box(reader, i, "/TrimBox")
        assert abs((trim.x2 - trim.x) / MM - t.place.w) < 0.05
        if len(tiling.tiles) > 1:
            assert marks  # registration crosses on the glue strips


def test_every_card_size_and_round_parts_impose():
    for name, size in CARD_SIZES.items():
        assert layout("letter", size, style="bleed", bleed=3, duplex=True).per_page >= 1, name
    # A disc with a pivot (Synthesis' Active Element disc) is a round piece
    # like the Lead Player Token: a square trim, a round cut drawn inside.
    disc = layout("a4", (180.0, 180.0), style="bleed", bleed=3, duplex=False)
    assert disc.per_page == 1


def test_board_that_fits_is_a_plain_sheet(tmp_path):
    # A Synthesis board (double-sided, A and B) fits a page and is printed duplex.
    size = (190.0, 270.0)
    lay = layout("a4", size, style="grid", duplex=True)
    piece = Piece("board", "Board", size, Face("board.a.front", board_svg(*size)), Face("board.a.back", board_svg(*size)))
    path = tmp_path / "b.pdf"
    with SheetPdf(path, title="b") as pdf:
        write_pieces(pdf, [piece], lay, backs=True)
    assert len(PdfReader(path).pages) == 2
