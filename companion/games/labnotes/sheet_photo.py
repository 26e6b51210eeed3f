"""Score a paper Lab Notes sheet from a photo (``reader/``, docs/design/reader.md):
the phone posts the photo ("Take a photo": no app, the table's Wi-Fi is
enough), the sheet is read, and the tapping page comes back filled in as
read (its JSON), under the photo with the reading drawn over it and the
marks the reader is unsure of listed first, each fixed with one tap; then
the score, by the same engine as tapping it in. A refused photo says why
and what to do.

A fix (``fix``) is ``"<kind> <name>=<value>"``: ``space A1=H`` (``x``
burned, empty for nothing), ``bond A1 A2=2``, ``trash 3=C``,
``points 2=6``, ``check 2=false``, ``tool 1:2=true``. The page's script
applies it in place; without the script the form is posted and
:func:`apply_fix` applies it here.

>>> sheet = {"elements": {"A1": "H"}, "bonds": [["A1", "A2", 1]], "burned": [], "trash": [], "notecards": [],
...          "tool_marks": 0}
>>> apply_fix(sheet, "space A2=O")["elements"], apply_fix(sheet, "bond A1 A2=2")["bonds"]
({'A1': 'H', 'A2': 'O'}, [['A1', 'A2', 2]])
>>> apply_fix(sheet, "space A1=x")["burned"], apply_fix(sheet, "points 1=3")["notecards"]
(['A1'], [{'points': 3}])
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from flask import render_template, request

PHOTO_BYTES = 24 * 1024 * 1024
_FIX = re.compile(r"(space|bond|trash|points|check|tool) ([A-Z0-9: ]{1,12})=([A-Za-z0-9]{0,5})")


def apply_fix(sheet: dict[str, Any], fix: str) -> dict[str, Any]:
    """The sheet (its JSON) with one mark set as a fix button says; anything else is left as it is."""
    m = _FIX.fullmatch(fix or "")
    if m is None or not isinstance(sheet, dict):
        return sheet
    kind, name, value = m.groups()
    out = copy.deepcopy(sheet)
    for key, empty in (("elements", {}), ("bonds", []), ("burned", []), ("trash", []), ("notecards", [])):
        if not isinstance(out.get(key), type(empty)):
            out[key] = empty
    if kind == "space":
        out["elements"].pop(name, None)
        out["burned"] = [b for b in out["burned"] if b != name]
        if value == "x":
            out["burned"].append(name)
        elif value in ("H", "O", "N", "C"):
            out["elements"][name] = value
    elif kind == "bond" and value.isdigit():
        ends = set(name.split())
        bonds = [b for b in out["bonds"] if not (isinstance(b, list) and len(b) == 3 and set(b[:2]) == ends)]
        if int(value):
            bonds.append([*name.split(), int(value)])
        out["bonds"] = bonds
    elif kind in ("trash", "points", "check") and name.isdigit():
        k = int(name) - 1
        key = "trash" if kind == "trash" else "notecards"
        slots = list(out[key]) + [None] * max(0, k + 1 - len(out[key]))
        if kind == "trash":
            slots[k] = value if value in ("H", "O", "N", "C") else None
        elif kind == "points":
            slots[k] = {"points": int(value)} if value.isdigit() else None
        elif value == "false":
            slots[k] = None
        out[key] = [s for s in slots if s is not None]
    elif kind == "tool" and value in ("true", "false"):
        marks = out.get("tool_marks", 0) if isinstance(out.get("tool_marks"), int) else 0
        out["tool_marks"] = max(0, marks + (1 if value == "true" else -1))
    return out


def photo_submit(paper_context) -> Any:
    """Read the photo posted, and show the sheet as read with its score."""
    from companion import paper as house
    from companion.security import rate_limit
    from reader.games.labnotes import READER
    from reader.page import Refused
    from reader.read import read
    from reader.review import review

    rate_limit("paper")
    upload = request.files.get("photo")
    data = upload.read(PHOTO_BYTES + 1) if upload else b""
    error = ("No photo came with the form: tap \u201cTake a photo\u201d and photograph the whole sheet."
             if not data else f"The photo is over {PHOTO_BYTES // 2**20} MB: take it again at the camera's "
                              "usual size." if len(data) > PHOTO_BYTES else None)
    reading = None
    if error is None:
        try:
            reading = read("labnotes", data)
        except Refused as exc:
            error = str(exc)
    if reading is None:
        return render_template("labnotes/paper.html", **paper_context(photo_error=error)), 422
    sheet = dict(reading.data)
    player = request.form.get("player", "").strip()[:24]
    if player:
        sheet["player"] = player
    text = json.dumps(sheet, ensure_ascii=False)
    status, report, problems = house.run("labnotes", "score", text)
    shown = review(reading, READER.words)
    ctx = paper_context(result=report["data"] if report else None, problems=problems, sheet_json=text, photo=shown,
                        asked=json.dumps(shown["unsure"], ensure_ascii=False))
    return render_template("labnotes/paper.html", **ctx), status
