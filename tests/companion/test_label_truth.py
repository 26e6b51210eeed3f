"""Controls whose words are what they do, at the moments where an evening's
play found they were not (issue 36), in a real browser on a 360 px phone:

1. Compounded's trade prompt invites a trade only when a trade can be
   opened (it said "Trade with another scientist" when "Done trading" was
   all there was);
2. Lab Notes' "Bond X-Y" targets can be seen (they were a 7 px dot) and a
   tap on one draws that bond;
3. "Change the level of Ada's bot" is set to a level Ada's bot does not
   have (it was set to her own, so the tap was refused);
4. the lobby's bot level stays at the level last chosen (it went back to
   medium after each bot);
5. a used seat link offers no "Take my seat here" (it did, and the tap was
   refused);
6. "Give Ada's seat back" only for a bot that took over a person's seat
   (it was offered for a bot seated in the lobby).

Tests/companion/test_morph_truth.py checks the other half of a control's
truth: that what a phone shows after any number of pushed changes is what
a fresh page shows."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.client import call
from tests.companion.conftest import need_htmx

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


class Site:
    def __init__(self, base: str, browser: Any) -> None:
        self.base, self.browser = base, browser

    def table(self, game: str, seed: int, names: tuple[str, ...], start: bool = True) -> dict[str, Any]:
        status, made = call(self.base, "POST", "/api/tables", {"game": game, "seed": seed})
        assert status == 201, made
        code = made["code"]
        tokens = [call(self.base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in names]
        if start:
            version = self.state(code)["version"]
            assert call(self.base, "POST", f"/api/tables/{code}/start", {"version": version}, made["host_token"])[0] == 200
        return {"code": code, "host": made["host_token"], "tokens": tokens}

    def state(self, code: str, token: str | None = None) -> dict[str, Any]:
        return call(self.base, "GET", f"/api/tables/{code}", token=token)[1]

    def act(self, code: str, token: str, action: dict[str, Any]) -> None:
        version = self.state(code, token)["version"]
        status, out = call(self.base, "POST", f"/api/tables/{code}/actions", {"version": version, "action": action}, token)
        assert status == 200, out

    def phone(self, code: str, seat_token: str | None = None, host: str | None = None) -> Any:
        ctx = self.browser.new_context(**PHONE)
        cookies = []
        if seat_token:
            cookies.append({"name": f"labkit_seat_{code}", "value": seat_token, "url": self.base})
        if host:
            cookies.append({"name": f"labkit_host_{code}", "value": host, "url": self.base})
        if cookies:
            ctx.add_cookies(cookies)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{self.base}/t/{code}")
        page.wait_for_selector("#live-state", state="attached")
        return page


def tap(page: Any, selector: str) -> None:
    """Focus, then tap, as Android does."""
    control = page.locator(selector)
    control.focus()
    control.tap()


def version(page: Any) -> int:
    return int(page.evaluate("() => document.getElementById('live-state').dataset.version"))


def until_version(page: Any, past: int) -> None:
    page.wait_for_selector(f'#live-state:not([data-version="{past}"])', state="attached")


@pytest.fixture(scope="module")
def site(browser: Any, tmp_path_factory: Any) -> Any:
    from tests.conftest import Server

    need_htmx()
    server = Server(tmp_path_factory.mktemp("labels") / "instance",
                    games=("engine.compounded:GAME", "engine.labnotes:GAME")).start()
    yield Site(server.url, browser)
    server.stop()


def test_the_trade_prompt_invites_a_trade_only_when_one_can_be_opened(site: Site) -> None:
    from tests.companion.compounded.conftest import robot

    t = site.table("compounded", 5, ("Ada", "Bo", "Cy"))
    code, tokens, rnd = t["code"], t["tokens"], random.Random(2)
    for _ in range(400):                                   # on to the first free trades, before anyone trades
        now = site.state(code)
        if (now["view"]["deciding"] or {}).get("do") == "trade":
            break
        seat = now["to_move"][0]
        theirs = site.state(code, tokens[seat])
        site.act(code, tokens[seat], robot(theirs["actions"], rnd, (theirs["view"]["deciding"] or {}).get("do")))
    ada = site.phone(code, tokens[0])
    prompt = ada.inner_text("#cp-prompt")
    assert "Trade with another scientist" in prompt and ada.locator("text=Offer a trade to Bo").count() == 1
    for seat in (1, 2):                                    # Bo and Cy are done: only "Done trading" is left
        site.act(code, tokens[seat], {"type": "done_trading"})
    ada.wait_for_function("() => !document.querySelector('#cp-prompt').textContent.includes('Trade with')")
    assert ada.locator("text=Offer a trade to").count() == 0
    assert "Everyone else is done trading" in ada.inner_text("#cp-prompt")
    assert ada.locator("#cp-decision button", has_text="Done trading").count() == 1


def test_a_bond_target_can_be_seen_and_draws_that_bond(site: Site) -> None:
    from tests.companion.labnotes.robot import robot_move

    t = site.table("labnotes", 11, ("Ada", "Bo"))
    code, tokens, rnd = t["code"], t["tokens"], random.Random(3)
    for _ in range(400):
        if any(a["type"] == "bond" for a in site.state(code, tokens[0])["actions"]):
            break
        now = site.state(code)
        seat = rnd.choice(now["to_move"])
        mine = site.state(code, tokens[seat])
        if mine["actions"]:
            site.act(code, tokens[seat], robot_move(mine["actions"], rnd))
    bond = next(a for a in site.state(code, tokens[0])["actions"] if a["type"] == "bond")
    ada = site.phone(code, tokens[0])
    gap = f'svg.sheet[data-mine] .gap[data-gap="{bond["spaces"][0]},{bond["spaces"][1]}"]'
    ada.locator(gap).scroll_into_view_if_needed()
    seen = ada.evaluate("""(sel) => {
      const g = document.querySelector(sel), mark = g.querySelector('.mark'), r = mark.getBoundingClientRect();
      const cs = getComputedStyle(mark);
      return {w: r.width, h: r.height, fill: cs.fill, opacity: parseFloat(cs.opacity), visibility: cs.visibility,
              hit: g.getBoundingClientRect().width, label: g.getAttribute('aria-label')};
    }""", gap)
    assert seen["w"] >= 12 and seen["h"] >= 12, seen                 # a mark to see, not a 7 px dot
    assert seen["opacity"] == 1 and seen["visibility"] == "visible" and seen["fill"] not in ("none", "transparent"), seen
    assert seen["hit"] >= 40, seen
    assert "Bond" in ada.inner_text("#prompt") or "bond" in ada.inner_text("#prompt")
    before = version(ada)
    tap(ada, gap)
    until_version(ada, before)
    shown = site.state(code, tokens[0])["view"]["seats"][0]["bonds"]
    assert any(sorted([a, b]) == sorted(bond["spaces"]) for a, b, _ in shown), shown


def test_the_host_s_seat_controls_say_what_they_do(site: Site) -> None:
    """The lobby keeps the bot level last chosen; mid-game the level menu of a
    bot's seat offers only other levels, and the tap changes it; "Give ...
    back" only for a seat a bot took over from a person."""
    t = site.table("labnotes", 4, ("Ada",), start=False)
    code = t["code"]
    host = site.phone(code, t["tokens"][0], t["host"])
    host.select_option("#bot-level", "hard")
    before = version(host)
    tap(host, "#control-bots button[type=submit]")
    until_version(host, before)
    assert host.input_value("#bot-level") == "hard"           # it did go back to medium
    host.select_option("#bot-level", "easy")
    before = version(host)
    tap(host, "#control-bots button[type=submit]")
    until_version(host, before)
    assert host.input_value("#bot-level") == "easy"
    seats = site.state(code)["seats"]
    assert [s["bot"] for s in seats] == [None, "planner", "random"]

    before = version(host)
    tap(host, "#control-host button.primary")                  # start
    until_version(host, before)
    host.evaluate("() => document.querySelectorAll('#host-tools details').forEach(d => d.open = true)")
    bot = seats[1]["name"]
    level = host.locator(f'form[data-bot-seat="1"] select')
    assert level.input_value() != "hard", level.input_value()   # set to a level the bot does not have
    assert "hard" not in [o.strip() for o in level.locator("option").all_inner_texts()]
    assert host.locator(f"text=Give {bot}'s seat back").count() == 0       # seated in the lobby: never a person's
    assert host.locator(f"text=Give the bot {bot}'s seat to a person").count() == 1
    before = version(host)
    tap(host, 'form[data-bot-seat="1"] button')
    until_version(host, before)
    assert site.state(code)["seats"][1]["bot"] == "greedy"      # medium now: the tap did what it said
    assert f"changed {bot}'s bot from hard to medium" in host.inner_text("#part-notice")

    # Ada's own seat: to a bot, and then "back" is the word
    before = version(host)
    host.evaluate("() => document.querySelectorAll('#host-tools details').forEach(d => d.open = true)")
    tap(host, 'form[data-bot-seat="0"] button')
    until_version(host, before)
    host.evaluate("() => document.querySelectorAll('#host-tools details').forEach(d => d.open = true)")
    assert host.locator("text=Give Ada's seat back to a person").count() == 1


def test_a_used_seat_link_offers_no_seat(site: Site) -> None:
    t = site.table("labnotes", 5, ("Ada", "Bo"))
    code = t["code"]
    host = site.phone(code, t["tokens"][0], t["host"])      # the host makes a link for Bo's new phone
    host.evaluate("() => document.querySelectorAll('#host-tools details').forEach(d => d.open = true)")
    before = version(host)
    host.locator('#host-tools form[hx-post$="/seats/1/handover"] button').tap()
    until_version(host, before)
    link = host.get_attribute('[data-handover-seat="1"] a', "href")
    link = re.sub(r"^https?://[^/]+", site.base, link)
    new = site.browser.new_context(**PHONE).new_page()
    new.goto(link)
    tap(new, "text=Take my seat here")
    new.wait_for_selector("#live-state", state="attached")
    new.goto(link)                                             # the same phone opens the link again
    assert new.locator("text=Take my seat here").count() == 0
    assert "You have Bo's seat on this phone" in new.inner_text("#claim")
    other = site.browser.new_context(**PHONE).new_page()       # another phone with the used link
    other.goto(link)
    assert other.locator("text=Take my seat here").count() == 0
    assert "has been used" in other.inner_text("#claim") and other.locator("text=Watch the table").count() == 1
