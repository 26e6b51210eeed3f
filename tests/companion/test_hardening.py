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
