"""A change pushed to a phone updates it in place: what the player opened
stays open and what they read does not move on the screen, with the server's real
Content-Security-Policy in force (no bypass: the pages must work under it).

Two players; Ada's phone is a real browser, Bo plays through the API with
his seat token, as another phone would."""

from __future__ import annotations

from typing import Any

import pytest

from companion.client import call as api
from tests.companion.labnotes.test_browser import labnotes  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def _actions(base: str, code: str, token: str) -> tuple[int, list[dict[str, Any]]]:
    status, table = api(base, "GET", f"/api/tables/{code}", token=token)
    assert status == 200, table
    return table["version"], table["actions"]


def test_an_opened_panel_stays_open_while_another_phone_acts(browser: Any, labnotes: None,
                                                             server_factory: Any) -> None:
    base = server_factory().start().url
    status, made = api(base, "POST", "/api/tables", {"game": "labnotes"})
    assert status == 201, made
    code, host = made["code"], made["host_token"]
    tokens = [api(base, "POST", f"/api/tables/{code}/seats", {"name": name})[1]["token"] for name in ("Ada", "Bo")]
    status, started = api(base, "POST", f"/api/tables/{code}/start", {"version": made["table"]["version"] + 2},
                          token=host)
    assert status == 200, started

    ctx = browser.new_context(**PHONE)
    ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": tokens[0], "url": base}])
    ada = ctx.new_page()
    ada.set_default_timeout(10_000)
    troubles: list[str] = []
    ada.on("console", lambda m: troubles.append(m.text) if m.type == "error" else None)
    ada.on("pageerror", lambda e: troubles.append(str(e)))
    ada.goto(f"{base}/t/{code}")
    ada.wait_for_selector("#stream", state="attached")

    # Ada opens the tools reference and Bo's sheet, and scrolls down to read.
    ada.locator("#tools summary").click()
    ada.locator('[data-sheet-of="1"] summary').click()
    ada.mouse.wheel(0, 600)
    ada.wait_for_timeout(200)
    assert ada.evaluate("window.scrollY") > 0
    reading = 'document.querySelector(\'[data-sheet-of="1"] summary\').getBoundingClientRect().top'
    where = ada.evaluate(reading)
    assert 0 <= where < 844    # Bo's sheet is what Ada is looking at

    # Bo acts three times from his phone; each change reaches Ada's page by the stream.
    for _ in range(3):
        version, actions = _actions(base, code, tokens[1])
        if not actions:   # not Bo's turn: Ada's seat moves through the API, as her other tab would
            version, actions = _actions(base, code, tokens[0])
            who = tokens[0]
        else:
            who = tokens[1]
        status, body = api(base, "POST", f"/api/tables/{code}/actions",
                           {"action": actions[0], "version": version}, token=who)
        assert status == 200, body
        ada.wait_for_selector(f'#live-state[data-version="{body["version"]}"]', state="attached")

    assert ada.locator("#tools details").get_attribute("open") is not None
    assert ada.locator('[data-sheet-of="1"]').get_attribute("open") is not None
    # What she reads has not moved on her screen (the browser may scroll to
    # keep it there when something above it grows).
    assert abs(ada.evaluate(reading) - where) <= 2
    assert not [t for t in troubles if "Content Security Policy" in t or "Refused" in t], troubles
    ctx.close()
