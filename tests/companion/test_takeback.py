"""A player takes back their own last move (companion/takeback.py,
docs/design/takeback.md): over real Lab Notes tables, on SQLite and
PostgreSQL, and the rule's hidden-information reading over a small game
that draws from a hidden deck."""

from __future__ import annotations

import copy
import re
from typing import Any, Mapping

import pytest

from companion import takeback
from companion.db import Database
from companion.errors import Conflict, Refused
from companion.referee import Referee
from companion.store import Store
from engine.core import Game, IllegalAction, Result
from labkit import registry


@pytest.fixture
def referee(database_url: str) -> Any:
    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")
    database = Database(database_url)
    database.init_schema()
    yield Referee(Store(database))
    database.close()


def _table(referee: Referee, seed: int = 11) -> str:
    table, _ = referee.create("labnotes", {}, seed=seed)
    for name in ("Ada", "Ben"):
        referee.join(table["code"], name)
    referee.start(table["code"], referee.version(table["code"]))
    return table["code"]


def _notating(referee: Referee, seed: int = 11) -> str:
    """A table in its notate phase (everyone at once): the lead rolled, each took a die."""
    code = _table(referee, seed)
    snap = referee.snapshot(code)
    snap = referee.act(code, snap.to_move()[0], {"type": "roll"}, snap.version)
    while snap.state.phase == "select":
        seat = snap.to_move()[0]
        snap = referee.act(code, seat, next(a for a in snap.actions(seat) if a["type"] == "take_die"), snap.version)
    assert snap.state.phase == "notate" and snap.to_move() == [0, 1]
    return code


def _notation(snap: Any, seat: int) -> dict[str, Any]:
    return next(a for a in snap.actions(seat) if a["type"] == "notate")


def _rows(referee: Referee, code: str) -> list[tuple[int, dict[str, Any]]]:
    return [(r.seat, r.action) for r in referee.store.log(referee.snapshot(code).table["id"])]


def test_ada_takes_back_her_notation_after_ben_moved_and_bens_move_stays(referee: Referee) -> None:
    code = _notating(referee)
    start = referee.snapshot(code)
    ada_move = _notation(start, 0)
    seen = referee.act(code, 0, ada_move, start.version)        # what Ada's phone shows
    ben_move = _notation(seen, 1)
    ben = referee.act(code, 1, ben_move, seen.version)
    rows = _rows(referee, code)
    offer = referee.take_back_offer(ben, 0)
    assert offer.ok and offer.label == "Take back: Notated H on A1", offer

    after = referee.take_back(code, 0, seen.version)   # Ada's phone had not seen Ben's move yet: no conflict
    game = after.game
    assert after.version == ben.version + 1 and after.moves == ben.moves - 1     # versions only grow
    assert after.table["notice"] == "Ada took back a move: Ada notated H on A1."
    assert after.state.seats[0].spaces == start.state.seats[0].spaces               # Ada's sheet as before
    assert after.state.seats[1].spaces == ben.state.seats[1].spaces                 # Ben's notation stays
    assert after.actions(0) == start.actions(0) and after.to_move() == [0, 1]
    assert after.log[-1] == "Ben notated N on A1."
    # The state is the replay of the log without the move, and the log says so.
    without = [row for row in rows if row != (0, ada_move)]
    assert len(without) == len(rows) - 1 and _rows(referee, code) == without
    assert [r.seq for r in referee.store.log(after.table["id"])] == list(range(1, after.moves + 1))
    replayed = game.replay(2, after.table["seed"], after.table["options"], without)
    assert game.to_dict(after.state) == game.to_dict(replayed)
    # A restart (a fresh process on the same database) replays to the same state.
    fresh = Referee(referee.store).snapshot(code)
    assert game.to_dict(fresh.state) == game.to_dict(after.state)
    assert (fresh.version, fresh.moves, fresh.table["notice"]) == (after.version, after.moves, after.table["notice"])
    # Play goes on from there; the host's undo still takes back the table's last action, Ben's.
    again = referee.act(code, 0, ada_move, after.version)
    assert again.state.seats[0].spaces == seen.state.seats[0].spaces
    undone = referee.undo(code, again.version)
    assert undone.state.seats[0].spaces == after.state.seats[0].spaces
    assert undone.table["notice"] == "The host took back a move: Ada notated H on A1."


def test_a_roll_cannot_be_taken_back(referee: Referee) -> None:
    code = _table(referee)
    snap = referee.snapshot(code)
    rolled = referee.act(code, snap.to_move()[0], {"type": "roll"}, snap.version)
    lead = snap.to_move()[0]
    assert not referee.take_back_offer(rolled, lead).ok
    with pytest.raises(Refused, match="You cannot take that back: it rolled the dice"):
        referee.take_back(code, lead, rolled.version)
    assert referee.snapshot(code).version == rolled.version and referee.snapshot(code).moves == 1


def test_a_move_another_seat_built_on_cannot_be_taken_back(referee: Referee) -> None:
    """Dice are taken in turn order: Ben's pick needed Ada's before it."""
    code = _table(referee)
    snap = referee.snapshot(code)
    snap = referee.act(code, 0, {"type": "roll"}, snap.version)
    picked = referee.act(code, 0, next(a for a in snap.actions(0) if a["type"] == "take_die"), snap.version)
    assert referee.take_back_offer(picked, 0).ok            # nothing since: Ada may take it back
    ben = referee.act(code, 1, next(a for a in picked.actions(1) if a["type"] == "take_die"), picked.version)
    with pytest.raises(Refused, match="You cannot take that back: Ben has moved since, after your move."):
        referee.take_back(code, 0, ben.version)
    assert referee.snapshot(code).moves == ben.moves


def test_a_take_back_tapped_twice_takes_back_one_move(referee: Referee) -> None:
    code = _notating(referee)
    snap = referee.snapshot(code)
    first = referee.act(code, 0, _notation(snap, 0), snap.version)
    second = referee.act(code, 0, _notation(first, 0), first.version)
    referee.take_back(code, 0, second.version)
    with pytest.raises(Conflict):
        referee.take_back(code, 0, second.version)          # the same phone, the same version, again
    assert referee.snapshot(code).moves == second.moves - 1


def test_what_would_be_taken_back_is_worked_out_once_per_version_and_seat(referee: Referee,
                                                                        monkeypatch: Any) -> None:
    calls = []
    judged = takeback.judged
    monkeypatch.setattr(takeback, "judged", lambda *a, **k: calls.append(a[2]) or judged(*a, **k))
    code = _notating(referee)
    snap = referee.snapshot(code)
    snap = referee.act(code, 0, _notation(snap, 0), snap.version)
    for _ in range(5):
        assert referee.take_back_offer(referee.snapshot(code), 0).ok
    assert calls == [0]


# --- on the phones and through the API ------------------------------------------------------

def test_a_player_takes_back_their_notation_from_the_phone(app: Any, phones: Any, api: Any) -> None:
    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")
    referee = app.extensions["companion_referee"]
    host = phones()
    code = host.create("labnotes")
    ada, ben = phones(), phones()
    ada.join(code, "Ada")
    ben.join(code, "Ben")
    assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
    snap = referee.snapshot(code)
    snap = referee.act(code, snap.to_move()[0], {"type": "roll"}, snap.version)
    assert "Take back" not in ada.get(f"/t/{code}").get_data(as_text=True)   # a roll is never offered
    while snap.state.phase == "select":
        seat = snap.to_move()[0]
        snap = referee.act(code, seat, next(a for a in snap.actions(seat) if a["type"] == "take_die"), snap.version)
    seen = referee.act(code, 0, _notation(snap, 0), snap.version)
    line = seen.log[-1]
    ben_sees = ben.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="take-back"' not in ben_sees                   # Ben has nothing of his own to take back
    ben_moved = referee.act(code, 1, _notation(seen, 1), seen.version)

    page = ada.get(f"/t/{code}").get_data(as_text=True)
    label = takeback.move_words(line, "Ada")
    assert f">Take back: {label}</button>" in page and 'id="take-back"' in page
    # the form as a page without JavaScript sends it: its own version field
    # (the version Ada's move made: drawn once, good while the offer stands)
    sent = re.search(r'id="take-back".*?name="version" value="(\d+)"', page, re.S)
    assert sent and int(sent.group(1)) == seen.version < referee.snapshot(code).version
    answer = ada.post(f"/t/{code}/take-back", {"version": sent.group(1)})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    told = f"Ada took back a move: {line}"
    assert told in answer.get_data(as_text=True)
    assert told in ben.get(f"/t/{code}").get_data(as_text=True)           # every phone is told
    after = referee.snapshot(code)
    assert after.moves == ben_moved.moves - 1 and after.state.seats[1].spaces == ben_moved.state.seats[1].spaces

    # Ben's notation does not depend on Ada's: his button is there; a refusal is said by the control.
    assert 'id="take-back"' in ben.get(f"/t/{code}").get_data(as_text=True)
    refused = ada.post(f"/t/{code}/take-back", {"version": str(after.version)})
    assert refused.status_code == 409
    assert "You cannot take that back: Ben has moved since, after your move." in refused.get_data(as_text=True)


def test_a_seat_takes_back_its_move_through_the_api(app: Any, api: Any) -> None:
    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")
    table = api.table(game="labnotes", seed=11, players=["Ada", "Ben"])
    code, (ada, ben) = table["code"], table["tokens"]
    for _ in range(5):
        seat = api.state(code)["to_move"][0]
        mine = api.state(code, (ada, ben)[seat])
        if mine["view"]["phase"] == "notate":
            break
        move = next(a for a in mine["actions"] if a["type"] in ("roll", "take_die"))
        assert api.act(code, (ada, ben)[seat], move).status_code == 200
    mine = api.state(code, ada)
    assert api.act(code, ada, next(a for a in mine["actions"] if a["type"] == "notate")).status_code == 200
    assert api.state(code, ada)["take_back"] == "Ada notated H on A1."
    assert api.state(code, ben)["take_back"] is None and api.state(code)["take_back"] is None
    version = api.state(code)["version"]
    done = api.call("POST", f"/api/tables/{code}/take-back", {"version": version}, ada)
    assert done.status_code == 200 and done.json["moves"] == mine["moves"] and done.json["take_back"] is None
    again = api.call("POST", f"/api/tables/{code}/take-back", {"version": done.json["version"]}, ada)
    assert again.status_code == 409 and "Ben has moved since" in again.json["error"]
    assert api.call("POST", f"/api/tables/{code}/take-back", {"version": version}).status_code == 401
    assert "/api/tables/{code}/take-back" in app.test_client().get("/api/openapi.json").json["paths"]


# --- the hidden-information reading, over a game that draws from a hidden deck -------------

class Draws(Game[dict]):
    """Two seats, a face-down deck whose order no one sees, drawn without
    the generator; each seat may also mark a box of its own (nothing hidden)."""

    name, title, min_players, max_players = "draws", "Draws", 2, 2

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> dict:
        return {"deck": [3, 1, 4, 1, 5, 9, 2, 6], "hands": [[], []], "marks": [0, 0], "rng": seed}

    def actions(self, state: dict, seat: int) -> list[dict[str, Any]]:
        return [{"type": "draw"}, {"type": "mark"}]

    def apply(self, state: dict, seat: int, action: dict[str, Any]) -> dict:
        new = copy.deepcopy(state)
        if action["type"] == "draw":
            new["hands"][seat].append(new["deck"].pop(0))
        elif action["type"] == "mark":
            new["marks"][seat] += 1
        else:
            raise IllegalAction("Draw or mark.")
        return new

    def to_move(self, state: dict) -> list[int]:
        return [0, 1]

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        return {"deck": len(state["deck"]), "hands": state["hands"], "marks": state["marks"]}  # hands are face up

    def is_over(self, state: dict) -> bool:
        return False

    def result(self, state: dict) -> Result:
        return Result((), ())

    def to_dict(self, state: dict) -> dict[str, Any]:
        return copy.deepcopy(state)

    def from_dict(self, data: Mapping[str, Any]) -> dict:
        return copy.deepcopy(dict(data))

    def resample_hidden(self, state: dict, seat: int | None, seed: int) -> dict:
        import random

        new = copy.deepcopy(state)
        random.Random(seed).shuffle(new["deck"])
        new["rng"] = seed
        return new


def test_a_move_that_drew_a_hidden_card_cannot_be_taken_back() -> None:
    game, names = Draws(), ["Ada", "Ben"]
    start = game.setup(2, 5)
    assert takeback.judge(game, start, 0, {"type": "mark"}, [], names) is None
    assert takeback.judge(game, start, 0, {"type": "draw"}, [], names) == (
        "You cannot take that back: it showed you something that was hidden.")
    # Ada's mark is hers alone, but Ben's draw since turned up a card no one could see before it.
    assert takeback.judge(game, start, 0, {"type": "mark"}, [(1, {"type": "mark"})], names) is None
    assert takeback.judge(game, start, 0, {"type": "mark"}, [(1, {"type": "draw"})], names) == (
        "You cannot take that back: something hidden has been shown since.")


@pytest.mark.parametrize("name", sorted(registry.names()))
def test_the_generator_read_from_the_state_is_the_one_its_dict_writes(name: str) -> None:
    # The check reads the state's own rng field rather than writing the whole
    # state out: both must be the same number, through a game where dice roll.
    import random

    from engine.core import RulesError
    from labkit.cardsets import new_game

    game = new_game(registry.find(name))
    state = game.setup(game.min_players if game.min_players > 1 else 2, 11)
    pick = random.Random(3)
    for _ in range(60):
        assert takeback._generator(game, state) == game.to_dict(state)["rng"]
        seats = game.to_move(state)
        if game.is_over(state) or not seats:
            break
        seat = pick.choice(seats)
        try:
            state = game.apply(state, seat, pick.choice(game.actions(state, seat)))
        except RulesError:
            continue


@pytest.mark.parametrize("name", sorted(registry.names()))
def test_a_judgement_carried_from_version_to_version_is_the_one_made_afresh(name: str, database_url: str) -> None:
    # The referee goes on from how far it judged a seat's move at the version
    # before (companion/takeback.py's Judged); a referee with nothing kept
    # judges from the setup. Through a random game with take-backs in it
    # (which must make the kept judgements void), both offer the same move
    # or both refuse. (Where two lasting reasons hold, the kept one is the
    # first that came true, so a refusal's words do not change under a
    # phone; the fresh one names the first in the order they are checked.)
    import random

    database = Database(database_url)
    database.init_schema()
    referee, pick = Referee(Store(database)), random.Random(5)
    game = referee.game(name)
    players = max(2, game.min_players)
    table, _ = referee.create(name, {}, seed=3)
    for n in range(players):
        referee.join(table["code"], f"P{n}")
    snap = referee.start(table["code"], referee.version(table["code"]))
    compared = taken = 0
    for _ in range(70):
        if snap.over:
            break
        fresh = Referee(referee.store).snapshot(snap.code)
        for seat in range(players):
            kept, anew = referee.take_back_offer(snap, seat), Referee(referee.store).take_back_offer(fresh, seat)
            assert (kept.seq, kept.label, kept.ok or bool(kept.reason)) == (anew.seq, anew.label, True)
            compared += kept.ok
        seat = pick.choice(snap.to_move())
        if referee.take_back_offer(snap, seat).ok and pick.random() < 0.25:
            snap, taken = referee.take_back(snap.code, seat, snap.version), taken + 1
        else:
            snap = referee.act(snap.code, seat, pick.choice(snap.actions(seat)), snap.version)
    database.close()
    assert compared > 5 and taken >= 1, (compared, taken)
