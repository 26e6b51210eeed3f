"""What a phone shows of a reading, for a player to confirm it: the photo of
the sheet (rectified), every mark drawn over it where it was read, the
marks the reader is unsure of numbered and listed first, each with the
values it could be as one-tap fixes. The game's page lays it out; nothing
here names a game.

>>> from reader.reading import Read, Reading
>>> r = Reading("g", "sheet", "-", 0, [Read("cell", "1:1", "r", 0.5, ("r", None), label="Volume 1, row 1")], {})
>>> r.places = {"cell 1:1": ("box", (10.0, 10.0, 5.0, 5.0))}
>>> r.picture_mm = (5.0, 5.0, 20.0, 20.0)
>>> v = review(r, lambda read, value: "empty" if value is None else value)
>>> v["unsure"][0]["choices"], v["marks"][0]["x"], v["marks"][0]["unsure"]
([{'value': 'r', 'text': 'r'}, {'value': '', 'text': 'empty'}], 20.0, 1)
"""

from __future__ import annotations

import base64
import json
from typing import Any, Callable

from reader.read import PICTURE_PX_PER_MM
from reader.reading import Read, Reading


def fix_value(value: Any) -> str:
    """A value as a fix button sends it (empty text for nothing)."""
    return "" if value is None else json.dumps(value) if not isinstance(value, str) else value


def review(reading: Reading, words: Callable[[Read, Any], str]) -> dict[str, Any]:
    """The picture (a data URI) and, in its pixels, every mark; the unsure ones numbered from 1."""
    ox, oy, w, h = reading.picture_mm
    k = PICTURE_PX_PER_MM
    unsure = reading.unsure
    number = {(r.kind, r.name): i for i, r in enumerate(unsure, 1)}
    marks = []
    for r in reading.marks:
        shape, geo = reading.places.get(f"{r.kind} {r.name}", (None, None))
        if shape is None:
            continue
        item = {"kind": r.kind, "name": r.name, "shape": shape, "text": words(r, r.value),
                "unsure": number.get((r.kind, r.name), 0), "label": r.label or r.name}
        if shape == "line":
            x1, y1, x2, y2 = geo
            item.update(x1=round((x1 - ox) * k, 1), y1=round((y1 - oy) * k, 1), x2=round((x2 - ox) * k, 1),
                        y2=round((y2 - oy) * k, 1), x=round(((x1 + x2) / 2 - ox) * k, 1),
                        y=round(((y1 + y2) / 2 - oy) * k, 1))
        elif shape == "circle":
            cx, cy, rr = geo
            item.update(x=round((cx - ox) * k, 1), y=round((cy - oy) * k, 1), r=round(rr * k, 1))
        else:
            x, y, bw, bh = geo
            item.update(x=round((x - ox) * k, 1), y=round((y - oy) * k, 1), w=round(bw * k, 1), h=round(bh * k, 1))
        marks.append(item)
    asked = [{"n": i, "key": f"{r.kind} {r.name}", "label": r.label or r.name, "why": r.why,
              "read": words(r, r.value), "confidence": round(r.confidence, 2),
              "choices": [{"value": fix_value(c), "text": words(r, c)} for c in dict.fromkeys(r.choices)]}
             for i, r in enumerate(unsure, 1)]
    picture = "data:image/jpeg;base64," + base64.b64encode(reading.picture).decode("ascii") if reading.picture else ""
    return {"picture": picture, "width": round(w * k), "height": round(h * k), "marks": marks, "unsure": asked,
            "notes": list(reading.notes), "seconds": round(reading.seconds, 2)}


def asked_items(asked: str, fixed: str) -> list[dict[str, Any]]:
    """The marks a page asked about, as it keeps them between taps (``asked``: the
    JSON of :func:`review`'s ``unsure``), each with ``fixed`` set if its key is
    in ``fixed`` (keys joined by ``|``). Anything else kept there is dropped.

    >>> asked_items('[{"key": "cell 1:1", "n": 1}]', "cell 1:1")
    [{'key': 'cell 1:1', 'n': 1, 'fixed': True}]
    >>> asked_items("not json", "")
    []
    """
    try:
        items = json.loads(asked or "[]")
    except ValueError:
        return []
    done = set(filter(None, (fixed or "").split("|")))
    if not isinstance(items, list):
        return []
    return [dict(i, fixed=i.get("key") in done) for i in items[:64] if isinstance(i, dict)]
