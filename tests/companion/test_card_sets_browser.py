"""A custom card set chosen on a phone: Playwright driving Debian's Chromium
against the real server (``--sets DIR``), 390 x 844, with taps. The create
page offers the server's set for its game; the host uploads a zip from the
phone instead, and the table says which set is in play."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.companion.conftest import need_htmx
from tests.companion.labnotes.test_browser import PHONE
from tests.companion.test_card_sets import make_set, zipped

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_uploads_a_set_on_the_create_page_and_the_table_names_it(browser: Any, server_factory: Any,
                                                                          tmp_path: Path) -> None:
    need_htmx()
    sets = tmp_path / "sets"
    make_set("compounded", sets / "shelf", "Shelf Set")
    upload = tmp_path / "upload"
    make_set("compounded", upload, "Pocket Set", version="3")
    (tmp_path / "pocket.zip").write_bytes(zipped(upload))
    server = server_factory(extra=["--sets", str(sets)]).start()
    told = (server.instance.parent / f"server-{server.port}.log").read_text()
    assert f"Card sets from {sets}: Shelf Set (Compounded)" in told   # what labkit serve --sets found

    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(10_000)

    # A refused upload on the page's last game form: its sentence is on the screen when the
    # answer comes, not below the fold (found: a phone showed the page's top, the refusal unseen).
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 not really a zip")
    page.goto(server.url + "/")
    last = page.locator("form.host-game").last
    last.locator("summary", has_text="Card set").tap()
    last.get_by_text("A card set's zip from this device").tap()
    last.locator("input[type=file]").set_input_files(str(tmp_path / "broken.zip"))
    last.locator("button[type=submit]").tap()
    page.wait_for_selector("#set-problems", timeout=60_000)   # the first upload starts the set checker
    top, bottom, height = page.evaluate("() => { const r = document.getElementById('set-problems')"
                                        ".getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }")
    assert 0 <= top < height, (top, bottom, height)
    assert "broken.zip" in page.inner_text("#set-problems")

    page.goto(server.url + "/")
    form = page.locator("#host-compounded")
    form.locator("summary", has_text="Card set").tap()
    assert form.get_by_text("Shelf Set").is_visible()          # the server's set, offered for its game
    assert page.locator("#host-labnotes").get_by_text("Shelf Set").count() == 0
    form.get_by_text("A card set's zip from this device").tap()
    form.locator("input[type=file]").set_input_files(str(tmp_path / "pocket.zip"))
    form.get_by_role("button", name=re.compile("^Compounded")).tap()

    # the server's first upload starts the process that checks sets (seconds on a busy machine)
    page.wait_for_selector(".big-code", timeout=60_000)
    said = " ".join(page.inner_text("#set-in-play").split())
    assert said == "Card set: Pocket Set by Ann Author, version 3", said
    ctx.close()
