"""Build the print-and-play set: every component of every game, A4 and Letter.

Output, per game::

    output/<game>/a4/<game>-a4-<component>.pdf          home printing (guillotine grid)
    output/<game>/a4/<game>-a4-<component>-bleed.pdf    cards with bleed and crop marks
    output/<game>/a4/<game>-a4-rules.pdf                the rules booklet (docs/design/booklets.md)
    output/<game>/a4/<game>-a4-rules-booklet.pdf        the same on half sheets in folded order
    output/<game>/a4/<game>-a4-player-aid.pdf           the one-page player aid
    output/<game>/a4/<game>-a4-calibration.pdf          duplex back-offset test page
    output/<game>/letter/...                            the same on US Letter
    output/<game>/svg/<component>/<piece>-front.svg     every face as loose SVG
    output/<game>/PRINTING.md                           what each file is, how to print it, what else to gather

Everything is drawn and checked first (text that will not fit, characters
the font lacks: :func:`check`); a single problem stops the build before any
file is written. Rebuilds are incremental: a PDF is written again only when
the digest of its faces, layout and the generator's own code changed. The
record is ``output/.labkit-cache.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.data import DataError
from generator import booklet as booklets
from generator import components as comp
from generator import fonts
from generator.booklet_md import BookletError
from generator.geometry import PAPERS
from generator.guide import printing_guide
from generator.impose import gang, layout, pack, tiles
from generator.manifest import Component
from generator.pdf import Face, Piece, SheetPdf, write_calibration, write_pieces, write_tiles
from generator.printable import BuildError, Printable, Rendered, check, load
from generator.svg import RenderError
from labkit import cardsets, registry, setfiles

CACHE_NAME = ".labkit-cache.json"


@dataclass
class BuildOptions:
    games: list[str] = field(default_factory=list)   # empty: every game
    papers: tuple[str, ...] = ("a4", "letter")
    bleed: float = 3.0
    out: Path = Path("output")
    data_dir: Path | None = None                     # an author's copy of one game's data
    layouts: tuple[str, ...] = ("grid", "bleed")
    backs: bool = True
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    svg: bool = True
    force: bool = False


@dataclass
class Written:
    path: Path
    pages: int
    pieces: int
    note: str
    skipped: bool


@dataclass
class BuildReport:
    files: list[Written] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def written(self) -> list[Written]:
        return [f for f in self.files if not f.skipped]

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.written)


def plan(options: BuildOptions) -> list[tuple[Printable, Rendered, booklets.Booklet]]:
    """Which games to build from where, read, drawn and checked, each with its
    rules booklet; raises :class:`BuildError` with every problem of every game."""
    games = registry.games()
    if options.data_dir is not None:
        folder = Path(options.data_dir)
        if not setfiles.is_set_path(folder):
            raise BuildError(f"{folder}: not a folder or a .zip")
        if len(options.games) > 1:
            raise BuildError("--data builds one game's card set: name at most one --game")
        try:
            which = [registry.find(options.games[0])] if options.games else [cardsets.game_of_folder(folder, games)]
        except (DataError, KeyError) as exc:
            raise BuildError(str(exc)) from None
        targets = [(which[0], folder)]
    else:
        for name in options.games:
            if name not in games:
                raise BuildError(f"unknown game {name!r} (known: {', '.join(games)})")
        targets = [(games[n], None) for n in (options.games or list(games))]
    problems: list[str] = []
    loaded = []
    for game, folder in targets:
        try:
            printable = load(game, folder)
        except DataError as exc:
            problems.extend(str(p) for p in exc.problems)
            continue
        rendered, found = check(printable, bleed=options.bleed, ink_saver=options.ink_saver, layouts=options.layouts)
        problems.extend(str(p) for p in found)
        try:
            loaded.append((printable, rendered, _booklet(printable, rendered, folder, options)))
        except BookletError as exc:
            problems.extend(exc.problems)
    if problems:
        raise BuildError("\n".join(dict.fromkeys(problems)))
    return loaded


def _booklet(printable: Printable, rendered: Rendered, folder: Path | None,
             options: BuildOptions) -> booklets.Booklet:
    """The game's rules booklet drawn with this card set's faces. An author's
    set whose cards cannot draw a figure of the booklet (a card it shows is
    missing, the worked example's cards are not there) gets the booklet drawn
    with the rulebook's own set instead, and PRINTING.md says so."""
    try:
        return booklets.load(printable, rendered)
    except BookletError as exc:
        figures = [p for p in exc.problems if re.search(r": (face|faces|setup|figure):", p)]
        if folder is None or not figures or len(figures) < len(exc.problems):
            raise
        own = load(printable.game)
        own_rendered, _ = check(own, bleed=options.bleed, ink_saver=options.ink_saver, layouts=("grid",))
        booklet = booklets.load(own, own_rendered)
        why = sorted({p.split(": ", 1)[1] for p in figures})
        booklet.note = ("The rules booklet's pictures show the rulebook's own cards, since this set's cards "
                        "cannot draw them: " + "; ".join(why))
        return booklet


# --- writing ------------------------------------------------------------------------------
def _code_digest() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class _Cache:
    def __init__(self, out: Path) -> None:
        self.path = out / CACHE_NAME
        try:
            self.data: dict[str, str] = json.loads(self.path.read_text())
        except (OSError, ValueError):
            self.data = {}

    def fresh(self, target: Path, key: str) -> bool:
        return target.exists() and self.data.get(str(target)) == key

    def record(self, target: Path, key: str) -> None:
        self.data[str(target)] = key

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(self.data, indent=1, sort_keys=True).encode())


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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


def _jobs(printable: Printable, rendered: Rendered, booklet: booklets.Booklet, options: BuildOptions,
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
                pieces = (rendered[(component.id, style)] + mates.get(component.id, [])
                          + [p for c in ganged for p in rendered.get((c.id, style), [])])
                duplex = component.duplex and options.backs and style != "loose"
                tail = "-bleed" if style == "bleed" else ""
                target = game_out / paper / f"{game}-{paper}-{component.id}{tail}{suffix}.pdf"
                key = _key(code, paper, style, options.bleed if style == "bleed" else 0, duplex,
                           options.back_offset, [(p.key, p.front.digest, p.back.digest if p.back else None)
                                                 for p in pieces])
                together = [names[c.id] for c in printable.components()
                            if component.id in (c.sheet_with, c.gang_with)]
                count = len(rendered[(component.id, style)])
                contents = f"{count} piece{'s' if count != 1 else ''}" + (
                    f", with the {', '.join(together)}" if together else "")
                jobs.append(Job(target, f"{manifest.title}: {component.name}", pieces, paper, style,
                                duplex, f"{manifest.title} · {component.name}", key,
                                _print_note(component, style, duplex), component.kind, contents))
        for tail, (contents, how) in BOOKLET_FILES.items():
            jobs.append(Job(game_out / paper / f"{game}-{paper}-{tail}{suffix}.pdf", f"{manifest.title}: {contents}", [],
                            paper, tail, tail != "player-aid", "", _key(code, paper, tail, booklet.aid_digest if tail == "player-aid"
                                                         else booklet.digest), how,
                            contents=contents, booklet=booklet))
        target = game_out / paper / f"{game}-{paper}-calibration.pdf"
        jobs.append(Job(target, "Duplex calibration", [], paper, "calibration", True, "",
                        _key(code, paper, "calibration"), "Duplex test page: measures --back-offset",
                        contents="test page"))
    return jobs


def build(options: BuildOptions, progress: Callable[[str, int, int], None] | None = None) -> BuildReport:
    """Check everything, then write everything; ``progress(label, done,
    total)`` is told about every piece as it goes."""
    started = time.perf_counter()
    fonts.register()
    printables = plan(options)  # drawn and checked: raises before anything is written
    out = Path(options.out)
    cache = _Cache(out)
    report = BuildReport()
    code = _code_digest()
    jobs: list[Job] = []
    loose: list[tuple[Path, str]] = []
    guides: list[tuple[Path, Printable, list[Job], str]] = []
    suffix = "-ink-saver" if options.ink_saver else ""
    for printable, rendered, booklet in printables:
        game_jobs = _jobs(printable, rendered, booklet, options, code)
        jobs.extend(game_jobs)
        game_out = out / printable.game.name
        if options.svg:
            loose.extend(_loose_svgs(printable, rendered, game_out, suffix))
        guides.append((game_out, printable, game_jobs, booklet.note))

    typeset = _typeset([j for j in jobs if j.booklet is not None and (options.force or not cache.fresh(j.target, j.key))])
    total = sum(len(j.pieces) for j in jobs)
    done = 0
    for job in jobs:
        fresh = not options.force and cache.fresh(job.target, job.key)
        if fresh:
            pages = pages_of(job, options)
        elif job.target in typeset:
            data, pages = typeset[job.target]
            atomic_write(job.target, data)
            cache.record(job.target, job.key)
        else:
            try:
                pages = _write(job, options)
            except RenderError as exc:
                raise BuildError(str(exc)) from None
            cache.record(job.target, job.key)
        report.files.append(Written(job.target, pages, len(job.pieces), job.note, fresh))
        done += len(job.pieces)
        if progress:
            progress(job.target.name, done, total)
    for path, svg in loose:
        key = _key(code, svg)
        if options.force or not cache.fresh(path, key):
            atomic_write(path, _standalone_svg(svg, path).encode("utf-8"))
            cache.record(path, key)
    for printable, _, _ in printables:
        font_dir = out / printable.game.name / "svg" / "fonts"
        for f in fonts.font_files():
            if not (font_dir / f.name).exists():
                atomic_write(font_dir / f.name, f.read_bytes())
    # PRINTING.md counts the sheets to buy from the pages just written (a
    # booklet's pages are known only once it is set).
    pages_written = {w.path: w.pages for w in report.files}
    for game_out, printable, game_jobs, note in guides:
        text = printing_guide(printable.manifest, game_jobs, game_out, lambda job: pages_written[job.target], note)
        atomic_write(game_out / "PRINTING.md", text.encode("utf-8"))
    cache.save()
    report.seconds = time.perf_counter() - started
    return report


def _typeset(jobs: list[Job]) -> dict[Path, tuple[bytes, int]]:
    """The booklet files to write, set in type in memory first: a booklet
    that does not fit stops the build before any file is written."""
    from generator.booklet_pdf import render_all

    out: dict[Path, tuple[bytes, int]] = {}
    done: dict[tuple[str, str], object] = {}
    problems: list[str] = []
    for job in jobs:
        assert job.booklet is not None
        key = (job.booklet.game, job.paper)
        if key not in done:
            try:
                done[key] = render_all(job.booklet, job.paper)
            except BookletError as exc:
                problems.extend(exc.problems)
                done[key] = None
        printed = done[key]
        if printed is not None:
            out[job.target] = {"rules": (printed.rules, printed.rules_pages),  # type: ignore[attr-defined]
                               "rules-booklet": (printed.folded, printed.folded_pages),  # type: ignore[attr-defined]
                               "player-aid": (printed.aid, 1)}[job.style]  # type: ignore[attr-defined]
    if problems:
        raise BuildError("\n".join(dict.fromkeys(problems)))
    return out


def _loose_svgs(printable: Printable, rendered: Rendered, game_out: Path, suffix: str) -> list[tuple[Path, str]]:
    out = []
    seen: set[str] = set()
    for component in printable.components():
        style = "bleed" if (component.id, "bleed") in rendered else comp.style_for(component)[0]
        for piece in rendered.get((component.id, style), []):
            for face in (piece.front, piece.back):
                if face is None or face.name in seen:
                    continue
                seen.add(face.name)
                name = face.name.split(".", 1)[1].replace(".", "-") if "." in face.name else face.name
                out.append((game_out / "svg" / component.id / f"{name}{suffix}.svg", face.svg))
    return out


def _lay(job: Job, options: BuildOptions):
    size = job.pieces[0].size
    return layout(job.paper, size, style=job.style, bleed=options.bleed, duplex=job.duplex)  # type: ignore[arg-type]


def _ganged(job: Job) -> bool:
    """Pieces of several sizes in a grid or bleed file (``gang_with``)."""
    return job.style in ("grid", "bleed") and len({p.size for p in job.pieces}) > 1


def _gang(job: Job, options: BuildOptions):
    return gang(job.paper, [p.size for p in job.pieces], style=job.style, bleed=options.bleed)  # type: ignore[arg-type]


def _tiled(job: Job, options: BuildOptions):
    """The tiling of a board too big for the paper, else None."""
    if job.kind != "board":
        return None
    try:
        _lay(job, options)
        return None
    except ValueError:
        return tiles(job.paper, job.pieces[0].size)


def pages_of(job: Job, options: BuildOptions) -> int:
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


def _write(job: Job, options: BuildOptions) -> int:
    paper = PAPERS[job.paper]
    if job.style == "calibration":
        write_calibration(job.target, paper.size, paper.name)
        return 2
    with SheetPdf(job.target, title=job.title, subject="labkit print-and-play") as pdf:
        if job.style == "loose":
            pages = pack(job.paper, [p.size for p in job.pieces])
            start = 0
            for i, lay in enumerate(pages):
                write_pieces(pdf, job.pieces[start:start + lay.per_page], lay, backs=False, caption=job.caption,
                             sheets=(i, len(pages)))
                start += lay.per_page
            return pdf.stats.pages
        if _ganged(job):
            start = 0
            ganged = _gang(job, options)
            for i, lay in enumerate(ganged):
                write_pieces(pdf, job.pieces[start:start + lay.per_page], lay, backs=False, caption=job.caption,
                             sheets=(i, len(ganged)))
                start += lay.per_page
            return pdf.stats.pages
        tiling = _tiled(job, options)
        if tiling is not None:
            for piece in job.pieces:
                write_tiles(pdf, piece, tiling, job.caption)
            return pdf.stats.pages
        write_pieces(pdf, job.pieces, _lay(job, options), backs=job.duplex, back_offset=options.back_offset,
                     caption=job.caption)
        return pdf.stats.pages


def _print_note(component: Component, style: str, duplex: bool) -> str:
    how = "two-sided, flip on long edge" if duplex else "one-sided"
    what = {"grid": "cut along the shared lines", "bleed": "with 3 mm bleed, cut on the crop marks",
            "loose": "cut on the solid lines, fold on the dashed ones"}[style]
    return f"{how}; {what}"


def _standalone_svg(svg: str, path: Path) -> str:
    """Loose SVG files name their font files, so editors show DejaVu Sans too."""
    rel = os.path.relpath(path.parent.parent / "fonts", path.parent)
    faces = "".join(
        f"@font-face{{font-family:'{fonts.FAMILY}';font-weight:{w};font-style:{s};src:url('{rel}/{f}')}}"
        for (w, s), (_, f) in fonts.FACES.items())
    head, sep, rest = svg.partition(">")
    return f"{head}{sep}<style>{faces}</style>{rest}"


__all__ = ["BuildError", "BuildOptions", "BuildReport", "Face", "Printable", "build", "check", "load", "plan"]
