"""A photo the reader cannot read gets a sentence that says why and what to
do: no markers found, too dark, too blurred, the sheet cut off, the sheet
of another game, a file that is no photo (docs/design/reader.md)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from reader.page import Refused
from reader.read import read
from tests.reader.conftest import fonts_or_skip, held_out


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def _refused(game: str, photo: bytes, **kw) -> Refused:
    with pytest.raises(Refused) as caught:
        read(game, photo, **kw)
    return caught.value


def test_a_photo_without_markers_says_so():
    rng = np.random.default_rng(3)
    table = (rng.normal(140, 25, (900, 1200, 3))).clip(0, 255).astype(np.uint8)
    cv2.putText(table, "a shopping list", (100, 400), cv2.FONT_HERSHEY_SIMPLEX, 3, (20, 20, 20), 6)
    refused = _refused("labnotes", _jpeg(table))
    assert refused.reason == "no-markers"
    assert "four black corner squares" in str(refused)


def test_a_dark_photo_says_so():
    fonts_or_skip()
    s = held_out("labnotes", 0, "perspective")
    dark = (s.shot.image.astype(np.float32) * 0.06).astype(np.uint8)
    refused = _refused("labnotes", _jpeg(dark))
    assert refused.reason == "too-dark"
    assert "better light" in str(refused)


def test_a_blurred_photo_says_so():
    fonts_or_skip()
    s = held_out("labnotes", 0, "perspective")
    blurred = cv2.GaussianBlur(s.shot.image, (0, 0), 9)
    refused = _refused("labnotes", _jpeg(blurred))
    assert refused.reason == "too-blurred"
    assert "hold the phone still" in str(refused)


def test_a_cut_off_sheet_says_so():
    fonts_or_skip()
    s = held_out("synthesis", 0, "perspective")
    corners = s.shot.corners
    # keep the board's top half (its head, two markers), cut off the rest: the volume table is outside
    top, bottom = corners[:2, 1].mean(), corners[2:, 1].mean()
    middle = int((top + bottom) / 2)
    photo = s.shot.image[:middle] if top < bottom else s.shot.image[middle:]
    refused = _refused("synthesis", _jpeg(photo.copy()), hint={"piece": s.data["board"]})
    assert refused.reason == "cut-off"
    assert "whole sheet" in str(refused)


def test_a_photo_of_another_games_sheet_says_which():
    fonts_or_skip()
    s = held_out("synthesis", 0, "perspective")
    refused = _refused("labnotes", s.shot.jpeg)
    assert refused.reason == "wrong-game"
    assert "Synthesis" in str(refused) and "Lab Notes" in str(refused)


def test_a_file_that_is_no_photo_says_so():
    refused = _refused("synthesis", b"%PDF-1.4 not a photo")
    assert refused.reason == "not-a-photo"
