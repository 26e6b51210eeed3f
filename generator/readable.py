"""Sheets made to be read from a photo (``labkit read``, docs/design/reader.md).

A readable face's template draws fiducial markers at its corners
(:func:`fiducial`) and a small QR code naming it (:func:`sheet_code`), and
marks every place the reader looks at with ``data-read`` and ``data-name``
attributes (:func:`readable`): a cell, a box, a space, the line of a bond.
The map of a face is read back from its SVG (:func:`face_map`), so the
printed page and the reader's map have one source, the template; the
build writes the maps of a PDF's pages beside it (:func:`pdf_map`). A PDF
draws the code naming its paper over the face's white square
(:func:`without_code`, :func:`draw_code`): the face itself is one drawing
for every paper.

>>> svg = '<svg><rect data-read="cell" data-name="1:1" x="2" y="3" width="4" height="5"/></svg>'
>>> face_map(svg)["marks"]
[{'kind': 'cell', 'name': '1:1', 'box': [2.0, 3.0, 4.0, 5.0]}]
>>> 'data-read="marker"' in fiducial(8, 2, 2, 9)
True
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from markupsafe import Markup, escape

from reader import fiducials, sheetcode

FORMAT = "labkit sheet map 1"
_CODE = re.compile(r'<g data-read="code" data-name="([^"]+)" data-box="([^"]+)">.*?</g>', re.S)


def _num(x: float) -> str:
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _cells(rows: Sequence[str], x: float, y: float, cell: float, dark: str) -> str:
    """A path of the ``dark`` cells of a bit matrix, a run of cells a rectangle."""
    out = []
    for r, row in enumerate(rows):
        for m in re.finditer(f"{dark}+", row):
            out.append(f"M{_num(x + m.start() * cell)} {_num(y + r * cell)}h{_num(len(m.group()) * cell)}"
                       f"v{_num(cell)}h{_num(-len(m.group()) * cell)}z")
    return "".join(out)


def readable(kind: str, name: Any) -> Markup:
    """The attributes that put an element on the face's map."""
    return Markup(f'data-read="{escape(kind)}" data-name="{escape(str(name))}"')


def fiducial(marker: int, x: float, y: float, size: float) -> Markup:
    """Marker ``marker`` with its top-left corner at ``x, y`` and ``size`` mm
    a side, on a white square one cell wider all round (the quiet zone a
    detector needs, on any background)."""
    cell = size / fiducials.CELLS
    pad = f'<rect x="{_num(x - cell)}" y="{_num(y - cell)}" width="{_num(size + 2 * cell)}" ' \
          f'height="{_num(size + 2 * cell)}" fill="#ffffff"/>'
    path = _cells(fiducials.bits(marker), x, y, cell, "0")
    return Markup(f'<g data-read="marker" data-name="{marker}" data-box="{_num(x)} {_num(y)} {_num(size)} '
                  f'{_num(size)}">{pad}<path d="{path}" fill="#000000"/></g>')


def code_square(text: str, x: float, y: float, size: float) -> str:
    n = len(sheetcode.modules(text)) + 2 * sheetcode.QUIET
    cell = size / n
    q = sheetcode.QUIET * cell
    path = _cells(sheetcode.modules(text), x + q, y + q, cell, "1")
    return (f'<g data-read="code" data-name="{escape(text)}" data-box="{_num(x)} {_num(y)} {_num(size)} '
            f'{_num(size)}"><rect x="{_num(x)}" y="{_num(y)}" width="{_num(size)}" height="{_num(size)}" '
            f'fill="#ffffff"/><path d="{path}" fill="#000000"/></g>')


def sheet_code(game: str, component: str, piece: str, side: str, x: float, y: float, size: float) -> Markup:
    """The QR code naming a face, in a white square of ``size`` mm (quiet zone included)."""
    return Markup(code_square(sheetcode.payload(game, component, piece, side), x, y, size))


def without_code(svg: str) -> str:
    """A face's SVG with its code's square left white (its place and text kept on the map): the
    PDF draws the code over it, naming the paper (:func:`draw_code`), so that one drawing of the
    face serves every paper."""
    def blank(m: re.Match) -> str:
        x, y, size, _ = (float(v) for v in m.group(2).split())
        return (f'<g data-read="code" data-name="{m.group(1)}" data-box="{m.group(2)}"><rect x="{_num(x)}" '
                f'y="{_num(y)}" width="{_num(size)}" height="{_num(size)}" fill="#ffffff"/></g>')

    return _CODE.sub(blank, svg)


def code_of(svg: str) -> tuple[str, tuple[float, float, float]] | None:
    """A face's code text and square (``x, y, size`` in mm), if it has one."""
    m = _CODE.search(svg)
    if m is None:
        return None
    x, y, size, _ = (float(v) for v in m.group(2).split())
    return m.group(1), (x, y, size)


def draw_code(canvas, text: str, square: tuple[float, float, float], face_h: float) -> None:
    """The code ``text`` on a reportlab canvas whose origin is the face's bottom left (points),
    in its square (mm from the face's top left)."""
    from generator.geometry import pt

    x, y, size = square
    rows = sheetcode.modules(text)
    cell = size / (len(rows) + 2 * sheetcode.QUIET)
    q = sheetcode.QUIET * cell
    canvas.saveState()
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(pt(x), pt(face_h - y - size), pt(size), pt(size), stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(rows):
        for m in re.finditer("1+", row):
            canvas.rect(pt(x + q + m.start() * cell), pt(face_h - y - q - (r + 1) * cell), pt(len(m.group()) * cell),
                        pt(cell), stroke=0, fill=1)
    canvas.restoreState()


def is_readable(svg: str) -> bool:
    return 'data-read="marker"' in svg


# --- the map ----------------------------------------------------------------------------
def face_map(svg: str) -> dict[str, Any]:
    """Every ``data-read`` element of a face's SVG, in mm from the trim's top
    left: ``box`` ``[x, y, w, h]`` (a rectangle or a ``data-box``),
    ``circle`` ``[cx, cy, r]`` or ``line`` ``[x1, y1, x2, y2]``. An element
    under a ``transform`` is refused: its numbers would not be the page's."""
    from lxml import etree

    root = etree.fromstring(svg.encode("utf-8"))
    marks = []
    for el in root.iter():
        kind = el.get("data-read") if isinstance(el.tag, str) else None
        if kind is None:
            continue
        node = el
        while node is not None:
            if node.get("transform"):
                raise ValueError(f"the {kind} {el.get('data-name')!r} is drawn under a transform: "
                                 "a readable place is drawn in the face's own millimetres")
            node = node.getparent()
        tag = etree.QName(el).localname
        f = lambda *names: [float(el.get(n)) for n in names]   # noqa: E731
        if el.get("data-box"):
            geo = {"box": [float(v) for v in el.get("data-box").split()]}
        elif tag == "rect":
            geo = {"box": f("x", "y", "width", "height")}
        elif tag == "circle":
            geo = {"circle": f("cx", "cy", "r")}
        elif tag == "line":
            geo = {"line": f("x1", "y1", "x2", "y2")}
        else:
            raise ValueError(f"the {kind} {el.get('data-name')!r} is a <{tag}> without a data-box")
        marks.append({"kind": kind, "name": el.get("data-name", ""), **geo})
    return {"marks": marks}


def pdf_map(pdf_name: str, paper: str, page: tuple[float, float], pages: list[list[tuple[Any, Any]]]
            ) -> dict[str, Any]:
    """The map written beside a PDF: each readable face once (its marks),
    and on each page (numbered from 1) where each of its pieces lies
    (``trim``: x, y, w, h in mm from the page's top left; ``rotation`` in
    degrees, as :class:`generator.impose.Slot` says). ``pages`` holds each
    page's ``(face, slot)`` pairs."""
    faces: dict[str, Any] = {}
    out_pages = []
    for number, placed in enumerate(pages, 1):
        pieces = []
        for face, slot in placed:
            if face is None or not is_readable(face.svg):
                continue
            if face.name not in faces:
                faces[face.name] = face_map(face.svg)
                for mark in faces[face.name]["marks"]:
                    if mark["kind"] == "code":
                        mark["name"] = sheetcode.with_paper(mark["name"], paper)
            t = slot.trim
            pieces.append({"face": face.name, "trim": [round(t.x, 3), round(page[1] - t.y - t.h, 3), t.w, t.h],
                           "rotation": slot.rotation})
        if pieces:
            out_pages.append({"page": number, "pieces": pieces})
    return {"format": FORMAT, "pdf": pdf_name, "paper": paper, "page": list(page), "faces": faces,
            "pages": out_pages}
