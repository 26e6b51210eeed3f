"""The pages phones use: seats and tokens, live updates, illegal moves,
CSRF, escaping, limits, and no address outside the server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion import STATIC_DIR
from tests.companion.conftest import Phone, make_app


def _table_with_two(phones: Any) -> tuple[str, Phone, Phone, Phone]:
    host, ada, bo = phones(), phones(), phones()
    code = host.create()
    assert ada.join(code, "Ada").status_code == 204
    assert bo.join(code, "Bo").status_code == 204
    return code, host, ada, bo


def _start(code: str, host: Phone) -> Any:
    return host.post(f"/t/{code}/start", {"version": str(host.version(code))})


def test_a_host_creates_a_table_with_a_code_a_link_and_a_qr_code(phones: Any) -> None:
    host = phones()
    code = host.create()
    assert re.fullmatch(r"[A-Z2-9]{5}", code)
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert f">{code}<" in page
    assert f"http://localhost/t/{code}" in page
    assert "<svg" in page and 'class="qr"' in page
    assert "Start the game" in page
    assert host.get(f"/t/{code}/qr.svg").mimetype == "image/svg+xml"
    # a lower-case code typed on a phone finds the same table
    assert host.get(f"/t/{code.lower()}").status_code == 301
    assert host.get(f"/join?code={code.lower()}").headers["Location"].endswith(f"/t/{code}")


def test_players_join_with_a_name_and_get_a_secret_seat_cookie(phones: Any, app: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    cookie = ada.client.get_cookie(f"labkit_seat_{code}")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    # the database keeps only a digest of it
    with app.extensions["companion_store"].db.connect() as c:
        stored = [r["token"] for r in c.all("SELECT token FROM seats")]
    assert cookie.value not in stored and len(stored) == 2
    page = ada.get(f"/t/{code}").get_data(as_text=True)
    assert "Ada" in page and "Bo" in page and "(you)" in page
    assert "Start the game" not in page                 # only the host starts
    # joining twice from one phone keeps one seat
    ada.post(f"/t/{code}/join", {"name": "Ada again"})
    assert app.extensions["companion_store"].seats(app.extensions["companion_store"].table(code)["id"]).__len__() == 2


def test_names_are_checked(phones: Any) -> None:
    host, p = phones(), phones()
    code = host.create()
    assert p.join(code, "   ").status_code == 400
    assert p.join(code, "x" * 25).status_code == 400
    assert p.join(code, "bad\u0000name").status_code == 400
    assert p.join(code, "Ada").status_code == 204
    q = phones()
    response = q.join(code, "ada")
    assert response.status_code == 409 and "already called" in response.get_data(as_text=True)


def test_only_the_host_starts_and_undoes(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    assert ada.post(f"/t/{code}/start", {"version": str(ada.version(code))}).status_code == 403
    assert _start(code, host).status_code == 200
    ada.act(code, {"type": "bet", "guess": "high"})
    assert ada.post(f"/t/{code}/undo", {"version": str(ada.version(code))}).status_code == 403
    response = host.post(f"/t/{code}/undo", {"version": str(host.version(code))})
    assert "The host took back a move" in response.get_data(as_text=True)


def test_only_a_game_that_offers_it_shows_the_host_an_end_by_agreement(phones: Any) -> None:
    """The house offers "End the game now" only for a game with ``Game.end_by_agreement`` (Toy Race has
    none: it always ends); asked anyway, it says why, and no seat may ask."""
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Undo the last action" in page and "End the game" not in page
    response = host.post(f"/t/{code}/end", {"version": str(host.version(code))})
    assert response.status_code == 409 and "played to its end" in response.get_data(as_text=True)
    assert ada.post(f"/t/{code}/end", {"version": str(ada.version(code))}).status_code == 403


def test_no_one_acts_for_another_seat_or_as_the_host(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    # the host has no seat: it cannot act
    assert host.act(code, {"type": "bet", "guess": "high"}).status_code == 403
    # a viewer cannot act, and a forged seat cookie is no seat
    viewer = phones()
    assert viewer.act(code, {"type": "bet", "guess": "high"}).status_code == 403
    viewer.client.set_cookie(f"labkit_seat_{code}", "guessed-token")
    assert viewer.act(code, {"type": "bet", "guess": "high"}).status_code == 403
    # a seat acts only as itself: Bo's phone bets for Bo
    bo.act(code, {"type": "bet", "guess": "low"})
    assert "&#34;my_bet&#34;:null" in ada.get(f"/t/{code}").get_data(as_text=True)
    assert "&#34;my_bet&#34;:&#34;low&#34;" in bo.get(f"/t/{code}").get_data(as_text=True)


def test_a_viewer_sees_the_spectator_view(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    viewer = phones()
    page = viewer.get(f"/t/{code}").get_data(as_text=True)
    assert "You are watching: this phone holds no seat" in page and "no new players" in page
    assert "&#34;my_secret&#34;:null" in page
    assert 'name="action"' not in page


def test_a_change_on_one_phone_reaches_the_other_by_polling(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    version = bo.version(code)
    idle = bo.client.get(f"/t/{code}/live?since={version}", headers={"HX-Request": "true"})
    assert idle.status_code == 204                         # nothing changed: nothing to swap
    ada.act(code, {"type": "bet", "guess": "high"})
    changed = bo.client.get(f"/t/{code}/live?since={version}", headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert int(changed.headers["X-Table-Version"]) == version + 1
    body = changed.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="live"') and "<html" not in body   # the partial alone
    assert f'data-version="{version + 1}"' in body


def test_an_illegal_move_shows_its_reason_next_to_the_control(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    before = ada.version(code)
    response = ada.act(code, {"type": "roll"}, origin="actions")
    body = response.get_data(as_text=True)
    assert response.status_code == 422          # the rules refuse it; htmx still shows the page (base.html)
    reason = re.search(r'<section class="card board" id="control-actions">.*?<p class="error-text" role="alert">(.*?)</p>',
                       body, re.S)
    assert reason and "Everyone bets before the lead rolls." in reason.group(1)
    assert ada.version(code) == before


def test_a_stale_tap_is_told_someone_moved_first(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    ada.act(code, {"type": "bet", "guess": "high"})
    v = ada.version(code)                       # Ada has bet; Bo's bet then makes it her roll
    bo.act(code, {"type": "bet", "guess": "high"}, version=v)
    response = ada.act(code, {"type": "roll"}, version=v)
    body = response.get_data(as_text=True)
    assert "Someone else moved first" in body
    assert f'data-version="{v + 1}"' in body


def test_a_tap_drawn_just_after_a_seat_changed_phone_still_counts_when_others_bet_first(phones: Any) -> None:
    # A seat handed to a new phone moves the version without a move; a bet
    # drawn at that version and sent after another player's bet is rebased
    # like any other stale tap in a simultaneous phase, not refused.
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    ada.act(code, {"type": "bet", "guess": "high"})      # a first round, so that the game has moves
    bo.act(code, {"type": "bet", "guess": "high"})
    rolled = [phone.act(code, {"type": "roll"}).status_code for phone in (ada, bo)]
    assert rolled.count(200) == 1                         # the lead's roll; the other is refused
    page = host.post(f"/t/{code}/seats/1/handover").get_data(as_text=True)
    link = dict(re.findall(r'data-handover-seat="(\d+)">.*?<a href="([^"]+)"', page, re.S))["1"]
    new_phone = phones()
    assert new_phone.post(link.replace("http://localhost", ""), htmx=False).status_code == 303
    v = new_phone.version(code)
    assert ada.act(code, {"type": "bet", "guess": "high"}, version=v).status_code == 200
    response = new_phone.act(code, {"type": "bet", "guess": "low"}, version=v)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert new_phone.version(code) == v + 2


def test_a_second_tap_from_the_version_before_ones_own_move_is_told_so(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    v = ada.version(code)
    ada.act(code, {"type": "bet", "guess": "high"}, version=v)
    response = ada.act(code, {"type": "bet", "guess": "low"}, version=v)
    body = response.get_data(as_text=True)
    assert response.status_code == 409 and "You moved just now" in body
    assert f'data-version="{v + 1}"' in body


def test_a_whole_game_ends_with_the_score_table(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    players = {0: ada, 1: bo}
    for _ in range(60):
        page = ada.get(f"/t/{code}").get_data(as_text=True)
        if 'id="final-score"' in page:
            break
        for seat, phone in players.items():
            html = phone.get(f"/t/{code}").get_data(as_text=True)
            offered = re.findall(r'name="action" value="([^"]+)"', html)
            if offered:
                action = json.loads(offered[0].replace("&#34;", '"'))
                phone.act(code, action)
    page = bo.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="final-score"' in page
    table = re.search(r'<table class="score-table">.*?</table>', page, re.S).group(0)
    assert "Race points" in table and "Secret bonus" in table and "Total" in table
    assert "Ada" in table and "Bo" in table
    assert "wins." in page or "Shared win" in page


def test_player_names_are_escaped_everywhere(phones: Any) -> None:
    host, evil, bo = phones(), phones(), phones()
    code = host.create()
    name = "<script>x()</script>"[:24]
    assert evil.join(code, name).status_code == 204
    bo.join(code, "Bo")
    pages = [host.get(f"/t/{code}").get_data(as_text=True)]
    _start(code, host)
    pages.append(bo.get(f"/t/{code}").get_data(as_text=True))
    pages.append(host.get(f"/t/{code}/live?since=0").get_data(as_text=True))
    api = host.client.get(f"/api/tables/{code}")
    for page in pages:
        assert "<script>x()" not in page
        assert "&lt;script&gt;x()" in page
    assert api.json["seats"][0]["name"] == name          # JSON carries it as data
    assert api.mimetype == "application/json"


# --- CSRF -------------------------------------------------------------------------

def test_every_state_changing_page_request_needs_the_csrf_token(phones: Any, app: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    posts = [("/tables", {"game": "toyrace"}), (f"/t/{code}/join", {"name": "Cy"}),
             (f"/t/{code}/start", {"version": "2"}), (f"/t/{code}/act", {"action": "{}", "version": "2"}),
             (f"/t/{code}/undo", {"version": "2"}), (f"/t/{code}/end", {"version": "2"})]
    # and every other POST route the server has, but the API's (bearer tokens, JSON only)
    values = {"code": code, "seat": 0, "nonce": "x" * 16, "key": "x" * 16, "game": "labnotes", "verb": "score"}
    with app.test_request_context():
        from flask import url_for

        for rule in app.url_map.iter_rules():
            if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/"):
                url = url_for(rule.endpoint, **{a: values[a] for a in rule.arguments})
                if url not in {u for u, _ in posts}:
                    posts.append((url, {"version": "2"}))
    assert any("/host/" in u for u, _ in posts) and len(posts) > 12, posts
    for url, data in posts:
        missing = host.client.post(url, data=data)
        assert missing.status_code == 403, url
        wrong = host.client.post(url, data=data, headers={"X-CSRF-Token": "not-the-token"})
        assert wrong.status_code == 403, url
        assert "out of date" in wrong.get_data(as_text=True)
    # the right token from another site is refused too
    cross = host.post(f"/t/{code}/start", {"version": "2"}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    fetched = host.post(f"/t/{code}/start", {"version": "2"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert fetched.status_code == 403
    # and the token in a plain form field works like the header
    ok = host.client.post(f"/t/{code}/start", data={"version": str(host.version(code)), "csrf_token": host.csrf})
    assert ok.status_code == 200 and 'data-status="playing"' in ok.get_data(as_text=True)


def test_an_htmx_request_that_fails_gets_a_sentence_for_the_banner(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    response = ada.client.post(f"/t/{code}/start", data={"version": "2"},
                               headers={"HX-Request": "true", "X-CSRF-Token": "stale"})
    assert response.status_code == 403 and response.mimetype == "text/plain"
    assert "reload it" in response.get_data(as_text=True)


def test_a_token_from_one_session_does_not_work_in_another(phones: Any) -> None:
    a, b = phones(), phones()
    a.get("/")
    b.get("/")
    assert a.csrf != b.csrf
    response = b.client.post("/tables", data={"game": "toyrace"}, headers={"X-CSRF-Token": a.csrf})
    assert response.status_code == 403


# --- limits -------------------------------------------------------------------------

def test_create_and_join_are_rate_limited_per_client(tmp_path: Path, toy: Any) -> None:
    app = make_app(tmp_path, RATE_LIMITS={"create": (3, 60.0), "join": (2, 60.0)})
    host = Phone(app)
    codes = [host.create() for _ in range(3)]
    limited = host.post("/tables", {"game": "toyrace"}, htmx=False)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    api = app.test_client().post("/api/tables", json={"game": "toyrace"})
    assert api.status_code == 429 and "wait" in api.json["error"]
    p1, p2, p3 = Phone(app), Phone(app), Phone(app)
    assert p1.join(codes[0], "A").status_code == 204
    assert p2.join(codes[0], "B").status_code == 204
    assert p3.join(codes[0], "C").status_code == 429
    # another client address has its own bucket
    other = app.test_client().post("/api/tables", json={"game": "toyrace"},
                                   environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201


def test_request_bodies_are_capped(phones: Any) -> None:
    host = phones()
    code = host.create()
    huge = host.post(f"/t/{code}/join", {"name": "x" * 100_000})
    assert huge.status_code == 413
    api = host.client.post("/api/tables", data=json.dumps({"game": "toyrace", "pad": "x" * 100_000}),
                           content_type="application/json")
    assert api.status_code == 413 and "error" in api.json


# --- the pages stand alone on a table's Wi-Fi ----------------------------------------

def _external_urls(html: str) -> list[str]:
    urls = re.findall(r"""(?:https?:)?//[^\s"'<>)]+""", html)
    return [u for u in urls if not re.match(r"(?:https?:)?//localhost(?::\d+)?(?:/|$)", u)]


def test_no_page_refers_to_another_host(phones: Any) -> None:
    code, host, ada, bo = _table_with_two(phones)
    seen = [host.get("/").get_data(as_text=True), host.get(f"/t/{code}").get_data(as_text=True),
            ada.get(f"/t/{code}").get_data(as_text=True)]
    _start(code, host)
    seen += [ada.get(f"/t/{code}").get_data(as_text=True), host.get(f"/t/{code}").get_data(as_text=True),
             phones().get(f"/t/{code}").get_data(as_text=True),
             host.get("/nowhere").get_data(as_text=True)]
    for page in seen:
        assert _external_urls(page) == [], _external_urls(page)
        for src in re.findall(r'<script[^>]*src="([^"]+)"', page):
            assert src.startswith("/static/"), src
    for asset in ("companion.js", "companion.css"):
        assert _external_urls((STATIC_DIR / asset).read_text()) == []


def test_htmx_and_the_page_assets_are_served_by_the_server(phones: Any) -> None:
    from tests.companion.conftest import need_htmx

    need_htmx()
    client = phones().client
    htmx = client.get("/static/vendor/htmx.min.js")
    assert htmx.status_code == 200 and b"htmx" in htmx.data[:2000]
    page = client.get("/").get_data(as_text=True)
    assert '<script src="/static/vendor/htmx.min.js"' in page
    assert "hx-headers" in page and "X-CSRF-Token" in page


def test_made_for_a_phone_day_and_night_and_kept_awake() -> None:
    css = (STATIC_DIR / "companion.css").read_text()
    js = (STATIC_DIR / "companion.js").read_text()
    assert "prefers-color-scheme: dark" in css
    sizes = [int(n) for n in re.findall(r"min-height:\s*(\d+)px", css)]
    assert sizes and min(sizes) >= 44                   # tap targets
    assert 'navigator.wakeLock.request("screen")' in js
    assert "visibilitychange" in js


def test_no_form_input_makes_a_page_answer_500(phones: Any) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    code, host, ada, bo = _table_with_two(phones)
    _start(code, host)
    text = st.text(max_size=60) | st.sampled_from(['{"type":"bet","guess":"high"}', '{"type":"roll"}', "NaN",
                                                    '{"type":"bet","guess":NaN}', "[]", "1e999", '{"type":1}'])

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(url=st.sampled_from(["act", "join", "start", "undo", "end", "seats/0/handover", "seats/99/handover"]),
           phone=st.sampled_from([host, ada, bo]), action=text, version=text, name=text, since=text)
    def fuzz(url: str, phone: Phone, action: str, version: str, name: str, since: str) -> None:
        response = phone.post(f"/t/{code}/{url}", {"action": action, "version": version, "name": name,
                                                   "origin": name})
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        polled = phone.client.get(f"/t/{code}/live", query_string={"since": since})
        assert polled.status_code < 500

    fuzz()


def test_no_template_writes_a_count_of_points_without_its_singular() -> None:
    """Found at a table: "1 pts". A count printed before "pts" says "pt" for one."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    bare = re.compile(r"\}\}\s*pts\b")
    found = [f"{p.relative_to(root)}:{n}" for p in [*root.glob("companion/games/*/templates/**/*.html"),
                                                      *root.glob("templates/companion/*.html")]
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if bare.search(line)]
    assert not found, found
