"""Build the print-and-play set: every component of every game, A4 and Letter.

Output, per game::

    output/<game>/a4/<game>-a4-<component>.pdf          home printing (guillotine grid)
    output/<game>/a4/<game>-a4-<component>-bleed.pdf    cards with bleed and crop marks
    output/<game>/a4/<game>-a4-rules.pdf                how to play, on one page
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
import multiprocessing as mp
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from engine.data import DataError
from engine.descriptor import GameDescriptor
from generator import components as comp
from generator import exports as _exports
from generator import fonts, tts
from generator.geometry import PAPERS
from generator.guide import exports_guide, printing_guide
from generator.impose import layout, pack, tiles
from generator.manifest import Component
from generator.pdf import Face, Piece, SheetPdf, write_calibration, write_pieces, write_tiles
from generator.printable import BuildError, Printable, Rendered, check, load
from generator.svg import TEMPLATE_DIR, RenderError
from generator.exports import ComponentExport, ExportOptions
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
         ) -> list[tuple[Printable, Rendered]]:
    """The games read, drawn and checked; raises :class:`BuildError` with
    every problem of every game."""
    problems: list[str] = []
    loaded = []
    for game, folder in (targets(options) if chosen is None else chosen):
        try:
            printable = load(game, folder)
        except DataError as exc:
            problems.extend(str(p) for p in exc.problems)
            continue
        rendered, found = check(printable, bleed=options.bleed, ink_saver=options.ink_saver, layouts=options.layouts)
        loaded.append((printable, rendered))
        problems.extend(str(p) for p in found)
    if problems:
        raise BuildError("\n".join(dict.fromkeys(problems)))
    return loaded


# --- writing ------------------------------------------------------------------------------
def _code_digest() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class _Cache:
    """What the last builds wrote: a digest per file, and per game the
    digest of its inputs with the files it made."""

    def __init__(self, out: Path) -> None:
        self.path = out / CACHE_NAME
        try:
            self.text = self.path.read_text()
            loaded = json.loads(self.text)
        except (OSError, ValueError):
            self.text, loaded = "", {}
        if not isinstance(loaded, dict) or "files" not in loaded:
            loaded = {"files": {}, "games": {}}
        self.data: dict[str, str] = loaded["files"]
        self.games: dict[str, dict] = loaded["games"]

    def exports_of(self, game: str) -> list[dict]:
        return self.games.get(game, {}).get("exports", [])

    def fresh(self, target: Path, key: str) -> bool:
        return target.exists() and self.data.get(str(target)) == key

    def record(self, target: Path, key: str) -> None:
        self.data[str(target)] = key

    def save(self) -> None:
        text = json.dumps({"files": self.data, "games": self.games}, indent=1, sort_keys=True)
        if text != self.text:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, text.encode())
            self.text = text


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
    component: str = ""


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


def _jobs(printable: Printable, rendered: Rendered, options: BuildOptions, code: str) -> list[Job]:
    game, manifest = printable.game.name, printable.manifest
    game_out = Path(options.out) / game
    suffix = "-ink-saver" if options.ink_saver else ""
    mates = _sheet_mates(printable, rendered)
    names = {c.id: c.name for c in printable.components()}
    jobs = []
    for paper in options.papers:
        for component in printable.components():
            if component.sheet_with:
                continue
            for style in comp.style_for(component):
                if (component.id, style) not in rendered:
                    continue
                pieces = rendered[(component.id, style)] + mates.get(component.id, [])
                duplex = component.duplex and options.backs and style != "loose"
                tail = "-bleed" if style == "bleed" else ""
                target = game_out / paper / f"{game}-{paper}-{component.id}{tail}{suffix}.pdf"
                key = _key(code, paper, style, options.bleed if style == "bleed" else 0, duplex,
                           options.back_offset, [(p.key, p.front.digest, p.back.digest if p.back else None)
                                                 for p in pieces])
                together = [names[c.id] for c in printable.components() if c.sheet_with == component.id]
                count = len(rendered[(component.id, style)])
                contents = f"{count} piece{'s' if count != 1 else ''}" + (
                    f", with the {', '.join(together)}" if together else "")
                jobs.append(Job(target, f"{manifest.title}: {component.name}", pieces, paper, style,
                                duplex, f"{manifest.title} · {component.name}", key,
                                _print_note(component, style, duplex), component.kind, contents, component.id))
        target = game_out / paper / f"{game}-{paper}-calibration.pdf"
        jobs.append(Job(target, "Duplex calibration", [], paper, "calibration", True, "",
                        _key(code, paper, "calibration"), "Duplex test page: measures --back-offset",
                        contents="test page"))
    return jobs


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
    cache = _Cache(out)
    report = BuildReport()
    fresh = _all_fresh(options, cache)
    if fresh is not None:
        for name in fresh:
            _report_fresh(report, cache, name)
    else:
        stale = []
        for game, folder in targets(options):
            where = _where(game, folder)
            digest = _inputs_digest(where, options)
            if not options.force and _game_fresh(cache, out, game.name, digest):
                _report_fresh(report, cache, game.name)
            else:
                stale.append((game, folder, digest))
        if stale:
            _build_stale(options, stale, cache, report, progress)
    cache.save()
    report.seconds = time.perf_counter() - started
    return report


def _report_fresh(report: BuildReport, cache: "_Cache", name: str) -> None:
    rec = cache.games[name]
    report.files += [Written(Path(f), pages, pieces, note, True) for f, pages, pieces, note in rec["files"]]
    report.exports += [ComponentExport.from_dict(dict(e, skipped=True, seconds=0.0)) for e in rec["exports"]]
    report.fresh_games.append(name)


def _all_fresh(options: BuildOptions, cache: "_Cache") -> list[str] | None:
    """The games to build, when every one of them is unchanged since the
    build that recorded it: told from where each game is declared and the
    files it was read from, without importing a game. None: look closer."""
    if options.force:
        return None
    by_origin = {rec.get("origin"): name for name, rec in cache.games.items()}
    declared = registry.origins()
    if options.games:
        names = list(options.games)
    elif all(o in by_origin for o in declared):
        names = [by_origin[o] for o in declared]
    else:
        return None
    if options.data_dir is not None and len(names) != 1:
        return None
    for name in names:
        rec = cache.games.get(name)
        if rec is None or rec.get("origin") not in declared:
            return None
        where = rec["where"]
        if options.data_dir is not None and where["data"] != str(Path(options.data_dir).resolve()):
            return None
        if options.data_dir is None and not where["own_data"]:
            return None
        if not _game_fresh(cache, Path(options.out), name, _inputs_digest(where, options)):
            return None
    return names


def _where(game: GameDescriptor, folder: Path | None) -> dict:
    """The folders a game's build reads, recorded so that the next build can
    tell that they did not change without loading the game."""
    tdir = cardsets.template_dir(game)
    data = Path(folder) if folder is not None else cardsets.data_dir(game)
    return {"data": str(data.resolve()), "templates": str(tdir.resolve()) if tdir else None,
            "own_data": folder is None}


def _game_fresh(cache: "_Cache", out: Path, game: str, digest: str) -> bool:
    rec = cache.games.get(game)
    if rec is None or rec.get("inputs") != digest:
        return False
    base = os.path.join(out, game)
    exists = os.path.exists
    return all(exists(f[0]) for f in rec["files"]) and all(exists(os.path.join(base, f)) for f in rec["extra"])


def _build_stale(options: BuildOptions, stale, cache: "_Cache", report: BuildReport,
                 progress: Callable[[str, int, int], None] | None) -> None:
    fonts.register()
    printables = plan(options, [(g, f) for g, f, _ in stale])  # drawn and checked: raises before anything is written
    out = Path(options.out)
    code = _code_digest()
    suffix = "-ink-saver" if options.ink_saver else ""
    exporting = options.exports.any and not options.ink_saver
    tasks: list[tuple[float, tuple]] = []
    per_game = []
    for gi, (printable, rendered) in enumerate(printables):
        game_jobs = _jobs(printable, rendered, options, code)
        game_out = out / printable.game.name
        by_component: dict[str, list[Job]] = {}
        for job in game_jobs:
            by_component.setdefault(job.component, []).append(job)
        for group in by_component.values():
            todo = [j for j in group if options.force or not cache.fresh(j.target, j.key)]
            for j in group:
                if j not in todo:
                    report.files.append(Written(j.target, pages_of(j, options), len(j.pieces), j.note, True))
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
        per_game.append((printable, rendered, game_jobs, game_out, exported))

    global _WORK
    _WORK = {"options": options, "printables": printables, "out": out, "code": code}
    total = sum(len(t[1][1]) if t[1][0] == "pdf" else 1 for t in tasks) or 1
    done = 0
    results: dict[tuple[str, str], ComponentExport] = {}
    try:
        for task, result in _run_all([t for _, t in sorted(tasks, key=lambda t: -t[0])], options.workers):
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

    for printable, rendered, game_jobs, game_out, exported in per_game:
        game = printable.game.name
        extra: list[str] = []
        if options.svg:
            for path, svg in _loose_svgs(printable, rendered, game_out, suffix):
                key = _key(code, svg)
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
        extra += _finish_exports(printable, game_out, done_exports, options)
        guide = printing_guide(printable.manifest, game_jobs, game_out)
        if exporting:
            guide += exports_guide(printable.manifest.title, printable.components(), done_exports,
                                   options.exports, game, bleed=options.bleed)
        _write_if_changed(game_out / "PRINTING.md", guide.encode("utf-8"))
        extra.append("PRINTING.md")
        for e in done_exports:
            extra += e.files
        game_files = [f for f in report.files if f.path.is_relative_to(game_out)]
        descriptor, folder, digest = next(t for t in stale if t[0].name == game)
        cache.games[game] = {"inputs": digest, "extra": sorted(set(extra)),
                             "origin": registry.origin(game), "where": _where(descriptor, folder),
                             "files": [[str(f.path), f.pages, f.pieces, f.note] for f in game_files],
                             "exports": [_exports.result_dict(e) for e in done_exports]}


def _finish_exports(printable: Printable, game_out: Path, done: list[ComponentExport],
                    options: BuildOptions) -> list[str]:
    """The game's Tabletop Simulator saved object and contact sheet, from its components' exports."""
    if not done:
        return []
    game = printable.game.name
    files = []
    if options.exports.tts:
        objects = [o for e in done for o in e.tts]
        saved = tts.saved_object(printable.manifest.title, objects)
        target = game_out / "tts" / f"{game}-saved-object.json"
        _write_if_changed(target, (json.dumps(saved, indent=1) + "\n").encode("utf-8"))
        files.append(str(target.relative_to(game_out)))
    if options.exports.contact:
        target = game_out / f"{game}-contact-sheet.pdf"
        if not target.exists() or any(not e.skipped for e in done):
            _exports.merge_contact([game_out / e.contact for e in done if e.contact], target)
        files.append(target.name)
    return files


def _write_if_changed(path: Path, data: bytes) -> None:
    """A rebuild that changes nothing leaves the file alone (its time too)."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    atomic_write(path, data)


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
        if task[0] == "pdf":
            return [_write(job, options) for job in task[1]]
        _, gi, component_id, ci, recorded = task
        printable = _WORK["printables"][gi][0]
        component = next(c for c in printable.components() if c.id == component_id)
        return _exports.run(printable, component, ci, options.exports, _WORK["out"] / printable.game.name,
                            options.bleed, _WORK["code"], recorded)
    except RenderError as exc:
        raise BuildError(str(exc)) from None


def _run_all(tasks: list[tuple], workers: int | None):
    """``(task, result)`` as each finishes: in this process for one worker
    or one task, else in forked processes (they share what was drawn)."""
    n = workers or _cores()
    if n <= 1 or len(tasks) <= 1 or "fork" not in mp.get_all_start_methods():
        for t in tasks:
            yield t, _task(t)
        return
    with ProcessPoolExecutor(max_workers=min(n, len(tasks)), mp_context=mp.get_context("fork")) as pool:
        futures = {pool.submit(_task, t): t for t in tasks}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# --- what a game's build reads -----------------------------------------------------------------
def _files_digest(h, root: Path) -> None:
    """Every file under ``root`` (names and bytes), caches and hidden files aside."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        rel = os.path.relpath(folder, root)
        found += [(os.path.join(rel, f), os.path.join(folder, f)) for f in files if not f.startswith(".")]
    for rel, full in sorted(found):
        h.update(rel.encode() + b"\0")
        with open(full, "rb") as f:
            h.update(f.read())


_TREE: list[str] = []


def _code_tree_digest() -> str:
    """Everything of ours that decides what a face looks like: the
    generator, the engine (layouts, formulas), labkit (the card sets),
    and the versions of the packages that draw."""
    if not _TREE:
        import importlib.metadata as md
        import importlib.util

        h = hashlib.sha256()
        for pkg in ("generator", "engine", "labkit"):
            spec = importlib.util.find_spec(pkg)
            for folder in spec.submodule_search_locations or []:
                _files_digest(h, Path(folder))
        for dist in ("reportlab", "svglib", "rdkit", "jinja2", "pypdfium2", "pillow"):
            try:
                h.update(f"{dist}={md.version(dist)}".encode())
            except md.PackageNotFoundError:
                h.update(dist.encode())
        _TREE.append(h.hexdigest())
    return _TREE[0]


def _inputs_digest(where: dict, options: BuildOptions) -> str:
    h = hashlib.sha256(_code_tree_digest().encode())
    data = Path(where["data"])
    if data.is_file():
        h.update(data.read_bytes())
    elif data.is_dir():
        _files_digest(h, data)
    else:
        h.update(b"missing")
    tdir = Path(where["templates"]) if where["templates"] else None
    for root in ([tdir] if tdir else []) + [TEMPLATE_DIR / "common"]:
        h.update(b"--templates--")
        _files_digest(h, root)
    for f in fonts.font_files():
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    opts = {k: v for k, v in asdict(options).items() if k not in ("force", "workers", "games")}
    opts["out"] = str(Path(options.out).resolve())
    h.update(json.dumps(opts, sort_keys=True, default=str).encode())
    return h.hexdigest()


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
    if job.style == "loose":
        return len(pack(job.paper, [p.size for p in job.pieces]))
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
            for lay in pages:
                write_pieces(pdf, job.pieces[start:start + lay.per_page], lay, backs=False, caption=job.caption)
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
