"""Imposition: where each piece goes on a sheet of paper, and its crop marks.

Pure geometry in millimetres (y up, as in PDF). Three styles:

``grid``  guillotine grid: pieces share cut lines, crop marks extend every
          cut line into the margin (9 poker cards on A4 or Letter).
``bleed`` every piece carries its bleed; bleeds touch, and crop marks extend
          every trim line outside the whole block, so a mark never lands on
          a neighbouring card.
``loose`` pieces that carry their own cut lines (dice nets): a gap between
          them, no marks.

Duplex backs: with long-edge flip a portrait page's back is its mirror
image left to right, so the back of the piece in column ``c`` is printed in
column ``cols - 1 - c``; a piece printed sideways has its back turned the
other way (see :meth:`Layout.back`). Duplex layouts use portrait pages only,
so that "long edge" means one thing on every printer.

>>> lay = layout("a4", (63, 88), style="grid")
>>> lay.per_page, lay.cols, lay.rows, lay.page
(9, 3, 3, (210.0, 297.0))
>>> layout("letter", (63, 88), style="grid").per_page
9
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from generator.geometry import PAPERS, PRINTER_MARGIN, Rect

Style = Literal["grid", "bleed", "loose"]

MARK_GAP = 1.0
"""Crop marks start this far from the cut area, so a slightly off cut
never leaves a mark on a card's edge."""
MARK_LEN = 5.0
BLEED_MARK_ZONE = 3.0
"""Extra margin a bleed block keeps around it so its marks are printable."""
GRID_MARK_ZONE = 2.5
"""The same for a grid: room for every cut line's marks (1 mm gap, 1.5 mm of mark) inside the printable area."""
LOOSE_GAP = 4.0
MARK_EDGE = PRINTER_MARGIN
"""Crop marks stay at least this far inside the paper's edge (A4 and Letter)."""


@dataclass(frozen=True)
class Slot:
    """Where one piece goes: its trim rectangle on the page, and its turn.

    ``rotation`` is 0, or 90 (the piece lies on its side, its top toward the
    page's left edge), or -90 (top toward the right edge).
    """

    trim: Rect
    bleed: float
    rotation: int = 0
    row: int = 0
    col: int = 0

    @property
    def outer(self) -> Rect:
        """The trim plus bleed: what is drawn."""
        return self.trim.grow(self.bleed)


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Layout:
    page: tuple[float, float]
    style: Style
    piece: tuple[float, float]
    bleed: float
    rotated: bool
    cols: int
    rows: int
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...] = field(default=())

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def landscape(self) -> bool:
        return self.page[0] > self.page[1]

    @property
    def trim_box(self) -> Rect:
        return Rect.union([s.trim for s in self.slots])

    @property
    def bleed_box(self) -> Rect:
        return Rect.union([s.outer for s in self.slots])

    def back(self, slot: Slot, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of ``slot``'s piece goes for a long-edge flip.

        ``offset`` (mm) shifts every back, for printers whose back side lands
        off by a little; measure it with the calibration page.
        """
        if self.landscape:
            raise ValueError("duplex layouts use portrait pages")
        w = self.page[0]
        t = slot.trim
        mirrored = Rect(w - t.x - t.w + offset[0], t.y + offset[1], t.w, t.h)
        return Slot(mirrored, slot.bleed, -slot.rotation, slot.row, self.cols - 1 - slot.col)


def _fit(avail: float, size: float, gap: float) -> int:
    return max(0, int((avail + gap + 1e-9) // (size + gap)))


def layout(paper: str | tuple[float, float], piece: tuple[float, float], *, style: Style = "grid",
           bleed: float = 0.0, duplex: bool = False) -> Layout:
    """The layout that puts the most pieces on a page.

    Tries the piece upright and on its side, on a portrait page and (unless
    ``duplex``) a landscape one; on a tie, upright beats sideways and portrait
    beats landscape. Raises ``ValueError`` when not even one piece fits.
    """
    if isinstance(paper, str):
        paper_size = PAPERS[paper].size
    else:
        paper_size = paper
    if style != "bleed":
        bleed = 0.0
    pw, ph = piece
    best: Layout | None = None
    best_key = None
    pages = [(min(paper_size), max(paper_size))]
    if not duplex:
        pages.append((max(paper_size), min(paper_size)))
    for page_i, page in enumerate(pages):
        for rot_i, rotated in enumerate((False, True)):
            fw, fh = (ph, pw) if rotated else (pw, ph)
            lay = _grid(page, (pw, ph), (fw, fh), style, bleed, rotated)
            if lay is None:
                continue
            key = (lay.per_page, -rot_i, -page_i)
            if best_key is None or key > best_key:
                best, best_key = lay, key
    if best is None or best.per_page == 0:
        raise ValueError(f"a {pw:g} x {ph:g} mm piece does not fit on {paper_size[0]:g} x {paper_size[1]:g} mm paper")
    return best


def _grid(page: tuple[float, float], piece: tuple[float, float], foot: tuple[float, float],
          style: Style, bleed: float, rotated: bool) -> Layout | None:
    W, H = page
    fw, fh = foot
    if style == "grid":
        margin, gap, cw, ch = PRINTER_MARGIN + GRID_MARK_ZONE, 0.0, fw, fh
    elif style == "bleed":
        margin, gap, cw, ch = PRINTER_MARGIN + BLEED_MARK_ZONE, 0.0, fw + 2 * bleed, fh + 2 * bleed
    else:
        margin, gap, cw, ch = PRINTER_MARGIN, LOOSE_GAP, fw, fh
    cols = _fit(W - 2 * margin, cw, gap)
    rows = _fit(H - 2 * margin, ch, gap)
    if cols == 0 or rows == 0:
        return None
    block_w = cols * cw + (cols - 1) * gap
    block_h = rows * ch + (rows - 1) * gap
    x0 = (W - block_w) / 2
    y0 = (H - block_h) / 2
    slots = []
    # Reading order: top row first, left to right (y is up).
    for r in range(rows):
        for c in range(cols):
            ox = x0 + c * (cw + gap)
            oy = y0 + block_h - (r + 1) * ch - r * gap
            trim = Rect(ox + (cw - fw) / 2, oy + (ch - fh) / 2, fw, fh)
            slots.append(Slot(trim, bleed, 90 if rotated else 0, r, c))
    lay = Layout(page, style, piece, bleed, rotated, cols, rows, tuple(slots))
    if style == "loose":
        return lay
    return Layout(page, style, piece, bleed, rotated, cols, rows, tuple(slots),
                  tuple(crop_marks(lay)))


def crop_marks(lay: Layout) -> list[Segment]:
    """Marks extending every cut line outside the block of pieces.

    They start ``MARK_GAP`` outside the block's outer edge (the bleed edge
    for ``bleed``) and stop ``MARK_EDGE`` short of the paper's edge, where
    home printers still print; a mark with less than half a millimetre of
    room is left out.
    """
    W, H = lay.page
    outer = lay.bleed_box
    xs = sorted({round(v, 6) for s in lay.slots for v in (s.trim.x, s.trim.x2)})
    ys = sorted({round(v, 6) for s in lay.slots for v in (s.trim.y, s.trim.y2)})
    # (start, end) of each side's marks, measured outward from the block
    below = (outer.y - MARK_GAP, max(outer.y - MARK_GAP - MARK_LEN, MARK_EDGE))
    above = (outer.y2 + MARK_GAP, min(outer.y2 + MARK_GAP + MARK_LEN, H - MARK_EDGE))
    left = (outer.x - MARK_GAP, max(outer.x - MARK_GAP - MARK_LEN, MARK_EDGE))
    right = (outer.x2 + MARK_GAP, min(outer.x2 + MARK_GAP + MARK_LEN, W - MARK_EDGE))
    marks: list[Segment] = []
    for (start, end), vertical in ((below, True), (above, True), (left, False), (right, False)):
        if abs(end - start) < 0.5 or (end - start) * (start - (outer.y if vertical else outer.x)) < 0:
            continue  # no room outward between the block and the printable edge
        for v in (xs if vertical else ys):
            marks.append(Segment(v, start, v, end) if vertical else Segment(start, v, end, v))
    return marks


def pack(paper: str | tuple[float, float], sizes: list[tuple[float, float]]) -> list[Layout]:
    """Loose pieces of several sizes (die nets, a token's two faces) on as
    few portrait pages as shelves give: left to right, top to bottom, in
    order, a gap between them, each page's block centred.

    >>> pages = pack("a4", [(60, 87)] * 6 + [(40, 40)] * 2)
    >>> len(pages), [len(p.slots) for p in pages]
    (1, [8])
    """
    page = PAPERS[paper].size if isinstance(paper, str) else paper
    W, H = min(page), max(page)
    m, gap = PRINTER_MARGIN, LOOSE_GAP
    pages: list[list[Slot]] = [[]]
    x, top, shelf_h, row, col = m, H - m, 0.0, 0, 0
    for w, h in sizes:
        if w > W - 2 * m or h > H - 2 * m:
            raise ValueError(f"a {w:g} x {h:g} mm piece does not fit on {W:g} x {H:g} mm paper")
        if x + w > W - m + 1e-9:
            x, top, shelf_h, row, col = m, top - shelf_h - gap, 0.0, row + 1, 0
        if top - h < m - 1e-9:
            pages.append([])
            x, top, shelf_h, row, col = m, H - m, 0.0, 0, 0
        pages[-1].append(Slot(Rect(x, top - h, w, h), 0.0, 0, row, col))
        x, shelf_h, col = x + w + gap, max(shelf_h, h), col + 1
    out = []
    for slots in pages:
        box = Rect.union([s.trim for s in slots])
        dx, dy = (W - box.w) / 2 - box.x, (H - box.h) / 2 - box.y
        moved = tuple(Slot(Rect(s.trim.x + dx, s.trim.y + dy, s.trim.w, s.trim.h), 0.0, 0, s.row, s.col)
                      for s in slots)
        out.append(Layout((W, H), "loose", sizes[0], 0.0, False, max(s.col for s in slots) + 1,
                          max(s.row for s in slots) + 1, moved))
    return out


BLOCK_GAP = 2 * (MARK_GAP + MARK_LEN)
"""Room between two ganged blocks: the marks below one and above the next
both fit, apart."""


def gang(paper: str | tuple[float, float], sizes: list[tuple[float, float]], *, style: Style = "grid",
         bleed: float = 0.0) -> list[Layout]:
    """Pieces of a few sizes on shared sheets, each size in its own block
    cut like a grid (``grid``: shared cut lines; ``bleed``: bleeds touching),
    blocks stacked down portrait pages ``BLOCK_GAP`` apart so every block
    keeps its own crop marks: small tokens of three kinds on one sheet.
    ``sizes`` in print order, runs of one size making a block.

    >>> pages = gang("a4", [(15, 15)] * 130 + [(8.5, 8.5)] * 30)
    >>> len(pages), len(pages[0].slots)
    (1, 160)
    """
    page = PAPERS[paper].size if isinstance(paper, str) else paper
    W, H = min(page), max(page)
    if style != "bleed":
        bleed = 0.0
    margin = PRINTER_MARGIN + (BLEED_MARK_ZONE if style == "bleed" else GRID_MARK_ZONE)
    runs: list[tuple[tuple[float, float], int]] = []
    for size in sizes:
        if runs and runs[-1][0] == size:
            runs[-1] = (size, runs[-1][1] + 1)
        else:
            runs.append((size, 1))
    pages: list[list[list[Slot]]] = [[]]  # pages of blocks of slots
    top = H - margin
    for (fw, fh), count in runs:
        cw, ch = fw + 2 * bleed, fh + 2 * bleed
        cols = _fit(W - 2 * margin, cw, 0.0)
        if cols == 0 or ch > H - 2 * margin:
            raise ValueError(f"a {fw:g} x {fh:g} mm piece does not fit on {W:g} x {H:g} mm paper")
        left = count
        while left:
            rows = _fit(top - margin, ch, 0.0)
            if rows == 0:
                pages.append([])
                top = H - margin
                continue
            n = min(left, rows * cols)
            used_cols = min(cols, n)
            x0 = (W - used_cols * cw) / 2
            block = [Slot(Rect(x0 + (i % cols) * cw + bleed, top - (i // cols + 1) * ch + bleed, fw, fh),
                          bleed, 0, i // cols, i % cols) for i in range(n)]
            pages[-1].append(block)
            top -= -(-n // cols) * ch + BLOCK_GAP
            left -= n
    out = []
    for blocks in pages:
        slots = tuple(s for b in blocks for s in b)
        marks = [m for b in blocks for m in crop_marks(
            Layout((W, H), style, (b[0].trim.w, b[0].trim.h), bleed, False, 1, 1, tuple(b)))]
        out.append(Layout((W, H), style, sizes[0], bleed, False, max(s.col for s in slots) + 1,
                          max(s.row for s in slots) + 1, slots, tuple(marks)))
    return out


def pages_needed(count: int, lay: Layout) -> int:
    return -(-count // lay.per_page)


# --- boards larger than the paper: tiles with an overlap and assembly marks ----
TILE_OVERLAP = 10.0
"""Each tile repeats this much of its neighbour, as a glue strip."""


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    region: Rect   # the part of the board this tile shows, board mm, y up from the board's bottom
    place: Rect    # where that part lands on the page

    @property
    def label(self) -> str:
        return f"{chr(65 + self.row)}{self.col + 1}"


@dataclass(frozen=True)
class Tiling:
    page: tuple[float, float]
    board: tuple[float, float]
    rows: int
    cols: int
    overlap: float
    tiles: tuple[Tile, ...]


def tiles(paper: str | tuple[float, float], board: tuple[float, float], overlap: float = TILE_OVERLAP) -> Tiling:
    """Cut a board into page-sized tiles that overlap by ``overlap`` mm.

    Rows are lettered from the top (A, B, ...), columns numbered from the
    left, as printed on each tile. The orientation giving fewer pages wins.

    >>> t = tiles("a4", (400, 300))
    >>> (t.rows, t.cols, len(t.tiles))
    (2, 2, 4)
    """
    paper_size = PAPERS[paper].size if isinstance(paper, str) else paper
    best: Tiling | None = None
    for page in ((min(paper_size), max(paper_size)), (max(paper_size), min(paper_size))):
        # Room below for the assembly notes.
        aw, ah = page[0] - 2 * PRINTER_MARGIN, page[1] - 2 * PRINTER_MARGIN - 6
        if aw <= overlap or ah <= overlap:
            continue
        bw, bh = board
        cols = max(1, -(-(bw - overlap) // (aw - overlap))) if bw > aw else 1
        rows = max(1, -(-(bh - overlap) // (ah - overlap))) if bh > ah else 1
        cols, rows = int(cols), int(rows)
        tw = (bw + (cols - 1) * overlap) / cols
        th = (bh + (rows - 1) * overlap) / rows
        out = []
        for r in range(rows):
            for c in range(cols):
                x = c * (tw - overlap)
                top = bh - r * (th - overlap)       # rows count from the board's top
                region = Rect(x, top - th, tw, th)
                place = Rect((page[0] - tw) / 2, PRINTER_MARGIN + 6 + (ah - th) / 2, tw, th)
                out.append(Tile(r, c, region, place))
        cand = Tiling(page, board, rows, cols, overlap, tuple(out))
        if best is None or len(cand.tiles) < len(best.tiles):
            best = cand
    if best is None:
        raise ValueError("paper too small to tile on")
    return best
