"""The JSON API: a whole game, its errors, and its OpenAPI description
(every /api route described; every answer matches it; no input gives a 500)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion.openapi import spec


def _validator(app: Any, path: str, method: str, status: int) -> Draft202012Validator:
    doc = app.test_client().get("/api/openapi.json").json
    operation = doc["paths"][path][method.lower()]
    assert str(status) in operation["responses"], f"{method} {path} answered {status}, not described"
    schema = operation["responses"][str(status)]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": doc["components"]})


def _template(url: str) -> str:
    url = re.sub(r"/api/tables/[^/]+", "/api/tables/{code}", url.split("?")[0])
    return re.sub(r"/seats/\d+/(token|bot)$", r"/seats/{seat}/\1", url)


def check(app: Any, method: str, url: str, response: Any) -> Any:
    """The response is described, is JSON, and matches its schema."""
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.mimetype == "application/json", (url, response.status_code, response.data[:200])
    errors = list(_validator(app, _template(url), method, response.status_code).iter_errors(response.json))
    assert not errors, [e.message for e in errors]
    return response


def test_every_api_route_is_described(app: Any) -> None:
    doc = spec()
    described = {(p, m.upper()) for p, ops in doc["paths"].items() for m in ops}
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((path, method))
    assert routes == described
    assert doc["openapi"].startswith("3.")
    Draft202012Validator.check_schema({"$defs": doc["components"]["schemas"]})


def test_a_whole_game_through_the_api(app: Any, api: Any) -> None:
    t = api.table(options={"target": 10})
    code, host, tokens = t["code"], t["host"], t["tokens"]
    state = check(app, "GET", f"/api/tables/{code}", api.call("GET", f"/api/tables/{code}", token=tokens[0])).json
    assert state["status"] == "playing" and state["you"] == {"seat": 0, "host": False}
    assert state["actions"] == [{"type": "bet", "guess": "high"}, {"type": "bet", "guess": "low"}]
    spectator = check(app, "GET", f"/api/tables/{code}", api.call("GET", f"/api/tables/{code}")).json
    assert spectator["view"]["my_secret"] is None and spectator["actions"] == []
    check(app, "GET", f"/api/tables/{code}/score", api.call("GET", f"/api/tables/{code}/score"))
    for _ in range(200):
        state = api.state(code)
        if state["status"] == "over":
            break
        for seat in state["to_move"]:
            mine = api.state(code, tokens[seat])
            response = api.act(code, tokens[seat], mine["actions"][0], mine["version"])
            check(app, "POST", f"/api/tables/{code}/actions", response)
    score = check(app, "GET", f"/api/tables/{code}/score", api.call("GET", f"/api/tables/{code}/score")).json
    assert [s["name"] for s in score["scores"]] == ["Ada", "Bo"]
    for s in score["scores"]:
        assert s["total"] == sum(line["points"] for line in s["lines"])
    assert score["winners"]


def test_api_errors_say_why(app: Any, api: Any) -> None:
    t = api.table()
    code, host, (ada, bo) = t["code"], t["host"], t["tokens"]
    v = api.state(code)["version"]
    cases = [
        ("POST", f"/api/tables/{code}/actions", {"version": v, "action": {"type": "bet", "guess": "high"}}, None, 401),
        ("POST", f"/api/tables/{code}/actions", {"version": v, "action": {"type": "bet", "guess": "high"}}, host, 403),
        ("POST", f"/api/tables/{code}/actions", {"version": v, "action": {"type": "roll"}}, ada, 422),
        ("POST", f"/api/tables/{code}/actions", {"version": "v", "action": {"type": "roll"}}, ada, 400),
        ("POST", f"/api/tables/{code}/actions", {"version": v}, ada, 400),
        ("POST", f"/api/tables/{code}/undo", {"version": v}, ada, 403),
        ("POST", f"/api/tables/{code}/undo", {"version": v}, host, 409),
        ("POST", f"/api/tables/{code}/start", {"version": v}, host, 409),
        ("POST", f"/api/tables/{code}/seats", {"name": "Late"}, None, 409),
        ("POST", "/api/tables/NOPE1/seats", {"name": "Cy"}, None, 404),
        ("GET", "/api/tables/zzzzz", None, None, 404),
        ("POST", "/api/tables", {"game": "chess"}, None, 400),
        ("POST", "/api/tables", {"game": "toyrace", "options": {"target": -1}}, None, 400),
    ]
    for method, url, body, token, status in cases:
        response = api.call(method, url, body, token)
        assert response.status_code == status, (url, body, response.json)
        check(app, method, url, response)
        assert response.json["error"].endswith((".", "!", "?", ">.")), response.json
    illegal = api.act(code, ada, {"type": "roll"}, v)
    assert illegal.json["error"] == "Everyone bets before the lead rolls."
    assert illegal.json["table"]["version"] == v                # nothing changed


def test_the_host_gives_a_seat_a_new_token(app: Any, api: Any) -> None:
    t = api.table()
    code, host, (ada, bo) = t["code"], t["host"], t["tokens"]
    url = f"/api/tables/{code}/seats/0/token"
    assert check(app, "POST", url, api.call("POST", url, {}, ada)).status_code == 403
    fresh = check(app, "POST", url, api.call("POST", url, {}, host)).json["token"]
    assert api.state(code, ada)["you"]["seat"] is None          # the old token is no seat now
    assert api.state(code, fresh)["you"]["seat"] == 0
    missing = f"/api/tables/{code}/seats/5/token"
    assert check(app, "POST", missing, api.call("POST", missing, {}, host)).status_code == 409


def test_conflicting_api_actions_answer_409_with_the_new_state(app: Any, api: Any) -> None:
    t = api.table()
    code, (ada, bo) = t["code"], t["tokens"]
    v = api.state(code)["version"]
    assert api.act(code, ada, {"type": "bet", "guess": "high"}, v).status_code == 200
    again = check(app, "POST", f"/api/tables/{code}/actions", api.act(code, ada, {"type": "bet", "guess": "low"}, v))
    assert again.status_code == 409
    assert again.json["table"]["version"] == v + 1 and again.json["table"]["view"]["my_bet"] == "high"


def test_undo_through_the_api_replays_the_same_dice(app: Any, api: Any) -> None:
    t = api.table()
    code, host, (ada, bo) = t["code"], t["host"], t["tokens"]
    api.act(code, ada, {"type": "bet", "guess": "high"})
    api.act(code, bo, {"type": "bet", "guess": "low"})
    rolled = api.act(code, ada, {"type": "roll"}).json["view"]["last_die"]
    undone = api.call("POST", f"/api/tables/{code}/undo", {"version": api.state(code)["version"]}, host)
    check(app, "POST", f"/api/tables/{code}/undo", undone)
    assert undone.json["moves"] == 2 and undone.json["view"]["last_die"] is None
    assert api.act(code, ada, {"type": "roll"}).json["view"]["last_die"] == rolled


def test_the_api_reads_no_cookies_and_wants_json(app: Any, api: Any, phones: Any) -> None:
    """A seat's cookie (what a browser would attach to a forged request) gives
    no power over the API; a form post is not accepted."""
    t = api.table(start=False)
    code = t["code"]
    phone = phones()
    phone.join(code, "Cy")
    v = api.state(code)["version"]
    response = phone.client.post(f"/api/tables/{code}/start", json={"version": v})
    assert response.status_code == 401
    form = phone.client.post(f"/api/tables/{code}/seats", data={"name": "Dee"})
    assert form.status_code == 415 and form.mimetype == "application/json"
    cross = app.test_client().post("/api/tables", json={"game": "toyrace"}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403


def test_chosen_seeds_only_where_allowed(tmp_path: Any, toy: Any) -> None:
    from tests.companion.conftest import make_app

    app = make_app(tmp_path, ALLOW_CHOSEN_SEED=False)
    response = app.test_client().post("/api/tables", json={"game": "toyrace", "seed": 5})
    assert response.status_code == 400 and "seeds" in response.json["error"]


# --- fuzzing ---------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)
keys = st.sampled_from(["game", "options", "seed", "name", "version", "action", "type", "guess", "card_set", "x"])
bodies = (st.dictionaries(keys, json_values, max_size=4)
          | st.fixed_dictionaries({"version": st.integers(-3, 40) | json_values,
                                   "action": st.fixed_dictionaries({"type": st.sampled_from(["bet", "roll", "x"])},
                                                                   optional={"guess": json_values})})
          | json_values)
raw_bodies = st.binary(max_size=200) | st.text(max_size=200).map(str.encode)


@pytest.fixture
def fuzz_table(app: Any, api: Any) -> dict[str, Any]:
    return api.table()


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_input_makes_the_api_answer_500(app: Any, fuzz_table: dict[str, Any], data: Any) -> None:
    code = fuzz_table["code"]
    tokens = [None, "", "nonsense", fuzz_table["host"], *fuzz_table["tokens"]]
    paths = [("GET", "/api/games"), ("GET", "/api/openapi.json"), ("POST", "/api/tables"),
             ("GET", f"/api/tables/{code}"), ("GET", f"/api/tables/{code}/version"),
             ("POST", f"/api/tables/{code}/seats"), ("POST", f"/api/tables/{code}/start"),
             ("POST", f"/api/tables/{code}/actions"), ("POST", f"/api/tables/{code}/undo"),
             ("GET", f"/api/tables/{code}/score"), ("POST", "/api/games/labnotes/sheet"),
             ("POST", f"/api/tables/{code}/seats/1/token"), ("POST", f"/api/tables/{code}/seats/9/token"),
             ("POST", f"/api/tables/{code}/bots"), ("POST", f"/api/tables/{code}/seats/1/bot")]
    method, url = data.draw(st.sampled_from(paths))
    if data.draw(st.booleans()):
        url = url.replace(code, data.draw(st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF, exclude_characters="/?#.%\\"),
                                             min_size=1, max_size=12)))
    token = data.draw(st.sampled_from(tokens))
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    client = app.test_client()
    if method == "GET":
        response = client.get(url, headers=headers)
    elif data.draw(st.booleans()):
        response = client.post(url, data=json.dumps(data.draw(bodies)), content_type="application/json",
                               headers=headers)
    else:
        ctype = data.draw(st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]))
        response = client.post(url, data=data.draw(raw_bodies), content_type=ctype, headers=headers)
    assert response.status_code < 500, (method, url, response.get_data(as_text=True)[:300])
    if 300 <= response.status_code < 400:
        return  # Werkzeug's own redirect to a canonical URL (e.g. a code with a newline in it)
    assert response.mimetype == "application/json"
    if _template(url) in spec()["paths"]:
        check(app, method, url, response)      # described, and shaped as described
