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
