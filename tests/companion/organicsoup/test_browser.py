"""A table of Organic Soup on two phones: Playwright driving Debian's
Chromium against the real server. The table is dealt from a fixed seed
through the API (conftest.SEED), the players join on their phones, and
they play a turn of each kind: Bo builds 3 Oxygen (a recipe, then a count)
and swaps Carbon Monoxide for a new simple recipe; Ada builds Graphite (a
count, then the recipe) and keeps her hand; Bo proposes a reaction on
Ada's guarded Graphite and reads the referee's reasons next to the form,
then asks the reaction finder, which fills the form, and reacts 3 Oxygen
into 2 Ozone. Each phone sees the other's moves without a reload, and
never the other's hand."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.client import call as api
from tests.companion.conftest import need_htmx
from tests.companion.organicsoup.conftest import SEED

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2,
         "bypass_csp": True}  # wait_for_function evaluates strings; the CSP itself is tested in test_csp_browser
SHOTS = "LABKIT_SCREENSHOTS"
"""A folder to keep the phones' screenshots in (default: the test's own temporary folder)."""


SHOWN = "(document.getElementById('live-state') || document.getElementById('live')).dataset.version"
"""The version of the table a phone shows (kept on ``#live-state``, or on ``#live`` itself)."""


def version(page: Any) -> str:
    return page.evaluate(SHOWN)


def wait_past(page: Any, seen: str) -> None:
    """Until the phone shows a newer table than ``seen`` (its own action, or another phone's)."""
    page.wait_for_function(f"{SHOWN} !== '{seen}'")


def set_count(page: Any, input_id: str, n: int) -> None:
    """Tap + beside a count until it reads ``n`` (from 0)."""
    plus = page.locator(f"#{input_id} + button[data-step='1']")
    for _ in range(n):
        plus.click()
    assert page.input_value(f"#{input_id}") == str(n)


def test_a_turn_of_each_kind_on_two_phones(browser: Any, server_factory: Any, tmp_path: Path) -> None:
    need_htmx()
    shots = Path(os.environ.get(SHOTS) or tmp_path)
    server = server_factory(games=("engine.organicsoup:GAME",)).start()
    base = server.url
    status, table = api(base, "POST", "/api/tables", {"game": "organicsoup", "seed": SEED})
    assert status == 201, table
    code, host = table["code"], table["host_token"]

    ada_ctx, bo_ctx = (browser.new_context(**PHONE) for _ in range(2))
    ada, bo = ada_ctx.new_page(), bo_ctx.new_page()
    for page, name in ((ada, "Ada"), (bo, "Bo")):      # seats in the order they join: Ada 0, Bo 1
        page.set_default_timeout(10_000)
        page.goto(f"{base}/t/{code}")
        page.fill("#name", name)
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_selector("text=You are seated")
    state = api(base, "GET", f"/api/tables/{code}")[1]
    assert api(base, "POST", f"/api/tables/{code}/start", {"version": state["version"]}, host)[0] == 200

    # Bo goes first (the dealt simple recipes, alphabetically): a recipe, then a count.
    bo.wait_for_selector("#prompt")
    assert "build molecules from the soup" in bo.inner_text("#prompt")
    assert ada.wait_for_selector("#status").inner_text() == "Bo's turn: build molecules or trigger a reaction."
    seen = version(ada)
    bo.click('#control-build button.tile[data-option*="oxygen"]')
    bo.click('#control-build [data-target="count"][data-value="3"]')
    bo.wait_for_selector("#control-end")
    wait_past(ada, seen)                                   # Ada's phone moved on by itself
    assert "3 Oxygen" in ada.inner_text('[data-area-of="1"] .molecules')

    # Bo's hand was full: he swaps Carbon Monoxide for the top simple recipe.
    assert bo.locator('#my-hand [data-recipe="carbon-monoxide"]').count() == 1
    bo.get_by_role("button", name="Swap Carbon Monoxide").click()
    bo.wait_for_selector('#my-hand [data-recipe="ozone"]')
    assert bo.locator('#my-hand [data-recipe="carbon-monoxide"]').count() == 0

    # Ada: a count first, then the recipe (either order works); then she keeps her hand.
    ada.wait_for_selector("#control-build")
    ada.click('#control-build [data-target="count"][data-value="1"]')
    ada.click('#control-build button.tile[data-option*="graphite"]')
    ada.get_by_role("button", name="Keep my hand").click()
    bo.wait_for_selector("#react-form")
    assert "guarded" in bo.inner_text('[data-area-of="0"] .molecules').lower()   # her Graphite, with its recipe

    # Bo proposes a reaction that takes Ada's guarded Graphite: refused, with every reason, by the form.
    before = version(bo)
    set_count(bo, "in-1-oxygen", 3)
    set_count(bo, "in-0-graphite", 1)
    set_count(bo, "out-ozone", 2)
    bo.click("[data-react-send]")
    reason = bo.wait_for_selector("#control-react #react-error").inner_text()
    assert reason == ("Ada's Graphite molecules are guarded: the Graphite recipe is in front of Ada. "
                      "1 Carbon atom is left over: the products must use every atom of the ingredients.")
    assert version(bo) == before                                          # nothing changed
    assert bo.input_value("#in-0-graphite") == "1"                        # his choice is still on the form
    assert ada.locator("#react-error").count() == 0

    # He takes the Graphite out and asks the reaction finder, which fills the products.
    bo.click(".stepper:has(#in-0-graphite) button[data-step='-1']")
    bo.fill("#out-ozone", "0")
    bo.click("[data-react-find]")
    bo.wait_for_function("document.getElementById('find-result').textContent.indexOf('Found') === 0")
    assert bo.input_value("#out-ozone") == "2"
    assert "2 Ozone uses every atom" in bo.inner_text("#find-result")
    seen = version(ada)
    shots.mkdir(parents=True, exist_ok=True)
    bo.screenshot(path=str(shots / "organicsoup-react-form.png"), full_page=True)
    bo.click("[data-react-send]")

    # The reaction is played: Ozone is formed from his hand and placed in front of him; Ada sees it.
    wait_past(ada, seen)
    ada.wait_for_selector('[data-area-of="1"] .recipe[data-recipe="ozone"]')
    assert "2 Ozone" in ada.inner_text('[data-area-of="1"] .molecules')
    assert "Oxygen" not in ada.inner_text('[data-area-of="1"] .molecules')
    bo.wait_for_selector("#status")
    assert bo.locator("#react-error").count() == 0 and bo.locator('#my-hand [data-recipe="ozone"]').count() == 0
    ada.wait_for_selector("#prompt")

    # Neither phone ever showed the other's hand.
    bo_hand = [el.get_attribute("data-recipe") for el in bo.locator("#my-hand .recipe").all()]
    assert len(bo_hand) == 3 and ada.locator("#my-hand .recipe").count() == 3
    ada_text = ada.content()
    for rid in bo_hand:
        assert f'data-recipe="{rid}"' not in ada_text
    ada.screenshot(path=str(shots / "organicsoup-ada.png"), full_page=True)
    for ctx in (ada_ctx, bo_ctx):
        ctx.close()
