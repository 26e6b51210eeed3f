"""PDF sheets with reportlab: pieces imposed by :mod:`generator.impose`.

Each distinct face is converted once (SVG to a reportlab drawing) and kept as
a PDF form XObject named after the piece, then placed wherever it is needed:
thirty tool cards cost six fronts and six backs. Text stays text; fonts are
the embedded TrueType fonts of :mod:`generator.fonts`.

Files are written atomically: to a temporary name beside the target, then
renamed, so a failed build never leaves a half-written PDF.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from reportlab.graphics import renderPDF
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import xObjectName
from reportlab.pdfgen import canvas as rl_canvas

from generator import fonts
from generator.geometry import PRINTER_MARGIN, pt
from generator.impose import MARK_GAP, MARK_LEN, Layout, Segment, Slot
from generator.svg import to_drawing

MARK_WIDTH_PT = 0.3


@dataclass(frozen=True)
class Face:
    """One side of a piece: its SVG (drawn with ``bleed`` mm around the trim)."""

    name: str
    svg: str

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.svg.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Piece:
    """One physical thing to cut out: a card, a sheet, a die net, a token."""

    key: str
    label: str
    size: tuple[float, float]
    front: Face
    back: Face | None = None


@dataclass
class PdfStats:
    pages: int = 0
    forms: int = 0


def form_name(face: Face) -> str:
    """PDF-safe XObject name: the face's name plus its content digest."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", face.name)
    return f"{safe}.{face.digest}"


class SheetPdf:
    """One PDF file of imposed pages. Use as a context manager."""

    def __init__(self, path: Path, *, title: str, subject: str = "") -> None:
        fonts.register()
        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # initialFontName: reportlab otherwise opens every page and form with
        # Helvetica, which is never embedded.
        self.canvas = rl_canvas.Canvas(str(self.tmp), invariant=True, pageCompression=1,
                                       initialFontName=fonts.REGULAR, initialFontSize=10)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("labkit")
        self.canvas.setCreator("labkit (reportlab)")
        self.canvas.setSubject(subject)
        self.forms: dict[str, tuple[float, float]] = {}
        self.stats = PdfStats()
        self._closed = False

    # --- context manager: atomic replace on success, cleanup on failure --------
    def __enter__(self) -> "SheetPdf":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.canvas.save()
            os.replace(self.tmp, self.path)
        else:
            try:
                self.tmp.unlink()
            except FileNotFoundError:
                pass
        self._closed = True

    # --- drawing -------------------------------------------------------------------
    def _ensure_form(self, face: Face, where: str) -> str:
        name = form_name(face)
        if name not in self.forms:
            drawing = _drawing(face, where)
            c = self.canvas
            c.beginForm(name, 0, 0, drawing.width, drawing.height)
            renderPDF.draw(drawing, c, 0, 0)
            c.endForm()
            _complete_form_resources(c, name)
            self.forms[name] = (drawing.width, drawing.height)
            self.stats.forms += 1
        return name

    def place(self, face: Face, slot: Slot, where: str) -> None:
        """Draw ``face`` so that its trim lands on ``slot.trim``."""
        name = self._ensure_form(face, where)
        fw, fh = self.forms[name]
        outer = slot.outer
        c = self.canvas
        c.saveState()
        if slot.rotation == 0:
            c.translate(pt(outer.x), pt(outer.y))
        elif slot.rotation == 90:  # top of the piece toward the page's left
            c.translate(pt(outer.x2), pt(outer.y))
            c.rotate(90)
        elif slot.rotation == -90:
            c.translate(pt(outer.x), pt(outer.y2))
            c.rotate(-90)
        else:
            raise ValueError(f"unsupported rotation {slot.rotation}")
        c.doForm(name)
        c.restoreState()

    def marks(self, segments: Iterable[Segment]) -> None:
        c = self.canvas
        c.saveState()
        c.setLineWidth(MARK_WIDTH_PT)
        c.setStrokeColorRGB(0, 0, 0)
        for s in segments:
            c.line(pt(s.x1), pt(s.y1), pt(s.x2), pt(s.y2))
        c.restoreState()

    def caption(self, lay: Layout, text: str) -> None:
        """A line of print instructions in the bottom margin, when it has room
        below the crop marks."""
        bottom = lay.bleed_box.y
        room = bottom - (MARK_GAP + MARK_LEN if lay.marks else 0)
        if room < 6:
            return
        c = self.canvas
        c.saveState()
        c.setFont(fonts.REGULAR, 7)
        c.setFillGray(0.35)
        c.drawCentredString(pt(lay.page[0] / 2), pt(min(room - 4, 5)), text)
        c.restoreState()

    def page(self, lay: Layout, boxes: bool = True) -> None:
        c = self.canvas
        c.setPageSize((pt(lay.page[0]), pt(lay.page[1])))
        if boxes:
            c.setTrimBox(lay.trim_box.to_pt())
            c.setBleedBox(lay.bleed_box.to_pt())

    def end_page(self) -> None:
        self.canvas.showPage()
        self.stats.pages += 1

    def bookmark(self, key: str, title: str) -> None:
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(title, key, level=0)


_DRAWINGS: dict[str, object] = {}


def _drawing(face: Face, where: str):
    """Convert each distinct face once per run: A4 and Letter share it."""
    key = hashlib.sha1(face.svg.encode("utf-8")).hexdigest()
    if key not in _DRAWINGS:
        if len(_DRAWINGS) > 512:
            _DRAWINGS.clear()
        _DRAWINGS[key] = to_drawing(face.svg, where)
    return _DRAWINGS[key]


def _complete_form_resources(c: rl_canvas.Canvas, name: str) -> None:
    """reportlab leaves the graphics states (transparency) out of a form's
    resources, so a face with an opacity becomes a broken PDF; give the form
    the same resources a page gets."""
    form = c._doc.idToObject[xObjectName(name)]
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    form.Resources = resources


def write_pieces(pdf: SheetPdf, pieces: Sequence[Piece], lay: Layout, *, backs: bool,
                 back_offset: tuple[float, float] = (0.0, 0.0), caption: str = "",
                 progress: Callable[[int], None] | None = None, sheets: tuple[int, int] | None = None) -> None:
    """Impose ``pieces`` page by page; with ``backs``, each front page is
    followed by its back page, mirrored for a long-edge flip. ``sheets``
    (first, of how many) numbers the captions of a file written a layout
    at a time (loose or ganged pages)."""
    per = lay.per_page
    total_pages = -(-len(pieces) // per)
    first, numbered = sheets if sheets is not None else (0, total_pages)
    has_backs = backs and any(p.back is not None for p in pieces)
    for page_no in range(total_pages):
        chunk = pieces[page_no * per:(page_no + 1) * per]
        pdf.page(lay)
        for piece, slot in zip(chunk, lay.slots):
            pdf.place(piece.front, slot, piece.key)
        pdf.marks(lay.marks)
        side = "fronts" if has_backs else ""
        pdf.caption(lay, _caption(caption, first + page_no, numbered, side))
        pdf.end_page()
        if has_backs:
            # The back page carries only backs and the mirrored marks: a
            # piece with no back leaves its place blank.
            pdf.page(lay)
            for piece, slot in zip(chunk, lay.slots):
                if piece.back is not None:
                    pdf.place(piece.back, lay.back(slot, back_offset), piece.key + " (back)")
            pdf.marks(_mirror_marks(lay, back_offset))
            pdf.caption(lay, _caption(caption, first + page_no, numbered, "backs"))
            pdf.end_page()
        if progress:
            progress(len(chunk))


def write_tiles(pdf: SheetPdf, piece: Piece, tiling, caption: str = "") -> None:
    """A board larger than the paper, one tile a page. Each tile shows its
    name, which neighbour it slides under, and registration crosses in the
    glue strips so that tiles line up when assembled."""
    W, H = tiling.page
    for face in (piece.front, piece.back):
        if face is None:
            continue
        side = "front" if face is piece.front else "back"
        for t in tiling.tiles:
            c = pdf.canvas
            c.setPageSize((pt(W), pt(H)))
            c.setTrimBox(t.place.to_pt())
            c.setBleedBox(t.place.to_pt())
            name = pdf._ensure_form(face, piece.key)
            c.saveState()
            p = c.beginPath()
            p.rect(pt(t.place.x), pt(t.place.y), pt(t.place.w), pt(t.place.h))
            c.clipPath(p, stroke=0, fill=0)
            c.translate(pt(t.place.x - t.region.x), pt(t.place.y - t.region.y))
            c.doForm(name)
            c.restoreState()
            # Registration crosses in the middle of every strip this tile
            # shares with a neighbour: the same board points print on both
            # tiles, so laying one cross over the other aligns them.
            o = tiling.overlap
            marks = []
            if t.col + 1 < tiling.cols:
                marks += [(t.place.x2 - o / 2, t.place.y + 4), (t.place.x2 - o / 2, t.place.y2 - 4)]
            if t.col > 0:
                marks += [(t.place.x + o / 2, t.place.y + 4), (t.place.x + o / 2, t.place.y2 - 4)]
            if t.row + 1 < tiling.rows:
                marks += [(t.place.x + 4, t.place.y + o / 2), (t.place.x2 - 4, t.place.y + o / 2)]
            if t.row > 0:
                marks += [(t.place.x + 4, t.place.y2 - o / 2), (t.place.x2 - 4, t.place.y2 - o / 2)]
            c.saveState()
            c.setLineWidth(MARK_WIDTH_PT)
            for x, y in marks:
                c.line(pt(x - 3), pt(y), pt(x + 3), pt(y))
                c.line(pt(x), pt(y - 3), pt(x), pt(y + 3))
                c.circle(pt(x), pt(y), pt(1.2))
            c.restoreState()
            where = []
            if t.col > 0:
                where.append(f"slide its left {o:g} mm under {chr(65 + t.row)}{t.col}")
            if t.row > 0:
                where.append(f"its top {o:g} mm under {chr(64 + t.row)}{t.col + 1}")
            if where:
                where[-1] += ", crosses on crosses"
            text = f"{caption} · {side} · tile {t.label} of {tiling.rows * tiling.cols}"
            if where:
                text += ": " + ", ".join(where)
            c.saveState()
            c.setFont(fonts.REGULAR, 7)
            c.drawCentredString(pt(W / 2), pt(PRINTER_MARGIN + 1.5), text)
            c.restoreState()
            pdf.end_page()


def _caption(text: str, page_no: int, pages: int, side: str) -> str:
    parts = [text] if text else []
    parts.append(f"sheet {page_no + 1} of {pages}")
    if side:
        parts.append(side)
    return "  ·  ".join(parts)


def _mirror_marks(lay: Layout, offset: tuple[float, float]) -> list[Segment]:
    w = lay.page[0]
    return [Segment(w - s.x1 + offset[0], s.y1 + offset[1], w - s.x2 + offset[0], s.y2 + offset[1])
            for s in lay.marks]


def write_calibration(path: Path, paper_size: tuple[float, float], paper_name: str) -> None:
    """Two pages to print duplex: crosshairs on the front, rulers on the back.

    Hold the printed sheet against a window: where each front crosshair shows
    through on the back's rulers is the back offset to pass as
    ``--back-offset X,Y``.
    """
    W, H = min(paper_size), max(paper_size)
    points = [(W / 2, H / 2), (30, 30), (W - 30, 30), (30, H - 30), (W - 30, H - 30)]
    with SheetPdf(path, title=f"Duplex calibration ({paper_name})", subject="labkit") as pdf:
        c = pdf.canvas
        c.setPageSize((pt(W), pt(H)))
        c.setFont(fonts.BOLD, 14)
        c.drawCentredString(pt(W / 2), pt(H - 20), "Duplex calibration")
        c.setFont(fonts.REGULAR, 9)
        lines = [
            f"Print both pages on one {paper_name} sheet: two-sided, flip on long edge, scale 100%.",
            "Hold the sheet against a window. Each cross on this side shows through on the rulers",
            "of the other side. Read the numbers where the centre of the cross falls, in",
            "millimetres: X on the horizontal ruler, Y on the vertical one. Then build with",
            "--back-offset X,Y  (all zero: your printer needs no offset).",
        ]
        for i, line in enumerate(lines):
            c.drawCentredString(pt(W / 2), pt(H - 30 - 5 * i), line)
        c.setLineWidth(0.4)
        for x, y in points:
            c.line(pt(x - 8), pt(y), pt(x + 8), pt(y))
            c.line(pt(x), pt(y - 8), pt(x), pt(y + 8))
            c.circle(pt(x), pt(y), pt(2))
        pdf.end_page()
        c.setPageSize((pt(W), pt(H)))
        c.setFont(fonts.REGULAR, 5)
        for x, y in points:
            mx = W - x  # the mirror image of the front cross
            for d in range(-10, 11):
                tick = 3 if d % 5 else 5
                c.setLineWidth(0.2 if d else 0.5)
                c.line(pt(mx + d), pt(y - 12), pt(mx + d), pt(y - 12 + tick))
                c.line(pt(mx - 12), pt(y + d), pt(mx - 12 + tick), pt(y + d))
                if d % 5 == 0:
                    # A cross read at +d means the back landed d mm short:
                    # shifting the backs by +d puts them right.
                    c.drawCentredString(pt(mx + d), pt(y - 15), f"{d:+d}" if d else "0")
                    c.drawString(pt(mx - 17), pt(y + d - 0.6), f"{d:+d}" if d else "0")
        pdf.end_page()
