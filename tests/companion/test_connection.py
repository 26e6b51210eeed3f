"""What an idle phone says about its connection, in a real browser against
the real server: within 5 s of the server stopping every phone says the
connection is lost (before, only a phone that tapped learned it, and the tap
was lost); the page polls after the first failed reconnect; the banner goes
when the server is back, and the page shows the moves made meanwhile. And
two gestures of companion.js: a move that gives something up asks first
(data-confirm), and a tap on a place no move can use is told, not ignored.
Then the host's way back from a new phone, and a setup choice made on a slow
network before the page's scripts arrived."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

from companion.client import call

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _table(base: str) -> dict[str, Any]:
    status, made = call(base, "POST", "/api/tables", {"game": "toyrace", "seed": 5, "options": {"target": 99}})
    assert status == 201, made
    code = made["code"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    version = call(base, "GET", f"/api/tables/{code}")[1]["version"]
    assert call(base, "POST", f"/api/tables/{code}/start", {"version": version}, made["host_token"])[0] == 200
    return {"code": code, "tokens": tokens}


def wait_until(page: Any, script: str, timeout: float) -> None:
    """Polls ``script`` in the page (wait_for_function evaluates a string,
    which the pages' Content-Security-Policy refuses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"not within {timeout} s: {script}"
        time.sleep(0.1)


def _phone(browser: Any, base: str, code: str, token: str) -> Any:
    ctx = browser.new_context(**PHONE)
    ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": token, "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}/t/{code}")
    page.wait_for_selector("#live-state", state="attached")
    return page


def test_every_idle_phone_says_the_connection_is_lost_within_5_s_and_recovers(browser: Any,
                                                                            server_factory: Any) -> None:
    server = server_factory().start()
    t = _table(server.url)
    ada = _phone(browser, server.url, t["code"], t["tokens"][0])
    bo = _phone(browser, server.url, t["code"], t["tokens"][1])
    time.sleep(1.0)                                          # both streams open
    for page in (ada, bo):
        assert page.query_selector("#banner") is None
    server.stop()
    stopped = time.monotonic()
    for page in (ada, bo):                                   # idle phones: nobody taps
        page.wait_for_selector('#banner[data-kind="network"]', timeout=5000)
    took = time.monotonic() - stopped
    print(f"banner after {took:.2f} s")
    assert took <= 5.0, took
    assert "connection" in ada.inner_text("#banner").lower() or "reached" in ada.inner_text("#banner")

    again = server_factory(port=server.port).start()        # the same database: the table is there
    mine = call(again.url, "GET", f"/api/tables/{t['code']}", token=t["tokens"][1])[1]
    assert call(again.url, "POST", f"/api/tables/{t['code']}/actions",
                {"version": mine["version"], "action": {"type": "bet", "guess": "high"}}, t["tokens"][1])[0] == 200
    for page in (ada, bo):
        wait_until(page, "() => !document.querySelector('#banner')", 15)
        wait_until(page, f"() => document.querySelector('#live-state').dataset.version == {mine['version'] + 1}", 15)


def test_a_silent_drop_is_said_within_5_s(browser: Any, server_factory: Any) -> None:
    """The server stops answering without closing anything (as when a phone
    leaves the Wi-Fi's reach): no error ever comes, only the heartbeats stop."""
    import os
    import signal

    server = server_factory().start()
    t = _table(server.url)
    page = _phone(browser, server.url, t["code"], t["tokens"][0])
    time.sleep(1.0)
    os.killpg(server.proc.pid, signal.SIGSTOP)
    try:
        stopped = time.monotonic()
        page.wait_for_selector('#banner[data-kind="network"]', timeout=8000)
        took = time.monotonic() - stopped
    finally:
        os.killpg(server.proc.pid, signal.SIGCONT)
    assert took <= 5.5, took
    wait_until(page, "() => !document.querySelector('#banner')", 15)       # and it comes back


def test_a_move_that_gives_something_up_asks_once_and_a_useless_tap_is_told(browser: Any,
                                                                            server_factory: Any) -> None:
    server = server_factory().start()
    t = _table(server.url)
    page = _phone(browser, server.url, t["code"], t["tokens"][0])
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    # controls as a game's board draws them (the toy game's board has none of these)
    page.evaluate("""() => {
      const live = document.getElementById('live');
      live.insertAdjacentHTML('beforeend',
        '<button id="giving-up" type="button" data-act=\\'{"type": "bet", "guess": "low"}\\' ' +
        'data-confirm="Finish your turn? You could still draw 2 bonds.">Finish my turn</button>' +
        '<button id="pick" type="button" data-option=\\'{"type": "bet"}\\' data-fill="guess" data-values="high">Bet</button>' +
        '<div id="nowhere" data-target="guess" data-value="sideways" data-label="Sideways">x</div>');
    }""")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss() if len(asked) == 1 else dialog.accept()

    page.on("dialog", answer)
    page.tap("#giving-up")                                   # dismissed: nothing is sent
    page.wait_for_timeout(500)
    assert asked == ["Finish your turn? You could still draw 2 bonds."] and not sent
    page.tap("#nowhere")                                     # no move can use it: said so
    page.wait_for_selector('#banner[data-kind="why"]', timeout=2000)
    assert "Sideways" in page.inner_text("#banner") and not sent
    before = int(page.evaluate("() => document.querySelector('#live-state').dataset.version"))
    page.tap("#giving-up")                                   # accepted: sent once
    wait_until(page, f"() => document.querySelector('#live-state').dataset.version > {before}", 5)
    assert len(asked) == 2 and len([u for u in sent if u.endswith("/act")]) == 1, (asked, sent)


def test_the_host_comes_back_on_a_new_phone_with_the_host_key(browser: Any, server_factory: Any) -> None:
    """The host's phone is lost mid-game: the host key, photographed from the
    host's screen, makes a new phone host; it can then give a seat to a new phone."""
    server = server_factory().start()
    status, made = call(server.url, "POST", "/api/tables", {"game": "toyrace", "seed": 5})
    code = made["code"]
    old = browser.new_context(**PHONE)
    old.add_cookies([{"name": f"labkit_host_{code}", "value": made["host_token"], "url": server.url}])
    host = old.new_page()
    host.goto(f"{server.url}/t/{code}")
    link = host.get_attribute("#host-key a", "href")          # in the lobby the key is shown, open
    assert link and f"/t/{code}/host/" in link and host.is_visible("#host-key .qr-box svg")
    old.close()                                               # the phone is gone

    new = browser.new_context(**PHONE).new_page()
    new.goto(f"{server.url}/t/{code}")
    assert new.query_selector("#control-host") is None        # a stranger's phone: no host buttons
    new.goto(link)
    new.tap("text=Be the host here")
    new.wait_for_selector("#control-host", state="attached")
    assert new.is_visible("text=Start the game") or new.is_visible("text=Undo the last action")


def test_a_setup_choice_made_before_the_scripts_arrive_is_still_sent(browser: Any, server_factory: Any) -> None:
    """On a slow network the lobby is drawn seconds before its scripts run.
    The host who changes a setup menu in that gap gets it sent once they
    arrive (before, the menu showed a choice the table never got)."""
    server = server_factory().start()
    status, made = call(server.url, "POST", "/api/tables", {"game": "toyrace", "seed": 5})
    code = made["code"]
    made_at = call(server.url, "GET", f"/api/tables/{code}")[1]["version"]
    ctx = browser.new_context(**PHONE)
    ctx.add_cookies([{"name": f"labkit_host_{code}", "value": made["host_token"], "url": server.url}])
    host = ctx.new_page()
    slow = ctx.new_cdp_session(host)                          # every request waits 1.5 s
    slow.send("Network.enable")
    slow.send("Network.emulateNetworkConditions",
              {"offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
    host.goto(f"{server.url}/t/{code}", wait_until="commit")
    host.wait_for_selector("#option-target")
    assert host.evaluate("() => !window.htmx")                # the gap: drawn, no script yet
    host.select_option("#option-target", "20")
    wait_until(host, "() => !!window.htmx", 15)
    def chosen() -> bool:                                     # the page as drawn now, for the host
        page = urllib.request.Request(f"{server.url}/t/{code}",
                                      headers={"Cookie": f"labkit_host_{code}={made['host_token']}"})
        with urllib.request.urlopen(page) as answer:
            return '<option value="20" selected>' in answer.read().decode()
    deadline = time.monotonic() + 15
    while not chosen():
        assert time.monotonic() < deadline, "the table never got the host's choice"
        time.sleep(0.2)
    version = call(server.url, "GET", f"/api/tables/{code}")[1]["version"]
    assert host.input_value("#option-target") == "20" and version == made_at + 1   # sent once


def test_an_outage_is_quiet_and_a_move_tapped_meanwhile_is_sent_once_when_back(browser: Any,
                                                                              server_factory: Any) -> None:
    """While the server is down an open page stays quiet (it threw an
    uncaught error a second, and the browser retried its stream every
    second): no uncaught error, a few failed requests, less and less often.
    A move tapped meanwhile is kept, said to be kept, and sent once the
    server is back, with the id it got when tapped: applied once. Another
    tap (not a move) is said not to have been sent."""
    import sys

    server = server_factory(games=("engine.labnotes:GAME",)).start()
    status, made = call(server.url, "POST", "/api/tables", {"game": "labnotes", "seed": 11})
    code = made["code"]
    tokens = [call(server.url, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    version = call(server.url, "GET", f"/api/tables/{code}")[1]["version"]
    assert call(server.url, "POST", f"/api/tables/{code}/start", {"version": version}, made["host_token"])[0] == 200
    ctx = browser.new_context(**PHONE)
    ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": tokens[0], "url": server.url},
                     {"name": f"labkit_host_{code}", "value": made["host_token"], "url": server.url}])
    page = ctx.new_page()
    thrown: list[str] = []
    failed: list[str] = []
    page.on("pageerror", lambda exc: thrown.append(str(exc)))
    page.on("console", lambda m: failed.append(m.text) if "ERR_CONNECTION_REFUSED" in m.text else None)
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector('#live [data-act=\'{"type":"roll"}\']')   # Ada leads: her roll is the move
    time.sleep(1.0)

    server.stop()
    page.wait_for_selector('#banner[data-kind="network"]', timeout=5000)
    page.wait_for_timeout(12_000)                            # an outage longer than every retry step (events
                                                             # reach the test only while it waits in the page)
    print(f"12 s down: {len(thrown)} uncaught errors, {len(failed)} failed requests", file=sys.stderr)
    assert thrown == [], thrown[:5]
    assert len(failed) <= 8, failed                          # asked after it every 1, 2, 3, 4, 5 s: not every second

    page.tap('#live [data-act=\'{"type":"roll"}\']')
    wait_until(page, "() => (document.querySelector('#banner') || {}).textContent.includes('your move is kept')", 3)
    page.tap("#host-tools summary")                          # the host's panel opens (no request)...
    page.evaluate("() => document.querySelector('#host-tools form button').click()")   # ...and a tap there
    wait_until(page, "() => (document.querySelector('#banner') || {}).textContent.includes('That was not sent')", 3)

    again = server_factory(port=server.port, games=("engine.labnotes:GAME",)).start()
    wait_until(page, f"() => document.querySelector('#live-state').dataset.version > {version + 0}", 20)
    table = call(again.url, "GET", f"/api/tables/{code}")[1]
    deadline = time.monotonic() + 10
    while table["moves"] < 1:
        assert time.monotonic() < deadline, table
        time.sleep(0.2)
        table = call(again.url, "GET", f"/api/tables/{code}")[1]
    page.wait_for_timeout(1000)
    table = call(again.url, "GET", f"/api/tables/{code}")[1]
    assert table["moves"] == 1 and table["seats"][0]["bot"] is None, table   # the roll, once; no seat handed over
    assert thrown == [], thrown[:5]
