"""The rest of a note sheet, drawn as the printed one draws it
(``templates/labnotes/note-sheet.svg.j2``): the Tools track, the notecard
boxes, the trash cans and the score boxes, as geometry for the phone's SVG.

The printed sheet puts the Tools track and the notecards left of the field,
the trash right of it and the score boxes under it. A phone is narrow, so
the field takes the whole width and these three columns sit under it, in
the same order, with the score boxes along the bottom. Units are CSS pixels
on a 360 px wide sheet; the SVG scales to its box.

Nothing here decides a rule: which spaces are open and marked, which boxes
are checked and what they are worth, what each can holds and the score so
far all come from the engine's view and result.
"""

from __future__ import annotations

from typing import Any, Callable

WIDTH = 360
HEAD = 13                        # headers' baseline
TOOLS_X, NOTES_X, TRASH_X = 0, 130, 272
TOOL_ROW, TOOL_SQ = 27, 21
NOTE_ROW, NOTE_BOX = 21.5, 15
CAN_STEP = 31
SCORE_W, SCORE_H, SCORE_GAP = 76, 50, 18.6


def _tools_track(track: Any, marks: int, claims: int) -> tuple[list[dict[str, Any]], float]:
    """Each group of spaces: open from the start, then one per notecard; every
    space open or locked, marked or not. Marks fill open spaces in order."""
    groups = [track.open] + list(track.opened_by_notecard)
    widest = max(groups) if groups else 1
    sq = TOOL_SQ if widest <= 2 else max(8, 46 / widest - 4)  # a track of wider groups still fits its column
    rows, k = [], 0
    for g, count in enumerate(groups):
        y = HEAD + 9 + g * TOOL_ROW
        locked = g > claims
        spaces = []
        for j in range(count):
            spaces.append({"x": round(TOOLS_X + 76 + j * (sq + 4), 2), "y": y, "size": sq,
                           "marked": not locked and k < marks, "locked": locked})
            k += 1
        rows.append({"label": "Open" if g == 0 else f"Notecard {g}", "lock": g > 0, "locked": locked,
                     "x": TOOLS_X + (0 if g == 0 else 13), "y": y, "text_y": y + 15, "spaces": spaces,
                     "title": ("Open from the start" if g == 0 else
                               f"Opened by your notecard {g}" if not locked else f"Opens with your notecard {g}")})
    return rows, HEAD + 9 + len(groups) * TOOL_ROW


def _notecards(boxes: int, opens: list[int], claims: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], float]:
    out = []
    for i in range(boxes):
        y = HEAD + 9 + i * NOTE_ROW
        claim = claims[i] if i < len(claims) else None
        out.append({"x": NOTES_X, "y": y, "size": NOTE_BOX, "checked": claim is not None,
                    "opens": opens[i] if i < len(opens) else 0,
                    "points": claim["points"] if claim else None,
                    "pts_x": NOTES_X + 82, "pts_w": 50, "pts_h": NOTE_BOX + 2,
                    "title": (f"Notecard {i + 1}: {claim['name']}, {claim['points']} points" if claim
                              else f"Notecard {i + 1}: not checked")})
    return out, HEAD + 9 + boxes * NOTE_ROW


def _trash(cans: int, trash: list[str]) -> tuple[list[dict[str, Any]], float]:
    cx = TRASH_X + 28
    out = []
    for i in range(cans):
        y = HEAD + 7 + i * CAN_STEP
        element = trash[i] if i < len(trash) else None
        last = i == cans - 1
        out.append({"x": cx, "y": y, "element": element, "last": last,
                    "lid": f"M{cx - 20} {y + 2}H{cx + 20}",
                    "body": f"M{cx - 18} {y + 5}H{cx + 18}L{cx + 15} {y + 28}H{cx - 15}Z",
                    "text_y": y + 17,
                    "title": (f"Trash can {i + 1}: {element}" if element else f"Trash can {i + 1}: empty")
                    + (" (filling it triggers the Bunsen Burner)" if last else "")})
    return out, HEAD + 7 + cans * CAN_STEP


def draw_panel(shown: dict[str, Any], sheet: Any, score: Any, card_name: Callable[[str], str]) -> dict[str, Any]:
    """Geometry of the Tools track, notecard boxes, trash cans and score boxes
    of one sheet (a seat's entry in the view), with the score so far."""
    claims = [{"name": card_name(c["notecard"]), "points": c["points"]} for c in shown["claims"]]
    track, track_end = _tools_track(sheet.tools_track, shown["tool_marks"], len(claims))
    notes, notes_end = _notecards(sheet.notecard_boxes, list(sheet.tools_track.opened_by_notecard), claims)
    cans, cans_end = _trash(sheet.trash_cans, list(shown["trash"]))
    caption_y = cans_end + 9
    top = max(track_end, notes_end, caption_y + 12) + 8
    lines = {line.key: line.points for line in score.lines} if score is not None else {}
    burned = -lines.get("burned", 0)
    values = [("compounds", "COMPOUNDS", lines.get("compounds")), ("notecards", "NOTECARDS", lines.get("notecards")),
              ("burned", "BURNED \u00d7 2", burned if lines else None),
              ("total", "TOTAL / GRADE", score.total if score is not None else None)]
    boxes = []
    for i, (key, label, value) in enumerate(values):
        x = round(i * (SCORE_W + SCORE_GAP), 2)
        boxes.append({"key": key, "label": label, "value": value, "x": x, "y": top, "w": SCORE_W, "h": SCORE_H,
                      "cx": round(x + SCORE_W / 2, 2), "op": "+\u2212="[i] if i < 3 else "",
                      "op_x": round(x + SCORE_W + SCORE_GAP / 2, 2)})
    used = sum(1 for row in track for s in row["spaces"] if s["marked"])
    checked = ", ".join(f"{c['name']} {c['points']}" for c in claims) or "none"
    summary = (f"Tools track: {used} of {shown['tools_open']} open spaces marked. Notecards: {checked}. "
               f"Trash: {len(shown['trash'])} of {sheet.trash_cans}. "
               + (f"Score: {score.total}." if score is not None else ""))
    return {"width": WIDTH, "height": round(top + SCORE_H + 2, 2), "head": HEAD,
            "tools_x": TOOLS_X, "notes_x": NOTES_X, "pts_right": NOTES_X + 132, "trash_cx": TRASH_X + 44,
            "track": track, "notes": notes, "cans": cans, "burner": {"x": TRASH_X + 76, "y": cans[-1]["y"] + 15},
            "caption_y": caption_y, "boxes": boxes, "score_y": top, "summary": summary}
