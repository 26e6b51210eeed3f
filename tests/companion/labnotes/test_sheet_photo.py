"""Scoring a paper Lab Notes sheet from a photo: posted as a phone posts it,
the page back with the sheet as read (its JSON, which the tapping script
loads), the photo with the reading drawn over it, the unsure marks first
with their fixes, and the score; a fix posted without the script is applied
to the sheet; a refused photo says why."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

from tests.reader.conftest import fonts_or_skip, held_out

URL = "/labnotes/sheet/photo"


def test_a_photo_fills_the_sheet_in_and_scores_it(phones: Any) -> None:
    fonts_or_skip()
    s = held_out("labnotes", 0, "gradient")
    phone = phones()
    phone.get("/labnotes/sheet")
    response = phone.post(URL, {"photo": (io.BytesIO(s.shot.jpeg), "sheet.jpg"), "player": "Ada"}, htmx=False,
                          content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code in (200, 422), page[-2000:]
    assert 'id="paper-photo-read"' in page
    sheet = json.loads(html.unescape(re.search(r'<textarea id="paper-json"[^>]*>([^<]*)</textarea>', page).group(1)))
    assert sheet["player"] == "Ada" and set(sheet) >= {"elements", "bonds", "burned", "trash", "notecards"}
    right = sum(sheet["elements"].get(k) == v for k, v in s.data["elements"].items())
    assert right >= 0.9 * len(s.data["elements"])
    if response.status_code == 200:
        assert re.search(r"<h2>[^<]*: -?\d+ points</h2>", page)


def test_a_fix_posted_without_the_script_is_applied(phones: Any) -> None:
    phone = phones()
    phone.get("/labnotes/sheet")
    sheet = {"elements": {"A1": "H", "A2": "H"}, "bonds": [["A1", "A2", 2]]}
    asked = [{"n": 1, "key": "bond A1 A2", "label": "Bond A1–A2", "why": "Hydrogen takes 1 bond",
              "read": "double bond", "choices": [{"value": "2", "text": "double bond"},
                                                 {"value": "1", "text": "single bond"}]}]
    response = phone.post("/labnotes/sheet", {"data": json.dumps(sheet), "asked": json.dumps(asked),
                                               "fix": "bond A1 A2=1"}, htmx=False)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page[-1500:]
    assert re.search(r'data-asked="bond A1 A2" class="fixed"', page)
    assert re.search(r"<h2>[^<]*: 1 points</h2>", page)


def test_a_photo_of_another_games_sheet_says_so(phones: Any) -> None:
    fonts_or_skip()
    s = held_out("synthesis", 0, "perspective")
    phone = phones()
    phone.get("/labnotes/sheet")
    response = phone.post(URL, {"photo": (io.BytesIO(s.shot.jpeg), "board.jpg")}, htmx=False,
                          content_type="multipart/form-data")
    assert response.status_code == 422
    assert "not of Lab Notes" in html.unescape(response.get_data(as_text=True))
