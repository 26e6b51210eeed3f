"""Reading a game's page as a phone reads it: the page behind a seat's
cookie, an element's attribute, the actions the page offers through the
house's generic gestures, and a section by its id. Shared by the game
folders' tests."""

from __future__ import annotations

import html
import json
import re
from typing import Any


def page(app: Any, code: str, token: str | None) -> str:
    client = app.test_client()
    if token:
        client.set_cookie(f"labkit_seat_{code}", token)
    return client.get(f"/t/{code}").get_data(as_text=True)


def attr(tag: str, name: str) -> str | None:
    m = re.search(rf"""\s{name}=(?:"([^"]*)"|'([^']*)')""", tag)
    return None if m is None else html.unescape(m.group(1) if m.group(1) is not None else m.group(2))


def offered(text: str) -> list[dict[str, Any]]:
    """Every action a page offers through the generic gestures: buttons
    (data-act), options completed by each of their values (data-option,
    data-fill, data-values) and menus (<option value="{...}">)."""
    out = []
    for tag in re.findall(r"<[^>]+>", text):
        act, option = attr(tag, "data-act"), attr(tag, "data-option")
        if act:
            out.append(json.loads(act))
        if option:
            field, values = attr(tag, "data-fill"), attr(tag, "data-values") or ""
            out.extend({**json.loads(option), field: int(v) if v.isdigit() else v} for v in values.split(",") if v)
    for raw in re.findall(r'<option value="([^"]+)"', text):
        if raw.startswith("{"):
            out.append(json.loads(html.unescape(raw)))
    return out


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def section(text: str, ident: str) -> str:
    """The HTML of the element with this id, up to its closing </section>."""
    m = re.search(rf'<section[^>]*id="{ident}".*?</section>', text, re.S)
    assert m, f"no #{ident} on the page"
    return m.group(0)
