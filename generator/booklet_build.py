"""The rules booklet's part of a build: the booklet drawn for a card set,
and its three files set in type in memory before any file is written
(docs/design/booklets.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from generator import booklet as booklets
from generator.booklet_md import BookletError
from generator.printable import BuildError, Printable, Rendered, check, load

if TYPE_CHECKING:
    from generator.build import BuildOptions
    from generator.sheets import Job


def for_set(printable: Printable, rendered: Rendered, folder: Path | None,
             options: "BuildOptions") -> booklets.Booklet:
    """The game's rules booklet drawn with this card set's faces and filled
    with its counts and names. An author's set whose cards cannot draw a
    figure of the booklet or give a value it prints (a card it shows is
    missing, the worked example's cards are not there) gets the booklet of
    the rulebook's own set instead, and PRINTING.md says so."""
    try:
        return booklets.load(printable, rendered)
    except BookletError as exc:
        figures = [p for p in exc.problems if re.search(r": (face|faces|setup|figure|set):", p)]
        if folder is None or not figures or len(figures) < len(exc.problems):
            raise
        own = load(printable.game)
        own_rendered, _ = check(own, bleed=options.bleed, ink_saver=options.ink_saver, layouts=("grid",))
        booklet = booklets.load(own, own_rendered)
        why = sorted({p.split(": ", 1)[1] for p in figures})
        booklet.note = ("The rules booklet's pictures and counts show the rulebook's own cards, since this set's "
                        "cards cannot draw or name them: " + "; ".join(why))
        return booklet


# --- writing ------------------------------------------------------------------------------


def typeset(jobs: list[Job]) -> dict[Path, tuple[bytes, int]]:
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
