"""Pages for phones: join a table, play it, watch it (the home page, where a
table is made, is :mod:`companion.home`).

Thin views: read the request (the table once, :mod:`companion.caller`), ask
the referee, render. The region that changes during play (``#live``,
``companion/_live.html``) is a partial: the full page includes it, and htmx
gets it alone, both after an action and from the poll that every phone runs
(a 204 when nothing changed, so an idle table costs one indexed read per
phone every half second).

A refusal (any :mod:`companion.errors` error or a move the rules forbid) is
answered in one place, :func:`refused`: the table as it is, with the
sentence next to the control the phone used, and the error's HTTP status.
"""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from flask import Blueprint, Response, current_app, g, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from companion import live, plugins
from companion.caller import Caller, again, by_cookies
from companion.errors import BIGINT_LIMIT, REFUSALS, BadInput, Conflict, Forbidden, status_of
from companion.lobby import clean_code
from companion.qr import qr_svg
from companion.security import host_cookie, rate_limit, seat_cookie, set_token_cookie
from companion.snapshot import Snapshot
from companion.web import get_referee, public_base_url

bp = Blueprint("pages", __name__)


def _join_url(code: str) -> str:
    return f"{public_base_url()}{url_for('pages.table', code=code)}"


def render_live(caller: Caller, status: int = 200, **said: Any) -> Response:
    """The ``#live`` region for htmx (morphed in place), the whole page otherwise."""
    region = live.render(caller, live.Response(**said))
    if request.headers.get("HX-Request") == "true":
        response = make_response(region, status)
    else:
        plugin = plugins.plugin(caller.snap.table["game"])
        response = make_response(render_template("companion/table.html", live=region, snap=caller.snap,
                                                 game=caller.snap.game, me=caller.seat, plugin=plugin,
                                                 card_set=get_referee().set_about(caller.snap.table),
                                                 poll_ms=live.poll_ms()), status)
    response.headers["X-Table-Version"] = str(caller.snap.version)
    response.headers["Cache-Control"] = "no-store"
    return response


def _back_to_table(code: str) -> Response:
    if request.headers.get("HX-Request") == "true":
        response = make_response("", 204)
        response.headers["HX-Redirect"] = url_for("pages.table", code=code)
        return response
    return redirect(url_for("pages.table", code=code), 303)


def _seen_version() -> int:
    try:
        version = int(request.form.get("version", ""))
    except ValueError:
        return -1
    return version if 0 <= version < BIGINT_LIMIT else -1


def refused(exc: Exception, origin: str) -> Response:
    """A refusal shown on the table page, next to the control it came from."""
    caller: Caller | None = g.get("caller")
    if isinstance(exc, Conflict) and exc.snapshot is not None and caller is not None:
        return render_live(again(caller, exc.snapshot), status_of(exc), notice=str(exc))
    if caller is None:
        raise exc
    fresh = again(caller, get_referee().snapshot(caller.code))
    kw = {"join_error": str(exc)} if origin == "join" else {"error": {"origin": origin, "message": str(exc)}}
    return render_live(fresh, status_of(exc), **kw)


def _origin() -> str:
    return (request.form.get("origin") or "actions")[:40]


# --- pages ----------------------------------------------------------------------------

@bp.get("/t/<code>")
def table(code: str) -> Any:
    clean = clean_code(code)
    if request.path != url_for("pages.table", code=clean):
        return redirect(url_for("pages.table", code=clean), 301)
    return render_live(by_cookies(clean))


@bp.get("/t/<code>/live")
def poll(code: str) -> Any:
    """For a phone that cannot hold a stream: 204 while the table is at
    ``since``, the new ``#live`` otherwise."""
    code = clean_code(code)
    since = request.args.get("since", type=int)
    if since is not None and since == get_referee().version(code):
        response = make_response("", 204)
        response.headers["Cache-Control"] = "no-store"
        return response
    return render_live(by_cookies(code))


@bp.post("/t/<code>/join")
def join(code: str) -> Any:
    rate_limit("join")
    caller = by_cookies(clean_code(code))
    if caller.seat is not None:
        return _back_to_table(caller.code)
    try:
        _, token, _ = get_referee().join(caller.snap, request.form.get("name"))
    except REFUSALS as exc:
        return refused(exc, "join")
    response = _back_to_table(caller.code)
    set_token_cookie(response, seat_cookie(caller.code), token)
    return response


@bp.post("/t/<code>/start")
def start(code: str) -> Any:
    caller = _host(code, "start the game")
    try:
        snap = get_referee().start(caller.snap, _seen_version())
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/act")
def act(code: str) -> Any:
    """One action from a seated phone. An illegal one comes back with the
    engine's sentence next to the control it came from, and nothing changes."""
    caller = by_cookies(clean_code(code))
    if caller.seat is None:
        raise Forbidden("Only a seated player can act: join the table first.")
    try:
        try:
            action = json.loads(request.form.get("action", ""))
        except (ValueError, RecursionError):
            raise BadInput("That control sent no readable action.") from None
        snap = get_referee().act(caller.snap, caller.seat, action, _seen_version(),
                                 request.form.get("action_id") or None)
    except REFUSALS as exc:
        return refused(exc, _origin())
    return render_live(again(caller, snap))


@bp.post("/t/<code>/undo")
def undo(code: str) -> Any:
    caller = _host(code, "undo")
    try:
        snap = get_referee().undo(caller.snap, _seen_version())
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/take-back")
def take_back(code: str) -> Any:
    """A seated player takes back their own last move (see companion.takeback)."""
    caller = by_cookies(clean_code(code))
    if caller.seat is None:
        raise Forbidden("Only a seated player can take back a move.")
    try:
        snap = get_referee().take_back(caller.snap, caller.seat, _seen_version())
    except REFUSALS as exc:
        return refused(exc, "take-back")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/end")
def end_by_agreement(code: str) -> Any:
    """The host ends the game now, scored as it stands, when everyone agrees
    (a game that offers it: ``Game.end_by_agreement``)."""
    caller = _host(code, "end the game")
    try:
        snap = get_referee().end_by_agreement(caller.snap, _seen_version())
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/options")
def options(code: str) -> Any:
    """The host's setup choices, in the lobby."""
    caller = _host(code, "choose the setup")
    try:
        snap = get_referee().set_options(caller.snap, request.form.to_dict(), _seen_version())
    except REFUSALS as exc:
        return refused(exc, "options")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/leave")
def leave(code: str) -> Any:
    """A player gives up their seat in the lobby (this phone becomes a watcher)."""
    caller = by_cookies(clean_code(code))
    if caller.seat is None:
        return _back_to_table(caller.code)
    try:
        get_referee().leave(caller.snap, caller.seat, _seen_version())
    except REFUSALS as exc:   # the seat's control is gone once the game starts: say it at the top
        return refused(exc, "notice" if caller.snap.started else "seat")
    response = _back_to_table(caller.code)
    response.delete_cookie(seat_cookie(caller.code), path="/")
    return response


@bp.post("/t/<code>/seats/<int:seat>/remove")
def remove_seat(code: str, seat: int) -> Any:
    caller = _host(code, "remove a player")
    try:
        snap = get_referee().leave(caller.snap, seat, _seen_version())
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/seats/<int:seat>/handover")
def handover(code: str, seat: int) -> Any:
    """The host makes a one-time link for a seat, for a player whose phone
    died: it stays on the host's screen until the new phone uses it, and the
    old phone keeps the seat until then."""
    caller = _host(code, "move a seat to another phone")
    try:
        get_referee().handover(caller.snap, seat, float(current_app.config["HANDOVER_MINUTES"]))
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, get_referee().snapshot(caller.code)))


@bp.get("/t/<code>/claim/<nonce>")
def claim_page(code: str, nonce: str) -> Any:
    """A handover link opened: a button, so that a link preview (a chat app
    fetching the page) does not use the link up."""
    snap = get_referee().snapshot(clean_code(code))
    nonce = nonce[:64]
    seat, how = get_referee().store.handover_state(snap.table["id"], nonce)
    mine = snap.seat_of(request.cookies.get(seat_cookie(snap.code)))
    return render_template("companion/claim.html", snap=snap, game=snap.game, nonce=nonce, how=how,
                           seat=seat, mine=mine is not None and mine == seat)


@bp.post("/t/<code>/claim/<nonce>")
def claim(code: str, nonce: str) -> Any:
    """This phone takes the seat; the old phone's secret stops working."""
    snap = get_referee().snapshot(clean_code(code))
    _, token = get_referee().claim(snap.code, nonce)
    response = redirect(url_for("pages.table", code=snap.code), 303)
    set_token_cookie(response, seat_cookie(snap.code), token)
    return response


@bp.get("/t/<code>/host/<key>")
def host_key_page(code: str, key: str) -> Any:
    """The host key opened on another phone: a button, so that a link
    preview does not make a chat app host."""
    snap = get_referee().snapshot(clean_code(code))
    return render_template("companion/host_key.html", snap=snap, game=snap.game, key=key[:64])


@bp.post("/t/<code>/host/<key>")
def claim_host(code: str, key: str) -> Any:
    """This phone becomes the table's host too (the host's phone was lost:
    the key is the host's secret, shown on the host's screen)."""
    rate_limit("join")
    snap = get_referee().snapshot(clean_code(code))
    if not snap.is_host(key):
        raise Forbidden("This host key is not this table's: ask whoever saved it for the right one.")
    response = redirect(url_for("pages.table", code=snap.code), 303)
    set_token_cookie(response, host_cookie(snap.code), key)
    return response


@bp.post("/t/<code>/rematch")
def rematch(code: str) -> Any:
    """A new table with the same game, options and seats (one, whoever asks first)."""
    caller = by_cookies(clean_code(code))
    if caller.seat is None and not caller.host:
        raise Forbidden("Only the players at this table can ask for a rematch.")
    try:
        get_referee().rematch(caller.snap)
    except REFUSALS as exc:   # the rematch button shows once the game is over
        return refused(exc, "rematch" if caller.snap.over else "notice")
    return _to_rematch(caller)


@bp.get("/t/<code>/rematch")
def to_rematch(code: str) -> Any:
    """Follow the table to its rematch, keeping this phone's seat."""
    caller = by_cookies(clean_code(code))
    if not caller.snap.table.get("rematch"):
        return _back_to_table(caller.code)
    return _to_rematch(caller)


def _to_rematch(caller: Caller) -> Response:
    """This phone goes to the rematch with its seat's new secret (and the
    host with the same host secret)."""
    referee = get_referee()
    new = str(referee.snapshot(caller.code).table["rematch"])
    response = redirect(url_for("pages.table", code=new), 303)
    if caller.seat is not None:
        old = caller.snap.seats[caller.seat]["token"]
        set_token_cookie(response, seat_cookie(new), referee.rematch_token(new, old))
    if caller.host:
        set_token_cookie(response, host_cookie(new), request.cookies.get(host_cookie(caller.code), ""))
    if request.headers.get("HX-Request") == "true":
        response.status_code = 204
        response.headers["HX-Redirect"] = url_for("pages.table", code=new)
    return response


def _host(code: str, what: str) -> Caller:
    caller = by_cookies(clean_code(code))
    if not caller.host:
        raise Forbidden(f"Only the host can {what}.")
    return caller


@bp.get("/t/<code>/qr.svg")
def qr(code: str) -> Response:
    snap = get_referee().snapshot(clean_code(code))
    out = io.BytesIO()
    segno.make(_join_url(snap.code), error="m").save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def qr_inline(code: str) -> Markup:
    """The join QR code as inline SVG (segno's own markup, no user text in it)."""
    return qr_svg(_join_url(code), 6)


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {"qr_inline": qr_inline}


__all__ = ["bp", "render_live", "refused", "Snapshot"]
