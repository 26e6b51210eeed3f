"""The home-printing sheets of a component: which PDFs to write (one
:class:`Job` per file, with the digest that says whether it changed), how
many pages each has, and writing one."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from generator import booklet as booklets
from generator import components as comp
from generator import readable
from generator.files import digest_key
from generator.geometry import PAPERS, pt
from generator.impose import gang, layout, pack, tiles
from generator.manifest import Component
from generator.pdf import Face, Piece, SheetPdf, write_calibration, write_pieces, write_tiles
from generator.printable import Printable, Rendered
from reader.sheetcode import with_paper

if TYPE_CHECKING:
    from generator.build import BuildOptions


@dataclass
class Job:
    """One PDF to write (or skip)."""

    target: Path
    title: str
    pieces: list[Piece]
    paper: str
    style: str
    duplex: bool
    caption: str
    key: str
    note: str
    kind: str = ""
    contents: str = ""
    component: str = ""
    booklet: booklets.Booklet | None = None
    """For the booklet's three files (styles in :data:`BOOKLET_FILES`)."""


BOOKLET_FILES = {
    "rules": ("rules booklet, one page a sheet", "two-sided, flip on long edge (or one-sided)"),
    "rules-booklet": ("the rules booklet on half sheets, in folded order",
                      "two-sided, flip on SHORT edge; fold the stack in the middle, staple on the fold"),
    "player-aid": ("one-page player aid", "one-sided; one per player"),
}
"""File tail -> (contents, how to print it)."""


def _sheet_mates(printable: Printable, rendered: Rendered) -> dict[str, list[Piece]]:
    """Pieces printed on another component's sheets (``sheet_with``): both
    faces of a two-sided one side by side, to glue back to back."""
    mates: dict[str, list[Piece]] = {}
    for c in printable.components():
        if c.sheet_with:
            for p in rendered.get((c.id, "loose"), []):
                faces = [p.front] + ([p.back] if p.back else [])
                mates.setdefault(c.sheet_with, []).extend(
                    Piece(p.key, p.label, p.size, f) for f in faces)
    return mates


def jobs(printable: Printable, rendered: Rendered, booklet: booklets.Booklet, options: "BuildOptions",
         code: str) -> list[Job]:
    game, manifest = printable.game.name, printable.manifest
    game_out = Path(options.out) / game
    suffix = "-ink-saver" if options.ink_saver else ""
    mates = _sheet_mates(printable, rendered)
    names = {c.id: c.name for c in printable.components()}
    jobs = []
    for paper in options.papers:
        for component in printable.components():
            if component.sheet_with or component.gang_with:
                continue
            # the largest first, so that pieces of one size make one block
            ganged = sorted((c for c in printable.components() if c.gang_with == component.id),
                            key=lambda c: -(c.trim[0] * c.trim[1]) if c.trim else 0)
            for style in comp.style_for(component):
                if (component.id, style) not in rendered:
                    continue
                pieces = _with_paper(rendered[(component.id, style)] + mates.get(component.id, [])
                                     + [p for c in ganged for p in rendered.get((c.id, style), [])], paper)
                duplex = component.duplex and options.backs and style != "loose"
                tail = "-bleed" if style == "bleed" else ""
                target = game_out / paper / f"{game}-{paper}-{component.id}{tail}{suffix}.pdf"
                key = digest_key(code, paper, style, options.bleed if style == "bleed" else 0, duplex,
                                 options.back_offset, [(p.key, p.front.digest, p.back.digest if p.back else None)
                                                       for p in pieces])
                together = [names[c.id] for c in printable.components()
                            if component.id in (c.sheet_with, c.gang_with)]
                count = len(rendered[(component.id, style)])
                contents = f"{count} piece{'s' if count != 1 else ''}" + (
                    f", with the {', '.join(together)}" if together else "")
                jobs.append(Job(target, f"{manifest.title}: {component.name}", pieces, paper, style,
                                duplex, f"{manifest.title} · {component.name}", key,
                                _print_note(component, style, duplex), component.kind, contents, component.id))
        for tail, (contents, how) in BOOKLET_FILES.items():
            key = digest_key(code, paper, tail, booklet.aid_digest if tail == "player-aid" else booklet.digest)
            jobs.append(Job(game_out / paper / f"{game}-{paper}-{tail}{suffix}.pdf", f"{manifest.title}: {contents}",
                            [], paper, tail, tail != "player-aid", "", key, how, contents=contents,
                            component=tail, booklet=booklet))
        target = game_out / paper / f"{game}-{paper}-calibration.pdf"
        jobs.append(Job(target, "Duplex calibration", [], paper, "calibration", True, "",
                        digest_key(code, paper, "calibration"), "Duplex test page: measures --back-offset",
                        contents="test page"))
    return jobs


def _with_paper(pieces: list[Piece], paper: str) -> list[Piece]:
    """Pieces whose faces carry a sheet code, the code's square left white: the PDF draws
    the code naming ``paper`` over it (:func:`_place_codes`), so A4 and Letter share one
    drawing of the face (generator/readable.py). ``paper`` is in the job's key."""
    blanked: dict[str, Face] = {}

    def face(f: Face | None) -> Face | None:
        if f is None or not readable.is_readable(f.svg):
            return f
        if f.digest not in blanked:
            blanked[f.digest] = Face(f.name, readable.without_code(f.svg))
        return blanked[f.digest]

    return [replace(p, front=face(p.front), back=face(p.back)) for p in pieces]


def _place_codes(pdf: SheetPdf, paper: str) -> None:
    """After each readable face is placed, its code naming ``paper`` is drawn in its square."""
    place = pdf.place

    def place_and_code(face: Face, slot, where: str) -> None:
        place(face, slot, where)
        code = readable.code_of(face.svg)
        if code is None:
            return
        text, square = code
        outer, c = slot.outer, pdf.canvas
        c.saveState()
        # as SheetPdf.place turns the face, then from its drawing's corner to its trim's
        if slot.rotation == 0:
            c.translate(pt(outer.x), pt(outer.y))
        elif slot.rotation == 90:
            c.translate(pt(outer.x2), pt(outer.y))
            c.rotate(90)
        else:
            c.translate(pt(outer.x), pt(outer.y2))
            c.rotate(-90)
        c.translate(pt(slot.bleed), pt(slot.bleed))
        readable.draw_code(c, with_paper(text, paper), square, slot.trim.h if slot.rotation == 0 else slot.trim.w)
        c.restoreState()

    pdf.place = place_and_code   # type: ignore[method-assign]


def map_path(target: Path) -> Path:
    """Where the map of a PDF's readable pieces goes: beside it, ``.map.json``."""
    return target.with_suffix(".map.json")


def _write_map(job: Job, lay, back_offset: tuple[float, float]) -> None:
    """The map of the readable faces on ``job``'s pages, placed as
    :func:`generator.pdf.write_pieces` places them (fronts, then the
    mirrored backs)."""
    if not any(readable.is_readable(f.svg) for p in job.pieces for f in (p.front, p.back) if f is not None):
        return
    per = lay.per_page
    backs = job.duplex and any(p.back for p in job.pieces)
    pages = []
    for start in range(0, len(job.pieces), per):
        chunk = list(zip(job.pieces[start:start + per], lay.slots))
        pages.append([(p.front, slot) for p, slot in chunk])
        if backs:
            pages.append([(p.back, lay.back(slot, back_offset)) for p, slot in chunk])
    doc = readable.pdf_map(job.target.name, job.paper, lay.page, pages)
    map_path(job.target).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def _lay(job: Job, options: "BuildOptions"):
    size = job.pieces[0].size
    return layout(job.paper, size, style=job.style, bleed=options.bleed, duplex=job.duplex)  # type: ignore[arg-type]


def _ganged(job: Job) -> bool:
    """Pieces of several sizes in a grid or bleed file (``gang_with``)."""
    return job.style in ("grid", "bleed") and len({p.size for p in job.pieces}) > 1


def _gang(job: Job, options: "BuildOptions"):
    return gang(job.paper, [p.size for p in job.pieces], style=job.style, bleed=options.bleed)  # type: ignore[arg-type]


def _tiled(job: Job, options: "BuildOptions"):
    """The tiling of a board too big for the paper, else None."""
    if job.kind != "board":
        return None
    try:
        _lay(job, options)
        return None
    except ValueError:
        return tiles(job.paper, job.pieces[0].size)


def pages_of(job: Job, options: "BuildOptions") -> int:
    if job.style == "calibration":
        return 2
    if job.booklet is not None:
        from pypdf import PdfReader

        return len(PdfReader(job.target).pages)
    if job.style == "loose":
        return len(pack(job.paper, [p.size for p in job.pieces]))
    if _ganged(job):
        return len(_gang(job, options))
    tiling = _tiled(job, options)
    if tiling is not None:
        sides = sum(1 for f in (job.pieces[0].front, job.pieces[0].back) if f is not None)
        return len(tiling.tiles) * sides * len(job.pieces)
    lay = _lay(job, options)
    sheets = -(-len(job.pieces) // lay.per_page)
    return sheets * (2 if job.duplex and any(p.back for p in job.pieces) else 1)


def write(job: Job, options: "BuildOptions") -> int:
    paper = PAPERS[job.paper]
    if job.style == "calibration":
        write_calibration(job.target, paper.size, paper.name)
        return 2
    with SheetPdf(job.target, title=job.title, subject="labkit print-and-play") as pdf:
        if job.style == "loose" or _ganged(job):
            pages = (pack(job.paper, [p.size for p in job.pieces]) if job.style == "loose"
                     else _gang(job, options))
            start = 0
            for i, lay in enumerate(pages):
                write_pieces(pdf, job.pieces[start:start + lay.per_page], lay, backs=False, caption=job.caption,
                             sheets=(i, len(pages)))
                start += lay.per_page
            return pdf.stats.pages
        tiling = _tiled(job, options)
        if tiling is not None:
            for piece in job.pieces:
                write_tiles(pdf, piece, tiling, job.caption)
            return pdf.stats.pages
        _place_codes(pdf, job.paper)
        write_pieces(pdf, job.pieces, _lay(job, options), backs=job.duplex, back_offset=options.back_offset,
                     caption=job.caption)
        _write_map(job, _lay(job, options), options.back_offset)
        return pdf.stats.pages


def _print_note(component: Component, style: str, duplex: bool) -> str:
    how = "two-sided, flip on long edge" if duplex else "one-sided"
    what = {"grid": "cut along the shared lines", "bleed": "with 3 mm bleed, cut on the crop marks",
            "loose": "cut on the solid lines, fold on the dashed ones"}[style]
    return f"{how}; {what}"
