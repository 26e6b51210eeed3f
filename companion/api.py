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
from companion.caller import Caller, again, by_token
from companion.errors import BIGINT_LIMIT, REFUSALS, BadInput, BadSet, Conflict, Forbidden, status_of
from companion.lobby import clean_code
from companion.security import json_error, rate_limit
from companion.snapshot import Snapshot
from companion.web import get_referee, public_base_url, tidy
from labkit import registry

bp = Blueprint("api", __name__, url_prefix="/api")


def _body() -> dict[str, Any]:
    try:
        data = request.get_json(force=False, silent=False)
    except (BadRequest, RecursionError):
        raise BadInput("The body is not valid JSON.") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput("The body is a JSON object.")
    return data


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
        "seats": snap.public_seats(),
        "you": {"seat": seat, "host": host},
        "to_move": snap.to_move(),
        "actions": snap.actions(seat),
        "view": snap.view(seat) if snap.started else None,
        "result": snap.result_dict(),
        "notice": snap.table.get("notice"),
        "take_back": _take_back_words(snap, seat),
        "card_set": _card_set(snap),
    }


def _card_set(snap: Snapshot) -> dict[str, Any] | None:
    """The custom card set the table plays (``None``: the game's own)."""
    digest = snap.table.get("card_set")
    if not digest:
        return None
    about = get_referee().set_about(snap.table)
    return {"hash": digest, "name": about.name, "author": about.author, "version": about.version}


def _offers(game: str) -> list[dict[str, Any]]:
    return [{"hash": o.hash, "name": o.name, "author": o.author, "version": o.version, "source": o.source}
            for o in get_referee().table_sets().offered(game)]


def _take_back_words(snap: Snapshot, seat: int | None) -> str | None:
    """The move this seat may take back now, as the log tells it (``None``: none)."""
    if seat is None or not snap.started:
        return None
    offer = get_referee().take_back_offer(snap, seat)
    return offer.line if offer.ok else None


def _answer(caller: Caller, status: int = 200) -> Any:
    response = jsonify(table_json(caller.snap, caller.seat, caller.host))
    response.status_code = status
    return response


def _version(data: dict[str, Any]) -> int:
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version < BIGINT_LIMIT:
        raise BadInput("Send \"version\": the table version you saw (a whole number from 0).")
    return version


@bp.errorhandler(BadSet)
def _bad_set(exc: BadSet) -> Any:
    """A card set refused: the sentence, and every problem on its own."""
    return json_error(exc.status, str(exc), problems=exc.problems)


@bp.errorhandler(Conflict)
def _conflict(exc: Conflict) -> Any:
    """A conflict carries the table as it is now, so a client can look again."""
    from flask import g

    caller = g.get("caller")
    extra = {}
    if exc.snapshot is not None and caller is not None:
        extra["table"] = table_json(exc.snapshot, caller.seat, caller.host)
    return json_error(409, str(exc), **extra)


def _refused(caller: Caller, exc: Exception) -> Any:
    """A move the rules refuse: the sentence, and the table unchanged."""
    fresh = again(caller, get_referee().snapshot(caller.code))
    return json_error(status_of(exc), str(exc), table=table_json(fresh.snap, fresh.seat, fresh.host))


@bp.get("/openapi.json")
def spec() -> Any:
    return jsonify(openapi.spec(chosen_seeds=bool(current_app.config["ALLOW_CHOSEN_SEED"])))


@bp.get("/games")
def list_games() -> Any:
    return jsonify({"games": [{"name": g.name, "title": g.title, "min_players": g.min_players,
                               "max_players": g.max_players,
                               "paper": [{"verb": t.verb, "what": t.what, "format": t.format} for t in g.paper],
                               "card_sets": _offers(g.name)}
                              for g in registry.games().values()]})


@bp.post("/tables")
def create() -> Any:
    rate_limit("create")
    tidy()
    data = _body()
    seed = data.get("seed")
    if seed is not None and not current_app.config["ALLOW_CHOSEN_SEED"]:
        raise BadInput("This server chooses its own seeds.")
    referee = get_referee()
    game = data.get("game")
    # a server set (by hash, file name or set.yaml name) or a stored set's hash; the game refused in its own words
    card_set = (referee.table_sets().choose(game, data.get("card_set"))
                if isinstance(game, str) and game in registry.games() else None)
    table, host_token = referee.create(game, data.get("options"), seed, card_set=card_set)
    snap = get_referee().snapshot(table["code"])
    url = f"{public_base_url()}{url_for('pages.table', code=table['code'])}"
    response = jsonify({"code": table["code"], "host_token": host_token, "url": url,
                        "table": table_json(snap, None, True)})
    response.status_code = 201
    return response


@bp.get("/tables/<code>")
def state(code: str) -> Any:
    response = _answer(by_token(clean_code(code)))
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
    seat, token, snap = get_referee().join(code, data.get("name"))
    response = jsonify({"seat": seat, "token": token, "table": table_json(snap, seat, False)})
    response.status_code = 201
    return response


def _seated(code: str, *, host: bool = False) -> Caller:
    caller = by_token(clean_code(code), required=True)
    if host and not caller.host:
        raise Forbidden("Only the host's token can do this.")
    if not host and caller.seat is None:
        raise Forbidden("This token has no seat at this table.")
    return caller


@bp.post("/tables/<code>/seats/<int:seat>/token")
def new_seat_token(code: str, seat: int) -> Any:
    """The host gives a seat a new token (its player moved to another device)."""
    caller = _seated(code, host=True)
    token = get_referee().new_seat_token(caller.snap, seat)
    return jsonify({"seat": seat, "token": token})


@bp.post("/tables/<code>/bots")
def add_bot(code: str) -> Any:
    """The host seats a bot in the lobby (companion.bot_seats)."""
    caller = _seated(code, host=True)
    data = _body()
    snap = get_referee().add_bot(caller.snap, data.get("level"), data.get("name"))
    return _answer(again(caller, snap), 201)


@bp.post("/tables/<code>/seats/<int:seat>/bot")
def hand_to_bot(code: str, seat: int) -> Any:
    """The host hands a seat whose player left to a bot, mid-game."""
    caller = _seated(code, host=True)
    snap = get_referee().hand_to_bot(caller.snap, seat, _body().get("level"))
    return _answer(again(caller, snap))


@bp.post("/tables/<code>/start")
def start(code: str) -> Any:
    caller = _seated(code, host=True)
    snap = get_referee().start(caller.snap, _version(_body()))
    return _answer(again(caller, snap))


@bp.post("/tables/<code>/actions")
def act(code: str) -> Any:
    caller = _seated(code)
    assert caller.seat is not None
    data = _body()
    if "action" not in data:
        raise BadInput("Send \"action\": the action object.")
    try:
        snap = get_referee().act(caller.snap, caller.seat, data["action"], _version(data), data.get("action_id"))
    except Conflict:
        raise
    except REFUSALS as exc:
        if status_of(exc) == 422:
            return _refused(caller, exc)
        raise
    return _answer(again(caller, snap))


@bp.post("/tables/<code>/undo")
def undo(code: str) -> Any:
    caller = _seated(code, host=True)
    snap = get_referee().undo(caller.snap, _version(_body()))
    return _answer(again(caller, snap))


@bp.post("/tables/<code>/take-back")
def take_back(code: str) -> Any:
    """A seat takes back its own last move, when nothing since depends on it."""
    caller = _seated(code)
    assert caller.seat is not None
    snap = get_referee().take_back(caller.snap, caller.seat, _version(_body()))
    return _answer(again(caller, snap))


@bp.get("/tables/<code>/score")
def score(code: str) -> Any:
    snap = get_referee().snapshot(clean_code(code))
    if not snap.over:
        return json_error(409, "The game is not over yet.")
    return jsonify(snap.result_dict())
