"""An evening at the table, in a real browser against the real server: one
person and bots play a whole game of each game, as a host does on a phone.

Ada opens her table on a phone, takes a seat, puts bots on the others from
the lobby, and waits for a friend longer than any of the server's idle
timers before she starts. During the game she taps her moves (the robot of
each game's tests chooses them; the page sends them, by tapping the control
that says that move where the board has one); the host's undo comes while a
bot is to move; she leaves the table (her page closed) long enough to show
as away, and comes back; the server is stopped and started again mid-game.
The game ends with its score on her phone; she reads it for longer than the
idle timers, asks for a rematch, waits again in its lobby, starts it, and
the bots play.

Every timer the server has is set short here (``TIMERS``) and every wait is
longer than all of them (``WAIT``): a real evening's minutes, in seconds.
Throughout, the page throws no uncaught error."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from playwright.sync_api import Error as PlaywrightError

from companion.client import call
from tests.companion.conftest import need_htmx
from tests.conftest import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TIMERS = {
    "LABKIT_BOT_IDLE_S": "0.5",        # the bots' driver stops after this long with no table to drive
    "LABKIT_BOT_PACE_S": "0.05",       # a bot moves no sooner than this
    "LABKIT_BOT_POLL_S": "0.05",
    "LABKIT_PRESENCE_AWAY_S": "1.5",   # a phone silent this long shows as away...
    "LABKIT_PRESENCE_BEAT_S": "0.25",  # ...told by the worker that heard it this often
    "LABKIT_HEARTBEAT_S": "0.5",       # the stream's heartbeat (which also says the phone is there)
}
WAIT = 2.0
"""Longer than every timer above: the lobby wait, the score read, the time away."""
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


# --- the games: the table, and how Ada chooses her moves --------------------------------

def _labnotes(mine: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    from tests.companion.labnotes.robot import robot_move

    bonds = [a for a in mine["actions"] if a["type"] == "bond"]
    return rnd.choice(bonds) if bonds and rnd.random() < 0.5 else robot_move(mine["actions"], rnd)


def _synthesis(mine: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    from tests.companion.synthesis.conftest import robot

    return robot(mine["actions"], rnd)


def _compounded(mine: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    from tests.companion.compounded.conftest import robot

    answers = [a for a in mine["actions"] if a["type"] in ("accept", "decline")]
    if answers:                                  # a bot's offer: Ada answers it
        return rnd.choice(answers)
    return robot(mine["actions"], rnd, (mine["view"].get("deciding") or {}).get("do"))


def _organicsoup(mine: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    reacts = [a for a in mine["actions"] if a["type"] == "react"]
    return rnd.choice(reacts) if reacts and rnd.random() < 0.7 else rnd.choice(mine["actions"])


EVENINGS: dict[str, tuple[int, int, Callable[[dict[str, Any], random.Random], dict[str, Any]]]] = {
    # game: (seed, seats: Ada and bots, Ada's robot)
    "labnotes": (11, 2, _labnotes),
    "synthesis": (5, 2, _synthesis),
    "compounded": (5, 3, _compounded),     # three: free trades, with the bots' offers to Ada
    "organicsoup": (373, 2, _organicsoup),
}


class Evening:
    def __init__(self, game: str, browser: Any, instance: Path) -> None:
        self.game, self.browser, self.instance = game, browser, instance
        self.server = Server(instance, games=(f"engine.{game}:GAME",), env=TIMERS).start()
        self.base = self.server.url
        self.thrown: list[str] = []
        self.ctx = browser.new_context(**PHONE)
        self.ctx.on("page", self._watch)
        self.page: Any = None

    def _watch(self, page: Any) -> None:
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda exc: self.thrown.append(f"{page.url}: {exc}"))
        page.on("dialog", lambda dialog: dialog.accept())   # "Finish your turn? ...": yes

    def open(self, code: str) -> Any:
        self.page = self.ctx.new_page()
        self.page.goto(f"{self.base}/t/{code}")
        self.page.wait_for_selector("#live-state", state="attached")
        return self.page

    def state(self, code: str, token: str | None = None) -> dict[str, Any]:
        for _ in range(100):
            status, body = call(self.base, "GET", f"/api/tables/{code}", token=token)
            if status == 200:
                return body
            time.sleep(0.1)   # a restart under way
        raise AssertionError(f"the table {code} did not answer")

    def token(self, code: str) -> str:
        return next(c["value"] for c in self.ctx.cookies() if c["name"] == f"labkit_seat_{code}")

    def shown(self) -> int:
        return int(self.live("version"))

    def live(self, what: str) -> str:
        """What Ada's page says of the table now (#live-state: version, status, myTurn)."""
        return self.page.evaluate("(k) => document.getElementById('live-state').dataset[k]", what)

    def tap(self, selector: str) -> None:
        control = self.page.locator(selector).first
        control.focus()
        control.tap()

    def until(self, what: Callable[[], bool], seconds: float, why: str) -> None:
        deadline = time.monotonic() + seconds
        while not what():
            assert time.monotonic() < deadline, f"not within {seconds} s: {why}"
            self.page.wait_for_timeout(50)   # the page's events reach the test while it waits here

    def move(self, code: str, action: dict[str, Any]) -> None:
        """Ada's move, sent by her page: a tap on the control that says it, else the page's own sending."""
        acts = self.page.evaluate("() => [...document.querySelectorAll('#live [data-act]')].map(e => e.dataset.act)")
        index = next((i for i, a in enumerate(acts) if json.loads(a) == action), None)
        if index is None:
            self.page.evaluate("(a) => window.labkit.submit(a, 'actions')", action)
            return
        control = self.page.locator("#live [data-act]").nth(index)
        try:
            control.tap(timeout=2_000)
        except PlaywrightError:   # in a closed panel or under another control: the click itself
            try:
                control.dispatch_event("click", timeout=2_000)
            except PlaywrightError:
                pass              # redrawn meanwhile (a bot moved): the caller looks again

    def lobby(self, code: str, bots: int) -> None:
        """Ada takes a seat and seats the bots, from the lobby on her phone."""
        self.page.fill("#name", "Ada")
        self.tap("#join button.primary")
        self.page.wait_for_selector("#control-seat", state="attached")
        for n in range(bots):
            before = self.shown()
            self.page.select_option("#bot-level", "medium")
            self.tap("#control-bots button[type=submit]")
            self.until(lambda: self.shown() > before, 10, "a bot seated")
        assert len(self.state(code)["seats"]) == bots + 1

    def start(self, code: str) -> None:
        before = self.shown()
        self.tap("#control-host button.primary")
        self.until(lambda: self.state(code)["status"] == "playing", 10, "the game started")
        self.until(lambda: self.shown() > before, 10, "the page shows the start")


@pytest.mark.parametrize("game", list(EVENINGS))
def test_an_evening_of_one_person_and_bots(browser: Any, tmp_path: Path, game: str) -> None:
    from labkit import registry

    need_htmx()
    if game not in registry.games():
        pytest.skip(f"{game} is not registered")
    seed, seats, choose = EVENINGS[game]
    evening = Evening(game, browser, tmp_path / "instance")
    try:
        _play_the_evening(evening, seed, seats, choose)
    finally:
        evening.server.stop()
    assert evening.thrown == [], evening.thrown[:5]


def _play_the_evening(ev: Evening, seed: int, seats: int, choose: Callable[..., dict[str, Any]]) -> None:
    status, made = call(ev.base, "POST", "/api/tables", {"game": ev.game, "seed": seed})
    assert status == 201, made
    code = made["code"]
    ev.ctx.add_cookies([{"name": f"labkit_host_{code}", "value": made["host_token"], "url": ev.base}])
    ev.open(code)
    ev.lobby(code, seats - 1)
    ev.page.wait_for_timeout(WAIT * 1000)                     # a friend looks for the link; nobody comes
    ev.start(code)
    ada = ev.token(code)
    rnd = random.Random(seed)

    moved = 0
    undone = left = restarted = offered = False
    for _ in range(5000):
        # Ada's phone says when it is her move; the bots' moves arrive on its stream meanwhile
        # (a bot asleep here is the bug this test is for: the wait fails)
        ev.until(lambda: ev.live("status") == "over" or ev.live("myTurn") == "true", 20,
                 "Ada's move or the end (the bots must move)")
        if ev.live("status") == "over":
            break
        mine = ev.state(code, ada)
        if 0 not in mine["to_move"] or not mine["actions"]:
            ev.page.wait_for_timeout(50)
            continue
        if not offered and any(a["type"] == "accept" for a in mine["actions"]):
            # a bot's trade offer to Ada: it waits for her answer, however long she reads it
            ev.page.wait_for_timeout(WAIT * 1000)
            assert any(a["type"] == "accept" for a in ev.state(code, ada)["actions"]), "the offer went away"
            offered = True
            continue
        before = mine["version"]
        ev.move(code, choose(mine, rnd))
        try:
            ev.until(lambda: ev.shown() > before, 5, "Ada's move arrived")
        except AssertionError:
            continue            # a tap that met a change (redrawn under the finger): look again
        moved += 1

        if not undone and moved >= 3 and ev.live("myTurn") == "false":
            _undo_while_a_bot_is_to_move(ev, code)
            undone = True
        elif not left and moved >= 6:
            _leave_and_come_back(ev, code)
            left = True
        elif not restarted and moved >= 10:
            _restart_the_server(ev, code)
            restarted = True
    final = ev.state(code)
    print(f"EVENING {ev.game}: Ada made {moved} moves, the table {final['moves']}")
    assert final["status"] == "over", f"not finished: {final['moves']} moves"
    assert undone and left and restarted, (undone, left, restarted)
    ev.until(lambda: ev.shown() >= final["version"], 20, "the page shows the end")
    assert ev.page.locator("#control-rematch").count() == 1
    _rematch_after_reading_the_score(ev, code, choose, rnd)


def _undo_while_a_bot_is_to_move(ev: Evening, code: str) -> None:
    """The host's undo, tapped while a bot is to move (it may move before the
    tap lands): it is not refused, and what it took back is said."""
    with ev.page.expect_response(lambda r: r.url.endswith("/undo")) as answer:
        ev.tap("#part-host form button:has-text('Undo')")
    assert answer.value.status == 200, answer.value.text()[:300]       # not refused because a bot moved
    assert "The host took back a move" in answer.value.text()          # and every phone is told what


def _leave_and_come_back(ev: Evening, code: str) -> None:
    """Ada's phone leaves the table longer than the away timer: another
    phone watching sees her away; she comes back, and is there again."""
    ev.page.close()
    watcher = ev.browser.new_context(**PHONE).new_page()
    watcher.goto(f"{ev.base}/t/{code}")
    deadline = time.monotonic() + WAIT + 5
    while "phone away since" not in watcher.inner_text("#part-players"):
        assert time.monotonic() < deadline, watcher.inner_text("#part-players")
        watcher.wait_for_timeout(100)
    ev.open(code)                                             # back
    while "phone away since" in watcher.inner_text("#part-players"):
        assert time.monotonic() < deadline + 10, watcher.inner_text("#part-players")
        watcher.wait_for_timeout(100)
    watcher.context.close()


def _restart_the_server(ev: Evening, code: str) -> None:
    """The server stops mid-game and starts again: Ada's page says the
    connection is lost, then shows the table again; the bots play on."""
    ev.server.stop()
    ev.page.wait_for_selector('#banner[data-kind="network"]', timeout=10_000)
    ev.server = Server(ev.instance, port=ev.server.port, games=ev.server.games, env=TIMERS).start()
    ev.until(lambda: ev.page.locator("#banner").count() == 0, 30, "the page found the table again")


def _rematch_after_reading_the_score(ev: Evening, code: str, choose: Callable[..., dict[str, Any]],
                                     rnd: random.Random) -> None:
    ev.page.wait_for_timeout(WAIT * 1000)                     # everyone reads the score
    ev.tap("#control-rematch button.primary")
    ev.page.wait_for_url(lambda url: code not in url, timeout=20_000)
    new = ev.page.url.rstrip("/").rsplit("/", 1)[-1]
    ev.page.wait_for_selector("#control-host", state="attached")
    ev.page.wait_for_timeout(WAIT * 1000)                     # the rematch's lobby: a moment's talk
    ev.start(new)
    ada = ev.token(new)
    hers = 0
    for _ in range(50):                                       # until a bot has moved: they are awake
        now = ev.state(new)
        if now["moves"] > hers:
            return
        if 0 in now["to_move"]:
            mine = ev.state(new, ada)
            if mine["actions"]:
                ev.move(new, choose(mine, rnd))
                hers += 1
        ev.until(lambda: ev.state(new)["version"] > now["version"], 20, "the rematch moved on")
    raise AssertionError("no bot moved in the rematch")
