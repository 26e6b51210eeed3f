"""Score a paper Synthesis board from a photo (``reader/``, docs/design/reader.md):
the phone posts the photo ("Take a photo", ``<input type=file accept=image/*
capture>``: no app, the table's Wi-Fi is enough), the board is read, and the
tap-in page comes back filled in as read, under the photo with the reading
drawn over it and the marks the reader is unsure of listed first, each
fixed with one tap (``fix``: ``cell 3:2=r``, ``box circle:1=``); then the
score, by the same engine as tapping it in. A refused photo says why and
what to do.

"""

from __future__ import annotations

import json
from typing import Any

from flask import render_template, request

from companion.games.synthesis.paper import board_json, context, read

PHOTO_BYTES = 24 * 1024 * 1024
"""The largest photo taken: a phone's 12 MP JPEG is 3 to 8 MB (the page shrinks it first when it can)."""


def _form_of(reading: Any, form: Any) -> dict[str, str]:
    """The page's fields holding what was read (the player's other choices kept)."""
    out = {k: v for k, v in form.items() if isinstance(v, str)}
    data = reading.data
    out.update(board=data["board"], side=data["side"])
    for v, col in enumerate(data["table"], 1):
        out[f"t{v}"] = col
    letters = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}
    for r in reading.marks:
        if r.kind == "box":
            shape, k = r.name.split(":")
            cells = list(out.get(f"e_{shape}", "..").ljust(2, "."))
            cells[int(k) - 1] = letters.get(r.value, r.value) if r.value else "."
            out[f"e_{shape}"] = "".join(cells)
    return out


def photo_submit() -> Any:
    """Read the photo posted, and show the board as read with its score."""
    from companion import paper as house
    from companion.security import rate_limit
    from companion.web import get_referee
    from reader.games.synthesis import READER
    from reader.page import Refused
    from reader.read import read as read_photo
    from reader.review import review

    rate_limit("paper")
    cards = get_referee().game("synthesis").cards
    t = read(request.form, cards)
    upload = request.files.get("photo")
    data = upload.read(PHOTO_BYTES + 1) if upload else b""
    error = ("No photo came with the form: tap \u201cTake a photo\u201d and photograph the whole board."
             if not data else f"The photo is over {PHOTO_BYTES // 2**20} MB: take it again at the camera's "
                              "usual size." if len(data) > PHOTO_BYTES else None)
    reading = None
    if error is None:
        try:
            reading = read_photo("synthesis", data, hint={"piece": t.board})
        except Refused as exc:
            error = str(exc)
    if reading is None:
        return render_template("synthesis/paper.html", **context(t, photo_error=error)), 422
    t = read(_form_of(reading, request.form), cards)
    sent = board_json(t, cards)
    text = json.dumps(sent, ensure_ascii=False)
    status, report, problems = house.run("synthesis", "score", text)
    shown = review(reading, READER.words)
    ctx = context(t, sent=sent, report=report, problems=problems, text=text, redraw=True, photo=shown,
                  asked=json.dumps(shown["unsure"], ensure_ascii=False))
    return render_template("synthesis/paper.html", **ctx), status
