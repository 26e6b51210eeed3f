"""``labkit``: list the games, build the print-and-play set, start, check
and pack card sets, run a game's paper tools (score a sheet, check a
reaction), play bot-only games, serve the table companion. Every game comes from the registry (:mod:`labkit.registry`);
nothing here names one.

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

from labkit import registry

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


@main.command("games")
def list_games() -> None:
    """List the games this labkit knows, with their paper tools."""
    from labkit.cardsets import data_dir, display_path

    table = Table(title="Games")
    for col in ("name", "title", "players", "paper tools", "card set"):
        table.add_column(col)
    for game in registry.games().values():
        tools = ", ".join(f"{t.verb} ({t.what})" for t in game.paper) or "-"
        table.add_row(game.name, game.title, f"{game.min_players}-{game.max_players}", tools,
                      display_path(data_dir(game)))
    console.print(table)


@main.command()
@click.argument("names", nargs=-1, type=click.Choice(registry.names()), metavar="[GAME]...")
@click.option("--game", "games", multiple=True, type=click.Choice(registry.names()),
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
@click.option("--shop", "shop", default="thegamecrafter,makeplayingcards", show_default=True,
              help="Per-face PNGs at these print shops' sizes (comma-separated; 'none' for none).")
@click.option("--one-up/--no-one-up", default=True, show_default=True,
              help="1-up PDFs: one piece a page with its own TrimBox and BleedBox.")
@click.option("--tts/--no-tts", default=True, show_default=True,
              help="Tabletop Simulator deck sheets, pictures and saved object.")
@click.option("--contact/--no-contact", default=True, show_default=True,
              help="A contact sheet of every face with its id.")
@click.option("--tts-base-url", default=None, metavar="URL",
              help="Where the game's tts/ folder is uploaded (https://... or a file:/// folder): every picture "
                   "of the Tabletop Simulator saved object is addressed as URL plus its path inside tts/.")
@click.option("--jobs", "workers", type=click.IntRange(1, 64), default=None,
              help="Processes to build with. Default: one per core.")
def build(names, games, paper, bleed, layout_, out: Path, data_dir, no_backs, back_offset, ink_saver, no_svg,
          force, shop, one_up, tts, contact, tts_base_url, workers) -> None:
    """Render every component to PDF (A4 and Letter) and SVG: of every game,
    or of the GAMEs named (like --game)."""
    from generator.build import BuildError, BuildOptions, build as run_build
    from generator.exports import ExportOptions
    from generator.shops import SHOPS
    from labkit.setfiles import is_set_path

    shops = tuple(dict.fromkeys(s.strip() for s in shop.split(",") if s.strip() and s.strip() != "none"))
    if tts_base_url is not None:
        from generator.tts import base_url_problem

        problem = base_url_problem(tts_base_url)
        if problem:
            _fail(f"--tts-base-url: {problem}")
    for s in shops:
        if s not in SHOPS:
            _fail(f"--shop: unknown shop {s!r} (known: {', '.join(SHOPS)}, or none)")

    options = BuildOptions(
        games=list(dict.fromkeys([*names, *games])), papers=("a4", "letter") if paper == "both" else (paper,),
        bleed=bleed, out=out, data_dir=data_dir, layouts=("grid", "bleed") if layout_ == "both" else (layout_,),
        backs=not no_backs, back_offset=back_offset, ink_saver=ink_saver, svg=not no_svg, force=force,
        exports=ExportOptions(shops=shops, one_up=one_up, tts=tts, contact=contact, tts_base_url=tts_base_url),
        workers=workers)
    if data_dir is not None and not is_set_path(data_dir):
        _fail(f"{data_dir}: not a folder or a .zip (give a card set: labkit new-set makes one)")
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
    if report.exports:
        made = [e for e in report.exports if not e.skipped]
        console.print(f"Shop images, 1-up PDFs, Tabletop Simulator and contact sheets: {len(made)} components "
                      f"exported, {len(report.exports) - len(made)} unchanged "
                      f"({', '.join(options.exports.shops) or 'no shops'}).")
    elif ink_saver:
        console.print("With --ink-saver only the home-printing files are built (shops and screens want full colour).")
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
@click.option("--game", type=click.Choice(registry.names()), help="Which game the folder is for (default: its game.yaml says).")
@click.option("--columns", "list_columns", is_flag=True,
              help="List every column of the game's files: which the rules read, which are text only.")
def validate(folders, game, list_columns) -> None:
    """Check card sets (default: every game's own; a game's name instead of a
    folder checks its own), as printing and the table would: the data, the
    rules in words against the game's own, and every face drawn (text that
    will not fit, characters the font lacks, text outside the safe zone or
    under 6 pt). For an author's set it says which columns changed and what
    each does. Exits 1 on any problem; nothing is written."""
    from engine.data import DataError
    from labkit import checks
    from labkit.cardsets import cardset, data_dir, display_path, game_of_folder
    from labkit.columns import describe
    from labkit.setfiles import is_set_path

    games = registry.games()
    targets = []
    if not folders:
        targets = [(g, data_dir(g)) for g in games.values() if not list_columns or not game or g.name == game]
    for folder in folders:
        if not is_set_path(folder) and str(folder) in games:  # a game's name: its own card set
            targets.append((games[str(folder)], data_dir(games[str(folder)])))
            continue
        if not is_set_path(folder):
            _fail(f"{folder}: not a folder or a .zip")
        try:
            targets.append((games[game] if game else game_of_folder(folder, games), folder))
        except DataError as exc:
            _fail(str(exc))
    if list_columns:
        for name in dict.fromkeys(d.name for d, _ in targets):
            _print_columns(games[name])
        return
    problems: list[str] = []
    for desc, folder in targets:
        problems.extend(checks.problems(desc, folder))
    if problems:
        for p in dict.fromkeys(problems):
            err.print(p, highlight=False, soft_wrap=True, markup=False)
        err.print(f"[red]{len(problems)} problem{'s' if len(problems) != 1 else ''}[/red] in "
                  f"{', '.join(display_path(f) for _, f in targets)}; nothing was printed")
        sys.exit(1)
    for desc, folder in targets:
        console.print(f"[green]ok[/green] {display_path(folder)} ({desc.name})")
        for line in describe(checks.changes(cardset(desc, folder))):
            console.print(f"  {line}", highlight=False, markup=False, soft_wrap=True)


def _print_columns(desc) -> None:
    """Every column of a game's files by what it does (``labkit validate --columns``)."""
    from labkit.columns import ROLE_WORDS, column

    console.print(f"[bold]{desc.title}[/bold] ({desc.name}): docs/authoring.md says what each does", highlight=False)
    for file, cols in desc.columns.items():
        by_role: dict[str, list[str]] = {}
        for name, spec in cols.items():
            by_role.setdefault(column(spec).role, []).append(name)
        console.print(f"  {file}", highlight=False)
        for role, names in by_role.items():
            console.print(f"    {ROLE_WORDS.get(role, role)}: {', '.join(names)}", highlight=False, markup=False,
                          soft_wrap=True)


@main.command("new-set")
@click.argument("game", type=click.Choice(registry.names()))
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--name", help="The set's name (default: the folder's).")
@click.option("--author", default="", help="Who made it.")
@click.option("--licence", default="", help="Under which licence you share it, e.g. CC-BY-4.0.")
def new_set(game: str, folder: Path, name: str | None, author: str, licence: str) -> None:
    """Start a card set of GAME in FOLDER (new or empty): a copy of the game's
    own data and a set.yaml saying who made it."""
    from engine.data import DataError
    from labkit.sets import SetError, new_set as make

    try:
        written = make(registry.find(game), folder, name, author, licence)
    except (SetError, DataError) as exc:  # DataError: the game's own data is broken
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.filename or folder}: {exc.strerror or exc}")
    console.print(f"[green]made[/green] {folder}/: {', '.join(written)}\n"
                  f"Edit the CSV and YAML files, then: labkit validate {folder}", highlight=False)


@main.command("pack")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="The zip to write (default: FOLDER.zip).")
def pack_set(folder: Path, out: Path | None) -> None:
    """Write the card set in FOLDER as one zip to share (its data checked
    first; the same files always give the same zip)."""
    from engine.data import DataError
    from labkit.sets import SetError, pack

    try:
        written, opened = pack(folder, out)
    except (DataError, SetError) as exc:
        _fail(f"{folder} was not packed:\n{exc}" if isinstance(exc, DataError) else str(exc))
    except OSError as exc:
        _fail(f"{exc.filename or out}: {exc.strerror or exc}")
    console.print(f"[green]packed[/green] {written} ({len(opened.set_files)} files, content "
                  f"{opened.content_hash[:16]})", highlight=False)


@main.command("studio")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--port", type=int, default=0, help="The port on 127.0.0.1 (default: any free one).")
@click.option("--no-open", is_flag=True, help="Do not open the page in a browser.")
def studio(folder: Path, port: int, no_open: bool) -> None:
    """Show every face of the card set in FOLDER (or a zip) as it will print,
    redrawn as you save, with every problem on its card. Ctrl-C stops it."""
    from engine.data import DataError
    from labkit.cardsets import game_of_folder
    from labkit.setfiles import is_set_path
    from labkit.studio import serve as run_studio

    if not is_set_path(folder):
        _fail(f"{folder}: not a folder or a .zip")
    try:
        game = game_of_folder(folder, registry.games())
    except DataError as exc:
        _fail(str(exc))
    try:
        run_studio(game, folder, port, open_page=not no_open,
                   ready=lambda url: console.print(f"studio for {folder} at {url} (Ctrl-C stops it)", highlight=False))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        _fail(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}")


def _paper_command(verb: str) -> click.Command:
    games = [g.name for g in registry.games().values() if g.tool(verb)]
    what = "; ".join(f"{g}: {registry.find(g).tool(verb).what}" for g in games)

    @click.argument("game", type=click.Choice(games))
    @click.argument("file", type=click.Path(path_type=Path))
    @click.option("--data", "data_dir", type=click.Path(path_type=Path), help="The card set played with (default: the game's own).")
    @click.option("--json", "as_json", is_flag=True, help="Print the finding as JSON.")
    def command(game: str, file: Path, data_dir: Path | None, as_json: bool) -> None:
        from engine.core import InvalidState
        from engine.data import DataError
        from labkit.paper import run_file

        desc = registry.find(game)
        try:
            report = run_file(desc, verb, file, data_dir)
        except InvalidState as exc:
            _fail(str(exc))  # names the file and lists every problem
        except DataError as exc:
            _fail(str(exc))
        if as_json:
            console.print_json(json.dumps(report.to_dict()))
        else:
            table = Table(title=f"{file.name}: {report.title}", caption=report.summary)
            table.add_column("")
            table.add_column("", justify="right")
            for label, value in report.rows:
                table.add_row(label, value)
            console.print(table)
        if not report.ok:
            sys.exit(1)

    command.__doc__ = f"{verb.capitalize()} from a table playing on paper ({what}). See each game's format doc."
    return click.command(verb)(command)


for _verb in dict.fromkeys(t.verb for g in registry.games().values() for t in g.paper):
    main.add_command(_paper_command(_verb))


def _readable() -> list[str]:
    return [g.name for g in registry.games().values() if getattr(g, "reader", None)]


@main.command("read")
@click.argument("game", type=click.Choice(_readable()))
@click.argument("photo", type=click.Path(path_type=Path))
@click.option("--piece", "piece", default=None,
              help="Which piece the sheet is (a board's letter), used when its code cannot be read.")
@click.option("--data", "data_dir", type=click.Path(path_type=Path), help="The card set played with (default: the game's own).")
@click.option("--out", "out", type=click.Path(path_type=Path),
              help="Write the sheet, as read, in the game's paper format (to score with `labkit score`).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole reading as JSON.")
def read_photo(game: str, photo: Path, piece: str | None, data_dir: Path | None, out: Path | None,
               as_json: bool) -> None:
    """Read a phone's photo of a printed sheet: every mark with its confidence,
    the marks worth checking first, the sheet in the game's paper format and
    its score (docs/design/reader.md)."""
    from engine.core import InvalidState
    from engine.data import DataError
    from labkit.cardsets import cardset
    from reader.page import Refused
    from reader.read import read

    desc = registry.find(game)
    try:
        data = photo.read_bytes()
    except OSError as exc:
        _fail(f"{photo}: cannot read it: {exc.strerror or exc}")
    try:
        cs = cardset(desc, data_dir)
        reading = read(game, data, cardset=cs, hint={"piece": piece} if piece else None)
    except Refused as exc:
        _fail(f"{photo}: {exc}")
    except DataError as exc:
        _fail(str(exc))
    if out is not None:
        out.write_text(json.dumps(reading.data, indent=1) + "\n", encoding="utf-8")
    if as_json:
        console.print_json(json.dumps(reading.to_dict()))
        return
    unsure = reading.unsure
    console.print(f"{photo.name}: {desc.title}, {reading.component} {reading.piece.upper()} "
                  f"(side {reading.side_name or reading.side + 1}); {len(reading.marks)} marks read in "
                  f"{reading.seconds:.2f} s of CPU, {len(unsure)} to check", highlight=False)
    for note in reading.notes:
        console.print(f"  note: {note}", highlight=False)
    for r in unsure:
        choices = ", ".join("empty" if c is None else str(c) for c in r.choices[:4])
        console.print(f"  check {r.label or r.name}: read {'empty' if r.value is None else r.value} "
                      f"({r.confidence:.0%} sure; could be {choices}){': ' + r.why if r.why else ''}", highlight=False)
    console.print_json(json.dumps(reading.data))
    tool = desc.tool("score")
    if tool is not None:
        try:
            report = tool.run(cs.play, reading.data)
        except InvalidState as exc:
            _fail("as read, the sheet breaks the rules (check the marks above):\n" + str(exc))
        total = report.data.get("total") if isinstance(report.data, dict) else None
        console.print(f"{report.title}" + (f": {total} points" if total is not None and "points" not in report.title
                                            else "") + (" (before the marks above are checked)" if unsure else ""),
                      highlight=False)


def _levels(ctx, param, value: str) -> list[str]:
    from engine.bots import LEVELS

    levels = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in levels if v not in LEVELS]
    if not levels or unknown:
        raise click.BadParameter(f"name bot levels among {', '.join(LEVELS)}, comma-separated"
                                 + (f" ({unknown[0]!r} is none)" if unknown else ""))
    return levels


@main.command("play")
@click.argument("game", type=click.Choice(registry.names()))
@click.option("--bots", "levels", default="random,greedy", show_default=True, callback=_levels,
              help="A bot level per seat (random, greedy, planner), repeated round the table to fill it; "
                   "the levels move one seat on each game.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="The first game's seed (then seed + 1, ...).")
@click.option("--players", type=int, default=None, help="Seats at the table (default: one per bot listed).")
@click.option("--budget", "iterations", type=click.IntRange(1, 100_000), default=None,
              help="The planner's futures searched per decision (deterministic).")
@click.option("--seconds", type=click.FloatRange(0.001, 600), default=None,
              help="The planner's time cap per decision, on top of --budget (moves then depend on the machine).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A setup option of the game (repeatable), e.g. --option first_game=on.")
@click.option("--processes", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes playing games side by side.")
def play_bots(game: str, levels: list[str], games: int, seed: int, players: int | None, iterations: int | None,
              seconds: float | None, options: tuple[str, ...], processes: int) -> None:
    """Play bot-only games of GAME and print who won, by level and by seat,
    the scores and the games' length."""
    from engine.bots import Budget
    from engine.core import RulesError
    from labkit import bots
    from labkit.cardsets import new_game

    desc = registry.find(game)
    players = players or len(levels)
    if not desc.min_players <= players <= desc.max_players:
        _fail(f"{desc.title} is for {desc.min_players} to {desc.max_players} players, not {players}")
    budget = Budget(**{k: v for k, v in (("iterations", iterations), ("seconds", seconds)) if v is not None})
    try:
        setup = bots.read_options(new_game(desc), options, players)
        new_game(desc).setup(players, seed, setup)
    except (ValueError, RulesError) as exc:
        _fail(str(exc))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task(f"{desc.title}: bot games", total=games)
        records = bots.play(game, players, levels, games, seed, setup, budget, processes,
                            progress=lambda record: progress.advance(task))
    for table in bots.tables(desc.title, records, players, ranked=new_game(desc).ranked):
        console.print(table)


def _counts(ctx, param, value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        counts = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter(f"expected player counts, comma-separated (e.g. 2,3,4), found {value!r}") from None
    if not counts:
        raise click.BadParameter("name at least one player count")
    return counts


@main.command("balance")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Bot games of each set (the player counts take turns).")
@click.option("--against", "other", type=click.Path(path_type=Path), default=None,
              help="The set to compare with (a folder or a zip; default: the game's own).")
@click.option("--bots", "levels", default="greedy", show_default=True, callback=_levels,
              help="Bot levels (random, greedy, planner), repeated round the table, moving one seat each game.")
@click.option("--players", callback=_counts, default=None, help="Player counts, e.g. 2,3,4 (default: 2 to 4 "
              "as far as the game allows).")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same report.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML report to write (the JSON figures go beside it; default: output/balance/SET.html).")
@click.option("--workers", type=click.IntRange(1, 1024), default=None, help="Worker processes (default: every core).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play the games on a Dask cluster instead (e.g. tcp://host:8786); the same seed gives the "
                   "same report.")
@click.option("--effect-games", type=click.IntRange(0, 1_000_000), default=None,
              help="Games of each leave-one-out: the first cards to look at, each played again as a typical card "
                   "of its kind (default: as many as --games; 0: none).")
@click.option("--ladder-games", type=click.IntRange(0, 1_000_000), default=40, show_default=True,
              help="Games of the skill ladder, of each set: --ladder-bot against random at 2 players (0: none).")
@click.option("--ladder-bot", default="greedy", show_default=True, type=click.Choice(["greedy", "planner"]),
              help="The level the ladder sets against random (the planner takes about a second a decision).")
def balance(folder: Path, games: int, other: Path | None, levels: list[str], players: list[int] | None, seed: int,
            out: Path | None, workers: int | None, scheduler: str | None, effect_games: int | None,
            ladder_games: int, ladder_bot: str) -> None:
    """Play bot games of the card set in FOLDER (or zip) and of the game's
    own set (or --against OTHER), and write one HTML report: the cards to
    look at first (what changed in their data, what the games showed, how
    sure after correcting for the number of figures tested), then seat
    advantage, scores or places, game length, lead changes, end conditions
    and every card's use beside the other set's."""
    from engine.data import DataError
    from labkit import balance as work
    from labkit.balance_html import render
    from labkit.cardsets import cardset, open_set
    from labkit.progress import ProgressLine

    try:
        this = open_set(folder)
        theirs = cardset(this.game, other) if other is not None else cardset(this.game)
    except DataError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.filename or folder}: {exc.strerror or exc}")
    desc = this.game
    counts = work.default_players(desc, players)
    wrong = [p for p in counts if not desc.min_players <= p <= desc.max_players]
    if wrong:
        _fail(f"{desc.title} is for {desc.min_players} to {desc.max_players} players, not {wrong[0]}")
    out = out or Path("output") / "balance" / f"{Path(folder).stem}.html"
    try:
        data = work.report(this, theirs, games, levels, counts, seed, workers, scheduler,
                           progress=ProgressLine(err.file), effect_games=games if effect_games is None else effect_games,
                           ladder_games=ladder_games, ladder_bot=ladder_bot)
    except OSError as exc:  # a scheduler that cannot be reached
        _fail(f"the Dask scheduler at {scheduler}: {exc}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(data), encoding="utf-8")
        out.with_suffix(".json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"{exc.filename or out}: {exc.strerror or exc}")
    console.print(f"[green]wrote[/green] {out} and {out.with_suffix('.json').name}: {games} games of each set, "
                  f"played {data['ran_on']['said'] if data['ran_on'] else 'earlier'}", highlight=False)
    if not data["look_at"]:
        console.print("  no card to look at: no card's figures differ beyond the noise (Benjamini-Hochberg, 5%)",
                      highlight=False)
    for card in data["look_at"][:10]:
        console.print(f"  look at {card['name']} ({card['card']}): {card['why']}", highlight=False, markup=False)
    if len(data["look_at"]) > 10:
        console.print(f"  ... and {len(data['look_at']) - 10} more cards to look at in the report", highlight=False)


def _limits(ctx, param, values: tuple[str, ...]) -> dict | None:
    if not values:
        return None
    from companion import DEFAULTS
    from companion.security import parse_limit

    limits = dict(DEFAULTS["RATE_LIMITS"])
    for item in values:
        bucket, _, value = item.partition("=")
        if value in ("off", "none", "0"):
            limits.pop(bucket, None)
            continue
        try:
            limits[bucket] = parse_limit(value)
        except ValueError:
            raise click.BadParameter(f"cannot read {item!r}: use BUCKET=N/SECONDS or BUCKET=off") from None
    return limits


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (all interfaces by default).")
@click.option("--port", type=click.IntRange(1, 65535), default=5000, show_default=True)
@click.option("--database-url", envvar="DATABASE_URL", default=None,
              help="postgresql://... to keep tables in PostgreSQL (default: SQLite under instance/).")
@click.option("--instance-path", type=click.Path(file_okay=False), default=None,
              help="Folder for the SQLite file and the secret key (default: ./instance).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (use PostgreSQL, or Redis, to share tables across them).")
@click.option("--threads", type=click.IntRange(4, 2000), default=256, show_default=True,
              help="Requests one worker serves at once: each open phone holds one, so size it for the phones.")
@click.option("--worker-class", type=click.Choice(["gevent", "gthread"]), envvar="LABKIT_WORKER_CLASS",
              default="gevent", show_default=True,
              help="gevent: each request a greenlet on one thread per worker; gthread: a thread per request.")
@click.option("--graceful-timeout", type=click.IntRange(1, 3600), envvar="LABKIT_GRACEFUL_TIMEOUT", default=5,
              show_default=True, help="Seconds a worker told to stop lets the requests it is answering finish.")
@click.option("--no-qr", is_flag=True, help="Do not draw the QR code in the terminal.")
@click.option("--rate-limit", "rate_limits", multiple=True, callback=_limits, metavar="BUCKET=N/SECONDS",
              help="e.g. create=20/60 or join=off (repeatable).")
@click.option("--poll-ms", type=click.IntRange(100, 60000), default=None, help="How often phones ask for changes.")
@click.option("--allow-chosen-seed", is_flag=True, help="Let API clients fix seeds (tests, benchmarks).")
@click.option("--fanout", type=click.Choice(["auto", "local", "poll", "postgres", "redis"]), default=None,
              help="How workers tell each other of changes (default: auto: Redis if --redis-url, PostgreSQL "
                   "LISTEN/NOTIFY on PostgreSQL, polling for several workers on SQLite).")
@click.option("--redis-url", envvar="REDIS_URL", default=None, help="redis://... to fan changes out through Redis.")
@click.option("--trusted-proxies", envvar="LABKIT_TRUSTED_PROXIES", default=None, metavar="ADDRESSES",
              help="Proxies whose X-Forwarded-For and -Proto are believed, e.g. 127.0.0.1 or 10.0.0.0/8.")
@click.option("--public-url", default=None, help="The address phones open (behind a proxy: https://...).")
@click.option("--sets", "sets_dir", type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
              help="A folder of card sets (set folders and set zips) a host may choose when making a table.")
@click.option("--allocator", type=click.Choice(["auto", "system"]), envvar="LABKIT_ALLOCATOR", default="auto",
              show_default=True, help="auto: start with jemalloc when installed (memory stays flat over a long "
                                      "evening); system: the C library's own.")
def serve(host: str, port: int, database_url: str | None, instance_path: str | None, workers: int, threads: int,
          worker_class: str, graceful_timeout: int, no_qr: bool, rate_limits: dict | None, poll_ms: int | None,
          allow_chosen_seed: bool,
          fanout: str | None, redis_url: str | None, trusted_proxies: str | None, public_url: str | None, sets_dir: str | None,
          allocator: str) -> None:
    """Start the table companion for phones on the same network."""
    from companion.allocator import restart_with_jemalloc

    allocator = restart_with_jemalloc(allocator)   # first: this may start the same command again, on jemalloc
    from companion.server import serve as run_server

    config: dict = {}
    if sets_dir:
        config["SETS_DIR"] = str(Path(sets_dir).resolve())
    for key, value in (("FANOUT", fanout), ("REDIS_URL", redis_url), ("TRUSTED_PROXIES", trusted_proxies),
                       ("PUBLIC_URL", public_url)):
        if value:
            config[key] = value
    if rate_limits is not None:
        config["RATE_LIMITS"] = rate_limits
    if poll_ms:
        config["POLL_MS"] = poll_ms
    if allow_chosen_seed:
        config["ALLOW_CHOSEN_SEED"] = True
    try:
        run_server(host=host, port=port, database_url=database_url, instance_path=instance_path, config=config,
                   workers=workers, threads=threads, qr=not no_qr, allocator=allocator, worker_class=worker_class,
                   graceful_timeout=graceful_timeout)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


if __name__ == "__main__":  # pragma: no cover
    main()
