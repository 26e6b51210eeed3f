"""A turn of Synthesis played on two phones: Playwright driving Debian's
Chromium against the real server. The player beside yellow rolls on her
phone; Ada draws the bond by tapping its lines in the loupe (tap targets
over 44 px on a 390 px phone), Bo picks his from the list of legal
placements; each phone sees the other's board change; both reach turn 2."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.client import call
from tests.companion.conftest import need_htmx

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1,
         "bypass_csp": True}  # wait_for_function evaluates strings; the CSP itself is tested in test_csp_browser
SEED = 5
VERSION = "(document.getElementById('live-state') || document.getElementById('live')).dataset.version"
VISIBLE_HITS = """() => {
  const svg = document.querySelector('svg.syn-loupe').getBoundingClientRect();
  const out = {};
  for (const el of document.querySelectorAll('svg.syn-loupe .hit[data-line]')) {
    const b = el.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;   // the line's middle, where a tap lands
    const inside = x > svg.left + 12 && x < svg.right - 12 && y > svg.top + 12 && y < svg.bottom - 12;
    if (inside && document.elementFromPoint(x, y) === el) out[el.dataset.line] = [b.width, b.height];
  }
  return out;
}"""


def to_json(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"parseInt({VERSION}, 10) >= {version}")


def test_a_turn_on_two_phones(browser: Any, server_factory: Any) -> None:
    need_htmx()
    server = server_factory(games=("engine.synthesis:GAME",)).start()
    base = server.url
    status, made = call(base, "POST", "/api/tables", {"game": "synthesis", "seed": SEED})
    assert status == 201, made
    code, host = made["code"], made["host_token"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    call(base, "POST", f"/api/tables/{code}/start", {"version": call(base, "GET", f"/api/tables/{code}")[1]["version"]},
         host)

    def table(seat: int | None = None) -> dict[str, Any]:
        return call(base, "GET", f"/api/tables/{code}", token=tokens[seat] if seat is not None else None)[1]

    phones, contexts, errors = [], [], []
    for token in tokens:
        ctx = browser.new_context(**PHONE)
        ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": token, "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/t/{code}")
        contexts.append(ctx)
        phones.append(page)
    ada, bo = phones

    # The player beside yellow rolls, on her phone.
    now = table()
    roller = now["to_move"][0]
    assert "holds yellow and rolls the dice" in phones[roller].inner_text("#syn-status")
    phones[roller].get_by_role("button", name="Roll the dice").click()
    wait_version(ada, now["version"] + 1)
    wait_version(bo, now["version"] + 1)
    rolled = table()["view"]["roll"]
    for page in phones:
        assert page.locator(f'#syn-dice [data-bond="{rolled[0]}"]').count() == 1

    # Tapping the formula moves the loupe there.
    before = ada.get_attribute("svg.syn-loupe", "viewBox")
    overview = ada.locator("svg.syn-formula[data-mine]")
    overview.scroll_into_view_if_needed()
    box = overview.bounding_box()
    ada.mouse.click(box["x"] + box["width"] * 0.15, box["y"] + box["height"] * 0.2)
    assert ada.get_attribute("svg.syn-loupe", "viewBox") != before
    ada.locator("svg.syn-formula[data-mine] polygon.k-start").click()       # back to the starting molecule

    def tap_a_bond(page: Any, seat: int) -> None:
        """Tap the lines of a legal placement that the loupe shows whole."""
        mine = table(seat)
        page.locator("svg.syn-loupe").scroll_into_view_if_needed()
        visible = page.evaluate(VISIBLE_HITS)
        assert visible, "the loupe shows no line"
        for w, h in visible.values():
            assert w >= 44 and h >= 44, (w, h)                     # tap targets on a 390 px phone
        kind = "bond" if any(a["type"] == "bond" for a in mine["actions"]) else "active_bond"
        action = next(a for a in mine["actions"] if a["type"] == kind and all(l in visible for l in a["lines"]))
        for line in action["lines"]:
            page.locator(f'svg.syn-loupe .hit[data-line="{line}"]').click()
        assert json.loads(page.input_value("#syn-placements")) == action
        assert "a legal placement" in page.inner_text("#syn-pick-status")
        assert page.locator("#syn-draw").is_enabled()
        page.locator("#syn-draw").click()
        wait_version(page, mine["version"] + 1)

    def pick_a_bond(page: Any, seat: int) -> None:
        """Choose the first legal placement from the list."""
        mine = table(seat)
        action = next(a for a in mine["actions"] if a["type"] in ("bond", "active_bond"))
        page.select_option("#syn-placements", to_json(action))
        page.locator("#syn-draw").click()
        wait_version(page, mine["version"] + 1)

    def finish_turn(page: Any, seat: int, draw) -> None:
        """Whatever else the turn asks: a second copy, a molecule's choice, finishing."""
        for _ in range(8):
            mine = table(seat)
            kinds = {a["type"] for a in mine["actions"]}
            if not kinds:
                return
            if kinds & {"bond", "active_bond"}:
                draw(page, seat)
                continue
            pick = next((a for a in mine["actions"] if a["type"] in ("elemental", "decline", "finish", "pass")), None)
            assert pick is not None, kinds
            page.locator(f"[data-act='{to_json(pick)}']").click()
            wait_version(page, mine["version"] + 1)
        raise AssertionError("the turn did not end")

    finish_turn(ada, 0, tap_a_bond)
    # Bo's phone sees Ada's board change, without a reload.
    colour = table()["view"]["seats"][0]["colour"]
    bo.wait_for_selector("#syn-board-0 path.drawn", state="attached")
    assert colour in bo.inner_text("#syn-board-0 summary")
    finish_turn(bo, 1, pick_a_bond)

    # Both phones are on turn 2, and the log tells turn 1 in words.
    final = table()
    assert final["view"]["turn"] == 2
    for page in phones:
        wait_version(page, final["version"])
        assert "Turn 2 of 28" in page.inner_text("#syn-turn")
        log = page.locator(".game-log").inner_text()
        assert "rolled the dice" in log or page.locator(".game-log details").count() == 1
    assert ada.locator("#syn-mine svg.syn-panel .turn-box.now").count() == 1
    assert not errors, errors
    for ctx in contexts:
        ctx.close()
