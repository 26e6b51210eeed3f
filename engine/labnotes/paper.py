"""Scoring a finished paper note sheet, without playing it through the engine.

A sheet is written down as JSON (``docs/labnotes-sheet-format.md``)::

    {"player": "Ada",
     "elements": {"A1": "C", "A2": "N", "A3": "H"},
     "bonds": [["A1", "A2", 2], ["A2", "A3", 1]],
     "burned": ["F6"], "trash": ["O"],
     "notecards": [{"notecard": "methane", "points": 6}]}

:func:`score_sheet` checks it against the rules and returns the score boxes;
a sheet that breaks a rule raises :class:`~engine.core.InvalidState` listing
every problem, one per line (:class:`~engine.core.MalformedInput` when a
value is not even of its field's kind, a list where a space's label or an
element's letter belongs: the problem names the field). As at the end of a
game, elements with no bond burn before scoring (End Game).

>>> from labkit.cardsets import new_game
>>> from labkit.registry import find
>>> game = new_game(find("labnotes"))
>>> score = score_sheet({"elements": {"A1": "C", "A2": "N", "A3": "H"},
...                      "bonds": [["A1", "A2", 2], ["A2", "A3", 1]]}, game.rules)
>>> [(line.label, line.points) for line in score.lines], score.total
([('Compounds', 2), ('Notecards', 0), ('Burned spaces', 0)], 2)
>>> score_sheet({"elements": {"A1": "O", "A2": "H"}, "bonds": [["A1", "A2", 2]]}, game.rules)
Traceback (most recent call last):
...
engine.core.InvalidState: This sheet breaks 1 rule:
- the Hydrogen at A2 has 2 bonds; Hydrogen takes only 1
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

from engine.chem import ELEMENT_NAMES
from engine.core import Game, InvalidState, MalformedInput, SeatScore
from engine.descriptor import PaperReport, PaperTool
from engine.labnotes.scoring import burn_unconnected, compounds, seat_score, unconnected
from engine.labnotes.state import (BURNED, DEFAULT_COLS, EMPTY, LINE_POINTS, VALENCE, Sheet, bond_key,
                                   parse_space_label, space_label)

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

FIELDS = ("game", "player", "elements", "bonds", "burned", "trash", "notecards", "tool_marks")
REQUIRED = ("elements", "bonds")


def score_sheet(data: Mapping[str, Any], rules: "Rules") -> SeatScore:
    """The score boxes of a paper sheet given as a JSON object (see the module
    doc), played with the card set ``rules`` is bound to."""
    cards = rules.data
    rows, cols = rules.rows, rules.cols
    problems: list[str] = []
    malformed: list[str] = []
    p = problems.append

    def bad(message: str) -> None:
        """A value of the wrong kind (a list where a text belongs): no rule can be read from it."""
        malformed.append(message)
        p(message)

    if not isinstance(data, Mapping):
        raise MalformedInput(f"A sheet is a JSON object with {', '.join(REQUIRED)}, found {_kind(data)}.")
    for key in data:
        if key not in FIELDS:
            p(f"{key!r} is not a field of a sheet (fields: {', '.join(FIELDS)})")
    for key in REQUIRED:
        if key not in data:
            p(f"{key!r} is missing")
    if not isinstance(data.get("game", "labnotes"), str):
        bad(f"game: expected a text, \"labnotes\", found {_kind(data['game'])}")
    elif data.get("game", "labnotes") != "labnotes":
        p(f"game: this is a Lab Notes scorer, found {data['game']!r}")
    if data.get("player") is not None and not isinstance(data["player"], str):
        bad(f"player: expected a name, found {_kind(data['player'])}")

    def space(label: Any, where: str) -> int | None:
        if not isinstance(label, str):
            bad(f"{where}: expected a space's label like \"A1\", found {_kind(label)}")
            return None
        try:
            return parse_space_label(label, rows, cols)
        except ValueError:
            p(f"{where}: {label!r} is not a space on the sheet (rows A-{chr(64 + rows)}, columns 1-{cols})")
            return None

    field = [EMPTY] * (rows * cols)
    elements = data.get("elements", {})
    if not isinstance(elements, Mapping):
        bad(f"elements: expected an object of space: element, like {{\"A1\": \"H\"}}, found {_kind(elements)}")
        elements = {}
    for label, element in elements.items():
        k = space(label, "elements")
        if not isinstance(element, str):
            bad(f"elements: {label}: expected an element's letter (H, O, N or C), found {_kind(element)}")
        elif element not in VALENCE:
            p(f"elements: {label}: {element!r} is not an element (H, O, N or C)")
        elif k is not None:
            if field[k] != EMPTY:
                p(f"elements: {space_label(k, cols)} is written twice")
            field[k] = element
    burned = data.get("burned", [])
    if not isinstance(burned, list):
        bad(f"burned: expected a list of spaces, like [\"F6\"], found {_kind(burned)}")
        burned = []
    for label in burned:
        k = space(label, "burned")
        if k is not None:
            if field[k] in VALENCE:
                p(f"burned: {space_label(k, cols)} holds {ELEMENT_NAMES[field[k]]} and cannot be burned too")
            elif field[k] == BURNED:
                p(f"burned: {space_label(k, cols)} is listed twice")
            else:
                field[k] = BURNED
    spaces = "".join(field)
    bonds = _bonds(data.get("bonds", []), spaces, rules, space, p, bad)
    for k, e in enumerate(spaces):
        if e in VALENCE:
            used = sum(o for key, o in bonds.items() if k in key)
            if used > VALENCE[e]:
                name = ELEMENT_NAMES[e]
                p(f"the {name} at {space_label(k, cols)} has {used} bonds; {name} takes only {VALENCE[e]}")
    trash = data.get("trash", [])
    if not isinstance(trash, list) or not all(isinstance(t, str) for t in trash):
        bad(f"trash: expected a list of elements' letters (H, O, N or C), found {_kind(trash)}")
    elif any(t not in VALENCE for t in trash):
        p("trash: expected a list of elements (H, O, N or C)")
    elif len(trash) > cards.sheet.trash_cans:
        p(f"trash: {len(trash)} elements, but the sheet has {cards.sheet.trash_cans} trash cans")
    points = _notecards(data.get("notecards", []), spaces, bonds, rules, p, bad)
    marks = data.get("tool_marks", 0)
    track = cards.sheet.tools_track
    opened = track.open + sum(track.opened_by_notecard[:len(points)])
    if type(marks) is not int:
        bad(f"tool_marks: expected a whole number, found {_kind(marks)}")
    elif marks < 0:
        p(f"tool_marks: expected a whole number, found {marks!r}")
    elif marks > opened:
        p(f"tool_marks: {marks} marked, but only {opened} tools-track spaces are open "
          f"with {len(points)} notecard(s) claimed")
    if malformed:
        raise MalformedInput("This sheet is not written in its format (docs/labnotes-sheet-format.md):\n"
                             + "\n".join(f"- {x}" for x in problems))
    if problems:
        n = len(problems)
        raise InvalidState(f"This sheet breaks {n} rule{'s' if n > 1 else ''}:\n" + "\n".join(f"- {x}" for x in problems))
    lone = unconnected(spaces, bonds)
    spaces = burn_unconnected(spaces, bonds)
    name = data.get("player") if isinstance(data.get("player"), str) else "Player 1"
    return seat_score(0, name, spaces, bonds, points, spaces.count(BURNED), cols, {
        "unconnected_burned": [space_label(k, cols) for k in lone],
        "trash": len(trash),
        "tool_marks": marks,
    })


def _bonds(raw: Any, spaces: str, rules: "Rules", space, p, bad) -> dict[tuple[int, int], int]:
    cols = rules.cols
    bonds: dict[tuple[int, int], int] = {}
    if not isinstance(raw, list):
        bad(f"bonds: expected a list of [space, space, order], like [[\"A1\", \"A2\", 1]], found {_kind(raw)}")
        return bonds
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 3):
            bad(f"bonds: expected [space, space, order], like [\"A1\", \"A2\", 1], found {_kind(entry)}")
            continue
        a, b, order = space(entry[0], "bonds"), space(entry[1], "bonds"), entry[2]
        if a is None or b is None:
            continue
        name = f"bond {space_label(a, cols)}-{space_label(b, cols)}"
        if type(order) is not int or not 1 <= order <= 3:
            p(f"{name}: order {order!r}; a bond is single (1), double (2) or triple (3)")
            continue
        if b not in rules.adjacent[a]:
            p(f"{name}: the spaces are not next to each other")
            continue
        missing = [space_label(k, cols) for k in (a, b) if spaces[k] not in VALENCE]
        if missing:
            p(f"{name}: {' and '.join(missing)} hold{'s' if len(missing) == 1 else ''} no element")
            continue
        if bond_key(a, b) in bonds:
            p(f"{name} is written twice (give a double bond as one entry with order 2)")
            continue
        bonds[bond_key(a, b)] = order
    return bonds


def _notecards(raw: Any, spaces: str, bonds, rules: "Rules", p, bad) -> list[int]:
    cards = rules.data
    if not isinstance(raw, list):
        bad(f"notecards: expected a list like [{{\"notecard\": \"methane\", \"points\": 6}}], found {_kind(raw)}")
        return []
    if len(raw) > cards.sheet.notecard_boxes:
        p(f"notecards: {len(raw)} claimed, but the sheet has {cards.sheet.notecard_boxes} boxes")
    known = {c.id: c for c in cards.notecards if not c.is_lab_fire}
    free = [c for c in compounds(spaces, bonds) if c.complete]
    seen: set[str] = set()
    points = []
    for i, entry in enumerate(raw, 1):
        if not isinstance(entry, Mapping):
            bad(f"notecards: box {i}: expected {{\"notecard\": id, \"points\": 6}}, found {_kind(entry)}")
            continue
        if set(entry) - {"notecard", "points"} or "points" not in entry:
            p(f"notecards: box {i}: expected {{\"notecard\": id, \"points\": 6}} (the id may be left out)")
            continue
        pts = entry["points"]
        if type(pts) is not int:
            bad(f"notecards: box {i}: points: expected 6, 3 or 1, found {_kind(pts)}")
        elif pts not in LINE_POINTS:
            p(f"notecards: box {i}: {pts!r} points; a notecard is worth 6, 3 or 1")
        else:
            points.append(pts)
        card = entry.get("notecard")
        if card is None:
            continue
        if not isinstance(card, str):
            bad(f"notecards: box {i}: notecard: expected a notecard's id like \"methane\", found {_kind(card)}")
        elif card not in known:
            p(f"notecards: box {i}: {card!r} is not a compound notecard")
        elif card in seen:
            p(f"notecards: box {i}: {known[card].name} is claimed twice")
        else:
            seen.add(card)
            match = next((c for c in free if c.matches(*rules.card_shapes[card])), None)
            if match is None:
                p(f"notecards: box {i}: no unused complete compound on the sheet is {known[card].name} "
                  f"({known[card].formula})")
            else:
                free.remove(match)
    return points


def _kind(value: Any) -> str:
    """What a misplaced value is, in the words of JSON: ``a list ["C"]``."""
    kind = {dict: "an object", list: "a list", str: "a text", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)
    inside = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if any(isinstance(v, (dict, list)) for v in inside):
        return kind        # not shown: a nested value can be as deep as the parser allows
    shown = json.dumps(value, ensure_ascii=False, skipkeys=True, default=repr)
    return f"{kind} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def sheet_to_dict(sheet: Sheet, cols: int = DEFAULT_COLS, player: str | None = None) -> dict[str, Any]:
    """An engine note sheet written as a paper sheet, so that the companion can
    hand a finished sheet to a player (and the tests can score it both ways).

    >>> from engine.labnotes.state import Sheet, sheet_from_text
    >>> spaces, bonds = sheet_from_text("A1:O A2:H A1-A2 F6:x")
    >>> sheet_to_dict(Sheet(spaces, bonds, trash="C"))
    {'elements': {'A1': 'O', 'A2': 'H'}, 'bonds': [['A1', 'A2', 1]], 'burned': ['F6'], 'trash': ['C'], 'notecards': [], 'tool_marks': 0}
    """
    out: dict[str, Any] = {"player": player} if player else {}
    out.update({
        "elements": {space_label(k, cols): e for k, e in enumerate(sheet.spaces) if e in VALENCE},
        "bonds": [[space_label(a, cols), space_label(b, cols), o] for (a, b), o in sorted(sheet.bonds.items())],
        "burned": [space_label(k, cols) for k, e in enumerate(sheet.spaces) if e == BURNED],
        "trash": list(sheet.trash),
        "notecards": [{"notecard": c.notecard, "points": c.points} for c in sheet.claims],
        "tool_marks": sheet.tool_marks,
    })
    return out


def score_report(game: Game, data: Any) -> PaperReport:
    """The paper tool: a finished sheet's score boxes, for ``labkit score
    labnotes SHEET.json`` and the companion's page."""
    score = score_sheet(data, game.rules)  # type: ignore[attr-defined]
    return PaperReport(ok=True, title=f"{score.name}: {score.total} points",
                       summary=f"The sheet scores {score.total}.",
                       rows=tuple((line.label, str(line.points)) for line in score.lines)
                       + (("TOTAL / GRADE", str(score.total)),),
                       data=score.to_dict())


SCORE_SHEET = PaperTool("score", "a finished paper note sheet", score_report, "docs/labnotes-sheet-format.md")
