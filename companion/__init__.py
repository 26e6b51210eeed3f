"""The table companion: a Flask + htmx referee that every phone at the table opens.

Flask's tutorial shape: :func:`create_app` is the application factory, one
blueprint per concern (``home`` to make or find a table, ``pages`` for
phones at it, ``api`` for other clients, ``paper`` for every game's paper
tools, and one per game plugin that brings
pages of its own, :mod:`companion.plugins`), and the database is reached only
through :mod:`companion.store`.

Every game is served through :class:`engine.core.Game` and the registry
alone; a game's look lives in its plugin, ``companion/games/<game>/``.
"""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, jsonify, render_template, request
from flask.templating import Environment as FlaskEnvironment
from jinja2 import StrictUndefined
from werkzeug.exceptions import HTTPException

import templates

log = logging.getLogger(__name__)

TEMPLATE_DIR = Path(templates.__file__).parent
STATIC_DIR = Path(__file__).parent / "static"
HTMX_FILE = STATIC_DIR / "vendor" / "htmx.min.js"

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,   # the largest honest request is a pasted paper sheet
    "MAX_FORM_MEMORY_SIZE": 64 * 1024,
    "BODY_SECONDS": 10.0,               # a body must have arrived this long after its request line... (companion.bodies)
    "BODY_BYTES_PER_S": 32 * 1024,      # ...plus a second for each this many bytes it declares
    "RATE_LIMITS": {"create": (20, 60.0), "join": (30, 60.0), "paper": (60, 60.0),
                    "lookup": (20, 60.0)},  # codes that name no table, per address (guessing)
    "THREADS": 256,                     # threads per worker (serve() sets it)...
    "THREADS_KEPT_FREE": 32,            # ...of which live streams may never take these...
    "STREAMS_PER_ADDRESS": 16,          # ...and one client address holds at most these (companion.stream)
    "STREAM_UNREAD_BYTES": 64 * 1024,   # a stream with more than this written and not read is ended...
    "STREAM_SEND_S": 30.0,              # ...and so is one whose write waits this long for its reader
    "CONNECTIONS_PER_ADDRESS": 64,      # connections one client address holds open at once, 0: no bound (companion.worker)...
    "FIRST_REQUEST_S": 10.0,            # ...and the time a new one has to send its first request
    "CODE_LENGTH": 5,                   # letters of a new table's code (5-12; docs/deploy.md)
    "POLL_MS": 500,                     # every phone sees a change within a second
    "HEARTBEAT_S": 4.0,                 # an idle stream's heartbeat; the page says "connection lost" past it
    "PUBLIC_URL": None,                 # the LAN address phones use; serve() sets it
    "ALLOW_CHOSEN_SEED": False,         # tests and benchmarks may fix a table's seed
    "STRICT_VERSIONS": False,           # True: a stale version always conflicts (see companion.referee)
    "FANOUT": "auto",                   # how workers tell each other of changes (companion.hub)
    "REDIS_URL": None,                  # redis://... : fan out through Redis pub/sub
    "DATABASE_CONNECTIONS": 16,         # most connections one worker holds at once (companion.db)
    "WORKERS": 1,                       # worker processes serving these tables (serve() sets it)
    "TRUSTED_PROXIES": "",              # addresses or networks of proxies whose X-Forwarded-For is believed
    "HANDOVER_MINUTES": 10,             # a "change phone" link works once, within this time
    "BOTS": True,                       # this process plays the tables' bot seats (companion.bots)
    "BOT_PACE_S": 1.0,                  # a bot moves no sooner than this after its turn came
    "BOT_PROCESSES": 1,                 # worker processes where the bots think, per serving process
    "BOT_ITERATIONS": 24,               # the hard bot's futures per decision (engine.bots.Budget)
    "BOT_SECONDS": 1.0,                 # ...and its thinking time, at most (about: one future more); 0: no limit
    "BOT_POLL_S": 0.25,                 # how often the bots look at tables another worker moved
    "BOT_IDLE_S": 30.0,                 # with no table with a bot in a lobby or in play this long, the bots' thread stops
    "PRESENCE_BEAT_S": 10.0,            # how often a worker writes which phones it heard from (companion.presence)
    "PRESENCE_AWAY_S": 30.0,            # a seat whose phone has not been in touch this long shows as away
    "SETS_DIR": None,                   # a folder of card sets (folders, zips) hosts may choose (companion.card_sets)
    "SET_CHECK_SECONDS": 20.0,          # an uploaded set's check, in a process of its own, at most (companion.set_check)
    "TURNS": 2,                         # requests whose Python runs at once; the rest wait their turn (companion.turns)
    "TURN_LEEWAY_MS": 100,              # ...a push or poll waits at most this long behind later taps; TURNS 0: no turns
    "NEWS_TURNS": 1,                    # ...of which news (pushes, polls) holds at most this many: a tap finds one free
    "TIMINGS_FILE": None,               # write each move's and full collection's time here (companion.timings)
    "FINISHED_HOURS": 24,               # a finished table is forgotten after this long...
    "IDLE_DAYS": 14,                    # ...and any table left alone for this long
    "SESSION_COOKIE_NAME": "labkit_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 7,
}


class _Templates(FlaskEnvironment):
    """Jinja reads ``a.b`` as the attribute ``b`` first and, failing that, as
    the key ``"b"``: for the plain dicts our boards are drawn from, every
    read raised and caught an AttributeError first (a tenth of the server's
    CPU under load). A plain dict is looked up as a dict first here."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


class _Companion(Flask):
    jinja_environment = _Templates


def create_app(test_config: Mapping[str, Any] | None = None, *, instance_path: str | None = None,
               overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the companion.

    >>> app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite:///:memory:"})
    >>> app.name
    'companion'

    ``test_config`` replaces the instance's config.py and ``LABKIT_*``
    variables (the tutorial's way); ``overrides`` is layered on top of them
    (what :func:`companion.server.serve` uses).
    """
    app = _Companion(__name__, instance_relative_config=True, template_folder=str(TEMPLATE_DIR),
                static_folder=str(STATIC_DIR), instance_path=instance_path)
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("LABKIT")
    else:
        app.config.from_mapping(test_config)
    app.config.from_mapping(overrides or {})
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    app.jinja_env.undefined = StrictUndefined
    # Templates are few and never change while serving: a plain dict caches
    # them (Jinja's default LRU takes a lock on every lookup, imports
    # included, and hundreds of phone threads queued on it under load).
    app.jinja_env.cache = {}
    if not HTMX_FILE.exists():
        log.warning("%s is missing: run `make %s` (pages will not update live)", HTMX_FILE,
                    HTMX_FILE.relative_to(Path(__file__).parent.parent))

    from companion import api, bot_pages, home, hub, hyphens, links, pages, paper, plugins, pwa, security, store, stream
    from companion.referee import Referee

    store.init_app(app)
    tables = app.extensions["companion_store"]
    news = hub.Hub()
    news.fanout = hub.choose(str(app.config["FANOUT"]), database=tables.db,
                             redis_url=app.config.get("REDIS_URL"), workers=int(app.config["WORKERS"]),
                             versions=tables.versions)
    news.fanout.start(news)
    app.extensions["companion_hub"] = news
    referee = Referee(tables, strict_versions=bool(app.config["STRICT_VERSIONS"]),
                      secret=str(app.config["SECRET_KEY"]).encode(), code_length=int(app.config["CODE_LENGTH"]))
    app.extensions["companion_referee"] = referee
    from companion.card_sets import TableSets
    referee.sets = TableSets(tables, app.config.get("SETS_DIR"), float(app.config["SET_CHECK_SECONDS"]))
    referee.watching = news.watched
    _bots(app, referee, news)
    from companion.presence import Presence
    app.extensions["companion_presence"] = Presence(tables, lambda code, version: referee.changed(code, version),
                                                    beat=float(app.config["PRESENCE_BEAT_S"]),
                                                    away=float(app.config["PRESENCE_AWAY_S"]))
    app.extensions["companion_streams"] = stream.Streams()
    try:
        security._trusted(str(app.config["TRUSTED_PROXIES"] or ""))
    except ValueError as exc:
        raise ValueError(f"TRUSTED_PROXIES: {exc} (give addresses or networks, like 10.0.0.1, 192.168.0.0/16)") from None
    from companion import bodies
    home.allow_uploads(app)   # before the guard reads the form: an uploaded card set is larger than the rest
    app.before_request(bodies.refuse_unread)   # a body too large, too slow or unreadable: answered before anything
    security.protect(app)
    app.jinja_env.globals["csrf_token"] = security.csrf_token
    app.jinja_env.globals["csrf_field"] = security.CSRF_FIELD
    app.jinja_env.globals["url_for"] = links.link
    app.jinja_env.filters["hyphenated"] = hyphens.soft_hyphens   # long names on narrow cards
    from companion.store_words import clock_words
    app.jinja_env.filters["clock"] = lambda at: clock_words(float(at))

    app.register_blueprint(home.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(paper.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(bot_pages.bp)
    plugins.init_app(app)
    _errors(app)
    from companion import timings, turns
    turns.install(app)
    timings.install(app)   # after: a move's time includes the wait for its turn
    bodies.install(app)    # outermost: a body is read whole before its request takes a turn
    return app


def _bots(app: Flask, referee: Any, news: Any) -> None:
    """The driver of the bot seats (:mod:`companion.bots`): told of every
    change committed here, started when a table gains a bot, and at once if
    the database holds tables being played with bots (a restarted server's
    bots pick up where they were)."""
    from companion.bot_seats import LEVELS, label, words
    from companion.bots import Driver
    from engine.bots import Budget

    config = app.config
    driver = Driver(referee, pace=float(config["BOT_PACE_S"]), processes=int(config["BOT_PROCESSES"]),
                    budget=Budget(iterations=int(config["BOT_ITERATIONS"]),
                                  seconds=float(config["BOT_SECONDS"]) or None), poll=float(config["BOT_POLL_S"]),
                    idle=float(config["BOT_IDLE_S"]))
    app.extensions["companion_bots"] = driver
    app.jinja_env.globals.update(bot_label=label, bot_levels=list(LEVELS), bot_word=words)
    bots = bool(config["BOTS"])

    def changed(code: str, version: int) -> None:
        news.publish(code, version)
        if driver.running:
            driver.poke()
        elif bots and referee.has_bot(code):
            # Every path that can give a bot its turn (a start, a rematch, an
            # undo of a finished game, a seat handed to a bot) commits a
            # change here: the driver, stopped while no table needed it, starts.
            driver.start()

    referee.changed = changed
    if bots:
        referee.bots_wanted = driver.start
        if app.extensions["companion_store"].bot_tables():
            driver.start()


def _instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder, so sessions (and their CSRF
    tokens) outlive a restart of the server."""
    path = instance / "secret_key"
    try:
        key = path.read_text().strip()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


def _errors(app: Flask) -> None:
    """Every error answered in one place: JSON for the API, a sentence in a
    banner for htmx, an error page otherwise; refusals keep their status."""
    from companion.db import DatabaseBusy
    from companion.errors import REFUSALS, NoSuchTable, TooMany, status_of
    from companion.security import missed_lookup

    def answer(code: int, title: str, message: str, headers: Any = ()) -> Any:
        if request.path.startswith("/api/"):
            response = jsonify({"error": message})
        elif request.headers.get("HX-Request") == "true":
            # htmx swaps no error answer: the page shows this sentence in a banner (companion.js)
            response = app.make_response((message, code, {"Content-Type": "text/plain; charset=utf-8"}))
        else:
            response = app.make_response((render_template("companion/error.html", code=code, title=title,
                                                          message=message), code))
        response.status_code = code
        for key, value in headers:
            if key.lower() != "content-type":
                response.headers[key] = value
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return answer(exc.code or 500, exc.name, exc.description or exc.name, exc.get_headers())

    def refusal(exc: Exception) -> Any:
        if isinstance(exc, NoSuchTable):
            try:
                missed_lookup()
            except TooMany as limited:
                exc = limited
        headers = [("Retry-After", str(exc.retry_after))] if isinstance(exc, TooMany) else []
        if exc.__class__.__name__ == "NoToken":
            headers.append(("WWW-Authenticate", "Bearer"))
        return answer(status_of(exc), "Refused", str(exc), headers)

    for kind in REFUSALS:
        app.register_error_handler(kind, refusal)

    @app.errorhandler(DatabaseBusy)
    def busy(exc: DatabaseBusy) -> Any:
        log.warning("%s on %s %s", exc, request.method, request.path)
        return answer(503, "Busy", "The server is busy; try again in a moment. The table is unchanged.",
                      [("Retry-After", "1")])

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return answer(500, "Server error", "Something went wrong on the server; the table is unchanged.")
