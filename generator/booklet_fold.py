"""A booklet's half-sheet pages imposed for saddle stitching: two pages a
landscape sheet side, in the order that reads right once the printed stack
is folded in the middle (docs/design/booklets.md)."""

from __future__ import annotations

import io

from generator.geometry import PAPERS, pt


def folded_order(pages: int) -> list[tuple[int, int]]:
    """Page numbers (1-based, 0 = blank) of each sheet side of a saddle-stitched
    booklet, (left, right), in printing order: front of sheet 1, back of
    sheet 1, front of sheet 2, ...

    >>> folded_order(5)
    [(0, 1), (2, 0), (0, 3), (4, 5)]
    >>> folded_order(4)
    [(4, 1), (2, 3)]
    """
    n = -(-pages // 4) * 4
    real = lambda p: p if p <= pages else 0  # noqa: E731
    out = []
    for s in range(n // 4):
        out.append((real(n - 2 * s), real(2 * s + 1)))
        out.append((real(2 * s + 2), real(n - 2 * s - 1)))
    return out


def impose(half: bytes, paper: str) -> bytes:
    """Half-sheet pages laid two to a landscape side in folded order. Each
    page becomes a form XObject placed on its side (pypdf's page merging
    parses every content stream and is many times slower)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    reader = PdfReader(io.BytesIO(half))
    p = PAPERS[paper]
    sheet_w, sheet_h = pt(p.height), pt(p.width)
    writer = PdfWriter()
    forms: dict[int, object] = {}

    def form(number: int):
        if number not in forms:
            src = reader.pages[number - 1]
            stream = DecodedStreamObject()
            stream.set_data(src.get_contents().get_data())
            stream = stream.flate_encode()
            stream[NameObject("/Type")] = NameObject("/XObject")
            stream[NameObject("/Subtype")] = NameObject("/Form")
            stream[NameObject("/BBox")] = ArrayObject([FloatObject(float(v)) for v in src.mediabox])
            stream[NameObject("/Resources")] = src["/Resources"].clone(writer)
            forms[number] = writer._add_object(stream)
        return forms[number]

    for left, right in folded_order(len(reader.pages)):
        side = writer.add_blank_page(sheet_w, sheet_h)
        placed = DictionaryObject()
        ops = []
        for number, x in ((left, 0.0), (right, sheet_w / 2)):
            if number:
                placed[NameObject(f"/P{number}")] = form(number)
                ops.append(f"q 1 0 0 1 {x:.3f} 0 cm /P{number} Do Q")
        side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): placed})
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("ascii"))
        side[NameObject("/Contents")] = writer._add_object(content)
    title = (reader.metadata or {}).get("/Title", "rules")
    writer.add_metadata({"/Title": f"{title} (folded booklet)", "/Creator": "labkit (reportlab, pypdf)"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
