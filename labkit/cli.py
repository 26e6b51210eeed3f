"""``labkit``: build the print-and-play set, check card data, score a paper
sheet, serve the table companion.

Every failure a person can cause (an unknown game, a broken data file, a
folder that cannot be written) ends in clear lines and a non-zero exit, never
a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from generator.build import default_data_dir, printable_games

console = Console()
err = Console(stderr=True)


def _fail(message: str, code: int = 1) -> None:
    """Say what went wrong (first line after 'error:', the rest indented) and exit."""
    first, *rest = str(message).splitlines() or [""]
    err.print(f"[red]error:[/red] {first}", highlight=False, soft_wrap=True, markup=True)
    for line in rest:
        err.print(f"  {line}", highlight=False, soft_wrap=True, markup=False)
    sys.exit(code)


def _offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected X,Y in millimetres (e.g. 0.5,-1), found {value!r}") from None
    if abs(x) > 20 or abs(y) > 20:
        raise click.BadParameter("an offset over 20 mm is not a printer drift; check the calibration page")
    return (x, y)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="labkit")
def main() -> None:
    """labkit: four chemistry board games, for print and for the table."""


@main.command()
@click.option("--game", "games", multiple=True, type=click.Choice(printable_games()),
              help="Build only this game (repeatable). Default: every game.")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True)
@click.option("--bleed", type=click.FloatRange(0, 10), default=3.0, show_default=True,
              help="Bleed around each card in the -bleed files, in mm.")
@click.option("--layout", "layout_", type=click.Choice(["grid", "bleed", "both"]), default="both", show_default=True,
              help="grid: cards edge to edge on shared cut lines; bleed: bleed and crop marks.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True)
@click.option("--data", "data_dir", type=click.Path(path_type=Path),
              help="Your own copy of a game's data folder (an authored card set).")
@click.option("--no-backs", is_flag=True, help="Fronts only (one-sided printing).")
@click.option("--back-offset", default="0,0", callback=_offset, show_default=True,
              help="Shift card backs by X,Y mm (measure it with the calibration page).")
@click.option("--ink-saver", is_flag=True, help="White backgrounds and outlines, for home printers.")
@click.option("--no-svg", is_flag=True, help="Skip the loose SVG files.")
@click.option("--force", is_flag=True, help="Rewrite every file, even unchanged ones.")
def build(games, paper, bleed, layout_, out: Path, data_dir, no_backs, back_offset, ink_saver, no_svg, force) -> None:
    """Render every component to PDF (A4 and Letter) and SVG."""
    from generator.build import BuildError, BuildOptions, build as run_build

    options = BuildOptions(
        games=list(games), papers=("a4", "letter") if paper == "both" else (paper,), bleed=bleed,
        out=out, data_dir=data_dir, layouts=("grid", "bleed") if layout_ == "both" else (layout_,),
        backs=not no_backs, back_offset=back_offset, ink_saver=ink_saver, svg=not no_svg, force=force)
    if data_dir is not None and not Path(data_dir).is_dir():
        _fail(f"{data_dir}: not a folder (give a copy of a game's data, e.g. cardsdata/labnotes)")
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True) as progress:
            task = progress.add_task("rendering", total=None)

            def tick(label: str, done: int, total: int) -> None:
                progress.update(task, description=label, completed=done, total=total)

            report = run_build(options, progress=tick)
    except BuildError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.filename or out}: {exc.strerror or exc}")
    _summary(report, options.out, options.papers)
    console.print(f"Print at 100% scale. How to print each file: {options.out}/<game>/PRINTING.md")


def _summary(report, out_dir: Path, papers: tuple[str, ...]) -> None:
    """One row per component: the same file on each paper side by side."""
    rows: dict[str, dict] = {}
    for f in report.files:
        rel = f.path.relative_to(out_dir)
        paper = rel.parts[1] if len(rel.parts) > 2 else ""
        stem = str(rel).replace(f"/{paper}/", "/{paper}/").replace(f"-{paper}-", "-{paper}-")
        row = rows.setdefault(stem, {"pages": {}, "pieces": f.pieces, "note": f.note, "fresh": True})
        row["pages"][paper] = f.pages
        row["fresh"] = row["fresh"] and f.skipped
    table = Table(title=f"{len(report.written)} files written, {len(report.files) - len(report.written)} unchanged "
                        f"in {report.seconds:.1f} s, under {out_dir}/", title_justify="left")
    table.add_column("file ({paper} = " + " / ".join(papers) + ")", overflow="fold")
    table.add_column("pages", justify="right")
    table.add_column("pieces", justify="right")
    table.add_column("how to print", overflow="fold")
    for stem, row in rows.items():
        pages = " / ".join(str(row["pages"].get(p, "-")) for p in papers)
        table.add_row(stem + (" [dim](unchanged)[/dim]" if row["fresh"] else ""), pages,
                      str(row["pieces"] or ""), row["note"])
    console.print(table)


@main.command()
@click.argument("folders", nargs=-1, type=click.Path(path_type=Path))
@click.option("--game", type=click.Choice(printable_games()), help="Which game the folder is for (default: guessed).")
def validate(folders, game) -> None:
    """Check card data folders (default: every shipped game). Exits 1 on any problem."""
    from engine.data import DataError
    from generator.build import BuildError, _game_of_folder, load_game

    targets: list[tuple[str, Path]] = []
    if not folders:
        targets = [(g, default_data_dir(g)) for g in printable_games()]
    for folder in folders:
        if not folder.is_dir():
            _fail(f"{folder}: not a folder")
        try:
            targets.append((_game_of_folder(folder, [game] if game else []), folder))
        except BuildError as exc:
            _fail(str(exc))
    problems: list[str] = []
    for name, folder in targets:
        try:
            load_game(name, folder)
        except DataError as exc:
            problems.extend(str(p) for p in exc.problems)
    if problems:
        for p in problems:
            err.print(p, highlight=False, soft_wrap=True)
        err.print(f"[red]{len(problems)} problem{'s' if len(problems) != 1 else ''}[/red] in "
                  f"{', '.join(str(f) for _, f in targets)}")
        sys.exit(1)
    for name, folder in targets:
        console.print(f"[green]ok[/green] {folder} ({name})")


@main.command()
@click.argument("game", type=click.Choice(printable_games()))
@click.argument("sheet", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
def score(game: str, sheet: Path, as_json: bool) -> None:
    """Score a finished paper sheet written as JSON (see docs/labnotes-sheet-format.md)."""
    import importlib

    from engine.core import InvalidState

    try:
        scorer = importlib.import_module(f"engine.{game}.sheet")
    except ModuleNotFoundError:
        _fail(f"{game} has no paper-sheet scoring yet")
    if not sheet.exists():
        _fail(f"{sheet}: no such file")
    try:
        result = scorer.score_sheet_file(sheet)
    except InvalidState as exc:
        _fail(str(exc))  # names the file and lists every rule the sheet breaks
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
        return
    table = Table(title=f"{sheet.name}")
    table.add_column("box")
    table.add_column("points", justify="right")
    for line in result.lines:
        table.add_row(line.label, str(line.points))
    table.add_row("[bold]TOTAL / GRADE[/bold]", f"[bold]{result.total}[/bold]")
    console.print(table)


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (all interfaces by default).")
@click.option("--port", type=click.IntRange(1, 65535), default=5000, show_default=True)
@click.option("--database-url", envvar="DATABASE_URL", default=None,
              help="postgresql://... to keep tables in PostgreSQL (default: SQLite under instance/).")
def serve(host: str, port: int, database_url: str | None) -> None:
    """Start the table companion for phones on the same network."""
    from companion.server import serve as run_server

    try:
        run_server(host=host, port=port, database_url=database_url)
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


if __name__ == "__main__":  # pragma: no cover
    main()
