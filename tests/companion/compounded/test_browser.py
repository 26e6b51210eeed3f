"""A round of Compounded played on three phones: Playwright driving
Debian's Chromium against the real server. The table is set up through the
API with a fixed seed and its first two rounds played there; the third
round (a trade, discards, claims, placements, scoring, then two Lab Fires,
each scientist asked in turn whether to use a Fire Extinguisher, and an
explosion whose elements its claimant moves) is played by tapping the
phones, every move chosen by the same robot the API used."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.client import call
from tests.companion.compounded.conftest import NAMES, robot
from tests.companion.conftest import need_htmx

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1,
         "bypass_csp": True}  # wait_for_function evaluates strings; the CSP itself is tested in test_csp_browser
SEED = 5
VERSION = "(document.getElementById('live-state') || document.getElementById('live')).dataset.version"


def to_json(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def shown_version(page: Any) -> int:
    return int(page.evaluate(VERSION))


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"parseInt({VERSION}, 10) >= {version}")


def perform(page: Any, action: dict[str, Any]) -> None:
    """Make ``action`` the way a player would on this phone: its button, or
    its option and the grid space (or dish element) it needs, or its menu."""
    button = page.locator(f"[data-act='{to_json(action)}']")
    if button.count():
        button.first.click()
        return
    for option in page.locator("[data-option]").all():
        base, fill = json.loads(option.get_attribute("data-option")), option.get_attribute("data-fill")
        values = (option.get_attribute("data-values") or "").split(",")
        if fill in action and {**base, fill: action[fill]} == action and str(action[fill]) in values:
            page.locator(f'#live [data-target="{fill}"][data-value="{action[fill]}"]').first.click()
            option.click()
            return
    for select in page.locator("select:has(option)").all():
        if select.locator(f"option[value='{to_json(action)}']").count():
            select.select_option(to_json(action))
            page.locator(f"[data-act-from='#{select.get_attribute('id')}']").click()
            return
    raise AssertionError(f"no control on the phone for {action}")


def test_a_round_with_a_lab_fire_on_three_phones(browser: Any, server_factory: Any) -> None:
    need_htmx()
    server = server_factory(games=("engine.compounded:GAME",)).start()
    base = server.url
    status, made = call(base, "POST", "/api/tables", {"game": "compounded", "seed": SEED})
    assert status == 201, made
    code, host = made["code"], made["host_token"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in NAMES[:3]]
    call(base, "POST", f"/api/tables/{code}/start", {"version": call(base, "GET", f"/api/tables/{code}")[1]["version"]},
         host)

    def table(seat: int | None = None) -> dict[str, Any]:
        return call(base, "GET", f"/api/tables/{code}", token=tokens[seat] if seat is not None else None)[1]

    rnd = random.Random(SEED)

    def choice(seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
        mine = table(seat)
        return mine, robot(mine["actions"], rnd, (mine["view"]["deciding"] or {}).get("do"))

    # Rounds 1 and 2 through the API, quickly.
    while table()["view"]["round"] < 3:
        seat = table()["to_move"][0]
        mine, action = choice(seat)
        assert call(base, "POST", f"/api/tables/{code}/actions", {"version": mine["version"], "action": action},
                    tokens[seat])[0] == 200

    phones, contexts = [], []
    for token in tokens:
        ctx = browser.new_context(**PHONE)
        ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": token, "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{base}/t/{code}")
        contexts.append(ctx)
        phones.append(page)

    # Round 3 on the phones, each move tapped on the phone of the scientist to move.
    seen: list[str] = []
    asked: list[int] = []
    while table()["view"]["round"] == 3:
        now = table()
        seat = now["to_move"][0]
        mine, action = choice(seat)
        kind = mine["view"]["deciding"]["do"]
        seen.append(kind)
        page = phones[seat]
        wait_version(page, now["version"])
        if kind == "extinguish":
            asked.append(seat)
            fire = page.locator("#cp-fire")
            assert fire.is_visible() and "LAB FIRE" in fire.inner_text()
            assert page.get_by_role("button", name="Use my Fire Extinguisher").is_visible()
            for other in range(3):
                if other != seat:
                    wait_version(phones[other], now["version"])
                    assert "LAB FIRE!" in phones[other].inner_text("#cp-status")
                    assert phones[other].get_by_role("button", name="Let it burn").count() == 0
            page.get_by_role("button", name="Let it burn").click()
        elif kind == "scatter":
            assert "exploded" in page.inner_text("#cp-decision")
            perform(page, action)
        else:
            perform(page, action)
        wait_version(page, now["version"] + 1)
        assert table()["version"] == now["version"] + 1, f"the phone did not make {action}"
        if kind == "extinguish" and len(asked) == 1:
            screenshot = page.screenshot()
            assert screenshot
    assert {"trade", "discard", "claims", "research_turn", "score_turn", "extinguish", "scatter"} <= set(seen)
    # Each Lab Fire asked every scientist holding an extinguisher, in turn order from the lead.
    lead = 2                                   # round 3: the lead has passed left twice from seat 0
    assert asked[:3] == [(lead + k) % 3 for k in range(3)]

    # Every phone shows the same table: round 4 has begun.
    final = table()["version"]
    for page in phones:
        wait_version(page, final)
        assert "Round 4" in page.inner_text("#cp-round")
    for ctx in contexts:
        ctx.close()


def test_the_host_ends_a_game_by_agreement_on_the_phones(browser: Any, server_factory: Any) -> None:
    """Two scientists who only keep and pass (design reading 14: no rule ends that game): the host taps
    "End the game now", confirms once, and every phone shows the game over, its score and the log's
    words; a player's phone never shows the control."""
    need_htmx()
    server = server_factory(games=("engine.compounded:GAME",)).start()
    base = server.url
    status, made = call(base, "POST", "/api/tables", {"game": "compounded", "seed": SEED})
    assert status == 201, made
    code, host = made["code"], made["host_token"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in NAMES[:2]]
    call(base, "POST", f"/api/tables/{code}/start", {"version": call(base, "GET", f"/api/tables/{code}")[1]["version"]},
         host)

    def table(seat: int | None = None) -> dict[str, Any]:
        return call(base, "GET", f"/api/tables/{code}", token=tokens[seat] if seat is not None else None)[1]

    while table()["view"]["round"] < 3:       # round after round with nothing placed: the game goes on
        seat = table()["to_move"][0]
        mine = table(seat)
        quiet = [a for a in mine["actions"] if a["type"] in ("keep", "done", "done_trading", "pass")]
        action = quiet[0] if quiet else mine["actions"][0]
        assert call(base, "POST", f"/api/tables/{code}/actions", {"version": mine["version"], "action": action},
                    tokens[seat])[0] == 200
    assert table()["status"] == "playing"

    pages, contexts = [], []
    for name, value in [(f"labkit_host_{code}", host), *[(f"labkit_seat_{code}", t) for t in tokens]]:
        ctx = browser.new_context(**PHONE)
        ctx.add_cookies([{"name": name, "value": value, "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{base}/t/{code}")
        contexts.append(ctx)
        pages.append(page)
    host_page, players = pages[0], pages[1:]
    label = "End the game now, scored as it stands (everyone agrees)"
    for page in players:
        assert page.get_by_role("button", name=label).count() == 0
    dialogs: list[str] = []

    def confirm(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    host_page.on("dialog", confirm)
    version = table()["version"]
    wait_version(host_page, version)
    host_page.get_by_role("button", name=label).click()
    for page in pages:
        wait_version(page, version + 1)
        page.wait_for_selector("text=The game is over: the scientists agreed to end it here.")
        assert page.locator("#final-score").count() == 1
        assert "The host ended the game, as everyone agreed" in page.locator(".game-log").text_content()
    assert dialogs == ["End the game now for everyone, scored as it stands? Only if every player agrees."]
    assert table()["status"] == "over"
    assert host_page.get_by_role("button", name=label).count() == 0
    for ctx in contexts:
        ctx.close()
