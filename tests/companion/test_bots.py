"""Bots at the table (companion.bots, companion.bot_seats): the host seats
bots in the lobby, a table of bots plays every game to its end through the
referee, a bot's moves are the ones its seed and decision count give, a
restarted server's bots pick up where they were, a dead bot worker is
replaced, and a seat goes to a bot mid-game and back to a person.

Bots move at pace 0 here, at the random and greedy levels (``easy``,
``medium``), so that the whole file takes seconds."""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from engine.bots import choose
from engine.bots.stream import decision_rng
from companion.bot_seats import LEVELS
from labkit import registry
from tests.companion.conftest import Phone, make_app

GAMES = ["toyrace", *registry.names()]


@pytest.fixture
def bot_app(tmp_path: Path, toy: Any) -> Iterator[Any]:
    app = make_app(tmp_path, BOT_PACE_S=0, BOT_POLL_S=0.05)
    yield app
    app.extensions["companion_bots"].stop()
    app.extensions["companion_store"].db.close()


def _wait(what: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _bot_table(app: Any, game: str, levels: list[str], host: Phone | None = None) -> str:
    """A table of bots only, started, through the host's own page."""
    host = host or Phone(app)
    code = host.create(game)
    for level in levels:
        assert host.post(f"/t/{code}/bots", {"level": level}).status_code == 200
    started = host.post(f"/t/{code}/start", {"version": str(host.version(code))})
    assert started.status_code == 200, started.data
    return code


def _check_moves(referee: Any, code: str) -> None:
    """Every logged move is a legal one, and every bot's move is what its
    level chooses on the state before it, from the stream of (the table's
    seed, its seat, the version it decided on: the one before its row's):
    reproducible from the log."""
    snap = referee.snapshot(code)
    game, table = snap.game, snap.table
    # The bots go on playing after the snapshot: replay only the moves it holds.
    rows = [r for r in referee.store.log(table["id"]) if r.seq <= snap.moves]
    assert len(rows) == snap.moves
    levels = {s["seat"]: s["bot"] for s in snap.seats}
    state = game.setup(table["players"], table["seed"], table["options"])
    for row in rows:
        if levels.get(row.seat):
            rng = decision_rng(table["seed"], row.seat, row.version - 1)
            assert choose(game, state, row.seat, levels[row.seat], rng) == row.action, row.seq
        state = game.apply(state, row.seat, row.action)
        game.check(state)
    assert game.to_dict(state) == game.to_dict(snap.state)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_bots_plays_to_the_end(bot_app: Any, game: str) -> None:
    code = _bot_table(bot_app, game, ["easy", "medium"])
    referee = bot_app.extensions["companion_referee"]
    _wait(lambda: referee.snapshot(code).over)
    snap = referee.snapshot(code)
    assert [s["bot"] for s in snap.seats] == ["random", "greedy"]
    assert snap.result() is not None and len(referee.store.log(snap.table["id"])) == snap.moves > 0
    _check_moves(referee, code)
    page = Phone(bot_app).get(f"/t/{code}").get_data(as_text=True)
    assert "Ada (bot, easy)" in page and "Bohr (bot, medium)" in page


def test_the_host_seats_bots_with_their_level_and_a_phone_sees_no_control_of_theirs(bot_app: Any) -> None:
    host, ada = Phone(bot_app), Phone(bot_app)
    code = host.create()
    lobby = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Put a bot on the next free seat" in lobby
    assert "Put a bot on the next free seat" not in ada.get(f"/t/{code}").get_data(as_text=True)  # host only
    assert ada.post(f"/t/{code}/bots", {"level": "easy"}).status_code == 403
    bad = host.post(f"/t/{code}/bots", {"level": "grandmaster"})
    assert bad.status_code == 400 and "Pick a bot level: easy, medium or hard." in bad.get_data(as_text=True)
    assert host.post(f"/t/{code}/bots", {}).status_code == 400
    assert host.post(f"/t/{code}/bots", {"level": "medium", "name": "Marie"}).status_code == 200
    assert host.post(f"/t/{code}/bots", {"level": "hard", "name": "marie"}).status_code == 409  # names differ
    ada.join(code, "Ada")
    assert host.post(f"/t/{code}/bots", {"level": "easy"}).status_code == 200
    page = ada.get(f"/t/{code}").get_data(as_text=True)
    assert "Marie (bot, medium)" in page and "Bohr (bot, easy)" in page   # "Ada" was taken: the next name
    full = host.post(f"/t/{code}/bots", {"level": "easy"})
    assert full.status_code == 409 and "full" in full.get_data(as_text=True)
    # The table's stored state says who is a bot; the API shows it beside the name.
    seats = bot_app.test_client().get(f"/api/tables/{code}").json["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Marie", "greedy"), ("Ada", None), ("Bohr", "random")]
    # A bot's seat is removed like anyone's.
    assert host.post(f"/t/{code}/seats/2/remove", {"version": str(host.version(code))}).status_code == 200
    assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
    # Solo: Ada (seat 2) plays against Marie (seat 1); the bot's moves come without a control on anyone's phone.
    referee = bot_app.extensions["companion_referee"]
    deadline = time.monotonic() + 30          # the bot's worker process takes a moment to start
    while time.monotonic() < deadline:
        snap = referee.snapshot(code)
        seats = {row.seat for row in referee.store.log(snap.table["id"])}
        if snap.over or (seats == {0, 1} and snap.moves >= 6):
            break
        if 1 in snap.to_move():   # on the version read: the bot may have moved since (a conflict then)
            assert ada.act(code, snap.actions(1)[0], version=snap.version).status_code in (200, 409)
        else:
            watcher = Phone(bot_app).get(f"/t/{code}").get_data(as_text=True)
            assert 'class="action"' not in watcher     # a watcher's page: no control, the bot's none either
            time.sleep(0.02)
    assert any(row.seat == 0 for row in referee.store.log(snap.table["id"]))
    assert any(row.seat == 1 for row in referee.store.log(snap.table["id"]))
    _check_moves(referee, code)


def _ada_against_a_bot(app: Any) -> tuple[Phone, Phone, str]:
    """A toy race started with Ada on seat 0 and an easy bot on seat 1: the host's and Ada's phones."""
    host, ada = Phone(app), Phone(app)
    code = host.create()
    ada.join(code, "Ada")
    host.post(f"/t/{code}/bots", {"level": "easy"})
    host.post(f"/t/{code}/start", {"version": str(host.version(code))})
    return host, ada, code


def test_bots_move_at_a_readable_pace(tmp_path: Path, toy: Any) -> None:
    app = make_app(tmp_path, BOT_PACE_S=0.4, BOT_POLL_S=0.05)
    try:
        host, ada, code = _ada_against_a_bot(app)
        referee = app.extensions["companion_referee"]
        table_id = referee.snapshot(code).table["id"]

        def bot_moves() -> int:
            return sum(row.seat == 1 for row in referee.store.log(table_id))

        assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 200
        _wait(lambda: bot_moves() == 1)                      # its worker is started now
        assert ada.act(code, {"type": "roll"}).status_code == 200   # Ada leads: the next round's bets open
        rolled = time.monotonic()
        _wait(lambda: bot_moves() == 2)
        assert time.monotonic() - rolled >= 0.35
    finally:
        app.extensions["companion_bots"].stop()
        app.extensions["companion_store"].db.close()


def test_after_an_undo_a_bot_decides_afresh_after_the_usual_pace(tmp_path: Path, toy: Any) -> None:
    """The host takes back the bot's move: the bot decides again on the undo's
    own version (a fresh stream, not a replay of what was taken back), no
    sooner than its pace after the undo."""
    app = make_app(tmp_path, BOT_PACE_S=0.3, BOT_POLL_S=0.02)
    try:
        host, ada, code = _ada_against_a_bot(app)
        referee = app.extensions["companion_referee"]
        _wait(lambda: referee.snapshot(code).moves == 1)            # the bot's bet
        assert host.post(f"/t/{code}/undo", {"version": str(host.version(code))}).status_code == 200
        undone, undo_version = time.monotonic(), referee.snapshot(code).version
        _wait(lambda: referee.snapshot(code).moves == 1)            # its bet, decided again
        assert time.monotonic() - undone >= 0.28
        row = referee.store.log(referee.snapshot(code).table["id"])[0]
        assert row.seat == 1 and row.version == undo_version + 1   # decided on the undo's version
        _check_moves(referee, code)
    finally:
        app.extensions["companion_bots"].stop()
        app.extensions["companion_store"].db.close()


def test_the_host_s_undo_wins_over_the_bots_that_moved_meanwhile(tmp_path: Path, toy: Any) -> None:
    """The host saw their own move and tapped undo; a bot moved in between.
    The undo takes back the host's move and the bot's after it (which
    followed from it), rather than being refused or taking back the bot's
    alone. A person's move in between is still a conflict."""
    app = make_app(tmp_path, BOT_PACE_S=0.05, BOT_POLL_S=0.02)
    try:
        host, ada, code = _ada_against_a_bot(app)
        referee = app.extensions["companion_referee"]
        _wait(lambda: referee.snapshot(code).moves == 1 and 0 in referee.snapshot(code).to_move())
        assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 200
        assert ada.act(code, {"type": "roll"}).status_code == 200
        seen = referee.snapshot(code).version                       # the host's phone shows Ada's roll
        _wait(lambda: referee.snapshot(code).moves == 4)            # ...and the bot bets on the next round
        undone = host.post(f"/t/{code}/undo", {"version": str(seen)})
        assert undone.status_code == 200, undone.data
        snap = referee.snapshot(code)
        assert snap.moves == 2                                      # Ada's roll and the bot's bet after it: gone
        assert snap.table["notice"].startswith("The host took back a move: Ada")
        assert "(and the move Bohr made after it)" in snap.table["notice"]
        assert len(snap.log) == len(referee.snapshot(code).log) and snap.to_move() == [0]
        # A person's move since the host looked is no bot's: the undo is refused, the table unchanged.
        seen = snap.version
        assert ada.act(code, {"type": "roll"}, version=seen).status_code == 200
        moves = referee.snapshot(code).moves
        refused = host.post(f"/t/{code}/undo", {"version": str(seen)})
        assert refused.status_code == 409 and referee.snapshot(code).moves >= moves
    finally:
        app.extensions["companion_bots"].stop()
        app.extensions["companion_store"].db.close()


def test_bots_wake_after_waiting_longer_than_their_idle_timer(tmp_path: Path, toy: Any) -> None:
    """The host seats bots and waits in the lobby longer than the bots'
    idle timer, starts: the bots play. The game ends, the host looks at the
    score longer than the timer, asks for a rematch, waits again, starts:
    the bots play. A finished game undone after the timer: the bots finish it."""
    idle = 0.3
    app = make_app(tmp_path, BOT_PACE_S=0, BOT_POLL_S=0.02, BOT_IDLE_S=idle)
    driver, referee = app.extensions["companion_bots"], app.extensions["companion_referee"]
    assert driver.idle == idle
    try:
        host = Phone(app)
        code = host.create()
        for level in ("easy", "medium"):
            host.post(f"/t/{code}/bots", {"level": level})
        time.sleep(3 * idle)                                       # a friend looks for the link
        assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
        _wait(lambda: referee.snapshot(code).over, 20)

        time.sleep(3 * idle)                                       # everyone reads the score
        assert not driver.running                                  # nothing to drive: the driver stopped
        assert host.post(f"/t/{code}/rematch", htmx=False).status_code == 303
        new = referee.snapshot(code).table["rematch"]
        time.sleep(3 * idle)
        assert host.post(f"/t/{new}/start", {"version": str(host.version(new))}).status_code == 200
        _wait(lambda: referee.snapshot(new).over, 20)
        _check_moves(referee, new)

        time.sleep(3 * idle)
        assert not driver.running
        assert host.post(f"/t/{new}/undo", {"version": str(host.version(new))}).status_code == 200
        assert not referee.snapshot(new).over
        _wait(lambda: referee.snapshot(new).over, 20)
    finally:
        driver.stop()
        app.extensions["companion_store"].db.close()


def test_a_restarted_server_s_bots_pick_up_where_they_were(tmp_path: Path, toy: Any, database_url: str) -> None:
    first = make_app(tmp_path, database_url, BOT_PACE_S=0.01, BOT_POLL_S=0.05)
    code = _bot_table(first, "labnotes", ["medium", "easy", "medium"])
    referee = first.extensions["companion_referee"]
    _wait(lambda: referee.snapshot(code).moves >= 10)
    first.extensions["companion_bots"].stop()            # the server goes away mid-game
    first.extensions["companion_store"].db.close()
    stopped_at = referee.snapshot(code).moves
    assert not referee.snapshot(code).over

    second = make_app(tmp_path, database_url, BOT_PACE_S=0, BOT_POLL_S=0.05)   # a new server, the same database
    try:
        assert second.extensions["companion_bots"].running
        again = second.extensions["companion_referee"]
        _wait(lambda: again.snapshot(code).over)
        assert again.snapshot(code).moves > stopped_at
        _check_moves(again, code)
    finally:
        second.extensions["companion_bots"].stop()
        second.extensions["companion_store"].db.close()


def test_a_bot_worker_that_dies_is_replaced_and_the_table_plays_on(tmp_path: Path, toy: Any, caplog: Any) -> None:
    app = make_app(tmp_path, BOT_PACE_S=0.01, BOT_POLL_S=0.05)
    try:
        code = _bot_table(app, "labnotes", ["easy", "easy"])
        referee = app.extensions["companion_referee"]
        _wait(lambda: referee.snapshot(code).moves >= 5)
        workers = [p for p in multiprocessing.active_children() if p.pid]
        assert workers
        for p in workers:
            os.kill(p.pid, signal.SIGKILL)
        _wait(lambda: referee.snapshot(code).over)
        assert "a bot worker died; starting another" in caplog.text
        _check_moves(referee, code)
    finally:
        app.extensions["companion_bots"].stop()
        app.extensions["companion_store"].db.close()


def _handover_link(page: str, seat: int) -> str:
    links = dict(re.findall(r'data-handover-seat="(\d+)">.*?<a href="([^"]+)"', page, re.S))
    return links[str(seat)].replace("http://localhost", "")


def test_a_seat_goes_to_a_bot_mid_game_and_back_to_a_person(bot_app: Any) -> None:
    host, ada, bo = Phone(bot_app), Phone(bot_app), Phone(bot_app)
    code = host.create()
    ada.join(code, "Ada")
    bo.join(code, "Bo")
    lobby_try = host.post(f"/t/{code}/seats/1/bot", {"level": "easy"})
    assert lobby_try.status_code == 409                   # in the lobby, a bot takes a free seat instead
    host.post(f"/t/{code}/start", {"version": str(host.version(code))})
    referee = bot_app.extensions["companion_referee"]
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Hand Bo's seat to a bot" in page
    assert bo.post(f"/t/{code}/seats/1/bot", {"level": "easy"}).status_code == 403   # host only
    assert host.post(f"/t/{code}/seats/1/bot", {"level": "nope"}).status_code == 400
    assert host.post(f"/t/{code}/seats/9/bot", {"level": "easy"}).status_code == 409

    # Bo left: the host hands the seat to a bot; Bo's phone is out, the bot plays it under Bo's name.
    assert host.post(f"/t/{code}/seats/1/bot", {"level": "easy"}).status_code == 200
    assert "Bo (bot, easy)" in ada.get(f"/t/{code}").get_data(as_text=True)
    assert bo.act(code, {"type": "bet", "guess": "low"}).status_code == 403
    assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 200
    table_id = referee.snapshot(code).table["id"]
    _wait(lambda: any(r.seat == 1 for r in referee.store.log(table_id)))

    # And back: the host's link for the bot's seat, opened on Bo's phone; the bot keeps it until then.
    page = host.post(f"/t/{code}/seats/1/handover").get_data(as_text=True)
    assert "Give Bo's seat back to a person (a link for their phone)" in page
    link = _handover_link(page, 1)
    assert referee.snapshot(code).seats[1]["bot"] == "random"
    assert bo.post(link, htmx=False).status_code == 303
    snap = referee.snapshot(code)
    assert snap.seats[1]["bot"] is None and "(bot" not in bo.get(f"/t/{code}").get_data(as_text=True)
    # Nobody plays Bo's seat now but Bo's phone.
    for _ in range(40):
        snap = referee.snapshot(code)
        if snap.over or 1 in snap.to_move():
            break
        if 0 in snap.to_move():
            assert ada.act(code, snap.actions(0)[0], version=snap.version).status_code in (200, 409)
        time.sleep(0.02)
    moves = snap.moves
    time.sleep(0.3)
    assert referee.snapshot(code).moves == moves
    if not snap.over:
        assert "Your move." in bo.get(f"/t/{code}").get_data(as_text=True)
        assert bo.act(code, snap.actions(1)[0]).status_code == 200


def test_a_rematch_keeps_the_bots_and_a_seat_given_a_new_secret_is_a_persons(bot_app: Any) -> None:
    host = Phone(bot_app)
    code = _bot_table(bot_app, "toyrace", ["easy", "medium"], host)
    referee = bot_app.extensions["companion_referee"]
    _wait(lambda: referee.snapshot(code).over)
    assert host.post(f"/t/{code}/rematch", htmx=False).status_code == 303
    new = referee.snapshot(code).table["rematch"]
    assert [s["bot"] for s in referee.snapshot(new).seats] == ["random", "greedy"]
    assert referee.new_seat_token(new, 1)                # the API's "new token": for a person's device
    assert [s["bot"] for s in referee.snapshot(new).seats] == ["random", None]


def test_the_level_words_name_every_engine_level() -> None:
    from engine.bots import LEVELS as ENGINE

    assert sorted(LEVELS.values()) == sorted(ENGINE) and list(LEVELS) == ["easy", "medium", "hard"]


def test_bots_through_the_api(bot_app: Any) -> None:
    """The host's token seats a bot in the lobby and hands a seat to one mid-game (what the
    load bench and other programs use); each answer is described by the OpenAPI document."""
    from tests.companion.conftest import Api
    from tests.companion.test_api import check

    api = Api(bot_app.test_client())
    t = api.table("toyrace", players=["Ann"], start=False)
    code, host = t["code"], t["host"]
    url = f"/api/tables/{code}/bots"
    assert check(bot_app, "POST", url, api.call("POST", url, {"level": "hard"})).status_code == 401
    refused = check(bot_app, "POST", url, api.call("POST", url, {"level": "genius"}, host))
    assert refused.status_code == 400 and "easy, medium or hard" in refused.json["error"]
    added = check(bot_app, "POST", url, api.call("POST", url, {"level": "medium", "name": "Marie"}, host))
    assert added.status_code == 201 and [s["bot"] for s in added.json["seats"]] == [None, "greedy"]
    started = api.call("POST", f"/api/tables/{code}/start", {"version": added.json["version"]}, host)
    assert started.status_code == 200, started.json
    handed = f"/api/tables/{code}/seats/0/bot"
    response = check(bot_app, "POST", handed, api.call("POST", handed, {"level": "easy"}, host))
    assert response.status_code == 200 and [s["bot"] for s in response.json["seats"]] == ["random", "greedy"]
    assert api.act(code, t["tokens"][0], {"type": "bet", "guess": "high"}).status_code == 403  # Ann's token went with the seat
    referee = bot_app.extensions["companion_referee"]
    _wait(lambda: referee.snapshot(code).over)
    _check_moves(referee, code)


def test_a_hard_bot_stops_thinking_at_its_time_limit(monkeypatch: Any) -> None:
    """BOT_SECONDS: the worker lends the planner its clock; a clock that
    says each look took a second stops a 200-future search after the first
    round of futures, and the move is still a legal one."""
    import itertools
    import types

    from companion import bot_worker
    from engine.bots import Budget, planner

    ticks = itertools.count()
    monkeypatch.setattr(bot_worker, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    played = []
    future = planner._future
    monkeypatch.setattr(planner, "_future", lambda *a, **k: played.append(1) or future(*a, **k))
    desc = registry.find("labnotes")
    from labkit.cardsets import new_game

    game = new_game(desc)
    state = game.setup(2, 4)
    while len(game.proposals(state, seat := game.to_move(state)[0])) < 6:   # a decision with a choice
        state = game.apply(state, seat, game.actions(state, seat)[0])
    action = bot_worker.think(desc, game.to_dict(state), seat, "planner", 9, Budget(iterations=200, seconds=3.0))
    assert action in game.actions(state, seat)
    assert 0 < len(played) < 20, len(played)
