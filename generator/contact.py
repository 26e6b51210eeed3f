"""The contact sheet: every face of a game with its id, for an author to
proof the whole set at a glance (one picture per distinct face, then the
ids of faces that share a picture)."""

from __future__ import annotations

from pathlib import Path

from generator import pictures
from generator.geometry import pt
from generator.manifest import Component
from generator.pdf import Face, Piece

CELL_MM = 42.0


def component_pages(target: Path, title: str, component: Component, pieces: list[Piece], images, size, ppm) -> None:
    """Pages of every face of the component with its id, for proofing: one
    picture per distinct face, and the ids of faces that share a picture
    listed after them (a deck's sixty identical backs are one picture)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as rl_canvas

    from generator import fonts

    page_w, page_h = 297.0, 210.0
    margin, label = 10.0, 6.0
    cols = int((page_w - 2 * margin) // CELL_MM)
    rows = int((page_h - 2 * margin - 8) // (CELL_MM + label))
    groups: dict[str, dict[str, Face]] = {}
    for piece in pieces:
        for f in (piece.front, piece.back):
            if f is not None:
                groups.setdefault(f.digest, {}).setdefault(f.name, f)
    faces = [list(g.values()) for g in groups.values()]
    k = min((CELL_MM - 2) / size[0], (CELL_MM - 2) / size[1])
    w, h = size[0] * k, size[1] * k
    thumb_px = (max(1, round(w / 25.4 * 150)), max(1, round(h / 25.4 * 150)))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    c = rl_canvas.Canvas(str(tmp), pagesize=(pt(page_w), pt(page_h)), invariant=True, pageCompression=1,
                         initialFontName=fonts.REGULAR, initialFontSize=10)
    c.setTitle(f"{title}: contact sheet")
    heading = f"{title} · {component.name} · {len(faces)} different faces"
    per = cols * rows
    for start in range(0, len(faces), per):
        c.setFont(fonts.BOLD, 10)
        c.drawString(pt(margin), pt(page_h - margin), heading)
        for i, group in enumerate(faces[start:start + per]):
            cx = margin + (i % cols) * CELL_MM
            cy = page_h - margin - 8 - (i // cols + 1) * (CELL_MM + label)
            thumb = pictures.trim(images[group[0].digest], size, ppm).resize(thumb_px, Image.LANCZOS, reducing_gap=2.0)
            c.drawImage(ImageReader(thumb), pt(cx + (CELL_MM - w) / 2), pt(cy + label), pt(w), pt(h))
            c.setFont(fonts.REGULAR, 6)
            more = f" (+{len(group) - 1})" if len(group) > 1 else ""
            c.drawCentredString(pt(cx + CELL_MM / 2), pt(cy + 2.5), group[0].name + more)
        c.showPage()
    shared = [g for g in faces if len(g) > 1]
    if shared:
        lines = []
        for g in shared:
            lines += _wrap(f"{g[0].name} is also: " + ", ".join(f.name for f in g[1:]), 190)
        per_page = int((page_h - 2 * margin - 8) // 3)
        for start in range(0, len(lines), per_page):
            c.setFont(fonts.BOLD, 10)
            c.drawString(pt(margin), pt(page_h - margin), f"{heading}: faces that share a picture")
            c.setFont(fonts.REGULAR, 6)
            for i, line in enumerate(lines[start:start + per_page]):
                c.drawString(pt(margin), pt(page_h - margin - 8 - 3 * i), line)
            c.showPage()
    c.save()
    tmp.replace(target)


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    return out + [line]


def merge(fragments: list[Path], target: Path) -> None:
    """One contact sheet of the game from its components' pages."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    for f in fragments:
        part = pdfium.PdfDocument(str(f))
        doc.import_pages(part)
        part.close()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    doc.save(str(tmp))
    doc.close()
    tmp.replace(target)
