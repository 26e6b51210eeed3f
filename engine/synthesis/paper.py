"""Scoring a paper board: "A player who played on paper can enter the volume
table and elemental boxes and get the optimal chain score."

The board is written down as JSON (``docs/synthesis-table-format.md``)::

    {"player": "Ada", "board": "C", "side": "A",
     "table": ["rgb", "yy", "gg", "b", "", ""],
     "elemental": {"circle": 2, "square": 1},
     "chain_card": "twin-pairs"}

:func:`score_table` checks it and returns the score formula with the best
linking of chains (and, with a Molecular Chain card, the best linking
counting the card); a board that breaks a rule raises
:class:`~engine.core.InvalidState` listing every problem, one per line.

>>> from engine.synthesis.examples import example_cards
>>> from engine.synthesis.game import Synthesis
>>> game = Synthesis(example_cards())
>>> report = SCORE_TABLE.run(game, {"board": "A", "table": ["gg", "g", "", "", "", ""],
...                                 "elemental": {"circle": 1}})
>>> report.rows
(('Elemental molecules', '6'), ('Molecular chains', '6'), ('Rows and columns', '0'), ('Molecular Chain card', '0'), ('Molecular Pattern card', '0'), ('Total', '12'))
>>> SCORE_TABLE.run(game, {"board": "A", "table": [".g", "", "", "", "", ""]})
Traceback (most recent call last):
...
engine.core.InvalidState: This board breaks 1 rule:
- table column 1 (volume 1): a cell is coloured above an empty one; each column is filled from the bottom
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from engine.core import InvalidState, MalformedInput
from engine.descriptor import PaperReport, PaperTool
from engine.synthesis.chain_search import SearchTooLong
from engine.synthesis.scoring import Goals, score
from engine.synthesis.state import LEVELS, MODES, PROJECT_LEVELS

if TYPE_CHECKING:
    from engine.synthesis.game import Synthesis

FIELDS = ("game", "player", "board", "side", "table", "elemental", "chain_card", "pattern_card",
          "pattern_points", "mode", "difficulty", "project")
TEXTS = {"game": "a game's name", "player": "a name", "board": "a board's letter", "side": "A or B",
         "mode": "a mode's name", "difficulty": "easy, medium or hard", "chain_card": "a card's name",
         "pattern_card": "a card's name", "project": "a card's name"}
"""The fields that hold a text, and what it names (for a sentence when they do not)."""
SOLO_CARDS = {
    "first_steps": ("First Steps", ("chain_card", "pattern_card"),
                    "a Molecular Chain card and a Molecular Pattern card (\"place one card from each deck on the "
                    "table\")"),
    "predictable": ("Predictable Results", ("project",),
                    "a Project card instead of the Molecular Chain and Molecular Pattern cards"),
    "unpredictable": ("Unpredictable Consequences", ("project", "chain_card", "pattern_card"),
                      "one Project card, one Molecular Pattern card and one Molecular Chain card, which you must "
                      "all complete"),
}
"""Each solo mode's cards, as the rulebook deals them: exactly these, no other."""


def _kind(value: Any) -> str:
    """A JSON value's kind, in words."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return "null" if value is None else type(value).__name__


def _malformed(data: Any) -> list[str]:
    """Fields not in their format at all (a list where a name belongs): one sentence each."""
    if not isinstance(data, Mapping):
        return [f"A board is a JSON object with board and table, found {_kind(data)}."]
    return [f"{key}: expected {what} as text, found {_kind(data[key])}"
            for key, what in TEXTS.items() if data.get(key) is not None and not isinstance(data[key], str)]


def _column(value: Any, names: Mapping[str, str]) -> list[str] | None:
    """A column as colour letters bottom-up ("." empty), or ``None`` if unreadable."""
    if isinstance(value, str):
        items: list[Any] = list(value.replace(" ", ""))
    elif isinstance(value, list):
        items = value
    else:
        return None
    out = []
    for item in items:
        if item in (".", None, ""):
            out.append(".")
        elif isinstance(item, str) and item.lower() in names:
            out.append(names[item.lower()])
        else:
            return None
    return out


def score_table(game: "Synthesis", data: Mapping[str, Any]) -> PaperReport:
    cards = game.cards
    malformed = _malformed(data)
    if malformed:
        raise MalformedInput("\n".join(malformed))
    problems: list[str] = []
    p = problems.append
    for key in data:
        if key not in FIELDS:
            p(f"{key!r} is not a field of a board (fields: {', '.join(FIELDS)})")
    side = data.get("side", "A")
    board = data.get("board")
    layout = cards.layouts.get((board, side)) if isinstance(board, str) and isinstance(side, str) else None
    if layout is None:
        p(f"board and side: expected one of the boards {', '.join(cards.boards('A'))} and side A or B, "
          f"found {board!r} side {side!r}")
    names = {c.id: c.letter for c in cards.rules.colours}
    names.update({c.letter: c.letter for c in cards.rules.colours})
    columns: list[str] = []
    table = data.get("table")
    if not isinstance(table, list) or len(table) != 6:
        p("table: expected 6 columns (volumes 1 to 6), each its colours from the bottom, like \"rgb\"")
    else:
        for i, value in enumerate(table):
            col = _column(value, names)
            where = f"table column {i + 1} (volume {i + 1})"
            if col is None:
                p(f"{where}: expected colours ({', '.join(c.id for c in cards.rules.colours)} or their "
                  f"letters), found {value!r}")
                col = []
            filled = "".join(col).rstrip(".")
            if "." in filled:
                p(f"{where}: a cell is coloured above an empty one; each column is filled from the bottom")
            if layout is not None and len(filled) > layout.table.heights[i]:
                p(f"{where}: {len(filled)} cells coloured, but the column has {layout.table.heights[i]}")
            columns.append(filled.replace(".", ""))
    boxes: dict[str, int] = {s: 0 for s in (layout.pairs if layout else ())}
    elemental = data.get("elemental", {})
    if not isinstance(elemental, Mapping):
        p("elemental: expected the shaded boxes per shape, like {\"circle\": 2}")
    else:
        for shape, value in elemental.items():
            count = len(value) if isinstance(value, list) else value
            if layout is not None and shape not in layout.pairs:
                p(f"elemental: this board has no {shape!r} pair (pairs: {', '.join(layout.pairs)})")
            elif type(count) is not int or not 0 <= count <= 2:
                p(f"elemental {shape}: expected 0, 1 or 2 shaded boxes, found {value!r}")
            else:
                boxes[shape] = count
    mode = data.get("mode", "standard")
    if mode not in MODES:
        p(f"mode: expected one of {', '.join(MODES)}, found {mode!r}")
    goals_given = {}
    for key, deck in (("chain_card", cards.chains), ("pattern_card", cards.patterns), ("project", cards.projects)):
        value = data.get(key)
        if value is not None and value not in deck:
            p(f"{key}: unknown card {value!r}")
        goals_given[key] = deck.get(value) if isinstance(value, str) else None
    pattern_points = data.get("pattern_points")
    if goals_given["pattern_card"] is not None and (type(pattern_points) is not int or pattern_points < 0):
        p("pattern_points: with a Molecular Pattern card, give the points you counted for it (a whole number)")
    elif goals_given["pattern_card"] is None and pattern_points is not None:
        p("pattern_points: given without a pattern_card")
    if mode in SOLO_CARDS:
        name, needs, words = SOLO_CARDS[mode]
        for key in ("chain_card", "pattern_card", "project"):
            if (key in needs) != (data.get(key) is not None):
                p(f"{key}: {name} is played with {words}")
    elif data.get("project") is not None:
        p("project: a Project card is played only in the solo modes Predictable Results and "
          "Unpredictable Consequences")
    level = None
    if mode == "first_steps":
        level = LEVELS.get(data.get("difficulty"))  # type: ignore[arg-type]
        if level is None:
            p(f"difficulty: First Steps is played easy, medium or hard, found {data.get('difficulty')!r}")
    elif mode == "unpredictable" and goals_given["project"] is not None:
        level = PROJECT_LEVELS[goals_given["project"].row.difficulty]
    if problems:
        raise InvalidState(f"This board breaks {len(problems)} rule{'s' if len(problems) > 1 else ''}:\n"
                           + "\n".join(f"- {x}" for x in problems))
    assert layout is not None
    goals = Goals(goals_given["chain_card"], goals_given["pattern_card"], goals_given["project"], level,
                  solo=mode != "standard")
    try:
        scored = score(cards.rules, cards.points, layout, columns, boxes, goals, pattern_points=pattern_points)
    except SearchTooLong as exc:
        raise InvalidState(f"This board's chains could not be linked for certain: {exc} (a bound that keeps "
                           "the scorer quick). No score is given rather than one that may not be the best.") \
            from None
    player = str(data.get("player") or "Player")
    rows = tuple((line.label, str(line.points)) for line in scored.lines) + (("Total", str(scored.total)),)
    verdict = ""
    if scored.won is not None:
        verdict = " - goals met, a win" if scored.won else " - goals not met, a loss"
    return PaperReport(
        ok=True, title=f"Synthesis: {player}", summary=f"{scored.total} points{verdict}", rows=rows,
        data={"player": player, "total": scored.total,
              "lines": [{"key": x.key, "label": x.label, "points": x.points} for x in scored.lines],
              "details": scored.details})


SCORE_TABLE = PaperTool("score", "a finished volume table", score_table, "docs/synthesis-table-format.md")
