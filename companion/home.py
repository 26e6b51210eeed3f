"""The home page: join a table by its code, or host a new one, choosing its
card set (the game's own, one of the server's, or a zip uploaded with the
form: :mod:`companion.card_sets`). Works without script: each game's create
form is a plain multipart form.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from companion import plugins
from companion.bodies import REFUSED
from companion.card_sets import OWN
from companion.errors import REFUSALS, BadSet, NotFound, status_of
from companion.paper import links as paper_links
from companion.security import host_cookie, missed_lookup, rate_limit, set_token_cookie
from companion.web import get_referee, tidy
from labkit import registry

bp = Blueprint("home", __name__)


def _home(error: str | None = None, code: str = "", status: int = 200,
          chosen: dict[str, Any] | None = None) -> tuple[str, int]:
    """The home page; ``chosen``: what the host entered in a game's create
    form (its game, card set, and why it was refused), shown again."""
    referee = get_referee()
    names = referee.game_names()
    sets = referee.table_sets()
    return render_template("companion/home.html", games=[referee.game(n) for n in names],
                           offers={n: sets.offered(n) for n in names}, chosen=chosen or {},
                           links=plugins.links(), paper_links=paper_links(), error=error, code=code), status


UPLOAD_SLACK = 64 * 1024
"""What a create form holds besides its zip (fields, multipart headers)."""


def allow_uploads(app: Any) -> None:
    """The create form may carry a card set's zip: a larger body than any
    other request (``MAX_CONTENT_LENGTH``), up to the zip bound of
    :mod:`labkit.setfiles` and a little (read whole first, as every body:
    :mod:`companion.bodies`). A larger one is refused on the home page in a
    sentence, unread."""
    from labkit.setfiles import MAX_ZIP_BYTES

    limit = MAX_ZIP_BYTES + UPLOAD_SLACK
    app.extensions.setdefault("companion_larger_bodies", {})["/tables"] = limit

    @app.before_request
    def _larger_bodies() -> Any:
        # A view that takes a larger body says how large (a paper page's photo: ``max_body``).
        larger = getattr(app.view_functions.get(request.endpoint or ""), "max_body", None)
        if larger:
            request.max_content_length = request.max_form_memory_size = int(larger)
            return None
        if request.endpoint != "home.create":
            return None
        refused = request.environ.get(REFUSED)
        too_large = isinstance(refused, RequestEntityTooLarge) or (
            refused is None and request.content_length is not None and request.content_length > limit)
        if too_large:
            size = (f"{request.headers.get('Content-Length', type=int):,} bytes"
                    if request.headers.get("Content-Length", type=int) else f"over {limit:,} bytes")
            return _home(status=413, chosen={
                "game": request.args.get("game", ""), "card_set": "", "problems": [],
                "error": f"The upload is {size}: a card set's zip may be at most {MAX_ZIP_BYTES:,} bytes. "
                         "Nothing was stored."})
        # counted before the form is read: a flood of uploads from one address costs it its
        # `create` tokens, not the worker a multipart parse each (8 ms of a megabyte's)
        rate_limit("create")
        request.max_content_length = limit
        # The form's parser holds at most this much of a part in memory at once; at 64 KiB (the
        # setting for every other form) a zip of 100-140 KB was refused with a bare 413.
        request.max_form_memory_size = limit
        return None


@bp.get("/")
def home() -> Any:
    return _home(code=request.args.get("code", ""))


@bp.post("/tables")
def create() -> Any:
    tidy()   # (its `create` token was taken before the form was read: allow_uploads)
    game = request.form.get("game") or request.args.get("game")
    choice = request.form.get("card_set") or OWN
    try:
        table, host_token = get_referee().create(game, {}, card_set=_chosen_set(game, choice))
    except BadSet as exc:
        return _home(status=status_of(exc), chosen={"game": game, "card_set": choice, "error": exc.headline,
                                                    "problems": exc.problems})
    except REFUSALS as exc:
        return _home(str(exc), status=status_of(exc))
    response = redirect(url_for("pages.table", code=table["code"]), 303)
    set_token_cookie(response, host_cookie(table["code"]), host_token)
    return response


def _chosen_set(game: Any, choice: str) -> str | None:
    """The hash of the card set the create form chose (``None``: the game's
    own): an uploaded zip, checked and stored, or one the server offers."""
    if not isinstance(game, str) or game not in registry.games():
        return None  # the referee refuses the game in its own words
    sets = get_referee().table_sets()
    upload = request.files.get("card_set_zip")
    if upload is not None and upload.filename:
        if choice not in (OWN, "upload"):
            raise BadSet("You chose one of the server's card sets and attached a zip: choose one of them.")
        return sets.upload(game, upload.stream.read(), upload.filename)
    if choice == "upload":
        raise BadSet("Choose the zip of a card set to upload (or another card set).")
    return sets.choose(game, choice)


@bp.get("/join")
def join_by_code() -> Any:
    raw = request.args.get("code", "")
    try:
        code = get_referee().snapshot(raw).code
    except NotFound:
        missed_lookup()   # a guess, as on every path that names a code: it counts (raises TooMany when out)
        return _home(f"There is no table {raw[:12]!r}. Check the code.", raw[:12], 404)
    return redirect(url_for("pages.table", code=code), 303)
