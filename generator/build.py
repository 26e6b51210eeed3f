"""Build the print-and-play set: every component of every game, A4 and Letter.

Output, per game::

    output/<game>/a4/<game>-a4-<component>.pdf          home printing (guillotine grid)
    output/<game>/a4/<game>-a4-<component>-bleed.pdf    cards with bleed and crop marks
    output/<game>/a4/<game>-a4-calibration.pdf          duplex back-offset test page
    output/<game>/letter/...                            the same on US Letter
    output/<game>/svg/<component>/<piece>-front.svg     every face as loose SVG
    output/<game>/PRINTING.md                           what each file is, how to print it

Rebuilds are incremental: every face is rendered (cheap), and a PDF is only
written again when the digest of its faces, layout and the generator's own
code changed. The record is ``output/.labkit-cache.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from engine.data import DataError
from generator import components as comp
from generator import fonts
from generator.geometry import PAPERS
from generator.impose import layout, tiles
from generator.manifest import Component, Manifest, load_manifest
from generator.pdf import Piece, SheetPdf, write_calibration, write_pieces, write_tiles
from generator.svg import RenderError

CACHE_NAME = ".labkit-cache.json"


@dataclass
class BuildOptions:
    games: list[str] = field(default_factory=list)   # empty: every game with data
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


class BuildError(RuntimeError):
    """A build stopped; the message says why, in one or more lines."""


def data_root() -> Path:
    import cardsdata

    return Path(cardsdata.__file__).parent


def printable_games() -> list[str]:
    """Games with a shipped data folder that says what to print (game.yaml).
    Printing needs only card data, not rules."""
    return sorted(p.name for p in data_root().iterdir() if (p / "game.yaml").exists())


def default_data_dir(game: str) -> Path:
    return data_root() / game


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
        _atomic_write(self.path, json.dumps(self.data, indent=1, sort_keys=True).encode())


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@dataclass
class _Job:
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


def load_game(game: str, folder: Path) -> tuple[Manifest, comp.GameData]:
    """A game's print manifest and card data, or :class:`DataError` listing
    every problem of both."""
    problems = []
    manifest = data = None
    try:
        manifest = load_manifest(folder)
    except DataError as exc:
        problems.extend(exc.problems)
    try:
        data = comp.load_game_data(game, folder)
    except DataError as exc:
        problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return manifest, data  # type: ignore[return-value]


def plan(options: BuildOptions) -> tuple[list[tuple[str, Path, Manifest, comp.GameData]], list[str]]:
    """Resolve which games to build from where, and load their data."""
    games = list(options.games) or ([] if options.data_dir else printable_games())
    if options.data_dir is not None:
        folder = Path(options.data_dir)
        if not folder.is_dir():
            raise BuildError(f"{folder}: not a folder")
        name = _game_of_folder(folder, games)
        games = [name]
    problems: list[str] = []
    loaded = []
    for game in games:
        if game not in printable_games():
            raise BuildError(f"unknown game {game!r} (known: {', '.join(printable_games())})")
        folder = Path(options.data_dir) if options.data_dir else default_data_dir(game)
        try:
            manifest, data = load_game(game, folder)
        except DataError as exc:
            problems.extend(str(p) for p in exc.problems)
            continue
        loaded.append((game, folder, manifest, data))
    return loaded, problems


def _game_of_folder(folder: Path, requested: list[str]) -> str:
    """Which game an author's data folder is a copy of."""
    if len(requested) == 1:
        return requested[0]
    if requested:
        raise BuildError("--data builds one game: name it with --game")
    name = folder.resolve().name
    if name in printable_games():
        return name
    for game in printable_games():
        cards = __import__(f"engine.{game}.cards", fromlist=["FILES"])
        if all((folder / f).exists() for f in getattr(cards, "FILES", ())):
            return game
    raise BuildError(f"{folder}: cannot tell which game this data is for; name it with --game")


def build(options: BuildOptions, progress: Callable[[str, int, int], None] | None = None) -> BuildReport:
    """Render and write everything; ``progress(label, done, total)`` is told
    about every piece as it goes."""
    started = time.perf_counter()
    fonts.register()
    loaded, problems = plan(options)
    if problems:
        raise BuildError("\n".join(problems))
    out = Path(options.out)
    cache = _Cache(out)
    report = BuildReport()
    code = _code_digest()
    jobs: list[_Job] = []
    loose: list[tuple[Path, str]] = []
    guides: list[tuple[Path, str]] = []
    suffix = "-ink-saver" if options.ink_saver else ""
    for game, folder, manifest, data in loaded:
        game_out = out / game
        rendered: dict[tuple[str, str], list[Piece]] = {}
        for component in manifest.components:
            for style in comp.style_for(component):
                if style != "loose" and style not in options.layouts:
                    continue
                bleed = options.bleed if style == "bleed" else 0.0
                try:
                    rendered[(component.id, style)] = comp.pieces(component, data, bleed=bleed,
                                                                  ink_saver=options.ink_saver)
                except (RenderError, ValueError) as exc:
                    raise BuildError(str(exc)) from None
        for paper in options.papers:
            for number, component in enumerate(manifest.components, 1):
                for style in comp.style_for(component):
                    if (component.id, style) not in rendered:
                        continue
                    pieces = rendered[(component.id, style)]
                    duplex = component.duplex and options.backs and style != "loose"
                    tail = "-bleed" if style == "bleed" else ""
                    target = game_out / paper / f"{game}-{paper}-{component.id}{tail}{suffix}.pdf"
                    key = _key(code, paper, style, options.bleed if style == "bleed" else 0, duplex,
                               options.back_offset, [(p.key, p.front.digest, p.back.digest if p.back else None)
                                                     for p in pieces])
                    jobs.append(_Job(target, f"{manifest.title}: {component.name}", pieces, paper, style,
                                     duplex, f"{manifest.title} · {component.name}", key,
                                     _print_note(component, style, duplex), component.kind))
            target = game_out / paper / f"{game}-{paper}-calibration.pdf"
            jobs.append(_Job(target, "Duplex calibration", [], paper, "calibration", True, "",
                             _key(code, paper, "calibration"), "Duplex test page: measures --back-offset"))
        if options.svg:
            seen: set[str] = set()
            for component in manifest.components:
                style = "bleed" if (component.id, "bleed") in rendered else comp.style_for(component)[0]
                for piece in rendered.get((component.id, style), []):
                    for face in (piece.front, piece.back):
                        if face is None or face.name in seen:
                            continue
                        seen.add(face.name)
                        name = face.name.split(".", 1)[1].replace(".", "-") if "." in face.name else face.name
                        loose.append((game_out / "svg" / component.id / f"{name}{suffix}.svg", face.svg))
        guides.append((game_out / "PRINTING.md", _printing_guide(manifest, jobs, game_out)))

    total = sum(len(j.pieces) for j in jobs)
    done = 0
    for job in jobs:
        fresh = not options.force and cache.fresh(job.target, job.key)
        if fresh:
            pages = _pages_of(job, options)
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
            _atomic_write(path, _standalone_svg(svg, path, out).encode("utf-8"))
            cache.record(path, key)
    for game, _, _, _ in loaded:
        font_dir = out / game / "svg" / "fonts"
        for f in fonts.font_files():
            if not (font_dir / f.name).exists():
                _atomic_write(font_dir / f.name, f.read_bytes())
    for path, text in guides:
        _atomic_write(path, text.encode("utf-8"))
    cache.save()
    report.seconds = time.perf_counter() - started
    return report


def _lay(job: _Job, options: BuildOptions):
    size = job.pieces[0].size
    return layout(job.paper, size, style=job.style, bleed=options.bleed, duplex=job.duplex)  # type: ignore[arg-type]


def _tiled(job: _Job, options: BuildOptions):
    """The tiling of a board too big for the paper, else None."""
    if job.kind != "board":
        return None
    try:
        _lay(job, options)
        return None
    except ValueError:
        return tiles(job.paper, job.pieces[0].size)


def _pages_of(job: _Job, options: BuildOptions) -> int:
    if job.style == "calibration":
        return 2
    tiling = _tiled(job, options)
    if tiling is not None:
        sides = sum(1 for f in (job.pieces[0].front, job.pieces[0].back) if f is not None)
        return len(tiling.tiles) * sides * len(job.pieces)
    lay = _lay(job, options)
    sheets = -(-len(job.pieces) // lay.per_page)
    return sheets * (2 if job.duplex and any(p.back for p in job.pieces) else 1)


def _write(job: _Job, options: BuildOptions) -> int:
    paper = PAPERS[job.paper]
    if job.style == "calibration":
        write_calibration(job.target, paper.size, paper.name)
        return 2
    tiling = _tiled(job, options)
    if tiling is not None:
        with SheetPdf(job.target, title=job.title, subject="labkit print-and-play") as pdf:
            for piece in job.pieces:
                write_tiles(pdf, piece, tiling, job.caption)
            return pdf.stats.pages
    lay = _lay(job, options)
    with SheetPdf(job.target, title=job.title, subject="labkit print-and-play") as pdf:
        write_pieces(pdf, job.pieces, lay, backs=job.duplex, back_offset=options.back_offset,
                     caption=job.caption)
        return pdf.stats.pages


def _print_note(component: Component, style: str, duplex: bool) -> str:
    how = "two-sided, flip on long edge" if duplex else "one-sided"
    what = {"grid": "cut along the shared lines", "bleed": "with 3 mm bleed, cut on the crop marks",
            "loose": "cut on the solid lines, fold on the dashed ones"}[style]
    return f"{how}; {what}"


def _printing_guide(manifest: Manifest, jobs: Iterable[_Job], game_out: Path) -> str:
    lines = [f"# {manifest.title}: what to print", "",
             "Print at **100% / actual size** (never 'fit to page'). Card stock (160-250 g/m²) for cards,",
             "dice and the token; plain paper for the note sheets.", "",
             "| file | contents | how |", "|---|---|---|"]
    for job in jobs:
        if job.target.is_relative_to(game_out):
            rel = job.target.relative_to(game_out)
            contents = f"{len(job.pieces)} pieces" if job.pieces else "test page"
            lines.append(f"| `{rel}` | {contents} | {job.note} |")
    lines += ["", "Files ending in `-bleed` carry 3 mm of bleed and crop marks, for a print shop or a",
              "careful cutter; the others put cards edge to edge on shared cut lines, quicker to cut at home.",
              "If card backs land off their fronts, print the calibration page two-sided and rebuild with",
              "`labkit build --back-offset X,Y`.", ""]
    for c in manifest.components:
        if c.note:
            lines.append(f"- **{c.name}**: {c.note}")
    return "\n".join(lines) + "\n"


def _standalone_svg(svg: str, path: Path, out: Path) -> str:
    """Loose SVG files name their font file, so editors show Vera too."""
    rel = os.path.relpath(path.parent.parent / "fonts", path.parent)
    faces = "".join(
        f"@font-face{{font-family:Vera;font-weight:{w};font-style:{s};src:url('{rel}/{f}')}}"
        for (w, s), (_, f) in fonts.FAMILIES["Vera"].items())
    head, sep, rest = svg.partition(">")
    return f"{head}{sep}<style>{faces}</style>{rest}"
