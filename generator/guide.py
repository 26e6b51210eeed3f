"""``PRINTING.md``: what each file of the printed set is, how to print it,
how many sheets of which stock to buy (counted from the files the build
writes) and what else the table needs (``gather``). The rules themselves are
the game's booklet (:mod:`generator.booklet`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from generator.manifest import Component, Manifest

if TYPE_CHECKING:
    from generator.build import Job


STOCKS = ("card stock", "paper")

ALTERNATIVES = ("rules-booklet",)
"""Files that print again what another file prints, in another form (the
folded booklet holds the rules booklet's pages on half sheets): a table
prints one or the other, so the sheets to buy count only the first."""


def stock(job: "Job") -> str:
    """What a file is printed on: sheets (note pads, the rules) and the
    calibration page on plain paper, every piece a player handles on card."""
    return "paper" if job.kind in ("sheet", "") else "card stock"


def sheets_of(job: "Job", pages: int) -> int:
    """Sheets of stock a file takes: a two-sided file prints two pages a sheet."""
    return -(-pages // 2) if job.duplex else pages


def sheet_counts(jobs: Iterable["Job"], pages: Callable[["Job"], int]) -> list[str]:
    """The table of sheets to buy, per paper and stock: for the home files
    (grid), and for the print-shop files (bleed, where a component has them),
    the calibration page in both."""
    jobs = [j for j in jobs if j.style not in ALTERNATIVES]
    papers = list(dict.fromkeys(j.paper for j in jobs))
    with_bleed = {(j.paper, j.title) for j in jobs if j.style == "bleed"}
    sets = [("home files", [j for j in jobs if j.style != "bleed"])]
    if with_bleed:
        sets.append(("print-shop files (bleed)",
                     [j for j in jobs if j.style == "bleed" or (j.paper, j.title) not in with_bleed]))
    rows = []
    for title, chosen in sets:
        for what in STOCKS:
            counts = [sum(sheets_of(j, pages(j)) for j in chosen if j.paper == paper and stock(j) == what)
                      for paper in papers]
            if any(counts):
                rows.append(f"| {title} | {what} | " + " | ".join(str(c) for c in counts) + " |")
    if not rows:
        return []
    names = {"a4": "A4", "letter": "Letter"}
    return ["## Sheets to buy", "",
            "Counted from the files this build wrote: a sheet a page, two pages a sheet when two-sided.",
            "Print one set, the home files or the print-shop files, on one paper size.",
            "The rules are counted once, as `rules.pdf` printed two-sided (the folded booklet holds the same pages).", "",
            "| set | stock | " + " | ".join(names.get(p, p) for p in papers) + " |",
            "|---|---|" + "---|" * len(papers), *rows, ""]


def printing_guide(manifest: Manifest, jobs: Iterable["Job"], game_out: Path,
                   pages: Callable[["Job"], int] | None = None, booklet_note: str = "") -> str:
    jobs = list(jobs)
    lines = [f"# {manifest.title}: what to print", "",
             "Print at **100% / actual size** (never 'fit to page'). Card stock (160-250 g/m²) for cards,",
             "dice and tokens; plain paper for sheets and pads.", "",
             "| file | contents | how |", "|---|---|---|"]
    for job in jobs:
        if job.target.is_relative_to(game_out):
            lines.append(f"| `{job.target.relative_to(game_out)}` | {job.contents} | {job.note} |")
    lines += ["", "Files ending in `-bleed` carry 3 mm of bleed and crop marks, for a print shop or a",
              "careful cutter; the others put cards edge to edge on shared cut lines, quicker to cut at home.",
              "If card backs land off their fronts, print the calibration page two-sided and rebuild with",
              "`labkit build --back-offset X,Y`.", ""]
    if pages is not None:
        lines += sheet_counts([j for j in jobs if j.target.is_relative_to(game_out)], pages)
    notes = [f"- **{c.name}**" + (f" ({_size(c)})" if c.trim else "") + f": {c.note}"
             for c in manifest.components if c.note]
    if notes:
        lines += ["## Notes", "", *notes, ""]
    if manifest.gather:
        lines += ["## What else to gather", "", *(f"- {g}" for g in manifest.gather), ""]
    if manifest.summary:
        lines += ["## How to play, in short", "", *(f"- {s}" for s in manifest.summary), ""]
    lines += ["## The rules", "",
              f"The complete rules are the booklet `<paper>/{manifest.game}-<paper>-rules.pdf` (one page a sheet);",
              f"`{manifest.game}-<paper>-rules-booklet.pdf` is the same on half sheets in folded order: print it",
              "two-sided flipping on the short edge, fold the stack in the middle and staple on the fold.",
              f"`{manifest.game}-<paper>-player-aid.pdf` is a one-page summary: print one per player.", ""]
    if booklet_note:
        lines += [booklet_note, ""]
    return "\n".join(lines)


def _size(component: Component) -> str:
    w, h = component.trim  # type: ignore[misc]
    return f"{w:g} x {h:g} mm" + (", round" if component.shape == "round" else "")


# --- files for print shops and virtual tables (generator/exports.py) ---------------------
def exports_guide(title: str, components: list[Component], done: list, options, game: str, *, bleed: float) -> str:
    """PRINTING.md's part on the 1-up PDFs, shop images, Tabletop Simulator
    and the contact sheet: which file goes where, and which pieces a shop
    has no product for."""
    from generator.shops import SHOPS

    names = {c.id: c.name for c in components}
    kinds = {c.id: c.kind for c in components}
    lines = ["## For print shops and virtual tables", ""]
    if options.one_up:
        lines += [f"- `1-up/{game}-<component>-1up.pdf`: one piece a page, every copy, a two-sided piece front",
                  f"  then back; each page's TrimBox is the cut and its BleedBox {bleed:g} mm beyond it. For a shop",
                  "  that lays out the pieces itself.", ""]
    for sid in options.shops:
        shop = SHOPS[sid]
        lines += [f"### {shop.name}", "",
                  f"`shops/{sid}/<component>/`: one PNG per face at the product's size, 300 dpi (said in the file)",
                  "with the shop's bleed, numbered so each `-front` has its `-back` beside it (or one `back.png`",
                  "when every piece shares it; a plain white one for one-sided pieces), dice a PNG per face",
                  "numbered 1 to 6 as on a standard die, and `quantities.csv` (file, back, count).",
                  f"{shop.upload[0].upper()}{shop.upload[1:]}.",
                  "Custom-cut cardstock is cut along the outline printed on the piece: give the shop that line",
                  "as the cut.", "",
                  "| component | printed as | files |", "|---|---|---|"]
        for e in done:
            product = e.products.get(sid, "")
            lines.append(f"| {names.get(e.component, e.component)} | "
                         + (f"{product} | `shops/{sid}/{e.component}/`" if product else
                            f"not exported: {shop.name} sells {_nothing_for(kinds.get(e.component), e.size)} "
                            "in our table of published sizes (print it from the 1-up PDF or at home) | ") + " |")
        lines.append("")
    if options.tts:
        lines += _tts_steps(game)
    if options.contact:
        lines += ["### Proofing", "",
                  f"`{game}-contact-sheet.pdf`: every face of every exported component with its id, to check",
                  "the whole set at a glance before ordering.", ""]
    return "\n".join(lines)


def _nothing_for(kind: str | None, size) -> str:
    return "no custom die" if kind == "dice" else f"nothing that holds {size[0]:g} x {size[1]:g} mm"


def _tts_steps(game: str) -> list[str]:
    saved = f"tts/{game}-saved-object.json"
    return [
        "### Tabletop Simulator", "",
        f"`tts/` holds `{saved}` and its pictures, a folder per component: the decks (sheets of at most",
        "10 x 7 cards, the back in the last slot as the hidden card) at their cards' proportions, the dice as",
        "custom dice, boards and tiles at their proportions, tokens, and pieces drawn blind in a bag.",
        "Tabletop Simulator loads a picture only from a web address (http or https) or from an absolute",
        "`file:///` address on the player's own computer, so the saved object is told where `tts/` is:", "",
        "1. Put the whole `tts/` folder, as it is, where the pictures will be read from: for players online,",
        "   any web host that serves files as they are (its address for the folder is the base); for one",
        "   computer, any folder on it, whose base is `file:///` and the folder, such as",
        f"   `file:///C:/Users/you/Documents/{game}-tts/` (Windows), `file:///Users/you/{game}-tts/` (macOS)",
        f"   or `file:///home/you/{game}-tts/` (Linux).",
        "2. Build again with that base: `labkit build --tts-base-url https://example.org/lab/tts/`. Only the",
        "   saved object changes: every picture's address becomes the base and its path inside `tts/`.",
        f"3. Copy `{saved}` into Tabletop Simulator's Saved Objects folder:",
        "   `Documents/My Games/Tabletop Simulator/Saves/Saved Objects` on Windows,",
        "   `~/Library/Tabletop Simulator/Saves/Saved Objects` on macOS,",
        "   `~/.local/share/Tabletop Simulator/Saves/Saved Objects` on Linux; in the game, Objects >",
        "   Saved Objects spawns it.",
        "4. Online without a web host: build with a `file:///` base (step 2), spawn it, then in Modding >",
        "   Cloud Manager upload all (the arrow at its top): Tabletop Simulator puts every picture it loaded",
        "   in your Steam Cloud and points the objects at it. Save the objects again and share that file.", "",
        "Without `--tts-base-url` the addresses are the pictures' paths inside `tts/`: they name nothing of",
        "the computer that built them, and they load once a build gives them a base.", ""]
