"""The studio's pages: one page with every face of the set, its problems and
its differences from the game's own set, kept up to date by Server-Sent
Events (the companion's vendored htmx, its sse extension and idiomorph,
served from here: the studio works offline).

Faces are ``<img>`` of the print build's own SVG, addressed by digest: a
redrawn face has a new address, so a push changes one attribute and the
browser fetches that face alone (and a back shared by a whole deck once).
"""

from __future__ import annotations

import re
from typing import Iterator

from flask import (Blueprint, Flask, Response, abort, current_app, render_template, send_from_directory,
                   stream_with_context)

from companion.stream import last_seen_version
from labkit.cardsets import package_dir
from labkit.studio.differences import Difference
from labkit.studio.drawing import Drawing
from labkit.studio.state import Change, Studio

HEARTBEAT_S = 4.0
VENDOR = package_dir("companion") / "static" / "vendor"
"""The companion's copies of htmx and its extensions, fetched from npm at set-up (``make assets``)."""
VENDORED = ("htmx.min.js", "sse.min.js", "idiomorph-ext.min.js")
bp = Blueprint("studio", __name__)


def create_app(studio: Studio) -> Flask:
    """The studio's Flask app over one :class:`Studio`."""
    app = Flask(__name__, template_folder=str(package_dir("templates")), static_folder=None)
    app.extensions["studio"] = studio
    app.jinja_env.globals["tile_id"] = tile_id
    app.register_blueprint(bp)
    return app


def get_studio() -> Studio:
    return current_app.extensions["studio"]


def tile_id(key: str) -> str:
    """An element id for a piece key (``compound-cards/h2o`` -> ``t-compound-cards_2fh2o``)."""
    return "t-" + re.sub(r"[^A-Za-z0-9-]", lambda m: f"_{ord(m.group()):x}", key)


@bp.get("/")
def page() -> str:
    studio = get_studio()
    change, drawing, diffs = studio.since(studio.version)
    live = all((VENDOR / name).is_file() for name in VENDORED)
    return render_template("studio/page.html", s=studio, d=drawing, diffs=diffs, version=change.version, live=live)


@bp.get("/face/<digest>.svg")
def face(digest: str) -> Response:
    svg = get_studio().svgs.get(digest)
    if svg is None:
        abort(404)
    # a digest names one drawing for ever
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400, immutable"})


@bp.get("/vendor/<name>")
def vendor(name: str) -> Response:
    if name not in VENDORED:
        abort(404)
    return send_from_directory(VENDOR, name)


def changes_html(studio: Studio, change: Change, d: Drawing, diffs: list[Difference]) -> str:
    """The parts of the page that changed, as out-of-band swaps: each
    changed component whole when its pieces came or went, else each changed tile."""
    parts = [render_template("studio/_status.html", s=studio, d=d, version=change.version, oob=True),
             render_template("studio/_problems.html", d=d, oob=True),
             render_template("studio/_differences.html", diffs=diffs, oob=True)]
    for group in d.groups:
        if group.id in change.groups:
            parts.append(render_template("studio/_group.html", group=group, d=d, oob=True))
        else:
            parts.extend(render_template("studio/_tile.html", tile=d.tiles[k], oob=True)
                         for k in group.keys if k in change.tiles)
    return "\n".join(parts)


def _event(version: int, data: str) -> str:
    body = data.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\ndata: ")
    return f"id: {version}\nevent: change\ndata: {body}\n\n"


@bp.get("/events")
def events() -> Response:
    studio = get_studio()
    seen = last_seen_version()

    def stream() -> Iterator[str]:
        nonlocal seen
        yield "retry: 1000\n\n"
        while not studio.closing.is_set():
            change, drawing, diffs = studio.since(seen)
            if change.version == seen:
                if studio.wait(seen, HEARTBEAT_S) == seen:
                    yield "event: heartbeat\ndata: \n\n"
                continue
            html = changes_html(studio, change, drawing, diffs)
            seen = change.version
            yield _event(seen, html)

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
