"""Scoring a paper Synthesis board from a photo: the photo posted as a phone
posts it (multipart, no JavaScript), the tap-in page back filled in as read
under the photo with the reading drawn over it, the unsure marks listed
first with their one-tap fixes, and the score; a fix posted is applied; a
photo that cannot be read says why (reader/, docs/design/reader.md)."""

from __future__ import annotations

import io
import re
from typing import Any

from tests.reader.conftest import fonts_or_skip, held_out

URL = "/synthesis/board/photo"


def _post(phone: Any, photo: bytes, **fields: str) -> Any:
    return phone.post(URL, {"photo": (io.BytesIO(photo), "board.jpg"), **fields}, htmx=False,
                      content_type="multipart/form-data")


def test_a_photo_fills_the_board_in_and_scores_it(phones: Any) -> None:
    fonts_or_skip()
    s = held_out("synthesis", 0, "shadow", size=(3000, 2250))   # the board's code read: a phone's resolution
    phone = phones()
    phone.get("/synthesis/board")
    response = _post(phone, s.shot.jpeg, board="A")
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page[-2000:]
    assert 'id="paper-photo-read"' in page and "data:image/jpeg;base64," in page
    # the fields hold the board as read: its letter from its code, the table's columns
    assert f'<option selected>{s.data["board"]}</option>' in page
    for v, col in enumerate(s.data["table"], 1):
        assert f'name="t{v}" value="{col}"' in page, (v, col)
    total = re.search(r"<h2>[^<]*: (\d+) points</h2>", page)
    assert total is not None
    # every unsure mark is listed with one fix per value it could be
    asked = re.findall(r'data-asked="([^"]+)"', page)
    assert len(asked) == len(set(asked)) and all(k.split()[0] in ("cell", "box") for k in asked)
    assert page.count("data-fix=") >= 2 * len(asked)


def test_a_fix_posted_without_a_script_is_applied(phones: Any) -> None:
    phone = phones()
    phone.get("/synthesis/board")
    fields = {"board": "A", "side": "A", "t1": "rr", "asked": '[{"n": 1, "key": "cell 1:3", "label": "Volume 1, row 3", '
              '"why": "", "read": "empty", "choices": [{"value": "", "text": "empty"}, {"value": "g", "text": "green"}]}]',
              "fix": "cell 1:3=g"}
    page = phone.post("/synthesis/board", fields, htmx=False).get_data(as_text=True)
    assert 'name="t1" value="rrg"' in page
    assert re.search(r'data-asked="cell 1:3" class="fixed"', page)


def test_a_photo_that_cannot_be_read_says_why(phones: Any) -> None:
    phone = phones()
    phone.get("/synthesis/board")
    response = _post(phone, b"GIF89a not really")
    assert response.status_code == 422
    assert "not a photo this reader can open" in response.get_data(as_text=True)
    response = phone.post(URL, {"board": "A"}, htmx=False, content_type="multipart/form-data")
    assert response.status_code == 422 and "No photo came with the form" in response.get_data(as_text=True)
