"""A table of Lab Notes played on phones: Playwright driving Debian's
Chromium against the real server. A host creates the table, two players
join from separate browser contexts, an action on one phone appears on the
other without a reload, an illegal move shows its reason, and the game is
played to its end (the middle through the API, for speed) until the final
score appears in every browser."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from companion.client import call as api
from tests.companion.labnotes.robot import robot_move as choose
from tests.companion.conftest import need_htmx

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2,
         "bypass_csp": True}  # wait_for_function evaluates strings; the CSP itself is tested in test_csp_browser


@pytest.fixture
def labnotes() -> None:
    from labkit import registry

    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")
    need_htmx()


def seat_token(context: Any, code: str) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == f"labkit_seat_{code}")


def watch_requests(page: Any, seen: list[str]) -> None:
    page.on("request", lambda r: seen.append(r.url))


def test_a_table_of_lab_notes_on_three_phones(browser: Any, labnotes: None, server_factory: Any) -> None:
    server = server_factory().start()
    base = server.url
    requests: list[str] = []
    host_ctx, ada_ctx, bo_ctx = (browser.new_context(**PHONE) for _ in range(3))
    host, ada, bo = (ctx.new_page() for ctx in (host_ctx, ada_ctx, bo_ctx))
    for page in (host, ada, bo):
        watch_requests(page, requests)
        page.set_default_timeout(10_000)

    # The host creates a table: a code, a link and a QR code to show.
    host.goto(base + "/")
    host.get_by_role("button", name="Lab Notes").click()
    host.wait_for_selector(".big-code")
    code = host.inner_text(".big-code").strip()
    assert host.locator(".share .qr-box svg").count() == 1       # the join code (the host key has its own)
    assert f"/t/{code}" in host.inner_text(".link")

    # Two players join from their own phones; a name is text, never markup.
    for page, name in ((ada, "Ada"), (bo, "<b>Bo</b>")):
        page.goto(f"{base}/t/{code}")
        page.fill("#name", name)
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_selector("text=You are seated")
    host.wait_for_selector("text=<b>Bo</b>")             # the host's lobby updated without a reload
    assert host.locator(".players b").count() == 0

    host.get_by_role("button", name="Start the game").click()
    ada.wait_for_selector("text=You lead: roll the dice.")   # Ada's phone moved on by itself
    assert ada.evaluate("document.getElementById('live-state').dataset.playing") == "true"

    # An action on one phone appears on the other without a reload.
    bo_reloads = bo.evaluate("performance.getEntriesByType('navigation').length")
    ada.get_by_role("button", name="Roll the dice").click()
    started = time.monotonic()
    bo.wait_for_selector("text=Ada picks a die.")   # pushed on Bo's stream (how fast: test_push.py, make bench)
    seen_after = time.monotonic() - started
    assert bo.evaluate("performance.getEntriesByType('navigation').length") == bo_reloads
    print(f"\nBo's phone saw Ada's roll {seen_after * 1000:.0f} ms after the click")

    ada_token, bo_token = seat_token(ada_ctx, code), seat_token(bo_ctx, code)
    state = api(base, "GET", f"/api/tables/{code}", token=ada_token)[1]
    # Ada takes an element die on her phone; Bo takes the burner if there is one, so the Community die is an element.
    element_die = next(a["die"] for a in state["actions"]
                       if a["type"] == "take_die" and state["view"]["dice"][a["die"]]["face"] != "burner")
    ada.click(f'button.die[data-act*="\\"die\\":{element_die}"]')
    bo.wait_for_selector("text=Your pick: tap a die to take it.")
    mine = api(base, "GET", f"/api/tables/{code}", token=bo_token)[1]
    takes = [a for a in mine["actions"] if a["type"] == "take_die"]
    burner = [a for a in takes if mine["view"]["dice"][a["die"]]["face"] == "burner"]
    bo.click(f'button.die[data-act*="\\"die\\":{(burner or takes)[0]["die"]}"]')

    # Ada notates both her elements on two neighbouring spaces: tap a space, then the element.
    ada.wait_for_selector("button[data-option]")
    for space in (0, 1):
        ada.click(f'svg.sheet[data-mine] .space[data-space="{space}"]')
        ada.locator("button[data-option]:not([disabled])").first.click()
        ada.wait_for_selector(f'svg.sheet[data-mine] .space[data-space="{space}"]:not(.tappable)')
    # ... and Bo sees Ada's sheet change, without a reload.
    bo.wait_for_selector('[data-sheet-of="0"] .space[data-space="1"][class*="el-"]', state="attached")

    # Ada's sheet is drawn like the paper one: under the field, the Tools track, the notecard boxes, the
    # trash cans (the last one the Bunsen Burner's) and the score boxes with the score so far.
    panel = ada.locator("#control-sheet svg.sheet-panel")
    assert panel.locator(".track-space").count() == 10 and panel.locator(".track-space.locked").count() == 8
    assert panel.locator(".notecard-box").count() == 8 and panel.locator(".can").count() == 5
    assert panel.locator(".can.last").count() == 1 and panel.locator(".burner-icon").count() == 1
    assert [b.get_attribute("data-score") for b in panel.locator("[data-score]").all()] == [
        "compounds", "notecards", "burned", "total"]
    words = panel.text_content()
    for word in ("TOOLS", "NOTECARDS", "TRASH", "BUNSEN BURNER", "COMPOUNDS", "BURNED \u00d7 2", "TOTAL / GRADE"):
        assert word in words, word
    assert panel.bounding_box()["width"] >= 340                         # readable on a 390 px phone
    assert bo.locator('[data-sheet-of="0"] svg.sheet-panel').count() == 1   # the others' sheets too

    # The tap target between two elements for a bond is at least 44 px on a 390 px phone ...
    field = ada.locator("svg.sheet[data-mine]")
    field.scroll_into_view_if_needed()
    gap = ada.locator('svg.sheet[data-mine] [data-gap="0,1"] circle.hit').bounding_box()
    assert gap["width"] >= 44 and gap["height"] >= 44, gap
    # ... without covering the empty space beside the two elements: its centre, and a point between its
    # centre and the gap, still reach the space (spaces holding elements let taps through to the gaps).
    space = ada.locator('svg.sheet[data-mine] .space[data-space="6"] circle.hit').bounding_box()
    assert space["width"] >= 44
    cx, cy = space["x"] + space["width"] / 2, space["y"] + space["height"] / 2
    gx, gy = gap["x"] + gap["width"] / 2, gap["y"] + gap["height"] / 2
    for k in (0, 0.35):
        on_gap = ada.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('[data-gap]')",
                              [cx + (gx - cx) * k, cy + (gy - cy) * k])
        assert not on_gap, k
    assert ada.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('[data-gap]').dataset.gap",
                        [gx, gy]) == "0,1"

    # Tapping between the two elements raises their bond, until the rules say no: the reason shows by the sheet.
    version_before = None
    for _ in range(4):
        version_before = ada.evaluate("document.getElementById('live-state').dataset.version")
        ada.click('svg.sheet[data-mine] [data-gap="0,1"]')
        ada.wait_for_function(f"document.getElementById('live-state').dataset.version !== '{version_before}' "
                              "|| !!document.getElementById('sheet-error')")
        if ada.locator("#sheet-error").count():
            break
    reason = ada.inner_text("#control-sheet #sheet-error")
    assert reason and ("bond" in reason.lower()), reason
    assert ada.evaluate("document.getElementById('live-state').dataset.version") == version_before  # nothing changed
    assert ada.locator('#control-sheet #sheet-error').count() == 1                               # next to the sheet

    # The host undoes the last bond (a mis-tap), confirming on the phone.
    host.on("dialog", lambda dialog: dialog.accept())
    table = api(base, "GET", f"/api/tables/{code}")[1]
    moves = table["moves"]
    host.wait_for_selector(f'#live-state[data-version="{table["version"]}"]', state="attached")   # the host has seen the last bond
    host.get_by_role("button", name="Undo the last action").click()
    host.wait_for_selector("text=The host took back a move")
    ada.wait_for_selector("text=The host took back a move")   # every phone is told
    assert api(base, "GET", f"/api/tables/{code}")[1]["moves"] == moves - 1

    # The rest of the game goes through the API, quickly; the phones keep polling.
    rnd = random.Random(7)
    tokens = [ada_token, bo_token]
    for _ in range(2000):
        table = api(base, "GET", f"/api/tables/{code}")[1]
        if table["status"] == "over":
            break
        seat = table["to_move"][0]
        mine = api(base, "GET", f"/api/tables/{code}", token=tokens[seat])[1]
        status, body = api(base, "POST", f"/api/tables/{code}/actions",
                           {"version": mine["version"], "action": choose(mine["actions"], rnd)}, tokens[seat])
        assert status in (200, 409), body
    assert api(base, "GET", f"/api/tables/{code}")[1]["status"] == "over"

    # The final score appears in every browser, with each player's breakdown.
    score = api(base, "GET", f"/api/tables/{code}/score")[1]
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    final = api(base, "GET", f"/api/tables/{code}")[1]["version"]
    for name, page in (("Ada", ada), ("Bo", bo), ("the host", host)):
        # Seen failing twice in many runs on a loaded 2-core machine, cause not found: say which
        # phone and how far behind it was. (A stream that missed a change looks again every 5 s.)
        try:
            page.wait_for_selector("#final-score", timeout=30_000)
        except PlaywrightTimeout as exc:
            shown = page.evaluate("(document.getElementById('live-state') || {dataset: {}}).dataset.version")
            raise AssertionError(f"{name}'s phone shows version {shown} of {final} and no final score") from exc
        table_text = page.inner_text("#final-score")
        for s in score["scores"]:
            assert str(s["total"]) in table_text
        assert "Compounds" in table_text and "Notecards" in table_text and "Burned spaces" in table_text
        assert page.locator("#breakdown").count() == 1
    assert "<b>Bo</b>" in bo.inner_text("#final-score")

    # Each phone's breakdown gives every line its points and says where each burned space came from.
    from companion.games.labnotes.words import burn_groups

    burned = 0
    for seat, page in ((0, ada), (1, bo)):
        mine = page.locator(f'#breakdown [data-breakdown-of="{seat}"]')
        text = mine.inner_text()
        for words in ("Single bonds", "Double bonds", "Triple bonds", "Missing bonds", "Compounds", "Notecards",
                      "Burned spaces", "Total"):
            assert words in text, words
        assert mine.locator("td.pts").count() == 8                     # points in every line
        details = score["scores"][seat]["details"]
        for group in burn_groups(details["burns"]):
            item = mine.locator(f'[data-cause="{group["cause"]}"]', has_text=group["words"]).first
            assert all(label in item.inner_text() for label in group["spaces"]), group
        assert mine.locator("[data-cause]").count() == len(burn_groups(details["burns"]))
        burned += details["burned_spaces"]
    assert burned > 0   # the robot draws no bonds: its elements burn at the end, so some source is named
    assert bo.locator("#final-score b").count() == 0

    # Nothing was fetched from anywhere but the table's own server.
    outside = [u for u in requests if not u.startswith(base) and not u.startswith("data:")]
    assert outside == []
    for ctx in (host_ctx, ada_ctx, bo_ctx):
        ctx.close()


def test_a_paper_sheet_is_scored_on_a_phone(browser: Any, labnotes: None, server_factory: Any) -> None:
    server = server_factory().start()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url + "/")
    # The sheet's script is deferred: a tap before the page has loaded does
    # nothing, so the taps wait for the load (on a busy machine it comes late).
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name="Score a paper Lab Notes sheet").click()
    # Water: H-O-H on A1, A2, A3, each bond tapped once.
    for space, element in ((0, "H"), (1, "O"), (2, "H")):
        page.click(f'svg.sheet[data-paper] .space[data-space="{space}"]')
        page.click(f'[data-paper-mark="{element}"]')
        page.wait_for_selector(f'svg.sheet[data-paper] .space.el-{element}[data-space="{space}"]')
    page.click('svg.sheet[data-paper] [data-gap="0,1"]')
    page.click('svg.sheet[data-paper] [data-gap="1,2"]')
    page.fill("#paper-player", "Paper Pat")
    page.select_option("[data-paper-trash] >> nth=0", "C")
    sheet = json.loads(page.input_value("#paper-json"))
    assert sheet["elements"] == {"A1": "H", "A2": "O", "A3": "H"}
    assert sorted(map(tuple, sheet["bonds"])) == [("A1", "A2", 1), ("A2", "A3", 1)]
    page.get_by_role("button", name="Score this sheet").click()
    page.wait_for_selector("#paper-score")
    text = page.inner_text("#paper-score")
    assert "Paper Pat: 2 points" in text and "Compounds" in text
    # A sheet that breaks the rules lists why.
    page.fill("#paper-json", json.dumps({"elements": {"A1": "O", "A2": "H"}, "bonds": [["A1", "A2", 2]]}))
    page.get_by_role("button", name="Score this sheet").click()
    page.wait_for_selector("text=This sheet breaks 1 rule")
    assert "Hydrogen" in page.inner_text("#paper-result")
    ctx.close()
