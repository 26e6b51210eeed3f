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

and with :class:`exports.ExportOptions` (``labkit build`` asks for all)::

    output/<game>/1-up/<game>-<component>-1up.pdf       one piece a page, TrimBox and BleedBox on each
    output/<game>/shops/<shop>/<component>/...          shop PNGs and quantities.csv
    output/<game>/tts/<game>-saved-object.json          Tabletop Simulator, with its pictures in tts/
    output/<game>/<game>-contact-sheet.pdf              every face with its id

Everything is drawn and checked first (text that will not fit, characters
the font lacks: :func:`check`); a single problem stops the build before any
file is written. Rebuilds are incremental: a PDF is written again only when
the digest of its faces, layout and the generator's own code changed. The
record is ``output/.labkit-cache.json``.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.data import DataError
from engine.descriptor import GameDescriptor
from generator import booklet as booklets
from generator import components as comp
from generator import exports as _exports
from generator import booklet_build, fonts, rebuild, sheets, workers
from generator.sheets import Job
from generator.booklet_md import BookletError
from generator.files import atomic_write, digest_key, write_if_changed
from generator.guide import exports_guide, printing_guide
from generator.pdf import Face, Piece
from generator.printable import BuildError, Printable, Rendered, check, load
from generator.svg import RenderError
from generator.exports import ComponentExport, ExportOptions
from labkit import cardsets, registry, setfiles

CACHE_NAME = rebuild.CACHE_NAME


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
    exports: ExportOptions = field(default_factory=lambda: ExportOptions(shops=(), one_up=False, tts=False,
                                                                          contact=False))
    """Shop PNGs, 1-up PDFs, Tabletop Simulator, contact sheet (``labkit build`` asks for all of them)."""
    workers: int | None = None                       # processes; None: every core


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
    exports: list = field(default_factory=list)
    """Per component: what was exported and how long it took (:class:`exports.ComponentExport`)."""
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds spent reading and drawing (``check``), writing (``write``), finishing (``finish``)."""
    fresh_games: list[str] = field(default_factory=list)
    """Games whose inputs were unchanged: nothing of them was drawn or written."""

    @property
    def written(self) -> list[Written]:
        return [f for f in self.files if not f.skipped]

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.written)


def targets(options: BuildOptions) -> list[tuple[GameDescriptor, Path | None]]:
    """Which games to build, from where (None: the game's own data)."""
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
        return [(which[0], folder)]
    for name in options.games:
        if name not in games:
            raise BuildError(f"unknown game {name!r} (known: {', '.join(games)})")
    return [(games[n], None) for n in (options.games or list(games))]


def plan(options: BuildOptions, chosen: list[tuple[GameDescriptor, Path | None]] | None = None
         ) -> list[tuple[Printable, Rendered, booklets.Booklet]]:
    """The games read, drawn and checked, each with its rules booklet;
    raises :class:`BuildError` with every problem of every game."""
    problems: list[str] = []
    printables = []
    folders = []
    for game, folder in (targets(options) if chosen is None else chosen):
        try:
            printables.append(load(game, folder))
            folders.append(folder)
        except DataError as exc:
            problems.extend(str(p) for p in exc.problems)
    # Drawing every face is a task per game, in the worker processes.
    global _WORK
    _WORK = {"options": options, "printables": [(p, None) for p in printables]}
    checked: dict[int, tuple[Rendered, list[str]]] = {}
    try:
        for task, result in workers.run_all(_task, [("check", i) for i in range(len(printables))], options.workers):
            checked[task[1]] = result
    finally:
        _WORK = {}
    loaded = []
    for i, (printable, folder) in enumerate(zip(printables, folders)):
        rendered, found = checked[i]
        problems.extend(found)
        try:
            loaded.append((printable, rendered, booklet_build.for_set(printable, rendered, folder, options)))
        except BookletError as exc:
            problems.extend(exc.problems)
    if problems:
        raise BuildError("\n".join(dict.fromkeys(problems)))
    return loaded


def _code_digest() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def build(options: BuildOptions, progress: Callable[[str, int, int], None] | None = None) -> BuildReport:
    """Check everything, then write everything; ``progress(label, done,
    total)`` is told about every piece as it goes.

    A game whose inputs (its data, its templates, the code, the options)
    have the digest recorded at its last build, and whose files are all
    there, is neither drawn nor written: its files are reported unchanged.
    Otherwise each PDF and each component's exports are written again only
    when their own digest changed, in a process per core."""
    started = time.perf_counter()
    out = Path(options.out)
    cache = rebuild.Cache(out)
    report = BuildReport()
    fresh = rebuild.all_fresh(options, cache)
    if fresh is not None:
        for name in fresh:
            _report_fresh(report, cache, name)
    else:
        stale = []
        for game, folder in targets(options):
            digest = rebuild.inputs_digest(rebuild.where_read(game, folder), options)
            if not options.force and rebuild.game_fresh(cache, out, game.name, digest):
                _report_fresh(report, cache, game.name)
            else:
                stale.append((game, folder, digest))
        if stale:
            _build_stale(options, stale, cache, report, progress)
    cache.save()
    report.seconds = time.perf_counter() - started
    return report


def _report_fresh(report: BuildReport, cache: rebuild.Cache, name: str) -> None:
    rec = cache.games[name]
    report.files += [Written(Path(f), pages, pieces, note, True) for f, pages, pieces, note in rec["files"]]
    report.exports += [ComponentExport.from_dict(dict(e, skipped=True, seconds=0.0)) for e in rec["exports"]]
    report.fresh_games.append(name)


def _build_stale(options: BuildOptions, stale, cache: rebuild.Cache, report: BuildReport,
                 progress: Callable[[str, int, int], None] | None) -> None:
    fonts.register()
    t0 = time.perf_counter()
    printables = plan(options, [(g, f) for g, f, _ in stale])  # drawn and checked: raises before anything is written
    report.phases["check"] = time.perf_counter() - t0
    out = Path(options.out)
    code = _code_digest()
    suffix = "-ink-saver" if options.ink_saver else ""
    exporting = options.exports.any and not options.ink_saver
    tasks: list[tuple[float, tuple]] = []
    per_game = []
    booklet_jobs: list[Job] = []
    for gi, (printable, rendered, booklet) in enumerate(printables):
        game_jobs = sheets.jobs(printable, rendered, booklet, options, code)
        game_out = out / printable.game.name
        by_component: dict[tuple[str, str], list[Job]] = {}
        for job in game_jobs:
            if job.booklet is not None:   # set in type here, in the parent, before any file is written
                booklet_jobs.append(job)
                continue
            # grid and bleed faces are different drawings: only the papers share conversions
            by_component.setdefault((job.component, job.style), []).append(job)
        for group in by_component.values():
            todo = [j for j in group if options.force or not cache.fresh(j.target, j.key)]
            for j in group:
                if j not in todo:
                    report.files.append(Written(j.target, sheets.pages_of(j, options), len(j.pieces), j.note, True))
            if todo:
                cost = sum(len(f.svg) for j in todo for f in _distinct_faces(j.pieces)) + 1
                tasks.append((cost, ("pdf", todo)))
        exported = []
        if exporting:
            recorded = {e["component"]: e for e in cache.exports_of(printable.game.name)}
            for ci, component in enumerate(printable.components()):
                if _exports.exported(component):
                    exported.append(component.id)
                    cost = 4 * sum(len(f.svg) for p in rendered.get((component.id, comp.style_for(component)[0]), [])
                                   for f in _distinct_faces([p]))
                    tasks.append((cost, ("export", gi, component.id, ci, recorded.get(component.id))))
        per_game.append((printable, rendered, booklet, game_jobs, game_out, exported))

    typeset = booklet_build.typeset([j for j in booklet_jobs if options.force or not cache.fresh(j.target, j.key)])
    for job in booklet_jobs:   # a booklet that does not fit has stopped the build above
        if job.target in typeset:
            data, pages = typeset[job.target]
            atomic_write(job.target, data)
            cache.record(job.target, job.key)
        else:
            pages = sheets.pages_of(job, options)
        report.files.append(Written(job.target, pages, 0, job.note, job.target not in typeset))

    global _WORK
    _WORK = {"options": options, "printables": printables, "out": out, "code": code}
    total = sum(len(t[1][1]) if t[1][0] == "pdf" else 1 for t in tasks) or 1
    done = 0
    results: dict[tuple[str, str], ComponentExport] = {}
    try:
        for task, result in workers.run_all(_task, [t for _, t in sorted(tasks, key=lambda t: -t[0])], options.workers):
            if task[0] == "pdf":
                for job, pages in zip(task[1], result):
                    cache.record(job.target, job.key)
                    report.files.append(Written(job.target, pages, len(job.pieces), job.note, False))
                    done += 1
                    if progress:
                        progress(job.target.name, done, total)
            else:
                printable = printables[task[1]][0]
                results[(printable.game.name, task[2])] = result
                done += 1
                if progress:
                    progress(f"{printable.game.name} {task[2]} exports", done, total)
    finally:
        _WORK = {}
    report.phases["write"] = time.perf_counter() - t0 - report.phases["check"]

    pages_written = {w.path: w.pages for w in report.files}
    for printable, rendered, booklet, game_jobs, game_out, exported in per_game:
        game = printable.game.name
        extra: list[str] = []
        if options.svg:
            for path, svg in _loose_svgs(printable, rendered, game_out, suffix):
                key = digest_key(code, svg)
                if options.force or not cache.fresh(path, key):
                    atomic_write(path, _standalone_svg(svg, path).encode("utf-8"))
                    cache.record(path, key)
                extra.append(str(path.relative_to(game_out)))
            font_dir = game_out / "svg" / "fonts"
            for f in fonts.font_files():
                if not (font_dir / f.name).exists():
                    atomic_write(font_dir / f.name, f.read_bytes())
                extra.append(str((font_dir / f.name).relative_to(game_out)))
        done_exports = [results[(game, cid)] for cid in exported]
        report.exports += done_exports
        extra += _exports.finish(printable, game_out, done_exports, options.exports) if exporting else []
        # the sheets to buy are counted from the pages just written
        guide = printing_guide(printable.manifest, game_jobs, game_out, lambda job: pages_written[job.target],
                               booklet.note)
        if exporting:
            guide += exports_guide(printable.manifest.title, printable.components(), done_exports,
                                   options.exports, game, bleed=options.bleed)
        write_if_changed(game_out / "PRINTING.md", guide.encode("utf-8"))
        extra.append("PRINTING.md")
        for e in done_exports:
            extra += e.files
        game_files = [f for f in report.files if f.path.is_relative_to(game_out)]
        descriptor, folder, digest = next(t for t in stale if t[0].name == game)
        cache.games[game] = {"inputs": digest, "extra": sorted(set(extra)),
                             "origin": registry.origin(game), "where": rebuild.where_read(descriptor, folder),
                             "files": [[str(f.path), f.pages, f.pieces, f.note] for f in game_files],
                             "exports": [_exports.result_dict(e) for e in done_exports]}


def _distinct_faces(pieces: list[Piece]) -> list[Face]:
    seen: dict[str, Face] = {}
    for p in pieces:
        for f in (p.front, p.back):
            if f is not None:
                seen.setdefault(f.digest, f)
    return list(seen.values())


# --- work in processes --------------------------------------------------------------------
_WORK: dict = {}
"""What the worker processes need, set before they are forked (a task names its part by index)."""


def _task(task: tuple):
    options: BuildOptions = _WORK["options"]
    try:
        if task[0] == "check":
            printable = _WORK["printables"][task[1]][0]
            rendered, found = check(printable, bleed=options.bleed, ink_saver=options.ink_saver,
                                    layouts=options.layouts)
            return rendered, [str(p) for p in found]
        if task[0] == "pdf":
            return [sheets.write(job, options) for job in task[1]]
        _, gi, component_id, ci, recorded = task
        printable = _WORK["printables"][gi][0]
        component = next(c for c in printable.components() if c.id == component_id)
        return _exports.run(printable, component, ci, options.exports, _WORK["out"] / printable.game.name,
                            options.bleed, _WORK["code"], recorded)
    except RenderError as exc:
        raise BuildError(str(exc)) from None


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


def _standalone_svg(svg: str, path: Path) -> str:
    """Loose SVG files name their font files, so editors show DejaVu Sans too."""
    rel = os.path.relpath(path.parent.parent / "fonts", path.parent)
    faces = "".join(
        f"@font-face{{font-family:'{fonts.FAMILY}';font-weight:{w};font-style:{s};src:url('{rel}/{f}')}}"
        for (w, s), (_, f) in fonts.FACES.items())
    head, sep, rest = svg.partition(">")
    return f"{head}{sep}<style>{faces}</style>{rest}"


__all__ = ["BuildError", "BuildOptions", "BuildReport", "Face", "Printable", "build", "check", "load", "plan"]
