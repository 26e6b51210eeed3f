"""Synthesis' exact chain scoring at its worst, through the paper scorer
(what ``labkit score synthesis`` and the companion's paper page run in a
request): the hardest tables found (``engine/synthesis/workloads.py``), each
with every Chain card, Pattern card and Project card the modes deal, one
board at a time. Prints the worst time found and what was refused (a table
whose best linking the search could not prove within its bound on work is
refused with a sentence, never scored with a linking that may not be best).
Figures only; no time is asserted.

``python -m bench synthesis`` runs this section alone."""

from __future__ import annotations

import time

from rich.console import Console
from rich.table import Table

from engine.core import InvalidState
from engine.synthesis.chain_search import WORK
from engine.synthesis.paper import SCORE_TABLE
from engine.synthesis.workloads import hard_tables, hardest_boards
from labkit import cardsets, registry

SHOWN = 8
"""The slowest boards listed."""


def run(console: Console) -> None:
    game = cardsets.new_game(registry.find("synthesis"))
    timed: list[tuple[float, str, str]] = []
    start = time.perf_counter()
    for what, board in hardest_boards(game.cards):
        t = time.perf_counter()
        try:
            SCORE_TABLE.run(game, board)
            verdict = "scored"
        except InvalidState as exc:
            verdict = "refused" if "could not be linked for certain" in str(exc) else f"error: {exc}"
        timed.append((time.perf_counter() - t, what, verdict))
    total = time.perf_counter() - start

    tables = Table(title="Synthesis: the hardest tables found")
    for col in ("table", "columns from the bottom, volume 1 first"):
        tables.add_column(col)
    for what, _, _, columns in hard_tables(game.cards):
        tables.add_row(what, " ".join(columns))
    console.print(tables)

    summary = Table(title=f"Synthesis: paper boards on them, every card (bound on work: {WORK:,} steps)")
    for col in ("boards", "scored", "refused", "over 1 s", "mean", "worst"):
        summary.add_column(col, justify="right")
    refused = [x for x in timed if x[2] == "refused"]
    errors = [x for x in timed if x[2].startswith("error")]
    worst = max(timed)
    summary.add_row(str(len(timed)), str(sum(x[2] == "scored" for x in timed)), str(len(refused)),
                    str(sum(x[0] > 1 for x in timed)), f"{total / len(timed) * 1000:,.0f} ms",
                    f"{worst[0] * 1000:,.0f} ms")
    console.print(summary)
    console.print(f"worst time found: {worst[0] * 1000:,.0f} ms, {worst[1]} ({worst[2]})")

    slow = Table(title="the slowest boards")
    for col in ("time", "board", "verdict"):
        slow.add_column(col, justify="right" if col == "time" else "left")
    for took, what, verdict in sorted(timed, reverse=True)[:SHOWN]:
        slow.add_row(f"{took * 1000:,.0f} ms", what, verdict)
    console.print(slow)
    for _, what, verdict in refused:
        console.print(f"refused: {what}")
    for _, what, verdict in errors:
        console.print(f"[red]{what}: {verdict}[/red]")
