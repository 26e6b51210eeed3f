"""A rules booklet set in type with reportlab's Platypus: a title page with
the game's components and contents, numbered headings' pages, steps,
tables, figures as vector drawings, page numbers; DejaVu Sans embedded.

Three products per paper (docs/design/booklets.md): the booklet one page a
sheet, the same set on half sheets imposed in folded (saddle-stitch) order,
and the one-page player aid. Text that cannot fit (a word wider than its
column, a table wider than the page, a player aid past one page) is a
:class:`BookletError` raised while rendering in memory, before any file is
written.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, KeepTogether, ListFlowable, ListItem, PageBreak,
                                PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.graphics import renderPDF
from reportlab.platypus.doctemplate import LayoutError

from generator import fonts
from generator.booklet import Booklet
from generator.booklet_fold import folded_order, impose
from generator.booklet_md import READING, Block, BookletError, Document, plain
from generator.geometry import PAPERS, pt
from generator.svg import RenderError, to_drawing

INK = colors.HexColor("#1d2730")
ACCENT = colors.HexColor("#12706f")
SOFT = colors.HexColor("#e3efee")
RULE = colors.HexColor("#9bb7b5")
GREY = colors.HexColor("#5b6670")


@dataclass(frozen=True)
class Look:
    """Page size and type sizes (mm, pt)."""

    width: float
    height: float
    margin: float
    body: float

    @property
    def frame(self) -> tuple[float, float]:
        return pt(self.width - 2 * self.margin), pt(self.height - 2 * self.margin - 6)


def flat_look(paper: str) -> Look:
    p = PAPERS[paper]
    return Look(p.width, p.height, 18.0, 10.0)


def aid_look(paper: str) -> Look:
    """The player aid: one page, read across the table, so a size larger."""
    p = PAPERS[paper]
    return Look(p.width, p.height, 14.0, 10.0)


def half_look(paper: str) -> Look:
    """One page of the folded booklet: half the sheet turned landscape."""
    p = PAPERS[paper]
    return Look(p.height / 2, p.width, 12.0, 8.6)


def _styles(look: Look) -> dict[str, ParagraphStyle]:
    b = look.body
    base = ParagraphStyle("body", fontName=fonts.REGULAR, bulletFontName=fonts.REGULAR, fontSize=b, leading=b * 1.38, textColor=INK,
                          spaceAfter=b * 0.55)
    return {
        "body": base,
        "title": ParagraphStyle("title", base, fontName=fonts.BOLD, fontSize=b * 3.0, leading=b * 3.5,
                                textColor=ACCENT, alignment=TA_CENTER, spaceAfter=b),
        "subtitle": ParagraphStyle("subtitle", base, fontSize=b * 1.3, leading=b * 1.8, alignment=TA_CENTER,
                                   textColor=GREY, spaceAfter=b * 1.5),
        "h2": ParagraphStyle("h2", base, fontName=fonts.BOLD, fontSize=b * 1.55, leading=b * 1.9,
                             textColor=ACCENT, spaceBefore=b * 1.1, spaceAfter=b * 0.5),
        "h3": ParagraphStyle("h3", base, fontName=fonts.BOLD, fontSize=b * 1.15, leading=b * 1.5,
                             spaceBefore=b * 0.6, spaceAfter=b * 0.3),
        "item": ParagraphStyle("item", base, spaceAfter=b * 0.25),
        "cell": ParagraphStyle("cell", base, fontSize=b * 0.9, leading=b * 1.15, spaceAfter=0),
        "head": ParagraphStyle("head", base, fontName=fonts.BOLD, fontSize=b * 0.9, leading=b * 1.15,
                               spaceAfter=0, textColor=colors.white),
        "caption": ParagraphStyle("caption", base, fontName=fonts.FACES[("normal", "italic")][0],
                                   fontSize=b * 0.85, leading=b * 1.1, alignment=TA_CENTER, textColor=GREY,
                                   spaceBefore=2, spaceAfter=b * 0.8),
        "toc": ParagraphStyle("toc", base, fontSize=b, leading=b * 1.45, leftIndent=0),
        "aid": ParagraphStyle("aid", base, fontName=fonts.BOLD, fontSize=b * 1.8, leading=b * 2.1,
                              textColor=ACCENT, spaceAfter=b * 0.4),
    }


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"\*(.+?)\*")


def markup(text: str) -> str:
    """Booklet inline marks to reportlab's markup; a reading's mark ``{R12}`` a small raised R12."""
    text = _ITALIC.sub(r"<i>\1</i>", _BOLD.sub(r"<b>\1</b>", escape(text)))
    return READING.sub(rf'<super><font color="#{ACCENT.hexval()[2:]}">R\1</font></super>', text)


class _Heading(Paragraph):
    """A ``##`` heading, noted for the contents page."""

    def __init__(self, text: str, style: ParagraphStyle, level: int) -> None:
        super().__init__(markup(text), style)
        self.toc_text = plain(text)
        self.level = level


class _Doc(BaseDocTemplate):
    """Notes the page of every ``##`` heading, for the contents."""

    sketch = False
    """A first pass that only finds the pages: figures take their room but are not drawn."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.headings: list[tuple[str, int]] = []

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, _Heading) and flowable.level == 2:
            self.headings.append((flowable.toc_text, self.page))


_DRAWINGS: dict[str, object] = {}


def _drawing(svg: str, where: str):
    """Each figure's SVG converted once per process (A4, Letter and the folded
    booklet share it); drawn unchanged, scaled by :class:`_Figure`."""
    key = hashlib.sha1(svg.encode("utf-8")).hexdigest()
    if key not in _DRAWINGS:
        if len(_DRAWINGS) > 256:
            _DRAWINGS.clear()
        try:
            _DRAWINGS[key] = to_drawing(svg, where)
        except RenderError as exc:
            raise BookletError([str(exc)]) from None
    return _DRAWINGS[key]


class _Figure(Flowable):
    """A vector drawing at ``scale``; in a sketch pass it only takes its room."""

    def __init__(self, drawing, scale: float) -> None:
        super().__init__()
        self.drawing, self.s = drawing, scale
        self.width, self.height = drawing.width * scale, drawing.height * scale
        self.hAlign = "CENTER"

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        if getattr(self.canv._doctemplate, "sketch", False):
            return
        self.canv.saveState()
        self.canv.scale(self.s, self.s)
        renderPDF.draw(self.drawing, self.canv, 0, 0)
        self.canv.restoreState()


def _too_wide(text: str, width: float, size: float, where: str) -> list[str]:
    out = []
    for word in plain(text).split():
        if stringWidth(word, fonts.BOLD, size) > width:
            out.append(f"{where}: the word {word[:30]!r} is wider than its column "
                       f"({stringWidth(word, fonts.BOLD, size) / pt(1):.1f} mm, room for {width / pt(1):.1f} mm)")
    return out


class _Builder:
    def __init__(self, booklet: Booklet, look: Look) -> None:
        self.booklet = booklet
        self.look = look
        self.styles = _styles(look)
        self.width, self.height = look.frame
        self.problems: list[str] = []

    def para(self, text: str, style: str, where: str) -> Paragraph:
        self.problems.extend(_too_wide(text, self.width, self.styles[style].fontSize, where))
        return Paragraph(markup(text), self.styles[style])

    def figure(self, svg: str, caption: str, where: str, max_height: float | None = None) -> Flowable:
        drawing = _drawing(svg, where)
        limit = max_height if max_height is not None else self.height * 0.5
        s = min(1.0, self.width / drawing.width, limit / drawing.height)
        parts: list[Flowable] = [Spacer(1, 3), _Figure(drawing, s)]
        if caption:
            parts.append(self.para(caption, "caption", where))
        return KeepTogether(parts)

    def table(self, block: Block, where: str) -> Flowable:
        cell, head = self.styles["cell"], self.styles["head"]
        pad = 8.0
        cols = len(block.rows[0])
        natural, least = [0.0] * cols, [0.0] * cols
        for r, row in enumerate(block.rows):
            font = fonts.BOLD if r == 0 else fonts.REGULAR
            for c, text in enumerate(row):
                words = plain(text).split() or [""]
                natural[c] = max(natural[c], stringWidth(plain(text), font, cell.fontSize) + pad)
                least[c] = max(least[c], max(stringWidth(w, fonts.BOLD, cell.fontSize) for w in words) + pad)
        if sum(least) > self.width:
            self.problems.append(f"{where}: the table is wider than the page ({sum(least) / pt(1):.0f} mm of "
                                 f"unbreakable words, room for {self.width / pt(1):.0f} mm)")
            widths = [self.width / cols] * cols
        elif sum(natural) <= self.width:
            widths = natural
        else:
            spare = self.width - sum(least)
            extra = [n - m for n, m in zip(natural, least)]
            widths = [m + spare * e / sum(extra) for m, e in zip(least, extra)]
        data = [[Paragraph(markup(t), head if r == 0 else cell) for t in row] for r, row in enumerate(block.rows)]
        t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        t.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR),  # the default, Helvetica, would be a font not embedded
            ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, SOFT]),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad / 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad / 2),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        return t

    def listing(self, block: Block, where: str) -> Flowable:
        path = where.rsplit(":", 1)[0]
        items = []
        for k, (line, text) in enumerate(block.items):
            child = block.children[k] if k < len(block.children) else None
            para = self.para(text, "item", f"{path}:{line}")
            items.append(ListItem([para, self.listing(child, where)] if child is not None else para))
        b = self.look.body
        if block.kind == "steps":
            return ListFlowable(items, bulletType="1", bulletFontName=fonts.BOLD, bulletFontSize=b,
                                bulletColor=ACCENT, leftIndent=b * 1.8, bulletFormat="%s.")
        return ListFlowable(items, bulletType="bullet", start="•", bulletFontName=fonts.REGULAR, bulletFontSize=b, bulletColor=ACCENT,
                            leftIndent=b * 1.4)

    def blocks(self, doc: Document) -> list[Flowable]:
        """The document's flowables; a heading, or a paragraph ending in a colon,
        is kept on the page of what follows it."""
        out: list[Flowable] = []
        held: list[Flowable] = []
        for b in doc.blocks:
            before = len(out)
            self._block(doc, b, out)
            if b.kind == "heading" or (b.kind == "para" and b.text.endswith(":")):
                held.extend(out[before:])
                del out[before:]
            elif held and len(out) > before:
                first = out[before]
                # never nest KeepTogether: its wrap answers a huge height to force a split
                inner = first._content if isinstance(first, KeepTogether) else [first]
                out[before] = KeepTogether([*held, *inner])
                held = []
        return out + held

    def _block(self, doc: Document, b: Block, out: list[Flowable]) -> None:
        where = f"{doc.path}:{b.line}"
        if b.kind == "title":
            return
        if b.kind == "heading":
            style = "h2" if b.level == 2 else "h3"
            self.problems.extend(_too_wide(b.text, self.width, self.styles[style].fontSize, where))
            out.append(_Heading(b.text, self.styles[style], b.level))
        elif b.kind == "para":
            out.append(self.para(b.text, "body", where))
        elif b.kind in ("bullets", "steps"):
            out.append(self.listing(b, where))
        elif b.kind == "table":
            out.extend([self.table(b, where), Spacer(1, self.look.body * 0.8)])
        elif b.kind == "figure":
            fig = self.booklet.figures[(doc.path, b.line)]
            out.append(self.figure(fig.svg, fig.caption, where))
        elif b.kind == "pagebreak":
            out.append(PageBreak())

    def contents(self, headings: list[tuple[str, int]]) -> Flowable:
        style = self.styles["toc"]
        right = ParagraphStyle("tocpage", style, alignment=2)
        rows = [[Paragraph(escape(text), style), Paragraph(str(page), right)] for text, page in headings]
        if not rows:
            return Spacer(1, 1)
        t = Table(rows, colWidths=[self.width - 40, 40], hAlign="LEFT")
        t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR),
                               ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]))
        return t

    def title_page(self, headings: list[tuple[str, int]]) -> list[Flowable]:
        bk = self.booklet
        lo, hi = bk.players
        players = f"{lo} to {hi} players" if lo != hi else f"{lo} player{'s' if lo != 1 else ''}"
        return [Spacer(1, self.height * 0.03), Paragraph(markup(bk.doc.title), self.styles["title"]),
                Paragraph(f"Rules booklet · {players}", self.styles["subtitle"]),
                self.figure(bk.cover, "What is in the box: one of each component, as printed",
                            f"{bk.doc.path} (title page)", max_height=self.height * 0.36),
                Spacer(1, self.look.body), self.contents(headings), PageBreak()]


def _template(look: Look, footer: str | None) -> PageTemplate:
    m = pt(look.margin)
    frame = Frame(m, m + 14, pt(look.width) - 2 * m, pt(look.height) - 2 * m - 14, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

    def on_page(canvas, doc) -> None:
        if footer is None or doc.page == 1:
            return
        canvas.saveState()
        canvas.setFont(fonts.REGULAR, look.body * 0.8)
        canvas.setFillColor(GREY)
        canvas.drawCentredString(pt(look.width) / 2, m - 2, f"{footer} · {doc.page}")
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(m, m + 8, pt(look.width) - m, m + 8)
        canvas.restoreState()

    return PageTemplate(id="page", frames=[frame], onPage=on_page)


def _build(story: list[Flowable], look: Look, title: str, footer: str | None, where: str,
           sketch: bool = False) -> tuple[bytes, int, list[tuple[str, int]]]:
    buf = io.BytesIO()
    doc = _Doc(buf, pagesize=(pt(look.width), pt(look.height)), title=title, author="labkit",
               creator="labkit (reportlab)", subject="rules", invariant=True, initialFontName=fonts.REGULAR)
    doc.sketch = sketch
    doc.addPageTemplates([_template(look, footer)])
    try:
        doc.build(story)
    except LayoutError as exc:
        raise BookletError([f"{where}: does not fit the page: {exc}"]) from None
    return buf.getvalue(), doc.page, doc.headings


def render_rules(booklet: Booklet, look: Look) -> tuple[bytes, int]:
    """The whole booklet at ``look``: (PDF bytes, pages). Set twice: a sketch
    (figures not drawn) finds each section's page for the contents."""
    fonts.register()
    title, where = f"{booklet.title}: rules", booklet.doc.path
    headings: list[tuple[str, int]] = []
    for sketch in (True, False):
        b = _Builder(booklet, look)
        story = b.title_page(headings) + b.blocks(booklet.doc)
        if b.problems:
            raise BookletError(list(dict.fromkeys(b.problems)))
        data, pages, found = _build(story, look, title, booklet.title, where, sketch=sketch)
        if not sketch and found != headings:
            raise BookletError([f"{where}: the contents do not fit on the title page with its picture"])
        headings = found
    return data, pages


def render_aid(booklet: Booklet, look: Look) -> bytes:
    """The player aid, which must fit one page."""
    fonts.register()
    b = _Builder(booklet, look)
    story: list[Flowable] = [Paragraph(markup(booklet.aid.title), b.styles["aid"])] + b.blocks(booklet.aid)
    if b.problems:
        raise BookletError(b.problems)
    data, pages, _ = _build(story, look, f"{booklet.title}: player aid", None, booklet.aid.path)
    if pages != 1:
        raise BookletError([f"{booklet.aid.path}: the player aid takes {pages} pages; it must fit one"])
    return data


@dataclass
class Printed:
    """Everything a booklet prints on one paper, in memory."""

    rules: bytes
    rules_pages: int
    folded: bytes
    folded_pages: int
    aid: bytes
    half: bytes
    """The half-sheet pages in reading order, before imposition."""


def render_all(booklet: Booklet, paper: str) -> Printed:
    rules, pages = render_rules(booklet, flat_look(paper))
    half, half_pages = render_rules(booklet, half_look(paper))
    folded = impose(half, paper)
    return Printed(rules, pages, folded, len(folded_order(half_pages)), render_aid(booklet, aid_look(paper)), half)
