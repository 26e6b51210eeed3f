"""Lab Notes at the table, without a browser: the board offers exactly what
the engine offers, draws the sheet, and a paper sheet is scored."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest

from labkit import registry
from tests.companion.reading import attr as _attr
from tests.companion.reading import page as _page


@pytest.fixture(autouse=True)
def _labnotes() -> None:
    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")


def _table(api: Any, players: int = 3, seed: int = 5) -> dict[str, Any]:
    return api.table(game="labnotes", seed=seed, players=["Ada", "Bo", "Cy", "Di", "Eve"][:players],
                     options={"first_game": True})


def _offered(page: str) -> list[dict[str, Any]]:
    """Every action a page offers through the generic gestures: direct
    buttons (data-act), options completed by each of their targets
    (data-option, data-fill, data-values) and select menus. The gaps between
    elements are left out: every gap may be tapped, offered or not."""
    out = []
    for tag in re.findall(r"<[^>]+>", page):
        if "data-gap=" in tag:
            continue
        act, option = _attr(tag, "data-act"), _attr(tag, "data-option")
        if act:
            out.append(json.loads(act))
        if option:
            field, values = _attr(tag, "data-fill"), _attr(tag, "data-values") or ""
            out.extend({**json.loads(option), field: int(v)} for v in values.split(",") if v)
    for raw in re.findall(r'<option value="([^"]+)"', page):
        if raw.startswith("{"):
            out.append(json.loads(html.unescape(raw)))
    return out


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def test_each_phone_offers_exactly_the_engines_actions(app: Any, api: Any) -> None:
    """Through a stretch of play, every seat's page offers the engine's
    actions for that seat (rerolls are composed from checkboxes; bonds also
    from gaps) and nothing else."""
    t = _table(api)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(3)
    phases = set()
    for _ in range(60):
        table = api.state(code)
        if table["status"] == "over":
            break
        for seat, token in enumerate(tokens):
            state = api.state(code, token)
            phases.add(state["view"]["phase"])
            expected = {_key(a) for a in state["actions"] if a["type"] != "reroll"}
            offered = {_key(a) for a in _offered(_page(app, code, token))}
            assert offered == expected, (seat, state["view"]["phase"], offered ^ expected)
        seat = table["to_move"][0]
        mine = api.state(code, tokens[seat])
        choices = [a for a in mine["actions"] if a["type"] != "finish"] or mine["actions"]
        assert api.act(code, tokens[seat], rnd.choice(choices), mine["version"]).status_code == 200
    assert {"roll", "select", "notate"} <= phases


def test_the_board_shows_dice_line_sheet_and_running_score(app: Any, api: Any) -> None:
    t = _table(api, players=2)
    code, (ada, bo) = t["code"], t["tokens"]
    api.act(code, ada, {"type": "roll"})
    page = _page(app, code, ada)
    state = api.state(code, ada)
    assert "Your pick: tap a die to take it." in page
    pool = [i for i, d in enumerate(state["view"]["dice"]) if d["place"] == "pool"]
    assert len(re.findall(r'<button type="button" class="die', page)) == len(pool) == 3
    values = re.findall(r'<span class="value">(\d)</span>', page)
    assert values[:2] == ["6", "3"]                     # the line: newest card worth 6, then 3
    assert page.count('<svg class="sheet"') == 2        # my sheet and Bo's
    assert 'data-mine="true"' in page and page.count('data-mine="true"') == 1
    assert re.search(r'id="my-score">\s*0 pts', page)
    bo_page = _page(app, code, bo)
    assert "Ada picks a die." in bo_page and "<button type=\"button\" class=\"die" not in bo_page
    spectator = _page(app, code, None)
    assert "You are watching" in spectator and 'data-mine' not in spectator and spectator.count('<svg class="sheet"') == 2


def test_an_illegal_bond_is_explained_next_to_the_sheet(app: Any, api: Any, phones: Any) -> None:
    host, ada, bo = phones(), phones(), phones()
    code = host.create("labnotes")
    ada.join(code, "Ada")
    bo.join(code, "Bo")
    host.post(f"/t/{code}/start", {"version": str(host.version(code))})
    # Ada bonds two spaces with no elements: the engine's reason comes back by the sheet.
    before = ada.version(code)
    response = ada.act(code, {"type": "bond", "spaces": [0, 1]}, version=before, origin="sheet")
    body = response.get_data(as_text=True)
    error = re.search(r'<section class="card" id="control-sheet".*?id="sheet-error">(.*?)</p>', body, re.S)
    assert error and error.group(1) == "You cannot draw a bond now: the table is in the roll phase."
    assert ada.version(code) == before                                   # nothing changed


def test_a_whole_game_ends_with_each_players_breakdown(app: Any, api: Any) -> None:
    t = _table(api, players=2, seed=11)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(5)
    for _ in range(3000):
        table = api.state(code)
        if table["status"] == "over":
            break
        seat = table["to_move"][0]
        mine = api.state(code, tokens[seat])
        order = ["roll", "take_die", "burn", "choose_element", "notate", "claim", "finish", "trash"]
        action = next(rnd.choice([a for a in mine["actions"] if a["type"] == k])
                      for k in order if any(a["type"] == k for a in mine["actions"]))
        api.act(code, tokens[seat], action, mine["version"])
    page = _page(app, code, tokens[0])
    assert 'id="final-score"' in page and 'id="breakdown"' in page
    score = api.call("GET", f"/api/tables/{code}/score").json
    table = re.search(r'id="final-score".*?</table>', page, re.S).group(0)
    for s in score["scores"]:
        assert f">{s['total']}<" in table
    for words in ("Single bonds", "Double bonds", "Missing bonds", "Burned spaces"):
        assert words in page
    # every line has its points, and every burned space its source
    from companion.games.labnotes.words import CAUSES

    for s in score["scores"]:
        block = re.search(rf'data-breakdown-of="{s["seat"]}".*?</table>', page, re.S).group(0)
        d = s["details"]
        points = [html.unescape(p).replace("\u2212", "-") for p in re.findall(r'<td class="pts">([^<]*)</td>', block)]
        assert points == [str(x) for x in (d["single_bonds"], 3 * d["double_bonds"], 6 * d["triple_bonds"],
                                           -d["missing_bonds"], s["lines"][0]["points"], sum(d["notecard_points"]),
                                           -2 * d["burned_spaces"], s["total"])]
        named = re.findall(r'<li data-cause="(\w+)"><b>([^<]*)</b>: ([^<]*)</li>', block)
        assert sorted(x for _, spaces, _ in named for x in spaces.split(", ")) == sorted(b["space"] for b in d["burns"])
        for cause, _, words in named:
            assert html.unescape(words).startswith(CAUSES[cause].split("{")[0].strip())
    assert any(s["details"]["burns"] for s in score["scores"])


def test_the_sheet_is_drawn_like_the_paper_one(app: Any, api: Any) -> None:
    """The issue: "the note sheet looks like the paper one (tools track, notecard
    boxes, trash cans and score boxes drawn as on paper, not as text lines)"."""
    t = _table(api, players=2)
    code, (ada, bo) = t["code"], t["tokens"]
    page = _page(app, code, ada)
    panels = re.findall(r'<svg class="sheet-panel".*?</svg>', page, re.S)
    assert len(panels) == 2                                                 # mine and Bo's
    mine = panels[0]
    assert mine.count('class="track-space') == 10 and mine.count('class="track-space locked"') == 8
    assert len(re.findall(r'<g class="notecard-box( checked)?">', mine)) == 8 and mine.count("opens 2") == 4
    assert len(re.findall(r'<g class="can[ "]', mine)) == 5 and mine.count('<g class="can last') == 1
    assert "BUNSEN BURNER" in mine and "burner-icon" in mine
    assert re.findall(r'data-score="(\w+)"', mine) == ["compounds", "notecards", "burned", "total"]
    assert "Tools track:" not in re.sub(r'aria-label="[^"]*"', "", page)     # no longer text lines


def test_the_panel_marks_tools_checks_notecards_and_fills_cans() -> None:
    from types import SimpleNamespace

    from companion.games.labnotes.panel import draw_panel
    from engine.core import ScoreLine

    track = SimpleNamespace(open=2, opened_by_notecard=[2, 2, 2, 2])
    sheet = SimpleNamespace(tools_track=track, notecard_boxes=8, trash_cans=5)
    shown = {"claims": [{"notecard": "methane", "points": 6}], "tool_marks": 3, "tools_open": 4, "trash": "HO"}
    score = SimpleNamespace(total=9, lines=(ScoreLine("compounds", "Compounds", 7),
                                            ScoreLine("notecards", "Notecards", 6),
                                            ScoreLine("burned", "Burned spaces", -4)))
    p = draw_panel(shown, sheet, score, lambda card: card.title())
    spaces = [sq for row in p["track"] for sq in row["spaces"]]
    assert [sq["marked"] for sq in spaces] == [True] * 3 + [False] * 7
    assert [sq["locked"] for sq in spaces] == [False] * 4 + [True] * 6      # one notecard opened its 2
    assert [b["points"] for b in p["notes"]] == [6] + [None] * 7
    assert p["notes"][0]["title"] == "Notecard 1: Methane, 6 points"
    assert [c["element"] for c in p["cans"]] == ["H", "O", None, None, None] and p["cans"][-1]["last"]
    assert [(b["label"], b["value"]) for b in p["boxes"]] == [
        ("COMPOUNDS", 7), ("NOTECARDS", 6), ("BURNED \u00d7 2", 4), ("TOTAL / GRADE", 9)]
    assert p["width"] == 360 and all(b["x"] + b["w"] <= p["width"] for b in p["boxes"])


def test_the_log_tells_the_game_in_words(app: Any, api: Any) -> None:
    t = _table(api, players=2)
    code, (ada, bo) = t["code"], t["tokens"]
    api.act(code, ada, {"type": "roll"})
    state = api.state(code, ada)
    die = next(a["die"] for a in state["actions"] if a["type"] == "take_die")
    api.act(code, ada, {"type": "take_die", "die": die})
    d = state["view"]["dice"][die]
    face = "Bunsen Burner die" if d["face"] == "burner" else f"die {d['face']}"
    log = re.search(r'class="log-lines">(.*?)</ol>', _page(app, code, bo), re.S).group(1)
    assert "Ada rolled the dice: " in log
    assert f"Ada took the {d['colour']} {face}." in html.unescape(log)


# --- paper sheets ---------------------------------------------------------------------

WATER = {"player": "Pat", "elements": {"A1": "H", "A2": "O", "A3": "H"},
         "bonds": [["A1", "A2", 1], ["A2", "A3", 1]], "trash": ["C"]}


def test_a_paper_sheet_is_scored_on_its_page(phones: Any) -> None:
    phone = phones()
    page = phone.get("/labnotes/sheet").get_data(as_text=True)
    assert 'data-paper="true"' in page and page.count('data-paper-mark=') == 6
    scored = phone.post("/labnotes/sheet", {"data": json.dumps(WATER)}).get_data(as_text=True)
    assert "Pat: 2 points" in scored and "H2O" in scored
    broken = phone.post("/labnotes/sheet", {"data": json.dumps({"elements": {"A1": "O", "A2": "H"},
                                                                  "bonds": [["A1", "A2", 2]]})})
    text = broken.get_data(as_text=True)
    assert "breaks 1 rule" in text and "Hydrogen takes only 1" in text
    junk = phone.post("/labnotes/sheet", {"data": "{not json"}).get_data(as_text=True)
    assert "not valid JSON" in junk
    # without htmx the whole page comes back, with a status that says how it went
    assert phone.post("/labnotes/sheet", {"data": "{"}, htmx=False).status_code == 400
    assert phone.client.post("/labnotes/sheet", data={"data": "{}"}).status_code == 403   # CSRF


def test_a_paper_sheet_through_the_api(app: Any) -> None:
    from tests.companion.test_api import check

    client = app.test_client()
    url = "/api/games/labnotes/paper/score"
    ok = check(app, "POST", "/api/games/{game}/paper/{verb}", client.post(url, json=WATER))
    assert ok.status_code == 200 and ok.json["data"]["total"] == 2 and ok.json["data"]["name"] == "Pat"
    assert ok.json["ok"] and ["TOTAL / GRADE", "2"] in ok.json["rows"]
    bad = check(app, "POST", "/api/games/{game}/paper/{verb}", client.post(url, json={"elements": {"Z9": "H"}}))
    assert bad.status_code == 422 and len(bad.json["problems"]) >= 2
    junk = check(app, "POST", "/api/games/{game}/paper/{verb}",
                 client.post(url, data="[1,", content_type="application/json"))
    assert junk.status_code == 400


def test_a_sheet_drawn_from_kept_spaces_and_gaps_is_the_sheet_the_template_draws(app: Any) -> None:
    """The companion keeps each space's and gap's markup between drawings
    (:mod:`companion.games.labnotes.drawn`); a whole game's sheets, every
    seat's own (with what it is offered) and as others see it, must come out
    as the template alone draws them."""
    from markupsafe import Markup

    from companion.games.labnotes import drawn
    from companion.games.labnotes.sheet import draw_sheet
    from companion.plugins import ascii_html
    from tests.companion.labnotes.robot import robot_move

    game = app.extensions["companion_referee"].game("labnotes")
    field = game.rules.field
    rnd = random.Random(11)
    state = game.setup(3, 11, {"first_game": True})
    compared = 0
    with app.test_request_context("/"):
        macro = app.jinja_env.get_template("labnotes/_sheet.html").module.note_sheet
        while not game.is_over(state) and compared < 600:
            seat = rnd.choice(game.to_move(state))
            actions = game.actions(state, seat)
            for s in range(3):
                shown = game.view(state, None)["seats"][s]
                mine = s == seat
                spaces = {a["space"] for a in actions if "space" in a} if mine else set()
                bonds = {tuple(sorted(a["spaces"])) for a in actions if a["type"] == "bond"} if mine else set()
                kept = drawn.field_html(game, shown, name=f"P{s}", mine=mine, offered_spaces=spaces,
                                        offered_bonds=bonds)
                plain = Markup(macro(draw_sheet(shown, field, offered_spaces=spaces, offered_bonds=bonds, mine=mine),
                                     mine=mine, name=f"P{s}"))
                assert kept == ascii_html(plain)   # kept in ASCII, "–" as "&#8211;" (companion.plugins)
                compared += 1
            state = game.apply(state, seat, robot_move(actions, rnd))
    assert compared >= 300 and drawn._pieces


def test_finish_my_turn_asks_first_only_when_it_gives_something_up():
    """Found at a table: "Finish my turn" ended a turn with bonds still to draw, without a word."""
    import doctest

    from companion.games.labnotes import board

    assert doctest.testmod(board).failed == 0
    assert board.finish_confirm({"bond": [], "claim": [{}]}) == "Finish your turn? You could still claim a notecard."
