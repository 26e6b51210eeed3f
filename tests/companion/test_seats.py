"""Seats and what moves them, on the phone pages: a handover link that works
once and waits on the host's screen, leaving and removing seats in the
lobby, the host's setup options, a rematch with the same seats; and the
house's upkeep: old tables forgotten, rate limits shared by workers and read
through a trusted proxy only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.companion.conftest import Phone, make_app


def _lobby(phones: Any, *names: str) -> tuple[str, Phone, list[Phone]]:
    host = phones()
    code = host.create()
    players = []
    for name in names:
        phone = phones()
        assert phone.join(code, name).status_code == 204
        players.append(phone)
    return code, host, players


def _start(code: str, host: Phone) -> Any:
    return host.post(f"/t/{code}/start", {"version": str(host.version(code))})


def _handover_links(page: str) -> dict[int, str]:
    return {int(seat): url for seat, url in
            re.findall(r'data-handover-seat="(\d+)">.*?<a href="([^"]+)"', page, re.S)}


# --- handing a seat to another phone ---------------------------------------------------

def test_a_handover_link_works_once_and_waits_on_the_hosts_screen(phones: Any) -> None:
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    _start(code, host)
    assert ada.post(f"/t/{code}/seats/0/handover").status_code == 403      # only the host
    page = host.post(f"/t/{code}/seats/0/handover").get_data(as_text=True)
    link = _handover_links(page)[0].replace("http://localhost", "")
    assert 'class="qr"' in page and "works once" in page

    # Until the link is used the old phone keeps its seat, and the link stays
    # on the host's screen however the table changes.
    assert bo.act(code, {"type": "bet", "guess": "low"}).status_code == 200
    assert 0 in _handover_links(host.get(f"/t/{code}").get_data(as_text=True))
    new_phone = phones()
    opened = new_phone.get(link)                       # a link preview fetching the page uses nothing up
    assert opened.status_code == 200 and "Take my seat here" in opened.get_data(as_text=True)
    assert ada.version(code) and "(you)" in ada.get(f"/t/{code}").get_data(as_text=True)

    assert new_phone.post(link, htmx=False).status_code == 303
    assert "Your move." in new_phone.get(f"/t/{code}").get_data(as_text=True)
    assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 403   # the old phone is out now
    assert new_phone.act(code, {"type": "bet", "guess": "high"}).status_code == 200
    assert _handover_links(host.get(f"/t/{code}").get_data(as_text=True)) == {}  # used: gone from the screen

    again = phones()
    again.get(link)
    used = again.post(link, htmx=False)
    assert used.status_code == 410 and "works once" in used.get_data(as_text=True)
    assert "(you)" not in again.get(f"/t/{code}").get_data(as_text=True)
    unknown = again.post(f"/t/{code}/claim/not-a-link", htmx=False)
    assert unknown.status_code == 404 and "not valid" in unknown.get_data(as_text=True)
    missing = host.post(f"/t/{code}/seats/7/handover")
    assert missing.status_code == 409 and "no such seat" in missing.get_data(as_text=True)


def test_a_handover_link_expires(tmp_path: Path, toy: Any) -> None:
    app = make_app(tmp_path, HANDOVER_MINUTES=-1)      # made already expired
    host, ada = Phone(app), Phone(app)
    code = host.create()
    ada.join(code, "Ada")
    page = host.post(f"/t/{code}/seats/0/handover").get_data(as_text=True)
    assert _handover_links(page) == {}                 # an expired link is not shown
    with app.extensions["companion_store"].db.connect() as c:
        nonce = c.one("SELECT nonce FROM handovers")["nonce"]
    late = Phone(app)
    late.get(f"/t/{code}/claim/{nonce}")
    answer = late.post(f"/t/{code}/claim/{nonce}", htmx=False)
    assert answer.status_code == 410 and "expired" in answer.get_data(as_text=True)
    assert "(you)" in ada.get(f"/t/{code}").get_data(as_text=True)


# --- seats in the lobby -----------------------------------------------------------------

def _names(html: str, name: str) -> bool:
    """Whether the page says ``name`` as a word: not inside one of the page's
    random tokens (a host key, a form's token), which may hold any letters."""
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])", html) is not None


def test_a_player_leaves_and_the_host_removes_a_seat_in_the_lobby(phones: Any) -> None:
    code, host, (ada, bo, cy) = _lobby(phones, "Ada", "Bo", "Cy")
    left = ada.post(f"/t/{code}/leave", {"version": str(ada.version(code))})
    assert left.status_code == 204 and left.headers["HX-Redirect"] == f"/t/{code}"
    ada.client.delete_cookie(f"labkit_seat_{code}")    # what the browser does with the expired cookie
    page = bo.get(f"/t/{code}").get_data(as_text=True)
    assert not _names(page, "Ada") and re.search(r"Bo</span> <small>\(you\)", page)
    assert "Take a seat" in ada.get(f"/t/{code}").get_data(as_text=True)

    assert bo.post(f"/t/{code}/seats/1/remove", {"version": str(bo.version(code))}).status_code == 403
    removed = host.post(f"/t/{code}/seats/1/remove", {"version": str(host.version(code))})
    assert removed.status_code == 200 and not _names(removed.get_data(as_text=True), "Cy")
    assert "Take a seat" in cy.get(f"/t/{code}").get_data(as_text=True)   # Cy's phone holds no seat now
    stale = host.post(f"/t/{code}/seats/0/remove", {"version": "1"})
    assert stale.status_code == 409 and "changed" in stale.get_data(as_text=True)

    assert ada.join(code, "Ada").status_code == 204
    _start(code, host)
    late = bo.post(f"/t/{code}/leave", {"version": str(bo.version(code))})
    assert late.status_code == 409 and "seats stay" in late.get_data(as_text=True)


def test_a_late_join_says_why(phones: Any) -> None:
    code, host, _ = _lobby(phones, "Ada", "Bo")
    late = phones()
    late.get(f"/t/{code}")                              # the lobby page, loaded before the start
    _start(code, host)
    answer = late.post(f"/t/{code}/join", {"name": "Cy"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 409 and "The game has started" in text and 'role="alert"' in text
    assert "no new players" in late.get(f"/t/{code}").get_data(as_text=True)


# --- the host's setup ----------------------------------------------------------------------

def test_the_host_chooses_the_setup_the_rules_offer(phones: Any, app: Any) -> None:
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert 'name="target"' in page and "Race to" in page and ">Bo</option>" in page
    assert 'name="target"' not in ada.get(f"/t/{code}").get_data(as_text=True)   # players see, do not choose
    assert ada.post(f"/t/{code}/options", {"version": str(ada.version(code)), "target": "6"}).status_code == 403

    bad = host.post(f"/t/{code}/options", {"version": str(host.version(code)), "target": "7"})
    assert bad.status_code == 400 and "Race to: choose one of 6 points, 12 points, 20 points." in bad.get_data(as_text=True)
    chosen = host.post(f"/t/{code}/options", {"version": str(host.version(code)), "target": "6", "lead": "1"})
    assert chosen.status_code == 200
    store = app.extensions["companion_store"]
    assert store.table(code)["options"] == {"target": 6, "lead": 1}
    assert "First to roll: Bo" in ada.get(f"/t/{code}").get_data(as_text=True)

    # a seat option names a player: when the seats move, it is unset
    host.post(f"/t/{code}/seats/0/remove", {"version": str(host.version(code))})
    assert store.table(code)["options"] == {"target": 6}
    phones().join(code, "Cy")
    _start(code, host)
    state = app.extensions["companion_referee"].snapshot(code).state
    assert state["target"] == 6 and state["lead"] == 0


# --- a rematch ------------------------------------------------------------------------------

def _play_to_the_end(app: Any, code: str) -> None:
    referee = app.extensions["companion_referee"]
    for _ in range(200):
        snap = referee.snapshot(code)
        if snap.over:
            return
        seat = snap.to_move()[0]
        referee.act(snap, seat, snap.actions(seat)[0], snap.version)
    raise AssertionError("the race did not end")


def test_a_rematch_keeps_the_seats_on_every_phone(phones: Any, app: Any) -> None:
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    host.post(f"/t/{code}/options", {"version": str(host.version(code)), "target": "6"})
    _start(code, host)
    early = ada.post(f"/t/{code}/rematch")
    assert early.status_code == 409 and "when this game is over" in early.get_data(as_text=True)
    _play_to_the_end(app, code)
    assert "Play again with the same seats" in ada.get(f"/t/{code}").get_data(as_text=True)
    assert phones().post(f"/t/{code}/rematch").status_code == 403          # a watcher cannot

    asked = ada.post(f"/t/{code}/rematch")
    new = asked.headers["HX-Redirect"].rsplit("/", 1)[-1]
    assert asked.status_code == 204 and new != code
    assert bo.post(f"/t/{code}/rematch").headers["HX-Redirect"] == f"/t/{new}"   # one rematch, whoever asks
    assert "Go to the rematch" in host.get(f"/t/{code}").get_data(as_text=True)
    assert host.client.get(f"/t/{code}/rematch").headers["Location"] == f"/t/{new}"

    store = app.extensions["companion_store"]
    assert store.table(new)["options"] == {"target": 6} and store.table(new)["status"] == "lobby"
    assert re.search(r"Ada</span> <small>\(you\)", ada.get(f"/t/{new}").get_data(as_text=True))
    assert re.search(r"Bo</span> <small>\(you\)", bo.get(f"/t/{new}").get_data(as_text=True))
    assert "Start the game" in host.get(f"/t/{new}").get_data(as_text=True)
    assert _start(new, host).status_code == 200


# --- upkeep ------------------------------------------------------------------------------------

def test_old_finished_and_idle_tables_are_forgotten(phones: Any, app: Any) -> None:
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    host.post(f"/t/{code}/options", {"version": str(host.version(code)), "target": "6"})
    _start(code, host)
    _play_to_the_end(app, code)
    idle, _, _ = _lobby(phones, "Cy", "Di")
    fresh, _, _ = _lobby(phones, "Ed", "Flo")
    store = app.extensions["companion_store"]
    assert store.table(code)["status"] == "over"
    with store.db.connect() as c, c.write():
        c.execute("UPDATE game_tables SET updated_at = ? WHERE code = ?", ("2020-01-01T00:00:00.000+00:00", code))
        c.execute("UPDATE game_tables SET updated_at = ? WHERE code = ?", ("2019-01-01T00:00:00.000+00:00", idle))
    phones().create()                                   # making a table cleans as it goes
    assert host.get(f"/t/{code}").status_code == 404
    assert host.get(f"/t/{idle}").status_code == 404
    assert host.get(f"/t/{fresh}").status_code == 200
    with store.db.connect() as c:
        assert c.one("SELECT COUNT(*) AS n FROM actions")["n"] == 0   # the log went with its table


def test_rate_limits_are_shared_by_workers_on_one_database(tmp_path: Path, toy: Any) -> None:
    limits = {"create": (3, 600.0)}
    one, two = (make_app(tmp_path, RATE_LIMITS=limits) for _ in range(2))   # two workers, one database
    assert one.test_client().post("/api/tables", json={"game": "toyrace"}).status_code == 201
    assert two.test_client().post("/api/tables", json={"game": "toyrace"}).status_code == 201
    assert one.test_client().post("/api/tables", json={"game": "toyrace"}).status_code == 201
    limited = two.test_client().post("/api/tables", json={"game": "toyrace"})
    assert limited.status_code == 429 and "wait" in limited.json["error"]


def test_the_client_address_comes_from_a_trusted_proxy_only(tmp_path: Path, toy: Any) -> None:
    limits = {"create": (1, 600.0)}

    def create(app: Any, forwarded: str, remote: str = "10.0.0.2") -> int:
        return app.test_client().post("/api/tables", json={"game": "toyrace"},
                                      headers={"X-Forwarded-For": forwarded},
                                      environ_base={"REMOTE_ADDR": remote}).status_code

    behind = make_app(tmp_path / "a", RATE_LIMITS=limits, TRUSTED_PROXIES="10.0.0.0/24")
    assert create(behind, "203.0.113.5") == 201
    assert create(behind, "203.0.113.6") == 201          # another phone behind the same proxy
    assert create(behind, "203.0.113.5") == 429
    assert create(behind, "198.51.100.1, 203.0.113.5") == 429   # a made-up first hop changes nothing
    assert create(behind, "203.0.113.7", remote="192.0.2.1") == 201   # not from the proxy: its own address...
    assert create(behind, "203.0.113.8", remote="192.0.2.1") == 429   # ...and its header is not believed

    open_server = make_app(tmp_path / "b", RATE_LIMITS=limits)     # no proxy configured
    assert create(open_server, "203.0.113.5") == 201
    assert create(open_server, "203.0.113.6") == 429     # a forged header does not buy another bucket


def test_the_host_gets_back_from_another_phone_with_the_host_key(phones: Any) -> None:
    """Found at a table: a host whose phone lost its cookie left the table
    reading "You are watching" on every phone, for good."""
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    assert _start(code, host).status_code == 200
    page = host.get(f"/t/{code}").get_data(as_text=True)
    link = re.search(rf'href="http://localhost(/t/{code}/host/[\w-]+)"', page)
    assert link and 'id="host-key"' in page and page.count('class="qr"') >= 1
    for other in (ada, bo):                                    # the key is on the host's screen only
        assert "/host/" not in other.get(f"/t/{code}").get_data(as_text=True)

    new = phones()                                             # the host's phone is gone; a new one
    new.get(link.group(1))                                     # a link preview changes nothing
    assert "Undo the last action" not in new.get(f"/t/{code}").get_data(as_text=True)
    answer = new.post(link.group(1), {}, htmx=False)
    assert answer.status_code == 303
    page = new.get(f"/t/{code}").get_data(as_text=True)
    assert "Undo the last action" in page and 'id="host-key"' in page
    moved = new.post(f"/t/{code}/seats/0/handover", {})       # and can give a seat to a new phone
    assert moved.status_code == 200 and f"/t/{code}/claim/" in moved.get_data(as_text=True)

    stranger = phones()
    wrong = stranger.post(f"/t/{code}/host/not-the-key-at-all", {}, htmx=False)
    assert wrong.status_code == 403 and "host key" in wrong.get_data(as_text=True)


def test_a_seated_player_can_invite_a_late_friend_to_watch(phones: Any) -> None:
    code, host, (ada, bo) = _lobby(phones, "Ada", "Bo")
    _start(code, host)
    page = ada.get(f"/t/{code}").get_data(as_text=True)
    invite = page.split('id="invite-watcher"', 1)[1].split("</details>", 1)[0]
    assert f">{code}<" in invite and 'class="qr"' in invite and f"http://localhost/t/{code}" in invite
    watcher = phones()
    assert 'id="invite-watcher"' not in watcher.get(f"/t/{code}").get_data(as_text=True)
