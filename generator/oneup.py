"""1-up PDFs, one piece a page, and the pictures of each face rendered from them.

A print shop that imposes the pieces itself wants each piece on a page of
its own, with the page saying where to cut (TrimBox) and how far the art
runs beyond the cut (BleedBox). Every physical piece gets its pages, copies
included, a two-sided piece front then back, so the file prints the set.

The page (MediaBox) carries the face with :data:`DRAWN_BLEED` of art round
the trim, more than the BleedBox claims: that extra is what a shop's
1/8 inch bleed needs when our trim is a little smaller than its product's
(63 x 88 mm against 2.5 x 3.5 in). The same pages, rendered by PDFium,
are every picture the exports use (shop PNGs, Tabletop Simulator,
contact sheet): each distinct face is drawn and rendered once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from generator.geometry import pt
from generator.pdf import Face, Piece, SheetPdf

DRAWN_BLEED = 4.0
"""mm of art drawn round every exported face: more than any shop's bleed in our units."""


@dataclass(frozen=True)
class FacePage:
    """Where a distinct face is in the 1-up PDF (0-based page)."""

    face: Face
    page: int


def write(pieces: Sequence[Piece], target: Path, *, title: str, bleed: float) -> tuple[bytes, list[FacePage]]:
    """Write the 1-up PDF of ``pieces`` (drawn with :data:`DRAWN_BLEED`) to
    ``target``, every page with TrimBox = the trim and
    BleedBox = the trim and ``bleed`` mm round it. Returns the PDF's bytes
    and the page of each distinct face's first appearance."""
    pdf = SheetPdf(target, title=title, subject="labkit 1-up")
    first: dict[str, FacePage] = {}
    with pdf:
        c = pdf.canvas
        for piece in pieces:
            w, h = piece.size
            for face in (piece.front, piece.back):
                if face is None:
                    continue
                c.setPageSize((pt(w + 2 * DRAWN_BLEED), pt(h + 2 * DRAWN_BLEED)))
                c.setTrimBox((pt(DRAWN_BLEED), pt(DRAWN_BLEED), pt(DRAWN_BLEED + w), pt(DRAWN_BLEED + h)))
                lo, hi = DRAWN_BLEED - bleed, DRAWN_BLEED + bleed
                c.setBleedBox((pt(lo), pt(lo), pt(hi + w), pt(hi + h)))
                name = pdf._ensure_form(face, piece.key)
                # A face drawn without bleed (a die net) sits on the trim, in the middle of the page.
                fw, fh = pdf.forms[name]
                c.saveState()
                c.translate((pt(w + 2 * DRAWN_BLEED) - fw) / 2, (pt(h + 2 * DRAWN_BLEED) - fh) / 2)
                c.doForm(name)
                c.restoreState()
                first.setdefault(face.digest, FacePage(face, pdf.stats.pages))
                pdf.end_page()
    return Path(target).read_bytes(), list(first.values())


def render(pdf_bytes: bytes, pages: Sequence[FacePage], px_per_mm: float) -> "Renders":
    """Each distinct face's picture by its digest (a PIL image, RGB, the whole drawn page:
    trim and :data:`DRAWN_BLEED` round it) at ``px_per_mm``, rendered when first asked for."""
    return Renders(pdf_bytes, pages, px_per_mm)


class Renders(Mapping):
    """A component's faces rendered on demand, the latest kept up to
    :data:`KEEP_PIXELS`: a dozen two-sided boards at 300 dpi would hold half
    a gigabyte at once, where each is needed for a moment."""

    KEEP_PIXELS = 16_000_000
    """About 50 MB of RGB: a face of every card of a small deck, or two boards at 300 dpi."""

    def __init__(self, pdf_bytes: bytes, pages: Sequence[FacePage], px_per_mm: float):
        self._pdf, self._pages, self.px_per_mm = pdf_bytes, {fp.face.digest: fp for fp in pages}, px_per_mm
        self._kept: OrderedDict[str, object] = OrderedDict()
        self._doc = None

    def __getitem__(self, digest: str):
        if digest in self._kept:
            self._kept.move_to_end(digest)
            return self._kept[digest]
        import pypdfium2 as pdfium

        fp = self._pages[digest]
        if self._doc is None:   # closed with this object (pypdfium2 closes what it collects)
            self._doc = pdfium.PdfDocument(self._pdf)
        page = self._doc[fp.page]
        image = page.render(scale=self.px_per_mm * 25.4 / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
        page.close()
        self._kept[digest] = image
        while len(self._kept) > 1 and sum(i.size[0] * i.size[1] for i in self._kept.values()) > self.KEEP_PIXELS:
            self._kept.popitem(last=False)
        return image

    def __iter__(self):
        return iter(self._pages)

    def __len__(self) -> int:
        return len(self._pages)
