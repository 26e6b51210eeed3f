"""A paper Lab Notes sheet scored from a photo on a phone: Playwright driving
Debian's Chromium against the real server on a 390 x 844 touch screen. The
player opens the paper page, takes a photo (the file input; the page's
script shrinks it and sends it), sees the sheet as read over the photo, taps
the right value of every mark the reader asks about, and gets the score the
engine gives the sheet as it was written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench import photos
from tests.companion.conftest import need_htmx
from tests.reader.conftest import fonts_or_skip, held_out

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1,
         "bypass_csp": True}
SETTLED = """() => !document.getElementById('paper-form').classList.contains('htmx-request')"""


def test_a_sheet_is_read_from_a_photo_and_confirmed_with_a_tap(browser: Any, server_factory: Any, tmp_path) -> None:
    need_htmx()
    fonts_or_skip()
    s = held_out("labnotes", 0, "perspective")   # a photo with marks to check: the taps are tried
    photo = tmp_path / "sheet.jpg"
    photo.write_bytes(s.shot.jpeg)
    server = server_factory().start()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/labnotes/sheet")
    with page.expect_navigation():
        page.set_input_files('form[data-paper-photo] input[type="file"]', str(photo))
    page.wait_for_selector("#paper-photo-read img")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # every mark the reader asks about: one tap on its true value
    asked = page.locator("#paper-photo-asked li[data-asked]").all()
    assert asked, "this photo has marks to check"
    for item in asked:
        kind, name = item.get_attribute("data-asked").split(" ", 1)
        want = s.truth[(kind, name)]
        value = "" if want is None else json.dumps(want) if not isinstance(want, str) else want
        item.locator(f'button[data-fix="{kind} {name}={value}"]').tap()
        assert "fixed" in (item.get_attribute("class") or "")
    page.wait_for_timeout(300)
    page.wait_for_function(SETTLED)
    sheet = json.loads(page.input_value("#paper-json"))
    expected = photos.score("labnotes", s.data)
    assert photos.score("labnotes", sheet) == expected
    page.wait_for_selector("#paper-score h2")
    assert f": {expected} points" in page.inner_text("#paper-score h2")
    assert not errors
