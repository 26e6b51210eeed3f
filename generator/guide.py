"""``PRINTING.md``: what each file of the printed set is, how to print it,
and what else the table needs (``gather``). The rules themselves are the
game's booklet (:mod:`generator.booklet`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from generator.manifest import Manifest

if TYPE_CHECKING:
    from generator.build import Job


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
        lines += ["## How to play, in short", "", *(f"- {s}" for s in manifest.summary), ""]
    lines += ["## The rules", "",
              f"The complete rules are the booklet `<paper>/{manifest.game}-<paper>-rules.pdf` (one page a sheet);",
              f"`{manifest.game}-<paper>-rules-booklet.pdf` is the same on half sheets in folded order: print it",
              "two-sided flipping on the short edge, fold the stack in the middle and staple on the fold.",
              f"`{manifest.game}-<paper>-player-aid.pdf` is a one-page summary: print one per player.", ""]
    return "\n".join(lines)
