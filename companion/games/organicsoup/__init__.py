"""Organic Soup at the table: its board (drawn from the engine's view and
actions), the reaction finder for a phone's form, its styles and script,
and a page to check a reaction at a paper table (it posts to the house's
paper tools)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, request

from companion.games.organicsoup.board import action_label, board_context
from companion.games.organicsoup.narrate import narrate
from companion.games.organicsoup.paper import paper_page, paper_submit
from companion.plugins import Part, Plugin

blueprint = Blueprint("organicsoup", __name__, template_folder="templates", static_folder="static",
                      static_url_path="/static/games/organicsoup")


@blueprint.get("/organicsoup/t/<code>/find")
def find(code: str) -> Any:
    """The reaction finder, for the player to move: the products that use
    every atom of the ingredients chosen on his phone, among the recipes he
    may form, or why there are none. A question, not a move: nothing changes."""
    from companion.caller import by_cookies
    from companion.errors import REFUSALS, status_of
    from companion.lobby import clean_code
    from companion.security import json_error
    from engine.core import IllegalAction
    from engine.organicsoup.offers import complete
    from engine.organicsoup.reactions import read_reaction

    caller = by_cookies(clean_code(code))
    snap, seat = caller.snap, caller.seat
    if snap.table["game"] != "organicsoup":
        return json_error(404, "This table is not playing Organic Soup.")
    if seat is None:
        return json_error(403, "Only a seated player can ask: join the table first.")
    view = snap.view(seat)
    if "reaction" not in view:
        return json_error(409, "You may trigger a reaction only on your turn, before you build.")
    try:
        chosen = json.loads(request.args.get("ingredients", "[]"))
        wanted = json.loads(request.args.get("products", "{}"))
        if not isinstance(wanted, dict):
            raise IllegalAction("products must be {recipe: count}.")
        reaction = read_reaction({"ingredients": chosen, "products": {}}, snap.game.cards, snap.state.players)
    except REFUSALS as exc:
        return json_error(status_of(exc), str(exc))
    except (ValueError, RecursionError):
        return json_error(400, "The ingredients could not be read.")
    found, reasons = complete(snap.game.cards, snap.state, seat, reaction.ingredients,
                              wanted=[r for r in wanted if isinstance(r, str)],
                              names=[snap.name(i) for i in range(snap.state.players)])
    if found is None or reasons:
        return jsonify({"found": False, "products": None, "message": " ".join(reasons)})
    made = " + ".join(f"{k} {snap.game.cards.recipe(r).name}" for r, k in found.products)
    return jsonify({"found": True, "products": dict(found.products),
                    "message": f"Found: {made} uses every atom. Press React to play it."})


blueprint.add_url_rule("/organicsoup/check", "paper", paper_page, methods=["GET"])
blueprint.add_url_rule("/organicsoup/check", "paper_submit", paper_submit, methods=["POST"])

PLUGIN = Plugin(
    parts=(Part("turn", "organicsoup/_turn.html"), Part("soup", "organicsoup/_soup.html", shared=True, beside=True),
           Part("build", "organicsoup/_build.html"), Part("react", "organicsoup/_react.html"),
           Part("end", "organicsoup/_end.html"), Part("hand", "organicsoup/_hand.html"),
           Part("in-front", "organicsoup/_in_front.html")),
    board_context=board_context,
    action_label=action_label,
    narrate=narrate,
    blueprint=blueprint,
    styles=("organicsoup.css",),
    scripts=("organicsoup.js",),
    links=(("Check a reaction at a paper Organic Soup table", "organicsoup.paper"),),
    score=None,   # the turn part shows the standings by the rulebook's order, not weighted points
)
