"""Bots at a table on phones: Playwright driving Debian's Chromium against the
real server, 390 x 844, with taps. The host puts a bot on a seat in the
lobby, Lin plays a round against it on her phone, then the host hands
Lin's seat to a bot mid-game (her phone becomes a watcher's while the bot
plays it) and gives it back to her through a seat link."""

from __future__ import annotations

from typing import Any

import pytest

from tests.companion.conftest import need_htmx
from tests.companion.labnotes.test_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _log_lines(page: Any, name: str) -> int:
    return page.locator("#part-log li", has_text=f"{name}:").count()


def test_a_bot_at_the_table_and_a_seat_handed_to_a_bot_and_back(browser: Any, server_factory: Any,
                                                                 monkeypatch: Any) -> None:
    need_htmx()
    monkeypatch.setenv("LABKIT_BOT_PACE_S", "0.3")   # read by the server's own config (LABKIT_*)
    server = server_factory().start()
    base = server.url
    host_ctx, lin_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    host, lin = host_ctx.new_page(), lin_ctx.new_page()
    for page in (host, lin):
        page.set_default_timeout(10_000)
    host.on("dialog", lambda dialog: dialog.accept())

    host.goto(base + "/")
    host.get_by_role("button", name="Toy Race").tap()
    host.wait_for_selector(".big-code")
    code = host.inner_text(".big-code").strip()
    version = host.evaluate("document.getElementById('live-state').dataset.version")
    host.select_option("#option-target", "20")            # a longer race, so the game outlasts the test
    host.wait_for_function(f"document.getElementById('live-state').dataset.version !== '{version}'")

    lin.goto(f"{base}/t/{code}")
    lin.fill("#name", "Lin")
    lin.get_by_role("button", name="Take a seat").tap()
    lin.wait_for_selector("text=You are seated")
    assert lin.locator("#control-bots").count() == 0       # the bot control is the host's alone

    # The host puts an easy bot on the next free seat: every phone shows it by name and level.
    host.wait_for_selector("text=Lin")
    host.select_option("#bot-level", "easy")
    host.get_by_role("button", name="Put a bot on the next free seat").tap()
    lin.wait_for_selector("text=Ada (bot, easy)")
    host.get_by_role("button", name="Start the game").tap()

    # Lin plays a round against Ada: her bet, Ada's (a moment later, on its own), Lin's roll.
    lin.wait_for_selector("text=Your move.")
    lin.locator("#control-actions button.action").first.tap()
    lin.wait_for_function("document.querySelectorAll('#part-log li').length >= 2")
    assert _log_lines(lin, "Ada") == 1                    # the bot's move is logged like anyone's
    lin.wait_for_selector("#control-actions button.action")
    lin.locator("#control-actions button.action").first.tap()     # the lead rolls
    lin.wait_for_function("document.querySelectorAll('#part-log li').length >= 3")
    assert lin.locator("#part-players", has_text="Ada (bot, easy)").count() == 1

    # Lin has to go: the host hands her seat to a bot. Her phone watches; the bot plays under her name.
    lin_moves = _log_lines(host, "Lin")
    host.locator("#control-bots summary").tap()
    host.get_by_role("button", name="Hand Lin's seat to a bot").tap()
    lin.wait_for_selector("text=Lin (bot, medium)")
    lin.wait_for_selector("text=You are watching")
    assert lin.locator("#control-actions button.action").count() == 0
    host.wait_for_function(f"[...document.querySelectorAll('#part-log li')]"
                           f".filter(li => li.textContent.includes('Lin:')).length > {lin_moves}")

    # Lin is back: the host makes a link for the bot's seat; Lin's phone opens it and takes the seat.
    host.locator("#host-tools summary", has_text="A player changes phone").tap()
    host.get_by_role("button", name="Give Lin's seat back to a person (a link for their phone)").tap()
    link = host.locator('.handover[data-handover-seat="0"] a').get_attribute("href")
    lin.goto(link)
    lin.get_by_role("button", name="Take my seat here").tap()
    lin.wait_for_selector("#part-players .me")
    assert lin.locator("#part-players", has_text="(bot, medium)").count() == 0
    lin.wait_for_selector("text=Your move.")
    before = _log_lines(lin, "Lin")
    lin.locator("#control-actions button.action").first.tap()
    lin.wait_for_function(f"[...document.querySelectorAll('#part-log li')]"
                          f".filter(li => li.textContent.includes('Lin:')).length > {before}")
    for ctx in (host_ctx, lin_ctx):
        ctx.close()
