"""Who is at the table (companion/presence.py) and every seat change told.

Each player's phone is in touch while its page is open; a phone silent for
longer than ``PRESENCE_AWAY_S`` shows as away (since when) on every phone,
with a notice, and the host is offered to hand the seat to a bot from there;
the phone back shows as back. A seat handed to a bot, its level changed, and
the seat given back to a person are told in the log and a notice.

The timers are set short here, and the tests wait longer than them."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.companion.conftest import Phone, make_app

BEAT, AWAY = 0.1, 0.6


@pytest.fixture
def table_app(tmp_path: Path, toy: Any) -> Any:
    app = make_app(tmp_path, PRESENCE_BEAT_S=BEAT, PRESENCE_AWAY_S=AWAY, BOT_PACE_S=2, BOT_POLL_S=0.02)
    yield app
    app.extensions["companion_bots"].stop()
    app.extensions["companion_presence"].stop(timeout=2)
    app.extensions["companion_store"].db.close()


def _seated(app: Any) -> tuple[Phone, Phone, Phone, str]:
    host, ada, bo = Phone(app), Phone(app), Phone(app)
    code = host.create()
    ada.join(code, "Ada")
    bo.join(code, "Bo")
    assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
    return host, ada, bo, code


def _presence(page: str) -> dict[str, str]:
    """Each seat's name and what its presence says, from a page."""
    out = {}
    for li in re.findall(r'<li class="player[^"]*">(.*?)</li>', page, re.S):
        name = re.search(r'class="player-name">([^<]+)<', li).group(1)
        said = re.search(r'class="presence (here|away)">([^<]*)<', li)
        out[name] = said.group(2) if said else ""
    return out


def test_a_silent_phone_shows_away_and_back(table_app: Any) -> None:
    host, ada, bo, code = _seated(table_app)
    for phone in (ada, bo):
        phone.get(f"/t/{code}")
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert _presence(page) == {"Ada": "here", "Bo": "here"}
    assert "Hand Ada's seat to a bot (medium)" not in page

    # Bo's phone goes on asking (its page open); Ada's falls silent for longer than the timer.
    deadline = time.monotonic() + 3 * AWAY + 4 * BEAT
    while time.monotonic() < deadline:
        bo.get(f"/t/{code}/live")
        time.sleep(BEAT / 2)
    page = host.get(f"/t/{code}").get_data(as_text=True)
    shown = _presence(page)
    assert shown["Bo"] == "here" and shown["Ada"].startswith("phone away since "), shown
    assert re.search(r"Ada&#39;s phone has been away since \d\d:\d\d\.", page)
    assert "Hand Ada's seat to a bot (medium)" in page                 # the host may hand it on
    assert "Hand Ada's seat to a bot (medium)" not in bo.get(f"/t/{code}").get_data(as_text=True)

    ada.get(f"/t/{code}")                                               # Ada's phone is back
    deadline = time.monotonic() + 5
    while "Ada is back." not in (page := host.get(f"/t/{code}").get_data(as_text=True)):
        assert time.monotonic() < deadline, _presence(page)
        time.sleep(BEAT / 2)
    assert _presence(page)["Ada"] == "here"


def test_the_host_hands_an_away_seat_to_a_bot_from_its_notice(table_app: Any) -> None:
    host, ada, bo, code = _seated(table_app)
    deadline = time.monotonic() + 3 * AWAY + 4 * BEAT
    while time.monotonic() < deadline:
        bo.get(f"/t/{code}/live")
        time.sleep(BEAT / 2)
    page = host.get(f"/t/{code}").get_data(as_text=True)
    form = re.search(r'<form class="inline" hx-post="([^"]+)"[^>]*data-away-seat="0"', page)
    assert form, page
    assert host.post(form.group(1), {"level": "medium"}).status_code == 200
    referee = table_app.extensions["companion_referee"]
    snap = referee.snapshot(code)
    assert snap.seats[0]["bot"] == "greedy" and snap.seats[0]["away_since"] is None
    assert "The host handed Ada's seat to a bot (medium)." in snap.log
    assert snap.table["notice"] == "The host handed Ada's seat to a bot (medium)."


def test_every_seat_change_is_told_in_the_log_and_a_notice(table_app: Any) -> None:
    host, ada, bo, code = _seated(table_app)
    referee = table_app.extensions["companion_referee"]
    assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 200
    assert host.post(f"/t/{code}/seats/1/bot", {"level": "easy"}).status_code == 200
    said = "The host handed Bo's seat to a bot (easy)."
    snap = referee.snapshot(code)
    assert snap.table["notice"] == said and snap.log.index(said) == 1     # after Ada's bet, where it happened
    page = html.unescape(host.get(f"/t/{code}").get_data(as_text=True))
    assert said in page and "Give Bo's seat back to a person (a link for their phone)" in page

    assert host.post(f"/t/{code}/seats/1/bot", {"level": "hard"}).status_code == 200
    snap = referee.snapshot(code)
    assert snap.table["notice"] == "The host changed Bo's bot from easy to hard." and snap.table["notice"] in snap.log

    page = host.post(f"/t/{code}/seats/1/handover").get_data(as_text=True)
    link = re.search(r'data-handover-seat="1">.*?<a href="([^"]+)"', page, re.S).group(1).replace("http://localhost", "")
    assert bo.post(link, htmx=False).status_code == 303
    snap = referee.snapshot(code)
    assert snap.table["notice"] == "Bo's seat went from the bot to a person's phone." and snap.table["notice"] in snap.log
    assert snap.seats[1]["bot"] is None
