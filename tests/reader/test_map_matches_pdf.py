"""The map the build writes beside a PDF says where things are on its
pages: a mark drawn on the rendered PDF page at a mapped place (the page's
piece, then the mark in it) is read at that place, and nowhere else; the
code in the PDF names its paper (generator/readable.py, reader/)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from generator import components as comp
from generator import sheets
from generator.printable import load
from labkit import registry
from reader.read import read

PX = 10.0


def _build(tmp_path, game: str, component: str, only=None):
    """One component's A4 PDF and its map, written as the build writes them."""
    printable = load(registry.find(game))
    c = printable.manifest.component(component)
    pieces = comp.pieces(c, printable.cardset, bleed=0.0, ink_saver=False, only=only).pieces
    job = sheets.Job(tmp_path / f"{game}-a4-{component}.pdf", "t", sheets._with_paper(pieces, "a4"), "a4", "grid",
                     c.duplex, "", "", "", c.kind)
    options = SimpleNamespace(bleed=0.0, back_offset=(0.0, 0.0))
    sheets.write(job, options)
    return job.target, json.loads(sheets.map_path(job.target).read_text())


def _page(pdf, number: int) -> np.ndarray:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[number - 1].render(scale=PX * 25.4 / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        doc.close()
    return np.array(image)[..., ::-1].copy()   # BGR


def _mark(doc: dict, page: int, kind: str, name: str) -> tuple[dict, dict]:
    piece = next(p for p in doc["pages"] if p["page"] == page)["pieces"][0]
    mark = next(m for m in doc["faces"][piece["face"]]["marks"] if m["kind"] == kind and m["name"] == name)
    return piece, mark


def _on_page(piece: dict, x: float, y: float) -> tuple[int, int]:
    return int(round((piece["trim"][0] + x) * PX)), int(round((piece["trim"][1] + y) * PX))


def _photo(page: np.ndarray) -> bytes:
    """The page laid on a grey table, photographed straight."""
    h, w = page.shape[:2]
    table = np.full((h + 200, w + 200, 3), 90, np.uint8)
    table[100:100 + h, 100:100 + w] = page
    return cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def test_a_cell_shaded_at_its_mapped_place_is_read_there(tmp_path):
    pdf, doc = _build(tmp_path, "synthesis", "boards", only={"c"})
    assert [p["face"] for p in doc["pages"][0]["pieces"]] == ["boards.c.front"]
    page = _page(pdf, 2)   # the back: side B, mirrored on the page for a long-edge flip
    piece, mark = _mark(doc, 2, "cell", "3:2")
    x, y, w, h = mark["box"]
    a, b = _on_page(piece, x + 1, y + 1)
    c, d = _on_page(piece, x + w - 1, y + h - 1)
    cv2.rectangle(page, (a, b), (c, d), (60, 40, 215), -1)   # a red marker, BGR
    reading = read("synthesis", _photo(page))
    assert reading.code == "LABKIT/SYNTHESIS/BOARDS/C/B/A4"
    assert (reading.piece, reading.side_name) == ("c", "B")
    shaded = {r.name: r.value for r in reading.marks if r.value is not None}
    assert shaded == {"3:2": "r"}
    assert reading.data["table"][2] == ".r"


def test_strokes_drawn_at_a_mapped_bond_and_a_filled_space_are_read_there(tmp_path):
    pdf, doc = _build(tmp_path, "labnotes", "note-sheets")
    page = _page(pdf, 1)
    pieces = doc["pages"][0]["pieces"]
    assert len(pieces) == 2   # two sheets of the pad on a page: the reader takes one, the nearer
    page[int(pieces[1]["trim"][1] * PX):] = 255   # the second sheet torn off
    piece, bond = _mark(doc, 1, "bond", "C3 D3")
    x1, y1, x2, y2 = bond["line"]
    ux, uy = (x2 - x1), (y2 - y1)
    n = np.array([-uy, ux]) / np.hypot(ux, uy)
    for off in (-0.6, 0.6):   # a double bond
        p = _on_page(piece, x1 - ux * 0.1 + n[0] * off, y1 - uy * 0.1 + n[1] * off)
        q = _on_page(piece, x2 + ux * 0.1 + n[0] * off, y2 + uy * 0.1 + n[1] * off)
        cv2.line(page, p, q, (70, 70, 70), 4, cv2.LINE_AA)
    _, space = _mark(doc, 1, "space", "F6")
    cx, cy, r = space["circle"]
    cv2.circle(page, _on_page(piece, cx, cy), int(r * PX * 0.9), (80, 80, 80), -1)   # burned: filled in
    reading = read("labnotes", _photo(page))
    assert reading.code == "LABKIT/LABNOTES/NOTE-SHEETS/-/-/A4"
    bonds = {r.name: r.value for r in reading.marks if r.kind == "bond" and r.value}
    assert bonds == {"C3 D3": 2}
    assert reading.data["burned"] == ["F6"] and reading.data["elements"] == {}
    assert next(r for r in reading.marks if r.name == "C3 D3").unsure   # a bond between two empty spaces


@pytest.mark.parametrize("game", ["synthesis", "labnotes"])
def test_the_map_beside_the_pdf_names_every_mark_once(tmp_path, game):
    component = {"synthesis": "boards", "labnotes": "note-sheets"}[game]
    _, doc = _build(tmp_path, game, component, only={"a"} if game == "synthesis" else None)
    for face in doc["faces"].values():
        keys = [(m["kind"], m["name"]) for m in face["marks"]]
        assert len(keys) == len(set(keys))
        assert sum(1 for k, _ in keys if k == "marker") == 4
        assert sum(1 for k, _ in keys if k == "code") == 1
