"""What a hostile or broken client gets: a 400 with a reason for a body
nested too deep to read, and the security headers on every answer."""

from __future__ import annotations

from typing import Any

import pytest

DEEP = "[" * 1024


@pytest.fixture
def table(api: Any) -> dict[str, Any]:
    return api.table(players=["Ada", "Bo"])


def test_a_deep_nested_body_is_a_400_on_every_endpoint(app: Any, api: Any, phones: Any, table: dict) -> None:
    code, token = table["code"], table["tokens"][0]
    client = app.test_client()
    answers = {
        "POST /api/tables": client.post("/api/tables", data=DEEP, content_type="application/json"),
        "POST /api/tables/{code}/actions": client.post(f"/api/tables/{code}/actions", data=DEEP,
                                                       content_type="application/json",
                                                       headers={"Authorization": f"Bearer {token}"}),
        "POST /api/games/{game}/paper/{verb}": client.post("/api/games/labnotes/paper/score", data=DEEP,
                                                           content_type="application/json"),
    }
    phone = phones()
    phone.client.set_cookie(f"labkit_seat_{code}", token)
    answers["POST /labnotes/sheet"] = phone.post("/labnotes/sheet", {"data": DEEP})
    answers["POST /t/{code}/act"] = phone.post(f"/t/{code}/act", {"action": DEEP, "version": "1",
                                                                  "action_id": "retry-1234"})
    nested_action = '{"type": "bet", "guess": ' + DEEP + "]" * 1024 + "}"
    answers["POST /t/{code}/act (nested inside an action)"] = phone.post(
        f"/t/{code}/act", {"action": nested_action, "version": "1"})
    for where, response in answers.items():
        assert response.status_code == 400, (where, response.status_code, response.get_data(as_text=True)[:200])
        text = response.get_data(as_text=True)
        assert "JSON" in text or "readable" in text, (where, text[:200])


def test_security_headers_on_pages_api_streams_and_errors(app: Any, table: dict) -> None:
    client = app.test_client()
    for url in ("/", f"/t/{table['code']}", "/api/games", "/static/companion.css", "/no-such-page"):
        response = client.get(url)
        csp = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
        assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0], url   # no inline script
        assert "unsafe-eval" not in csp, url
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        assert response.headers.get("Referrer-Policy") == "same-origin", url
        assert response.headers.get("X-Frame-Options") == "DENY", url


def test_pages_carry_no_inline_script(app: Any, table: dict, phones: Any) -> None:
    import re

    phone = phones()
    phone.client.set_cookie(f"labkit_seat_{table['code']}", table["tokens"][0])
    for url in ("/", f"/t/{table['code']}"):
        page = phone.get(url).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", page):
            assert "src=" in tag, (url, tag)
        assert not re.search(r"\son[a-z]+=", page), url            # no onclick= handlers
        assert "hx-on" not in page and "javascript:" not in page, url


def test_a_server_out_of_connections_says_busy_and_changes_nothing(tmp_path: Any, toy: Any) -> None:
    import threading

    from tests.companion.conftest import Api, make_app

    app = make_app(tmp_path, DATABASE_CONNECTIONS=1)
    db = app.extensions["companion_store"].db
    db.busy_timeout = 0.2
    api = Api(app.test_client())
    table = api.table(players=["Ada", "Bo"])
    before = api.state(table["code"])
    held, done = threading.Event(), threading.Event()

    def hold() -> None:                       # another request holding the only connection
        with db.connect():
            held.set()
            done.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        answer = api.call("POST", f"/api/tables/{table['code']}/actions",
                          {"version": before["version"], "action": {"type": "bet", "guess": 1}}, table["tokens"][0])
    finally:
        done.set()
        holder.join()
    assert answer.status_code == 503, answer.json
    assert answer.headers["Retry-After"] == "1"
    assert "busy" in answer.json["error"]
    assert api.state(table["code"])["version"] == before["version"]
    db.close()


BEYOND = 2 ** 63   # past a 64-bit integer: SQLite cannot even hold it


def test_a_version_past_64_bits_is_refused_on_every_endpoint_and_changes_nothing(api: Any, phones: Any) -> None:
    """Found by fuzzing: a version at 2^63 reached SQLite and answered 500."""
    made = api.table(players=["Ada", "Bo"], start=False)
    code, host, seat = made["code"], made["host"], made["tokens"][0]
    before = api.state(code, host)["version"]
    for version in (BEYOND, BEYOND * 4, -1):
        for url, token, body in ((f"/api/tables/{code}/start", host, {}),
                                 (f"/api/tables/{code}/undo", host, {}),
                                 (f"/api/tables/{code}/actions", seat, {"action": {"type": "roll"}})):
            answer = api.call("POST", url, {**body, "version": version}, token)
            assert answer.status_code == 400, (url, version, answer.status_code, answer.json)
            assert "version" in answer.json["error"]
    host_phone = phones()
    host_phone.client.set_cookie(f"labkit_host_{code}", host)
    host_phone.get(f"/t/{code}")
    for path, fields in (("start", {}), ("undo", {}), ("options", {}), ("act", {"action": '{"type": "roll"}'})):
        answer = host_phone.post(f"/t/{code}/{path}", {**fields, "version": str(BEYOND)})
        assert 400 <= answer.status_code < 500, (path, answer.status_code)
    assert api.state(code, host)["version"] == before


def test_a_security_token_outside_ascii_is_refused_not_a_crash(phones: Any) -> None:
    """Found by fuzzing: hmac.compare_digest raised on non-ASCII text (500)."""
    phone = phones()
    phone.get("/")
    as_header = phone.client.post("/tables", data={"game": "toyrace"}, headers={"X-CSRF-Token": "é€\u2603"})
    in_form = phone.client.post("/tables", data={"game": "toyrace", "csrf_token": "jeton-é€"})
    for answer in (as_header, in_form):
        assert answer.status_code == 403, answer.status_code
        assert "security token" in answer.get_data(as_text=True)


def test_options_with_one_player_seated_are_read_for_the_counts_the_table_can_start_with(phones: Any) -> None:
    """Found by fuzzing: Organic Soup (2-4 players) with one seat was set up for 1 player (500)."""
    host = phones()
    code = host.create("organicsoup")
    host.join(code, "Ada")
    answer = host.post(f"/t/{code}/options", {"version": str(host.version(code))})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]


def test_an_option_a_game_does_not_have_is_a_sentence(api: Any) -> None:
    answer = api.call("POST", "/api/tables", {"game": "organicsoup", "options": {"extra": 1}})
    assert answer.status_code == 400 and "no setup options" in answer.json["error"], answer.json


def test_codes_that_name_no_table_are_limited_per_address_real_ones_too(tmp_path: Any, toy: Any) -> None:
    """Found by an attacker: 1,410 code guesses a second, a hit every 7 minutes with 50 live tables."""
    from tests.companion.conftest import Api, make_app

    app = make_app(tmp_path, RATE_LIMITS={"lookup": (3, 60.0)})
    real = Api(app.test_client()).table()["code"]
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    misses = ["ZZZZZ", "ZZZZY", "ZZZZX"]
    for code in misses:
        assert guesser.get(f"/api/tables/{code}").status_code == 404
    for url in ("/api/tables/ZZZZW", f"/api/tables/{real}", f"/t/{real}", f"/join?code={real}",
                f"/api/tables/{real}/version", f"/t/{real}/live"):
        answer = guesser.get(url)
        assert answer.status_code == 429, (url, answer.status_code)
        assert int(answer.headers["Retry-After"]) >= 1
    assert guesser.get("/api/games").status_code == 200               # what names no code still answers
    neighbour = app.test_client()
    neighbour.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert neighbour.get(f"/api/tables/{real}").status_code == 200    # another address is not held up
    app.extensions["companion_store"].db.close()


def test_a_server_can_make_longer_codes_and_still_reads_the_old_ones(tmp_path: Any, toy: Any) -> None:
    from tests.companion.conftest import Api, make_app

    short = make_app(tmp_path, CODE_LENGTH=5)
    old = Api(short.test_client()).table()["code"]
    short.extensions["companion_store"].db.close()
    longer = make_app(tmp_path, CODE_LENGTH=8)
    api = Api(longer.test_client())
    new = api.table()["code"]
    assert len(old) == 5 and len(new) == 8
    assert api.call("GET", f"/api/tables/{old}").status_code == 200
    assert api.call("GET", f"/api/tables/{new.lower()}").status_code == 200
    longer.extensions["companion_store"].db.close()
    with pytest.raises(ValueError, match="CODE_LENGTH"):
        make_app(tmp_path, CODE_LENGTH=30)


def test_every_path_that_tells_a_live_code_from_a_dead_one_counts_the_guess(tmp_path: Any, toy: Any) -> None:
    """Found by an attacker: ``/join?code=`` told a live code (303) from a dead
    one (404) without counting it, 25,800-35,900 guesses a minute. Every route
    that names a code, each method: where the answer for a code that names
    no table differs from the answer for a live one, that miss costs the
    address its only lookup (``lookup=1/3600`` here): a second miss is then
    one too many, and the address's next look at the live table is refused."""
    import re

    from tests.companion.conftest import Api, make_app

    app = make_app(tmp_path, RATE_LIMITS={"lookup": (1, 3600.0)})
    live = Api(app.test_client()).table(players=["Ada", "Bo"])["code"]
    addresses = iter(f"198.51.100.{n}" for n in range(1, 255))

    def send(path: str, method: str) -> tuple[Any, Any]:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = next(addresses)
        if method == "GET":
            return client, client.get(path)
        if path.startswith("/api/"):
            return client, client.post(path, json={})
        page = client.get("/").get_data(as_text=True)
        token = re.search(r'"X-CSRF-Token": "([^"]+)"', page).group(1)
        return client, client.post(path, data={"csrf_token": token}, headers={"X-CSRF-Token": token})

    tried = oracles = 0
    for rule in app.url_map.iter_rules():
        if "code" not in rule.arguments and rule.rule != "/join":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            def url(code: str) -> str:
                if rule.rule == "/join":
                    return f"/join?code={code}"
                return rule.build({"code": code, **{a: 0 if a == "seat" else "x" * 24 for a in rule.arguments
                                                    if a != "code"}})[1]
            tried += 1
            _, known = send(url(live), method)
            guesser, missed = send(url("QQQQQ"), method)
            if missed.status_code == known.status_code:
                continue          # the answer tells nothing
            oracles += 1
            guesser.get("/api/tables/QQQQR")           # a second miss: past the one lookup only if the first counted
            after = guesser.get(f"/api/tables/{live}")
            assert after.status_code == 429, (method, rule.rule, known.status_code, missed.status_code)
    assert tried >= 20 and oracles >= 10, (tried, oracles)
    app.extensions["companion_store"].db.close()
