"""End of the Game: the score formula, the winner, and the solo verdicts.

The score formula at the bottom of the board (End of the Game and
Determining the Winner) has five boxes: elemental molecules (6 for one of a
pair, 16 for both), molecular chains (the best linking, :mod:`.goals`),
completed rows and columns (5 each), the Molecular Chain card and the
Molecular Pattern card (each capped at its red hexagon). Project cards score
no points; they decide a solo game's verdict.

Cells in the details are ``[volume, row]``: the column's volume (1 to 6)
and the row counted from the bottom (1 first), as a player reads the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from engine.core import ScoreLine
from engine.synthesis.cards import ChainCard, PatternCard, ProjectCard, RulesData
from engine.synthesis.goals import Best, optimize
from engine.synthesis.layout import Layout
from engine.synthesis.patterns import RULES, Board
from engine.synthesis.table import Cell


@dataclass(frozen=True)
class Goals:
    """The cards a game is played with, and the solo threshold area if any."""

    chain_card: ChainCard | None = None
    pattern_card: PatternCard | None = None
    project: ProjectCard | None = None
    level: str | None = None
    """``green``, ``yellow`` or ``red``: the area goal cards must reach (solo)."""
    solo: bool = False


@dataclass(frozen=True)
class Scored:
    lines: tuple[ScoreLine, ...]
    details: dict
    longest: int
    elementals: int
    won: bool | None
    """Solo: the verdict; otherwise ``None``."""

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)


def cell_name(cell: Cell) -> list[int]:
    return [cell[1] + 1, cell[0] + 1]


def elemental_points(rules: RulesData, boxes: Mapping[str, int]) -> int:
    """6 for one molecule of a pair, 16 for both (Elemental Molecules)."""
    pts = rules.elemental_points
    return sum(pts.pair if n >= 2 else pts.one if n == 1 else 0 for n in boxes.values())


BESTS_KEPT = 4096
"""Best linkings kept per game (``score``'s ``kept``)."""


def score(rules: RulesData, points: tuple[int, ...], layout: Layout, columns: list[str],
          boxes: Mapping[str, int], goals: Goals, board: Board | None = None,
          pattern_points: int | None = None, kept: dict | None = None) -> Scored:
    """Every box of the score formula. ``columns`` is the volume table (colour
    letters bottom-up), ``boxes`` the elemental molecules shaded per shape;
    the Pattern card is judged on ``board`` (the formula), or given as
    ``pattern_points`` (a paper board). ``kept``: best linkings by table and
    goals, for a caller whose goal cards stay the same objects (a game's):
    the search depends on the table's colours and the goals only, and many
    boards share a table (a bot's futures end on many)."""
    table = layout.table
    colour = table.colours(columns)
    labels = {b.key: b.label for b in rules.score_boxes}
    card = goals.chain_card
    need = card.row.threshold(goals.level) if card is not None and goals.level else None
    key = (table.heights, tuple(columns), points, id(card), id(goals.project), need)
    best = kept.get(key) if kept is not None else None
    if best is None:
        best = optimize(table, colour, points,
                        card=(card.pattern, card.row.points, card.row.maximum) if card else None,
                        project=goals.project.chains if goals.project else None, card_needed=need)
        if kept is not None:
            if len(kept) >= BESTS_KEPT:
                kept.clear()
            kept[key] = best
    lines_done = len(table.complete_rows(columns)) + len(table.complete_cols(columns))
    pattern_details: dict = {}
    pattern = 0
    if goals.pattern_card is not None:
        row = goals.pattern_card.row
        if pattern_points is not None:
            pattern = min(pattern_points, row.maximum)
        elif board is not None:
            raw, pattern_details = RULES[row.rule](board, row.points, goals.pattern_card.group)
            pattern = min(raw, row.maximum)
    values = {
        "elemental": elemental_points(rules, boxes),
        "chains": best.chain_points,
        "lines": rules.line_points * lines_done,
        "chain_card": best.card_points,
        "pattern_card": pattern,
    }
    lines = tuple(ScoreLine(key, labels.get(key, key), values[key]) for key in values)
    elementals = sum(boxes.values())
    details: dict = {
        "chains": [[cell_name(c) for c in chain] for chain in best.linking.chains],
        "longest_chain": best.linking.longest,
        "elemental_molecules": elementals,
        "rows_and_columns": lines_done,
    }
    if card is not None:
        details["chain_card"] = {"card": card.id, "found": [[cell_name(c) for c in o.cells] for o in best.occurrences]}
    if goals.pattern_card is not None:
        details["pattern_card"] = {"card": goals.pattern_card.id, **pattern_details}
    won = None
    if goals.solo:
        checks = []
        if goals.project is not None:
            need_e = goals.project.row.elemental
            checks.append(("project chains", best.project is not None))
            checks.append((f"{need_e} elemental molecule{'s' if need_e != 1 else ''}", elementals >= need_e))
            details["project"] = {"card": goals.project.id, "chains": None if best.project is None else
                                  [[cell_name(c) for c in p.cells] for p in best.project]}
        if goals.level is not None:
            if card is not None:
                checks.append((f"{card.row.name}: {need}", best.card_points >= need))  # type: ignore[operator]
            if goals.pattern_card is not None:
                target = goals.pattern_card.row.threshold(goals.level)
                checks.append((f"{goals.pattern_card.row.name}: {target}", pattern >= target))
        won = all(ok for _, ok in checks)
        details["solo"] = {"won": won, "goals": [{"goal": g, "met": ok} for g, ok in checks]}
    return Scored(lines, details, best.linking.longest, elementals, won)


def winners(scores: list[Scored]) -> tuple[int, ...]:
    """Most points; then the longest molecular chain; then the most elemental
    molecules; then the victory is shared. Solo: the player, if they won."""
    if len(scores) == 1 and scores[0].won is not None:
        return (0,) if scores[0].won else ()
    key = [(s.total, s.longest, s.elementals) for s in scores]
    best = max(key)
    return tuple(i for i, k in enumerate(key) if k == best)
