"""Organic Soup at the table, without a browser: each phone offers exactly
the engine's actions, a hand is seen on its own phone only, a refused
reaction is explained next to the form, the reaction finder answers the
form, the game ends with the winner and the standings, and a paper table
can check a reaction on a page."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

from companion.web import get_referee
from tests.companion.organicsoup.conftest import SEED
from tests.companion.reading import attr as _attr
from tests.companion.reading import page as _page

NAMES = ["Ada", "Bo", "Cy", "Di"]


def _table(api: Any, players: int = 3, seed: int = 5) -> dict[str, Any]:
    return api.table(game="organicsoup", seed=seed, players=NAMES[:players])


def _offered(page: str) -> list[dict[str, Any]]:
    """Every action a page offers through the house's gestures: direct
    buttons (data-act) and options completed by each of their values
    (data-option, data-fill, data-values). The free reaction form is not a
    listed action: any reaction may be sent through it, and the referee
    judges it (test_an_illegal_reaction_is_explained_next_to_the_form)."""
    out = []
    for tag in re.findall(r"<[^>]+>", page):
        act, option = _attr(tag, "data-act"), _attr(tag, "data-option")
        if act:
            out.append(json.loads(act))
        if option:
            field, values = _attr(tag, "data-fill"), _attr(tag, "data-values") or ""
            out.extend({**json.loads(option), field: int(v)} for v in values.split(",") if v)
    return out


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def _snapshot(app: Any, code: str) -> Any:
    with app.app_context():
        return get_referee().snapshot(code)


def _act(api: Any, code: str, tokens: list[str], seat: int, action: dict[str, Any]) -> None:
    response = api.act(code, tokens[seat], action)
    assert response.status_code == 200, response.json


def _scenario(api: Any, upto: int = 4) -> dict[str, Any]:
    """The seeded table of the conftest, played ``upto`` actions in."""
    t = api.table(game="organicsoup", seed=SEED, players=["Ada", "Bo"])
    moves = [(1, {"type": "build", "recipe": "oxygen", "count": 3}), (1, {"type": "swap", "recipe": "carbon-monoxide"}),
             (0, {"type": "build", "recipe": "graphite", "count": 1}), (0, {"type": "keep"})]
    assert api.state(t["code"])["to_move"] == [1]
    for seat, action in moves[:upto]:
        _act(api, t["code"], t["tokens"], seat, action)
    return t


def test_each_phone_offers_exactly_the_engines_actions(app: Any, api: Any) -> None:
    """Through a stretch of play, every seat's page offers the engine's
    actions for that seat and nothing else, and each one is legal."""
    t = _table(api)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(3)
    kinds = set()
    for _ in range(24):
        table = api.state(code)
        if table["status"] == "over":
            break
        snap = _snapshot(app, code)
        for seat, token in enumerate(tokens):
            expected = {_key(a) for a in api.state(code, token)["actions"]}
            offered = _offered(_page(app, code, token))
            assert {_key(a) for a in offered} == expected, (seat, {_key(a) for a in offered} ^ expected)
            for action in offered:
                snap.game.apply(snap.state, seat, action)   # raises if the engine would refuse it
                kinds.add(action["type"])
        seat = table["to_move"][0]
        mine = api.state(code, tokens[seat])
        reacts = [a for a in mine["actions"] if a["type"] == "react"]
        action = rnd.choice(reacts) if reacts and rnd.random() < 0.7 else rnd.choice(mine["actions"])
        _act(api, code, tokens, seat, action)
    assert {"build", "react", "keep", "swap"} <= kinds
    spectator = _page(app, code, None)
    assert not _offered(spectator) and 'id="react-form"' not in spectator


def test_the_build_is_a_recipe_then_a_count(app: Any, api: Any) -> None:
    t = _scenario(api, upto=0)
    page = _page(app, t["code"], t["tokens"][1])
    tile = re.search(r'<button type="button" class="tile" data-option="[^"]*oxygen[^"]*"[^>]*>', page).group(0)
    assert _attr(tile, "data-fill") == "count" and _attr(tile, "data-values") == "1,2,3"
    most = max(a["count"] for a in api.state(t["code"], t["tokens"][1])["actions"] if a["type"] == "build")
    targets = re.findall(r'data-target="count" data-value="(\d+)"', page)
    assert targets == [str(k) for k in range(1, most + 1)]               # up to the most any recipe allows
    assert "Tap a recipe, then how many molecules" in page
    assert 'id="control-build"' not in _page(app, t["code"], t["tokens"][0])   # not Ada's turn


def test_the_end_of_a_turn_offers_swaps_and_keep(app: Any, api: Any) -> None:
    t = _scenario(api, upto=1)
    bo = _page(app, t["code"], t["tokens"][1])
    end = re.search(r'id="control-end".*?</section>', bo, re.S).group(0)
    assert "Swap Carbon Monoxide" in end and "Keep my hand" in end
    assert 'id="control-build"' not in bo and 'id="react-form"' not in bo
    assert 'id="control-end"' not in _page(app, t["code"], t["tokens"][0])


def test_the_log_tells_a_swap_by_its_level(app: Any, api: Any) -> None:
    """Bo swaps Carbon Monoxide: every phone's log says which deck it went
    under, not which recipe (hands are secret and the decks face down)."""
    t = _scenario(api, upto=2)
    for token in (*t["tokens"], None):
        log = re.search(r'<div id="part-log".*?</section>', _page(app, t["code"], token), re.S).group(0)
        assert "Bo put a simple recipe on the bottom of the simple deck and drew a new one." in log
        assert "Bo built 3 Oxygen molecules from the soup." in log
        assert "Carbon Monoxide" not in log and "Swap" not in log


def test_hands_stay_on_their_own_phone(app: Any, api: Any) -> None:
    t = _table(api, players=3, seed=9)
    code, tokens = t["code"], t["tokens"]
    snap = _snapshot(app, code)
    cards = snap.game.cards
    pages = {seat: _page(app, code, token) for seat, token in enumerate(tokens)}
    pages[None] = _page(app, code, None)
    for seat, page in pages.items():
        hand = re.search(r'id="my-hand".*?</section>', page, re.S)
        assert (hand is None) == (seat is None)
        for other, s in enumerate(snap.state.seats):
            public = snap.state.dealt[other] if s.shown else None   # dealt face up: the table saw it
            for rid in s.hand:
                name = cards.recipe(rid).name
                shown = f'data-recipe="{rid}"' in page or re.search(rf"\b{re.escape(name)}\b", page)
                if other == seat:
                    assert f'data-recipe="{rid}"' in hand.group(0), (seat, rid)
                elif rid != public:
                    assert not shown, (seat, "sees", other, rid)
    # The others' hands show as card backs, by level.
    assert re.search(r"Hand: <span class=\"back\">simple</span><span class=\"back\">complex</span>"
                     r"<span class=\"back\">amino/nucleic</span>", pages[0])


def test_no_phone_ever_shows_another_players_hand(app: Any, api: Any) -> None:
    """Through a stretch of play, at every version every phone shows its
    own hand and no card of another's (the phones share what is public,
    worked out once per version, and card faces drawn once per process):
    not its face, not as a product of the reaction form, not by name, not
    in the game log (which tells a swap by its level)."""
    t = _table(api, players=4, seed=11)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(11)
    kinds = set()
    for _ in range(40):
        if api.state(code)["status"] == "over":
            break
        snap = _snapshot(app, code)
        cards = snap.game.cards
        for viewer, token in [*enumerate(tokens), (None, None)]:
            page = _page(app, code, token)
            assert 'id="part-in-front"' in page
            for other, s in enumerate(snap.state.seats):
                if other == viewer:
                    hand = re.search(r'id="my-hand".*?</section>', page, re.S).group(0)
                    assert all(f'data-recipe="{rid}"' in hand for rid in s.hand), (viewer, s.hand)
                    continue
                public = snap.state.dealt[other] if s.shown else None   # dealt face up: the table saw it
                for rid in s.hand:
                    if rid != public:
                        name = cards.recipe(rid).name
                        assert f'data-recipe="{rid}"' not in page, (viewer, other, rid)
                        assert f'id="out-{rid}"' not in page, (viewer, other, rid)
                        assert not re.search(rf"\b{re.escape(name)}\b", page), (viewer, "sees", other, name)
        seat = snap.to_move()[0]
        actions = snap.actions(seat)
        action = rnd.choice(actions)
        kinds.add(action["type"])
        _act(api, code, tokens, seat, action)
    assert {"build", "swap"} <= kinds, kinds


def test_an_illegal_reaction_is_explained_next_to_the_form(app: Any, api: Any, phones: Any) -> None:
    t = _scenario(api)
    bo = phones()
    bo.client.set_cookie(f"labkit_seat_{t['code']}", t["tokens"][1])
    before = bo.version(t["code"])
    guarded = {"type": "react", "products": {"ozone": 2},
               "ingredients": [{"seat": 1, "recipe": "oxygen", "count": 3}, {"seat": 0, "recipe": "graphite", "count": 1}]}
    response = bo.act(t["code"], guarded, version=before, origin="react")
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    error = re.search(r'<section class="card" id="control-react".*?id="react-error">(.*?)</p>', body, re.S)
    assert error, body
    assert html.unescape(error.group(1)) == (
        "Ada's Graphite molecules are guarded: the Graphite recipe is in front of Ada. "
        "1 Carbon atom is left over: the products must use every atom of the ingredients.")
    assert bo.version(t["code"]) == before                                     # nothing changed
    # A recipe from the hand above the level allowed: the referee says which level is missing.
    early = {"type": "react", "products": {"pyruvic-acid": 1},
             "ingredients": [{"seat": 1, "recipe": "oxygen", "count": 3}]}
    body = bo.act(t["code"], early, version=before, origin="react").get_data(as_text=True)
    assert ("Pyruvic Acid is a complex recipe: you may form it from your hand only if a simple recipe was in "
            "front of you at the start of your turn.") in html.unescape(body)
    # Ada's phone is not told about Bo's mistakes.
    assert "react-error" not in _page(app, t["code"], t["tokens"][0])


def test_the_reaction_finder_answers_the_form(app: Any, api: Any) -> None:
    t = _scenario(api)
    code = t["code"]

    def ask(token: str | None, ingredients: list[dict[str, Any]], products: dict[str, int] | None = None) -> Any:
        client = app.test_client()
        if token:
            client.set_cookie(f"labkit_seat_{code}", token)
        query = {"ingredients": json.dumps(ingredients), "products": json.dumps(products or {})}
        return client.get(f"/organicsoup/t/{code}/find", query_string=query)

    found = ask(t["tokens"][1], [{"seat": 1, "recipe": "oxygen", "count": 3}])
    assert found.status_code == 200 and found.json["found"] and found.json["products"] == {"ozone": 2}
    assert "2 Ozone uses every atom" in found.json["message"]
    none = ask(t["tokens"][1], [{"seat": 1, "recipe": "oxygen", "count": 2}]).json
    assert not none["found"] and none["message"] == ("No reaction uses every atom of these ingredients "
                                                     "(4 Oxygen atoms) in recipes you may form.")
    guarded = ask(t["tokens"][1], [{"seat": 0, "recipe": "graphite", "count": 1}]).json
    assert not guarded["found"] and "guarded" in guarded["message"]
    assert ask(t["tokens"][0], [{"seat": 0, "recipe": "graphite", "count": 1}]).status_code == 409  # not her turn
    assert ask(None, []).status_code == 403
    assert ask(t["tokens"][1], [{"seat": 7, "recipe": "oxygen", "count": 1}]).status_code == 422
    # The page's form knows where to ask, and lists the guarded molecule marked so.
    page = _page(app, code, t["tokens"][1])
    form = re.search(r'<div id="react-form".*?</section>', page, re.S).group(0)
    assert f'data-find-url="/organicsoup/t/{code}/find"' in form
    assert re.search(r'class="stepper guarded">\s*<label for="in-0-graphite">Graph(&#173;|\u00ad)ite', form)
    assert 'id="out-ozone"' in form and 'id="out-pyruvic-acid"' in form


def test_a_whole_game_ends_with_the_winner_and_the_standings(app: Any, api: Any) -> None:
    t = _table(api, players=2, seed=21)
    code, tokens = t["code"], t["tokens"]
    for _ in range(400):   # the biggest builds, so that the atom deck runs out soon
        table = api.state(code)
        if table["status"] == "over":
            break
        seat = table["to_move"][0]
        actions = api.state(code, tokens[seat])["actions"]
        builds = sorted((a for a in actions if a["type"] == "build"), key=lambda a: -a["count"])
        _act(api, code, tokens, seat, builds[0] if builds else actions[-1])
    assert api.state(code)["status"] == "over"
    score = api.call("GET", f"/api/tables/{code}/score").json
    for token in (tokens[0], None):
        page = _page(app, code, token)
        standings = re.search(r'id="standings".*?</ol>', page, re.S).group(0)
        winners = [s["name"] for s in score["scores"] if s["seat"] in score["winners"]]
        assert re.search(rf"<h2>({'|'.join(winners)}) wins|<h2>Shared win", standings)
        for s in score["scores"]:
            counts = s["details"]["recipes"]
            row = re.search(rf'data-standing="{s["seat"]}"><strong>{s["name"]}</strong>.*?</li>', standings, re.S).group(0)
            assert (f"<b>{counts['complex']}</b> complex &middot; <b>{counts['simple']}</b> simple &middot; "
                    f"<b>{counts['basic']}</b> basic") in row
            assert ("created life" in row) == (s["details"]["life"] is not None)
        assert 'id="control-build"' not in page and 'id="react-form"' not in page and not _offered(page)


# --- a paper table ----------------------------------------------------------------------

def test_a_paper_table_checks_a_reaction_on_a_form(app: Any, phones: Any) -> None:
    """The rulebook's Nitric Oxide example, typed into the page's fields."""
    phone = phones()
    page = phone.get("/organicsoup/check").get_data(as_text=True)
    assert "Check a reaction" in page and 'list="recipe-names"' in page and "<option value=\"Nitric Oxide\">" in page
    form = {"name0": "Ana", "molecules0": "2 Oxygen", "recipes0": "Oxygen", "hand0": "Nitric Oxide", "take0": "1 Oxygen",
            "name1": "Ben", "molecules1": "Nitrogen x2", "recipes1": "Nitrogen", "take1": "Nitrogen",
            "name2": "Cy", "molecules2": "1 Nitrogen", "player": "0", "products": "2 Nitric Oxide"}
    body = phone.post("/organicsoup/check", form).get_data(as_text=True)
    assert 'data-legal="false"' in body and "Illegal reaction" in body
    assert "Ben&#39;s Nitrogen molecules are guarded" in body and "Try instead" in body
    form.update({"take1": "", "take2": "1 Nitrogen"})
    body = phone.post("/organicsoup/check", form).get_data(as_text=True)
    assert 'data-legal="true"' in body and "Ana may react 1 Oxygen (Ana), 1 Nitrogen (Cy) into 2 Nitric Oxide." in body
    form["products"] = "2 Nitric Oxyde"
    body = phone.post("/organicsoup/check", form).get_data(as_text=True)
    assert "there is no recipe called &#39;Nitric Oxyde&#39;" in body
