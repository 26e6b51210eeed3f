"""Lab Notes at the table: its board (drawn from the engine's view and
actions), its styles, and a page to score a finished paper note sheet by
tapping it in (it posts to the house's paper tools)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, render_template, request

from companion.games.labnotes.board import action_label, board_context
from companion.games.labnotes.narrate import narrate
from companion.games.labnotes.sheet import draw_sheet
from companion.games.labnotes.sheet_photo import PHOTO_BYTES, apply_fix, photo_submit
from companion.plugins import Part, Plugin
from reader.review import asked_items

blueprint = Blueprint("labnotes", __name__, template_folder="templates", static_folder="static",
                      static_url_path="/static/games/labnotes")


def _paper_context(**kw: Any) -> dict[str, Any]:
    from companion.web import get_referee

    game = get_referee().game("labnotes")
    field = game.rules.field
    blank = {"spaces": "." * len(field.spaces), "bonds": [], "placed": []}
    svg = draw_sheet(blank, field, offered_spaces=set(range(len(field.spaces))), mine=True, all_gaps=True)
    ctx = {"svg": svg, "cards": [c for c in game.data.notecards if not c.is_lab_fire],
           "trash_cans": game.data.sheet.trash_cans, "boxes": game.data.sheet.notecard_boxes,
           "result": None, "problems": None, "sheet_json": "", "title": game.title,
           "photo": None, "photo_error": None, "asked": "", "fixed": ""}
    ctx.update(kw)
    ctx["asked_items"] = asked_items(ctx["asked"], ctx["fixed"])
    return ctx


@blueprint.get("/labnotes/sheet")
def paper() -> str:
    return render_template("labnotes/paper.html", **_paper_context())


@blueprint.post("/labnotes/sheet")
def score_paper() -> Any:
    """Score a finished paper sheet: the JSON the tapping page builds, or one pasted
    (with a fix from a photo's list applied, when the page's script did not)."""
    from companion import paper as house
    from companion.security import rate_limit

    rate_limit("paper")
    text = request.form.get("data", "")
    fix = request.form.get("fix", "")[:40]
    fixed = request.form.get("fixed", "")[:2000]
    if fix:
        try:
            text = json.dumps(apply_fix(json.loads(text), fix), ensure_ascii=False)
        except ValueError:
            pass   # not JSON: the scorer says so
        fixed = f"{fixed}|{fix.split('=')[0]}".strip("|")
    status, report, problems = house.run("labnotes", "score", text)
    ctx = _paper_context(result=report["data"] if report else None, problems=problems, sheet_json=text,
                         asked=request.form.get("asked", "")[:20000], fixed=fixed)
    if request.headers.get("HX-Request") == "true":
        return render_template("labnotes/_paper_result.html", **ctx), status
    return render_template("labnotes/paper.html", **ctx), status


@blueprint.post("/labnotes/sheet/photo")
def photo() -> Any:
    return photo_submit(_paper_context)



photo.max_body = PHOTO_BYTES + 64 * 1024   # type: ignore[attr-defined]  # a photo: companion/home.py

PLUGIN = Plugin(
    parts=(Part("round", "labnotes/_round.html"), Part("dice", "labnotes/_dice.html"),
           Part("line", "labnotes/_line.html"), Part("sheet", "labnotes/_mysheet.html"),
           Part("tools", "labnotes/_tools.html"), Part("others", "labnotes/_others.html"),
           Part("breakdown", "labnotes/_breakdown.html")),
    board_context=board_context,
    action_label=action_label,
    blueprint=blueprint,
    styles=("labnotes.css",),
    links=(("Score a paper Lab Notes sheet", "labnotes.paper"),),
    narrate=narrate,
)
