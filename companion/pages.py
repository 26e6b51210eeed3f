"""Pages for phones: create a table, join it, play it, watch it.

Thin views: read the request, ask the referee, render. The region that
changes during play (``#live``, ``companion/_live.html``) is a partial: the
full page includes it, and htmx gets it alone, both after an action and from
the poll that every phone runs (a 204 when nothing changed, so an idle table
costs one indexed read per phone every half second).
"""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from flask import (Blueprint, Response, abort, current_app, make_response, redirect, render_template, request,
                   url_for)
from markupsafe import Markup

from companion import games
from companion.referee import BadInput, Conflict, IllegalAction, NotFound, Refused, Snapshot, clean_code
from companion.security import host_cookie, rate_limit, seat_cookie, set_token_cookie
from companion.web import get_referee, public_base_url

bp = Blueprint("pages", __name__)


# --- who is this phone --------------------------------------------------------

def _identify(snapshot_or_table: Any) -> tuple[int | None, bool]:
    """(seat, is_host) from this table's cookies."""
    table = snapshot_or_table.table if isinstance(snapshot_or_table, Snapshot) else snapshot_or_table
    referee = get_referee()
    code = table["code"]
    seat = referee.seat_for(table, request.cookies.get(seat_cookie(code)))
    host = referee.is_host(table, request.cookies.get(host_cookie(code)))
    return seat, host


def _code(code: str) -> str:
    try:
        return clean_code(code)
    except NotFound:
        abort(404, f"There is no table {code[:12]}. Check the code.")


def _snapshot(code: str) -> Snapshot:
    try:
        return get_referee().snapshot(code)
    except NotFound:
        abort(404, f"There is no table {code}. Check the code.")


def _join_url(code: str) -> str:
    return f"{public_base_url()}{url_for('pages.table', code=code)}"


def _context(snap: Snapshot, *, error: dict[str, str] | None = None, notice: str | None = None,
             join_error: str | None = None, handover: dict[str, Any] | None = None) -> dict[str, Any]:
    seat, host = _identify(snap)
    game = snap.table["game"]
    board = [f"companion/{game}/_board.html", "companion/generic/_board.html"]  # the first that exists
    return {
        "snap": snap,
        "game": snap.game,
        "me": seat,
        "is_host": host,
        "error": error,
        "notice": notice,
        "join_error": join_error,
        "handover": handover,
        "join_url": _join_url(snap.code),
        "poll_ms": int(current_app.config["POLL_MS"]),
        "board_template": board,
        "label": lambda action: games.action_label(game, action),
        "to_json": lambda value: json.dumps(value, sort_keys=True, separators=(",", ":")),
        **games.board_context(game, snap, seat),
    }


def _render_live(snap: Snapshot, status: int = 200, **kw: Any) -> Response:
    """The ``#live`` partial for htmx, the whole page otherwise."""
    ctx = _context(snap, **kw)
    if request.headers.get("HX-Request") == "true":
        response = make_response(render_template("companion/_live.html", **ctx), status)
    else:
        response = make_response(render_template("companion/table.html", **ctx), status)
    response.headers["X-Table-Version"] = str(snap.version)
    response.headers["Cache-Control"] = "no-store"
    return response


def _back_to_table(code: str) -> Response:
    if request.headers.get("HX-Request") == "true":
        response = make_response("", 204)
        response.headers["HX-Redirect"] = url_for("pages.table", code=code)
        return response
    return redirect(url_for("pages.table", code=code), 303)


# --- pages ------------------------------------------------------------------------

@bp.get("/")
def home() -> str:
    referee = get_referee()
    available = [referee.game(name) for name in referee.game_names()]
    return render_template("companion/home.html", games=available, links=games.links(), error=None,
                           code=request.args.get("code", ""))


@bp.post("/tables")
def create() -> Any:
    rate_limit("create")
    try:
        table, host_token = get_referee().create(request.form.get("game"), {})
    except BadInput as exc:
        referee = get_referee()
        return render_template("companion/home.html", games=[referee.game(n) for n in referee.game_names()],
                               links=games.links(), error=str(exc), code=""), 400
    response = redirect(url_for("pages.table", code=table["code"]), 303)
    set_token_cookie(response, host_cookie(table["code"]), host_token)
    return response


@bp.get("/join")
def join_by_code() -> Any:
    raw = request.args.get("code", "")
    try:
        code = clean_code(raw)
        get_referee().table(code)
    except NotFound:
        referee = get_referee()
        return render_template("companion/home.html", games=[referee.game(n) for n in referee.game_names()],
                               links=games.links(), error=f"There is no table {raw[:12]!r}. Check the code.",
                               code=raw[:12]), 404
    return redirect(url_for("pages.table", code=code), 303)


@bp.get("/t/<code>")
def table(code: str) -> Any:
    code = _code(code)
    if request.path != url_for("pages.table", code=code):
        return redirect(url_for("pages.table", code=code), 301)
    return _render_live(_snapshot(code))


@bp.get("/t/<code>/live")
def live(code: str) -> Any:
    """The poll: 204 while the table is at ``since``, the new ``#live`` otherwise."""
    code = _code(code)
    since = request.args.get("since", type=int)
    try:
        version = get_referee().version(code)
    except NotFound:
        abort(404, f"There is no table {code}.")
    if since == version:
        response = make_response("", 204)
        response.headers["Cache-Control"] = "no-store"
        return response
    return _render_live(_snapshot(code))


@bp.post("/t/<code>/join")
def join(code: str) -> Any:
    code = _code(code)
    rate_limit("join")
    snap = _snapshot(code)
    seat, _ = _identify(snap)
    if seat is not None:
        return _back_to_table(code)
    try:
        _, token, _ = get_referee().join(code, request.form.get("name"))
    except (BadInput, Refused) as exc:
        return _render_live(_snapshot(code), 400 if isinstance(exc, BadInput) else 409, join_error=str(exc))
    response = _back_to_table(code)
    set_token_cookie(response, seat_cookie(code), token)
    return response


def _seen_version() -> int | None:
    try:
        return int(request.form.get("version", ""))
    except ValueError:
        return None


@bp.post("/t/<code>/start")
def start(code: str) -> Any:
    code = _code(code)
    snap = _snapshot(code)
    _, host = _identify(snap)
    if not host:
        abort(403, "Only the host can start the game.")
    seen = _seen_version()
    try:
        snap = get_referee().start(code, seen if seen is not None else -1)
    except Conflict as exc:
        return _render_live(exc.snapshot, notice=str(exc))
    except Refused as exc:
        return _render_live(snap, error={"origin": "host", "message": str(exc)})
    return _render_live(snap)


@bp.post("/t/<code>/act")
def act(code: str) -> Any:
    """One action from a seated phone. An illegal one comes back with the
    engine's sentence next to the control it came from, and nothing changes."""
    code = _code(code)
    snap = _snapshot(code)
    seat, _ = _identify(snap)
    if seat is None:
        abort(403, "Only a seated player can act: join the table first.")
    origin = (request.form.get("origin") or "actions")[:40]
    try:
        action = json.loads(request.form.get("action", ""))
    except ValueError:
        return _render_live(snap, error={"origin": origin, "message": "That control sent no readable action."})
    seen = _seen_version()
    try:
        snap = get_referee().act(code, seat, action, seen if seen is not None else -1)
    except Conflict as exc:
        return _render_live(exc.snapshot, notice=str(exc))
    except (IllegalAction, BadInput, Refused) as exc:
        return _render_live(_snapshot(code), error={"origin": origin, "message": str(exc)})
    return _render_live(snap)


@bp.post("/t/<code>/undo")
def undo(code: str) -> Any:
    code = _code(code)
    snap = _snapshot(code)
    _, host = _identify(snap)
    if not host:
        abort(403, "Only the host can undo.")
    seen = _seen_version()
    try:
        snap = get_referee().undo(code, seen if seen is not None else -1)
    except Conflict as exc:
        return _render_live(exc.snapshot, notice=str(exc))
    except (Refused, BadInput) as exc:
        return _render_live(snap, error={"origin": "host", "message": str(exc)})
    return _render_live(snap, notice="The last action was undone.")


@bp.post("/t/<code>/seats/<int:seat>/handover")
def handover(code: str, seat: int) -> Any:
    """The host gives a seat a new secret link, for a player whose phone died:
    the new phone scans it, the old phone's cookie stops working."""
    code = _code(code)
    snap = _snapshot(code)
    _, host = _identify(snap)
    if not host:
        abort(403, "Only the host can move a seat to another phone.")
    try:
        token = get_referee().new_seat_token(code, seat)
    except (Refused, BadInput) as exc:
        return _render_live(snap, error={"origin": "host", "message": str(exc)})
    url = f"{public_base_url()}{url_for('pages.claim', code=code, token=token)}"
    return _render_live(snap, handover={"seat": seat, "name": snap.name(seat), "url": url,
                                        "qr": Markup(segno.make(url, error="m").svg_inline(
                                            scale=5, border=2, dark="#000", light="#fff", svgclass="qr",
                                            omitsize=True))})


@bp.get("/t/<code>/claim/<token>")
def claim(code: str, token: str) -> Any:
    """Open a seat's handover link: this phone now holds the seat."""
    code = _code(code)
    snap = _snapshot(code)
    if get_referee().seat_for(snap.table, token) is None:
        abort(404, "This seat link is not valid any more: ask the host for a new one.")
    response = redirect(url_for("pages.table", code=code), 303)
    set_token_cookie(response, seat_cookie(code), token)
    return response


@bp.get("/t/<code>/qr.svg")
def qr(code: str) -> Response:
    code = _code(code)
    _snapshot(code)
    out = io.BytesIO()
    segno.make(_join_url(code), error="m").save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def qr_inline(code: str) -> Markup:
    """The join QR code as inline SVG (segno's own markup, no user text in it)."""
    return Markup(segno.make(_join_url(code), error="m").svg_inline(scale=6, border=2, dark="#000", light="#fff",
                                                                      svgclass="qr", omitsize=True))


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {"qr_inline": qr_inline}
