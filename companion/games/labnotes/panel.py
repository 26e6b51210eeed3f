"""The rest of a note sheet, drawn for a phone: the Tools track, the
notecard boxes, the trash cans and the score boxes, as geometry for the
phone's SVG.

The printed sheet (``templates/labnotes/note-sheet.svg.j2``) puts the Tools
track and the notecards left of the field, the trash right of it and the
score boxes under it, all in one row. A phone is narrow and its words must
be read at arm's length (12 px at least on a 360 px phone), so the field
takes the whole width and the rest sits under it, larger, in the printed
order: the Tools track beside the notecard boxes, then the trash cans in a
row with what filling the last one does, then the score formula on two
lines (COMPOUNDS + NOTECARDS, then − BURNED × 2 = TOTAL / GRADE). Every
part, word and sign of the printed sheet is there. Units are CSS pixels on
a 360 px wide panel; the SVG scales to its box (about 0.87 on a 360 px
phone, so words are at least 14 units: labnotes.css).

Nothing here decides a rule: which spaces are open and marked, which boxes
are checked and what they are worth, what each can holds and the score so
far all come from the engine's view and result.
"""

from __future__ import annotations

from typing import Any, Callable

WIDTH = 360
HEAD = 15                        # headers' baseline
TOOLS_X, NOTES_X = 0, 178
TOOL_LABEL_X, TOOL_SPACES_X, TOOL_SPACES_W = 17, 104, 64
TOOL_ROW, TOOL_SQ = 30, 22
NOTE_ROW, NOTE_BOX = 25, 17
PTS_X, PTS_W = 296, 64
CAN_X, CAN_STEP = 84, 46
SCORE_W, SCORE_H, SCORE_GAP = 150, 56, 12
SCORE_X = (20, 190)              # two boxes a line; the signs in the gutters left of each
GAP = 14                         # between the parts


def _tools_track(track: Any, marks: int, claims: int) -> tuple[list[dict[str, Any]], float]:
    """Each group of spaces: open from the start, then one per notecard; every
    space open or locked, marked or not. Marks fill open spaces in order."""
    groups = [track.open] + list(track.opened_by_notecard)
    widest = max(groups) if groups else 1
    sq = min(TOOL_SQ, TOOL_SPACES_W / widest - 4)     # a track of wider groups still fits its column
    rows, k = [], 0
    for g, count in enumerate(groups):
        y = HEAD + 9 + g * TOOL_ROW
        locked = g > claims
        spaces = []
        for j in range(count):
            spaces.append({"x": round(TOOLS_X + TOOL_SPACES_X + j * (sq + 4), 2), "y": y, "size": round(sq, 2),
                           "marked": not locked and k < marks, "locked": locked})
            k += 1
        rows.append({"label": "Open" if g == 0 else f"Notecard {g}", "lock": g > 0, "locked": locked,
                     "x": TOOLS_X + TOOL_LABEL_X, "lock_x": TOOLS_X + 7, "y": y, "text_y": y + 16, "spaces": spaces,
                     "title": ("Open from the start" if g == 0 else
                               f"Opened by your notecard {g}" if not locked else f"Opens with your notecard {g}")})
    return rows, HEAD + 9 + len(groups) * TOOL_ROW


def _notecards(boxes: int, opens: list[int], claims: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], float]:
    out = []
    for i in range(boxes):
        y = HEAD + 9 + i * NOTE_ROW
        claim = claims[i] if i < len(claims) else None
        out.append({"x": NOTES_X, "y": y, "size": NOTE_BOX, "checked": claim is not None,
                    "opens": opens[i] if i < len(opens) else 0, "opens_x": NOTES_X + NOTE_BOX + 6,
                    "nut_x": NOTES_X + NOTE_BOX + 82, "text_y": y + 13,
                    "points": claim["points"] if claim else None,
                    "pts_x": PTS_X, "pts_w": PTS_W, "pts_h": NOTE_BOX + 3,
                    "title": (f"Notecard {i + 1}: {claim['name']}, {claim['points']} points" if claim
                              else f"Notecard {i + 1}: not checked")})
    return out, HEAD + 9 + boxes * NOTE_ROW


def _trash(cans: int, trash: list[str], top: float) -> tuple[list[dict[str, Any]], float]:
    """The cans in a row after the TRASH header, filled from the left."""
    out = []
    y = top
    for i in range(cans):
        cx = CAN_X + 20 + i * CAN_STEP
        element = trash[i] if i < len(trash) else None
        last = i == cans - 1
        out.append({"x": cx, "y": y, "element": element, "last": last,
                    "lid": f"M{cx - 20} {y + 2}H{cx + 20}",
                    "body": f"M{cx - 18} {y + 5}H{cx + 18}L{cx + 15} {y + 30}H{cx - 15}Z",
                    "text_y": y + 18,
                    "title": (f"Trash can {i + 1}: {element}" if element else f"Trash can {i + 1}: empty")
                    + (" (filling it triggers the Bunsen Burner)" if last else "")})
    return out, y + 30


def draw_panel(shown: dict[str, Any], sheet: Any, score: Any, card_name: Callable[[str], str]) -> dict[str, Any]:
    """Geometry of the Tools track, notecard boxes, trash cans and score boxes
    of one sheet (a seat's entry in the view), with the score so far."""
    claims = [{"name": card_name(c["notecard"]), "points": c["points"]} for c in shown["claims"]]
    track, track_end = _tools_track(sheet.tools_track, shown["tool_marks"], len(claims))
    notes, notes_end = _notecards(sheet.notecard_boxes, list(sheet.tools_track.opened_by_notecard), claims)
    trash_head = max(track_end, notes_end) + GAP + 10
    cans, cans_end = _trash(sheet.trash_cans, list(shown["trash"]), trash_head - 15)
    caption_y = cans_end + 18
    top = caption_y + GAP
    lines = {line.key: line.points for line in score.lines} if score is not None else {}
    burned = -lines.get("burned", 0)
    values = [("compounds", "COMPOUNDS", lines.get("compounds")), ("notecards", "NOTECARDS", lines.get("notecards")),
              ("burned", "BURNED \u00d7 2", burned if lines else None),
              ("total", "TOTAL / GRADE", score.total if score is not None else None)]
    boxes = []
    for i, (key, label, value) in enumerate(values):
        x, y = SCORE_X[i % 2], top + (i // 2) * (SCORE_H + SCORE_GAP)
        # the sign before each box but the first: + between the first two, then − and =
        boxes.append({"key": key, "label": label, "value": value, "x": x, "y": y, "w": SCORE_W, "h": SCORE_H,
                      "cx": round(x + SCORE_W / 2, 2), "op": " +\u2212="[i].strip(), "op_x": x - 10})
    used = sum(1 for row in track for s in row["spaces"] if s["marked"])
    checked = ", ".join(f"{c['name']} {c['points']}" for c in claims) or "none"
    summary = (f"Tools track: {used} of {shown['tools_open']} open spaces marked. Notecards: {checked}. "
               f"Trash: {len(shown['trash'])} of {sheet.trash_cans}. "
               + (f"Score: {score.total}." if score is not None else ""))
    bottom = boxes[-1]["y"] + SCORE_H
    return {"width": WIDTH, "height": round(bottom + 2, 2), "head": HEAD,
            "tools_x": TOOLS_X, "notes_x": NOTES_X, "pts_right": PTS_X + PTS_W, "trash_x": TOOLS_X,
            "trash_head": trash_head, "track": track, "notes": notes, "cans": cans,
            "burner": {"x": cans[-1]["x"] + 34, "y": cans[-1]["y"] + 16},
            "caption_x": CAN_X, "caption_y": caption_y, "boxes": boxes, "score_y": top, "summary": summary}
