"""Check a reaction at a paper table, by filling in a form instead of
writing JSON: who has what in front of him, the reacting player's hand, and
the reaction. The form is turned into the JSON of
``docs/organicsoup-reaction-format.md`` and judged by the house's paper
tool (:mod:`companion.paper`), the same referee as ``labkit check``.

Molecules are written as a list, ``2 Water, 1 Hydrogen`` (a count before or
after the name; no count is one); recipes as names, ``Water, Oxygen``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import render_template, request

SEATS = 4
_ITEM = re.compile(r"^\s*(?:(\d+)\s*[x×*]?\s+)?(.+?)(?:\s*[x×*]?\s*(\d+))?\s*$")


def molecules(text: str) -> dict[str, int]:
    """``"2 Water, Hydrogen x3"`` as ``{"Water": 2, "Hydrogen": 3}``.

    >>> molecules("2 Water, Hydrogen x3; nitric oxide")
    {'Water': 2, 'Hydrogen': 3, 'nitric oxide': 1}
    """
    out: dict[str, int] = {}
    for item in re.split(r"[,;\n]+", text or ""):
        if not item.strip():
            continue
        m = _ITEM.match(item)
        count = int(m.group(1) or m.group(3) or 1)
        name = m.group(2).strip()
        out[name] = out.get(name, 0) + count
    return out


def names(text: str) -> list[str]:
    """``"Water, Oxygen"`` as ``["Water", "Oxygen"]``."""
    return [t.strip() for t in re.split(r"[,;\n]+", text or "") if t.strip()]


def from_form(form: Any) -> dict[str, Any]:
    """The reaction format's JSON from the form's fields: the players who
    were filled in, in seat order, and the reaction."""
    players, ingredients, index = [], [], {}
    for i in range(SEATS):
        fields = {k: (form.get(f"{k}{i}") or "").strip() for k in ("name", "molecules", "recipes", "hand", "take")}
        if not any(fields.values()):
            continue
        index[i] = len(players)
        name = fields["name"] or f"Player {i + 1}"
        player: dict[str, Any] = {"name": name, "molecules": molecules(fields["molecules"]),
                                  "recipes": names(fields["recipes"])}
        if fields["hand"]:
            player["hand"] = names(fields["hand"])
        players.append(player)
        ingredients += [{"player": name, "molecule": m, "count": k} for m, k in molecules(fields["take"]).items()]
    try:
        reacting = players[index[int(form.get("player", "0"))]]["name"]
    except (KeyError, ValueError, IndexError):
        reacting = players[0]["name"] if players else 0
    return {"game": "organicsoup", "players": players, "player": reacting, "ingredients": ingredients,
            "products": molecules(form.get("products", ""))}


def _context(**kw: Any) -> dict[str, Any]:
    from companion.web import get_referee

    game = get_referee().game("organicsoup")
    ctx = {"title": game.title, "seats": SEATS, "recipes": [r.name for r in game.cards.recipes],
           "form": {}, "report": None, "problems": None, "data": ""}
    ctx.update(kw)
    return ctx


def paper_page() -> str:
    return render_template("organicsoup/paper.html", **_context())


def paper_submit() -> Any:
    from companion import paper as house
    from companion.security import rate_limit

    rate_limit("paper")
    data = from_form(request.form)
    text = json.dumps(data, indent=1, ensure_ascii=False)
    status, report, problems = house.run("organicsoup", "check", text)
    ctx = _context(form=request.form, report=report, problems=problems, data=text)
    if request.headers.get("HX-Request") == "true":
        return render_template("organicsoup/_paper_result.html", **ctx), status
    return render_template("organicsoup/paper.html", **ctx), status
