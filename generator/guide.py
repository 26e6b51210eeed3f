"""What comes with the printed set besides the components: a one-page rules
summary (from the manifest's ``summary``, in our own words, pointing to the
full rulebook) and ``PRINTING.md``, which says what each file is, how to
print it, and what else the table needs (``gather``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from generator.manifest import Component, Manifest

if TYPE_CHECKING:
    from generator.build import Job


def rules_component(manifest: Manifest) -> Component:
    lo, hi = manifest.players
    players = f"{lo} to {hi} players" if lo != hi else f"{lo} player{'s' if lo > 1 else ''}"
    source = (f"The full rules: the {manifest.title} rulebook"
              + (f" ({manifest.rulebook})." if manifest.rulebook else "."))
    return Component(id="rules", name="Rules summary", kind="sheet", size=(190.0, 130.0),
                     front="common/rules-summary.svg.j2",
                     text=[manifest.title, players, *manifest.summary, "", source,
                           *(["You also need: " + "; ".join(manifest.gather) + "."] if manifest.gather else [])],
                     note="One page: how to play, in short.")


def printing_guide(manifest: Manifest, jobs: Iterable["Job"], game_out: Path) -> str:
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
    notes = [f"- **{c.name}**: {c.note}" for c in manifest.components if c.note]
    if notes:
        lines += ["## Notes", "", *notes, ""]
    if manifest.gather:
        lines += ["## What else to gather", "", *(f"- {g}" for g in manifest.gather), ""]
    if manifest.summary:
        lines += ["## How to play, in short", "", *(f"- {s}" for s in manifest.summary), "",
                  f"The full rules are in the {manifest.title} rulebook"
                  + (f" (`{manifest.rulebook}`)." if manifest.rulebook else "."), ""]
    return "\n".join(lines)


# --- files for print shops and virtual tables (generator/exports.py) ---------------------
def exports_guide(title: str, components: list[Component], done: list, options, game: str, *, bleed: float) -> str:
    """PRINTING.md's part on the 1-up PDFs, shop images, Tabletop Simulator
    and the contact sheet: which file goes where, and which pieces a shop
    has no product for."""
    from generator.shops import SHOPS

    names = {c.id: c.name for c in components}
    lines = ["## For print shops and virtual tables", ""]
    if options.one_up:
        lines += [f"- `1-up/{game}-<component>-1up.pdf`: one piece a page, every copy, a two-sided piece front",
                  f"  then back; each page's TrimBox is the cut and its BleedBox {bleed:g} mm beyond it. For a shop",
                  "  that lays out the pieces itself.", ""]
    for sid in options.shops:
        shop = SHOPS[sid]
        lines += [f"### {shop.name}", "",
                  f"`shops/{sid}/<component>/`: one PNG per face at 300 dpi with the shop's bleed, numbered so",
                  "each `-front` has its `-back` beside it (or one `back.png` when every piece shares it), and",
                  f"`quantities.csv` (file, back, count). {shop.upload[0].upper()}{shop.upload[1:]}.", "",
                  "| component | printed as |", "|---|---|"]
        for e in done:
            product = e.products.get(sid, "")
            lines.append(f"| {names.get(e.component, e.component)} | "
                         + (product if product else f"not exported: no {shop.name} size of "
                            f"{e.size[0]:g} x {e.size[1]:g} mm in our table of published sizes "
                            "(print it from the 1-up PDF or at home)") + " |")
        lines.append("")
    if options.tts:
        lines += ["### Tabletop Simulator", "",
                  f"Copy `tts/{game}-saved-object.json` into Tabletop Simulator's `Saves/Saved Objects` folder",
                  "(Documents/My Games/Tabletop Simulator on Windows) and spawn it from Objects > Saved Objects:",
                  "the decks (sheets of at most 10 x 7 cards, the back in the last slot as the hidden card), the",
                  "boards, tiles and tokens. Its pictures are addressed as `file:///` paths to this folder, written",
                  "at build time: they load on this computer only, and not after the folder moves (build again).",
                  "To play with others online, upload the pictures in `tts/` (Tabletop Simulator's Cloud Manager",
                  "or any web host) and replace the `file:///` addresses in the JSON with theirs.",
                  "Paper dice are not exported: use Tabletop Simulator's own dice. A pad of sheets is one tile.", ""]
    if options.contact:
        lines += ["### Proofing", "",
                  f"`{game}-contact-sheet.pdf`: every face of every exported component with its id, to check",
                  "the whole set at a glance before ordering.", ""]
    return "\n".join(lines)
