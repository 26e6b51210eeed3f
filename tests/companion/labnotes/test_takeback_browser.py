"""A player's own take-back in a simultaneous phase, on two phones: Playwright
driving Debian's Chromium against the real server, 390 x 844, with taps.
Ada notates on her sheet, Bo notates on his at the same time, Ada taps
"Take back: ..." and her notation alone goes; both phones are told."""

from __future__ import annotations

from typing import Any

import pytest

from companion.client import call as api
from tests.companion.labnotes.test_browser import PHONE, labnotes, seat_token  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_player_takes_back_their_own_notation_while_another_notates(browser: Any, labnotes: None,
                                                                     server_factory: Any) -> None:
    server = server_factory().start()
    base = server.url
    status, created = api(base, "POST", "/api/tables", {"game": "labnotes", "seed": 11})
    assert status == 201, created
    code, host = created["code"], created["host_token"]
    ada_ctx, bo_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    ada, bo = ada_ctx.new_page(), bo_ctx.new_page()
    for page, name in ((ada, "Ada"), (bo, "Bo")):
        page.set_default_timeout(10_000)
        page.goto(f"{base}/t/{code}")
        page.fill("#name", name)
        page.get_by_role("button", name="Take a seat").tap()
        page.wait_for_selector("text=You are seated")
    version = api(base, "GET", f"/api/tables/{code}")[1]["version"]
    assert api(base, "POST", f"/api/tables/{code}/start", {"version": version}, host)[0] == 200
    tokens = [seat_token(ada_ctx, code), seat_token(bo_ctx, code)]

    # The roll and the picks through the API: the lead's roll is never offered for taking back.
    for _ in range(10):
        table = api(base, "GET", f"/api/tables/{code}")[1]
        if table["view"]["phase"] == "notate":
            break
        seat = table["to_move"][0]
        mine = api(base, "GET", f"/api/tables/{code}", token=tokens[seat])[1]
        move = next(a for a in mine["actions"] if a["type"] in ("roll", "take_die"))
        assert api(base, "POST", f"/api/tables/{code}/actions", {"version": mine["version"], "action": move},
                   tokens[seat])[0] == 200
    assert table["to_move"] == [0, 1]
    ada.wait_for_selector(f'#live-state[data-version="{table["version"]}"]', state="attached")
    assert ada.locator("#take-back").count() == 0

    # Ada taps a space, then the element: her notation. Bo notates on his own sheet meanwhile.
    ada.locator('svg.sheet[data-mine] .space[data-space="0"]').tap()
    ada.locator("button[data-option]:not([disabled])").first.tap()
    ada.wait_for_selector('svg.sheet[data-mine] .space[data-space="0"][class*="el-"]', state="attached")
    mine = api(base, "GET", f"/api/tables/{code}", token=tokens[1])[1]
    bo_move = next(a for a in mine["actions"] if a["type"] == "notate")
    assert api(base, "POST", f"/api/tables/{code}/actions", {"version": mine["version"], "action": bo_move},
               tokens[1])[0] == 200
    bo_space = f'[data-sheet-of="1"] .space[data-space="{bo_move["space"]}"][class*="el-"]'
    ada.wait_for_selector(bo_space, state="attached")              # Ada's phone has seen Bo's move
    moves = api(base, "GET", f"/api/tables/{code}")[1]["moves"]

    # Only Ada's phone offers her move back, saying exactly what it takes back.
    button = ada.get_by_role("button", name="Take back: Notated")
    assert button.inner_text().startswith("Take back: Notated ") and " on A1" in button.inner_text()
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert bo.get_by_role("button", name="Take back: Notated H").count() == 0
    button.scroll_into_view_if_needed()
    button.tap()
    ada.wait_for_selector("text=Ada took back a move: Ada notated")
    bo.wait_for_selector("text=Ada took back a move: Ada notated")           # every phone is told
    assert api(base, "GET", f"/api/tables/{code}")[1]["moves"] == moves - 1
    ada.wait_for_selector('svg.sheet[data-mine] .space[data-space="0"].tappable', state="attached")
    assert ada.locator(bo_space).count() == 1                              # Bo's notation stays
    assert bo.locator(f'svg.sheet[data-mine] .space[data-space="{bo_move["space"]}"][class*="el-"]').count() == 1
    assert ada.locator("#take-back").count() == 0       # her pick before it was followed by Bo's: nothing more
    for ctx in (ada_ctx, bo_ctx):
        ctx.close()
