"""The JSON API beside the pages, for other clients (bots, a laptop screen, tests).

Described by OpenAPI 3.1 at ``/api/openapi.json`` (:mod:`companion.openapi`).
A seat or the host acts with ``Authorization: Bearer <token>`` (the token
``create`` and ``join`` return); cookies are never read here. Errors are
``{"error": "<sentence>"}``: 400 malformed, 401 no token, 403 not yours,
404 no such table, 409 the table moved on (with the table as it is now),
422 the rules forbid it (the engine's sentence), 429 slow down.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request, url_for
from werkzeug.exceptions import BadRequest

from companion import openapi
from companion.referee import BadInput, Conflict, IllegalAction, NotFound, Refused, Snapshot, clean_code
from companion.security import bearer_token, json_error, rate_limit
from companion.web import get_referee, public_base_url

bp = Blueprint("api", __name__, url_prefix="/api")


def _body() -> dict[str, Any]:
    try:
        data = request.get_json(force=False, silent=False)
    except BadRequest:
        raise BadInput("The body is not valid JSON.") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput("The body is a JSON object.")
    return data


def _who(snap_or_table: Any) -> tuple[int | None, bool]:
    table = snap_or_table.table if isinstance(snap_or_table, Snapshot) else snap_or_table
    token = bearer_token()
    referee = get_referee()
    return referee.seat_for(table, token), referee.is_host(table, token)


def table_json(snap: Snapshot, seat: int | None, host: bool) -> dict[str, Any]:
    return {
        "code": snap.code,
        "game": snap.table["game"],
        "title": snap.game.title,
        "status": snap.status,
        "version": snap.version,
        "moves": snap.moves,
        "min_players": snap.game.min_players,
        "max_players": snap.game.max_players,
        "seats": [{"seat": s["seat"], "name": s["name"]} for s in snap.seats],
        "you": {"seat": seat, "host": host},
        "to_move": snap.to_move(),
        "actions": snap.actions(seat),
        "view": snap.view(seat) if snap.started else None,
        "result": snap.result_dict(),
    }


def _snapshot(code: str) -> Snapshot:
    return get_referee().snapshot(clean_code(code))


def _version(data: dict[str, Any]) -> int:
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadInput("Send \"version\": the table version you saw (an integer).")
    return version


@bp.errorhandler(BadInput)
def _bad(exc: BadInput) -> Any:
    return json_error(400, str(exc))


@bp.errorhandler(NotFound)
def _missing(exc: NotFound) -> Any:
    return json_error(404, "There is no table with that code.")


@bp.errorhandler(Refused)
def _refused(exc: Refused) -> Any:
    return json_error(409, str(exc))


@bp.get("/openapi.json")
def spec() -> Any:
    return jsonify(openapi.spec())


@bp.get("/games")
def list_games() -> Any:
    referee = get_referee()
    return jsonify({"games": [{"name": g.name, "title": g.title, "min_players": g.min_players,
                               "max_players": g.max_players}
                              for g in (referee.game(n) for n in referee.game_names())]})


@bp.post("/tables")
def create() -> Any:
    rate_limit("create")
    data = _body()
    seed = data.get("seed")
    if seed is not None and not current_app.config["ALLOW_CHOSEN_SEED"]:
        raise BadInput("This server chooses its own seeds.")
    table, host_token = get_referee().create(data.get("game"), data.get("options"), seed)
    snap = _snapshot(table["code"])
    url = f"{public_base_url()}{url_for('pages.table', code=table['code'])}"
    response = jsonify({"code": table["code"], "host_token": host_token, "url": url,
                        "table": table_json(snap, None, True)})
    response.status_code = 201
    return response


@bp.get("/tables/<code>")
def state(code: str) -> Any:
    snap = _snapshot(code)
    seat, host = _who(snap)
    response = jsonify(table_json(snap, seat, host))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<code>/version")
def version(code: str) -> Any:
    response = jsonify({"version": get_referee().version(clean_code(code))})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/tables/<code>/seats")
def join(code: str) -> Any:
    code = clean_code(code)
    rate_limit("join")
    data = _body()
    seat, token, _ = get_referee().join(code, data.get("name"))
    snap = _snapshot(code)
    response = jsonify({"seat": seat, "token": token, "table": table_json(snap, seat, False)})
    response.status_code = 201
    return response


def _require(snap: Snapshot, *, host: bool = False) -> tuple[int | None, bool]:
    if bearer_token() is None:
        raise _Unauthorized()
    seat, is_host = _who(snap)
    if host and not is_host:
        raise _Forbidden("Only the host's token can do this.")
    if not host and seat is None:
        raise _Forbidden("This token has no seat at this table.")
    return seat, is_host


class _Unauthorized(Exception):
    pass


class _Forbidden(Exception):
    pass


@bp.errorhandler(_Unauthorized)
def _unauthorized(exc: Exception) -> Any:
    response = json_error(401, "Send your token: Authorization: Bearer <token>.")
    response.headers["WWW-Authenticate"] = "Bearer"
    return response


@bp.errorhandler(_Forbidden)
def _forbidden(exc: Exception) -> Any:
    return json_error(403, str(exc))


@bp.post("/tables/<code>/seats/<int:seat>/token")
def new_seat_token(code: str, seat: int) -> Any:
    """The host gives a seat a new token (its player moved to another device)."""
    snap = _snapshot(code)
    _require(snap, host=True)
    token = get_referee().new_seat_token(snap.code, seat)
    return jsonify({"seat": seat, "token": token})


@bp.post("/tables/<code>/start")
def start(code: str) -> Any:
    snap = _snapshot(code)
    seat, host = _require(snap, host=True)
    data = _body()
    try:
        snap = get_referee().start(snap.code, _version(data))
    except Conflict as exc:
        return json_error(409, str(exc), table=table_json(exc.snapshot, seat, host))
    return jsonify(table_json(snap, seat, host))


@bp.post("/tables/<code>/actions")
def act(code: str) -> Any:
    snap = _snapshot(code)
    seat, host = _require(snap)
    assert seat is not None
    data = _body()
    if "action" not in data:
        raise BadInput("Send \"action\": the action object.")
    try:
        snap = get_referee().act(snap.code, seat, data["action"], _version(data))
    except Conflict as exc:
        return json_error(409, str(exc), table=table_json(exc.snapshot, seat, host))
    except IllegalAction as exc:
        return json_error(422, str(exc), table=table_json(_snapshot(code), seat, host))
    return jsonify(table_json(snap, seat, host))


@bp.post("/tables/<code>/undo")
def undo(code: str) -> Any:
    snap = _snapshot(code)
    seat, host = _require(snap, host=True)
    data = _body()
    try:
        snap = get_referee().undo(snap.code, _version(data))
    except Conflict as exc:
        return json_error(409, str(exc), table=table_json(exc.snapshot, seat, host))
    return jsonify(table_json(snap, seat, host))


@bp.get("/tables/<code>/score")
def score(code: str) -> Any:
    snap = _snapshot(code)
    if not snap.over:
        return json_error(409, "The game is not over yet.")
    return jsonify(snap.result_dict())
