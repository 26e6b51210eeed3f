"""Paper tools at the table, for every game that has them (a finished sheet
scored, a proposed reaction judged): a page where the JSON can be pasted,
and the API route ``/api/games/<game>/paper/<verb>``. A game's plugin may
offer a friendlier page that builds the same JSON and posts it here (its
``links``): then that page is the way in from the home page, and it links
to the JSON page for pasting ("Paste JSON instead"), which links back.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request

from engine.core import InvalidState, MalformedInput
from engine.descriptor import GameDescriptor, PaperTool
from companion.plugins import plugin
from companion.security import json_error, rate_limit
from companion.web import get_referee
from labkit import registry

bp = Blueprint("paper", __name__)


def _tool(game: str, verb: str) -> tuple[GameDescriptor, PaperTool]:
    descriptor = registry.games().get(game)
    tool = descriptor.tool(verb) if descriptor is not None else None
    if descriptor is None or tool is None:
        abort(404, f"There is no paper tool {verb!r} for {game!r} on this server.")
    return descriptor, tool


def run(game: str, verb: str, text: str) -> tuple[int, dict[str, Any] | None, list[str] | None]:
    """``(status, report, problems)`` for JSON text a table entered."""
    _, tool = _tool(game, verb)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return 400, None, [f"This is not valid JSON: {exc}"]
    try:
        report = tool.run(get_referee().game(game), data)
    except InvalidState as exc:
        lines = [line[2:] if line.startswith("- ") else line for line in str(exc).splitlines()]
        return 400 if isinstance(exc, MalformedInput) else 422, None, [line for line in lines if line.strip()]
    return 200, report.to_dict(), None


def links() -> list[tuple[str, str, dict[str, str]]]:
    """A home-page link to the JSON page of each paper tool whose game's
    plugin offers no page of its own: ``(label, endpoint, args)``. A game
    with such a page is listed by it alone (``companion.plugins.links``):
    two entries named alike, one of them asking for JSON, is one too many."""
    return [(f"{t.verb.capitalize()} {t.what} ({g.title}): paste its JSON", "paper.page",
             {"game": g.name, "verb": t.verb})
            for g in registry.games().values() if not plugin(g.name).links for t in g.paper]


def _page_context(descriptor: GameDescriptor, tool: PaperTool, **kw: Any) -> dict[str, Any]:
    """The JSON page's names: ``pages`` are the game's own pages for paper
    tables, ``(label, endpoint)``, linked back to from the JSON page."""
    return {"game": descriptor, "tool": tool, "pages": plugin(descriptor.name).links, "report": None,
            "problems": None, "text": "", **kw}


@bp.get("/paper/<game>/<verb>")
def page(game: str, verb: str) -> str:
    descriptor, tool = _tool(game, verb)
    return render_template("companion/paper.html", **_page_context(descriptor, tool))


@bp.post("/paper/<game>/<verb>")
def submit(game: str, verb: str) -> Any:
    descriptor, tool = _tool(game, verb)
    rate_limit("paper")
    text = request.form.get("data", "")
    status, report, problems = run(game, verb, text)
    ctx = _page_context(descriptor, tool, report=report, problems=problems, text=text)
    if request.headers.get("HX-Request") == "true":
        return render_template("companion/_paper_report.html", **ctx), status
    return render_template("companion/paper.html", **ctx), status


@bp.post("/api/games/<game>/paper/<verb>")
def api(game: str, verb: str) -> Any:
    _tool(game, verb)
    rate_limit("paper")
    status, report, problems = run(game, verb, request.get_data(as_text=True))
    if report is None:
        return json_error(status, (problems or ["The data cannot be read."])[0], problems=problems or [])
    return jsonify(report)


def openapi_paths() -> dict[str, Any]:
    err = {"content": {"application/json": {"schema": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "string"}, "problems": {"type": "array", "items": {"type": "string"}}}}}}}
    return {"/api/games/{game}/paper/{verb}": {"post": {
        "summary": "Run a game's paper tool (score a finished sheet, check a proposed reaction)",
        "operationId": "paperTool",
        "description": "Each game's JSON format is named by its paper tool (see /api/games).",
        "parameters": [{"name": "game", "in": "path", "required": True, "schema": {"type": "string"}},
                       {"name": "verb", "in": "path", "required": True, "schema": {"type": "string"}}],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": {
            "200": {"description": "The finding",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PaperReport"}}}},
            "400": {"description": "Not JSON, or a field not in its format (the field is named)", **err},
            "403": {"description": "Refused: a request from another site.", **err},
            "404": {"description": "No such game or paper tool here.", **err},
            "413": {"description": "The body is too large.", **err},
            "415": {"description": "The body is not JSON.", **err},
            "422": {"description": "The data breaks rules: every one is listed", **err},
            "429": {"description": "Too many requests from this address: wait.", **err}}}}}
