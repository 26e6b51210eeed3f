"""Compounded at the table, without a browser: every phone offers exactly
the engine's choices for its scientist, refusals come back next to the
control, the grid and Workbenches say what the view says, and a game ends
with the full score table."""

from __future__ import annotations

import random
import re

import pytest
from collections import Counter
from typing import Any

from tests.companion.compounded.conftest import (deciding, drive, key, offered, page, robot, section, step,
                                                 table)


def test_each_phone_offers_exactly_the_engines_actions(app: Any, api: Any) -> None:
    """Through the first rounds of a table of three (claims, placements,
    scoring, trades, discards, a Lab Fire and an explosion), each seat's page
    offers exactly the engine's actions for that seat, and nothing else."""
    t = table(api, players=3, seed=5)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(5)
    kinds: Counter = Counter()
    for _ in range(62):
        now = api.state(code)
        if now["status"] == "over":
            break
        kinds[(now["view"]["deciding"] or {}).get("do")] += 1
        for seat, token in enumerate(tokens):
            mine = api.state(code, token)
            text = page(app, code, token)
            shown = {key(a) for a in offered(text)}
            assert shown == {key(a) for a in mine["actions"]}, (seat, kinds, shown ^ {key(a) for a in mine["actions"]})
            # the grid is drawn once for the phones it looks the same on: each lights its own targets only
            assert lit(text) == {str(a["cell"]) for a in mine["actions"] if "cell" in a and a["type"] != "score"}
        assert not lit(page(app, code, None))
        step(api, code, tokens, rnd)
    assert {"claims", "research_turn", "score_turn", "advance", "trade", "discard", "extinguish", "scatter"} <= set(kinds)


def lit(text: str) -> set[str]:
    """The grid spaces a page lights as targets."""
    return set(re.findall(r'class="cell [^"]*tappable[^"]*"\s+data-target="cell" data-value="(\d+)"',
                          section(text, "cp-grid")))


@pytest.mark.parametrize("players, seed, options, kinds", [
    (2, 3, None, {"dish", "claims", "research_turn"}),                  # the two-player dish
    (4, 2, {"no_trade": True}, {"dish", "discard", "research_turn"}),   # No Player Trades
])
def test_the_variants_offer_exactly_the_engines_actions(app: Any, api: Any, players, seed, options, kinds) -> None:
    t = table(api, players=players, seed=seed, options=options)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(seed)
    seen = set()
    for _ in range(36):
        now = api.state(code)
        seen.add((now["view"]["deciding"] or {}).get("do"))
        for seat in {now["to_move"][0], (now["to_move"][0] + 1) % players}:
            mine = api.state(code, tokens[seat])
            text = page(app, code, tokens[seat])
            assert {key(a) for a in offered(text)} == {key(a) for a in mine["actions"]}
            if mine["view"]["deciding"]["do"] == "dish" and mine["actions"]:
                dish = section(text, "cp-decision")     # the dish's elements are the targets of the options
                assert len(re.findall(r'data-target="take"', dish)) == sum(mine["view"]["dish"].values())
        step(api, code, tokens, rnd)
    assert kinds <= seen, seen


def test_lab_partner_cards_have_two_claim_spots_on_the_grid(app: Any) -> None:
    """A table of four with Lab Partners (made here from the engine: the
    lobby checks options with the fewest players the game allows, and Lab
    Partners is for 3 to 5)."""
    from flask import render_template

    from companion.games.compounded.board import board_context
    from companion.snapshot import Snapshot
    from engine.compounded import GAME
    from labkit.cardsets import new_game

    game = new_game(GAME)
    state = game.setup(4, 2, {"lab_partners": True})
    seats = [{"seat": i, "name": n, "token": ""} for i, n in enumerate(["Ada", "Bo", "Cy", "Di"])]
    snap = Snapshot({"code": "LABPT", "version": 1, "moves": 0, "game": "compounded"}, game, seats, state)
    with app.test_request_context("/"):   # the board draws its pieces with the app's templates
        cp = board_context(snap, 0)["cp"]
        grid = render_template("compounded/_grid.html", cp=cp, snap=snap, me=0)
    partners = [c for c in cp["grid"] if c["lab_partner"]]
    assert [c["index"] for c in partners] == [5, 6, 9, 10] and {c["spots"] for c in partners} == {2}
    assert grid.count("2 claim spots") == 4 and grid.count("cell compound") == 16
    assert "Lab Partner deck 16" in grid


def test_the_board_shows_the_grid_the_benches_and_the_scoreboard(app: Any, api: Any) -> None:
    t = table(api, players=3, seed=5)
    code, (ada, bo, _) = t["code"], t["tokens"]
    view = api.state(code, ada)["view"]
    text = page(app, code, ada)
    grid = section(text, "cp-grid")
    assert len(re.findall(r'data-target="cell"', grid)) == view["rows"] * view["cols"] == 12
    first = view["grid"][0]["card"]
    assert GAME_NAME(first) in grid
    bench = section(text, "cp-bench")
    assert "Your Workbench" in bench and re.search(r'id="my-score">\s*0 pts', bench)
    assert "Discover" in bench and "Lab" in bench and "Fire Extinguisher" in bench
    assert "Study: Ada moves a claim token." in text and "Your move" in text
    board = section(text, "cp-scoreboard")
    assert "Bag (81)" in board and 'data-space="130"' in board
    # Bo waits, and is offered nothing
    bo_text = page(app, code, bo)
    assert "Nothing to decide now." in bo_text and not offered(bo_text)
    spectator = page(app, code, None)
    assert 'id="cp-decision"' not in spectator and 'id="cp-bench"' not in spectator and "Workbenches" in spectator


def GAME_NAME(card: str) -> str:
    from engine.compounded import GAME
    from labkit.cardsets import new_game

    return new_game(GAME).cards.compounds[card].name


def test_a_refusal_is_shown_next_to_the_control(app: Any, api: Any, phones: Any) -> None:
    t = table(api, players=3, seed=5)
    code, (ada, _, _) = t["code"], t["tokens"]
    phone = phones()
    phone.client.set_cookie(f"labkit_seat_{code}", ada)
    phone.get(f"/t/{code}")
    before = api.state(code)["version"]
    # Ada claims a space with no compound's token she does not have.
    response = phone.act(code, {"type": "claim", "token": 3, "cell": 0}, version=before, origin="decision")
    body = response.get_data(as_text=True)
    decision = section(body, "cp-decision")
    error = re.search(r'id="decision-error">(.*?)</p>', decision, re.S)
    assert error and "claim token" in error.group(1) and "token 3 is not one of them" in error.group(1)
    assert api.state(code)["version"] == before                                 # nothing changed


def test_a_trade_between_two_phones(app: Any, api: Any, phones: Any) -> None:
    """Discover: Ada offers Bo an element for one of his; Bo sees the offer
    with Accept and Decline; he accepts and the elements change hands."""
    t = table(api, players=3, seed=5)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(5)
    now = drive(api, code, tokens, deciding("trade"), rnd)
    ada, bo = api.state(code, tokens[0]), api.state(code, tokens[1])
    give = next(iter(ada["view"]["scientists"][0]["bench"]))
    ask = next(e for e in bo["view"]["scientists"][1]["bench"])

    def act(seat: int, action: dict[str, Any]) -> str:
        phone = phones()
        phone.client.set_cookie(f"labkit_seat_{code}", tokens[seat])
        phone.get(f"/t/{code}")
        response = phone.act(code, action, version=api.state(code)["version"], origin="decision")
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_data(as_text=True)

    text = page(app, code, tokens[0])
    assert "Offer a trade to Bo" in text and "Done trading" in text
    act(0, {"type": "trade_with", "seat": 1})
    act(0, {"type": "offer_give", "element": give})
    mine = act(0, {"type": "offer_ask", "element": ask})
    assert f"you give 1 {give}; you ask 1 {ask}" in section(mine, "cp-decision")
    act(0, {"type": "propose"})
    offer = section(page(app, code, tokens[1]), "cp-decision")
    assert f"<strong>Ada</strong> gives you 1 {give} for your 1 {ask}." in offer
    assert ">Accept<" in offer and ">Decline<" in offer
    assert "Waiting for Bo" in section(page(app, code, tokens[0]), "cp-decision")
    before = (dict(ada["view"]["scientists"][0]["bench"]), dict(bo["view"]["scientists"][1]["bench"]))
    act(1, {"type": "accept", "seat": 0})
    after = api.state(code)["view"]["scientists"]
    assert after[0]["bench"].get(ask, 0) == before[0].get(ask, 0) + 1
    assert after[1]["bench"].get(give, 0) == before[1].get(give, 0) + 1
    # Cy offers Ada a trade; she declines it, and nothing changes hands.
    cy, ada_now = api.state(code, tokens[2])["view"]["scientists"][2]["bench"], after[0]["bench"]
    act(2, {"type": "trade_with", "seat": 0})
    act(2, {"type": "offer_give", "element": next(iter(cy))})
    act(2, {"type": "offer_ask", "element": next(iter(ada_now))})
    act(2, {"type": "propose"})
    offer = section(page(app, code, tokens[0]), "cp-decision")
    assert "<strong>Cy</strong> gives you" in offer and ">Decline<" in offer
    act(0, {"type": "decline", "seat": 2})
    assert api.state(code)["view"]["scientists"][0]["bench"] == ada_now
    assert "Cy</strong> gives you" not in section(page(app, code, tokens[0]), "cp-decision")
    del now


def test_a_lab_fire_asks_each_scientist_and_an_explosion_asks_where(app: Any, api: Any) -> None:
    t = table(api, players=3, seed=5)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(5)
    now = drive(api, code, tokens, deciding("extinguish"), rnd)
    asked = now["to_move"][0]
    text = page(app, code, tokens[asked])
    decision = section(text, "cp-decision")
    assert "Use my Fire Extinguisher" in decision and "Let it burn" in decision and "LAB FIRE" in decision
    assert 'id="cp-fire"' in decision
    for seat, token in enumerate(tokens):
        if seat != asked:
            other = page(app, code, token)
            assert "LAB FIRE!" in section(other, "cp-round") and "Let it burn" not in other
    now = drive(api, code, tokens, deciding("scatter"), rnd)
    seat, task = now["to_move"][0], now["view"]["deciding"]
    text = page(app, code, tokens[seat])
    decision = section(text, "cp-decision")
    assert "exploded" in decision
    mine = api.state(code, tokens[seat])
    cells = {a["cell"] for a in mine["actions"] if "cell" in a}
    grid = section(text, "cp-grid")
    for i in cells:                      # the neighbours that need an element are lit
        assert re.search(rf'class="cell [^"]*tappable[^"]*"\s+data-target="cell" data-value="{i}"', grid)
    assert re.search(rf'class="cell [^"]*exploded[^"]*"\s+data-target="cell" data-value="{task["from"]}"', grid)


def test_a_whole_game_ends_with_the_full_score_table(app: Any, api: Any) -> None:
    t = table(api, players=2, seed=3)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(3)
    for _ in range(3000):
        now = api.state(code)
        if now["status"] == "over":
            break
        seat = now["to_move"][0]
        mine = api.state(code, tokens[seat])
        action = robot(mine["actions"], rnd, (mine["view"]["deciding"] or {}).get("do"))
        assert api.act(code, tokens[seat], action, mine["version"]).status_code == 200
    assert api.state(code)["status"] == "over"
    text = page(app, code, tokens[0])
    score = api.call("GET", f"/api/tables/{code}/score").json
    final = section(text, "final-score")
    for s in score["scores"]:
        assert f">{s['total']}<" in final
    for words in ("Compounds scored", "Experiment tops", "Lab advances", "Occupied spaces skipped",
                  "Elements left (1 per 2)", "Claimed unfinished compounds"):
        assert words in final
    assert 'id="cp-final"' in text and "Discover level" in section(text, "cp-final")
    assert "The game is over:" in section(text, "cp-round")


def test_the_host_ends_the_game_by_agreement_scored_as_it_stands(app: Any, api: Any, phones: Any) -> None:
    """Nothing in the rulebook ends a game in which nobody places (design reading 14): the table may agree
    to stop. Only the host's phone offers it, with a label that says what it does and one confirmation;
    the game ends with the rulebook's end scoring as things stand, the log says so in words, a replay
    from the database ends it again, and the host's undo takes it back."""
    t = table(api, players=3, seed=5)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(5)
    for _ in range(8):
        step(api, code, tokens, rnd)
    host = phones()
    host.client.set_cookie(f"labkit_host_{code}", t["host"])
    bar = section(host.get(f"/t/{code}").get_data(as_text=True), "control-host")
    assert ">End the game now, scored as it stands (everyone agrees)</button>" in bar
    assert bar.count("hx-confirm=") == 2 and (
        'hx-confirm="End the game now for everyone, scored as it stands? Only if every player agrees."' in bar)
    for token in (*tokens, None):                       # no seat (nor a watcher) sees it
        assert "End the game" not in page(app, code, token)
    ada = phones()
    ada.client.set_cookie(f"labkit_seat_{code}", tokens[0])
    version = ada.version(code)
    assert ada.post(f"/t/{code}/end", {"version": str(version)}).status_code == 403
    assert host.post(f"/t/{code}/end", {"version": str(version - 1)}).status_code == 409
    assert api.state(code)["status"] == "playing" and api.state(code)["version"] == version

    from engine.compounded import GAME
    from labkit.cardsets import new_game

    game = new_game(GAME)
    referee = app.extensions["companion_referee"]
    before = referee.snapshot(code).state
    expected = game.result(game.end_by_agreement(before)).to_dict()
    response = host.post(f"/t/{code}/end", {"version": str(version)})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    now = api.state(code)
    assert now["status"] == "over" and now["moves"] == 9
    score = api.call("GET", f"/api/tables/{code}/score").json
    assert [s["total"] for s in score["scores"]] == [s["total"] for s in expected["scores"]]
    assert "The game is over: the scientists agreed to end it here." in section(text, "cp-round")
    assert "Claimed unfinished compounds" in section(text, "final-score")
    assert "End the game" not in section(text, "control-host")
    said = "The host ended the game, as everyone agreed: it is scored as it stands; "
    assert said in page(app, code, tokens[1])           # every phone's log tells it
    late = api.act(code, tokens[0], {"type": "keep"})   # no move after the end
    assert late.status_code == 422 and "The game is over" in late.json["error"]
    referee.forget()                                     # as after a restart: replayed from the log
    again = referee.snapshot(code)
    assert again.over and game.to_dict(again.state) == game.to_dict(game.end_by_agreement(before))
    assert any(line.startswith(said) for line in again.log)
    undone = host.post(f"/t/{code}/undo", {"version": str(again.version)})
    assert undone.status_code == 200 and "The host took back a move: The host ended the game" in undone.get_data(
        as_text=True)
    assert api.state(code)["status"] == "playing" and api.state(code)["moves"] == 8
