"""Installing the companion as an app on a phone: a web app manifest, icons,
and a service worker that shows a clear page when the table's server cannot
be reached (the Wi-Fi dropped, the laptop slept), instead of the browser's
own error.

The service worker never caches a table: play is live or not at all. It
keeps only the offline page and the files that page needs.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from flask import Blueprint, Response, jsonify, render_template, url_for

bp = Blueprint("pwa", __name__)

ICON_SIZES = (192, 512)
THEME = "#1d4e89"
PAPER = "#fbfaf5"
SW_VERSION = "1"   # change when the offline page or what it needs changes


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify({
        "name": "labkit table",
        "short_name": "labkit",
        "description": "The referee for chemistry board games, on every phone at the table.",
        "start_url": url_for("home.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": PAPER,
        "theme_color": THEME,
        "icons": [{"src": url_for("pwa.icon", size=size), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "any maskable"} for size in ICON_SIZES],
    })
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/icons/<int:size>.png")
def icon(size: int) -> Response:
    if size not in ICON_SIZES:
        return Response("No such icon.", 404, mimetype="text/plain")
    return Response(_icon_png(size), mimetype="image/png", headers={"Cache-Control": "public, max-age=86400"})


@lru_cache(maxsize=len(ICON_SIZES))
def _icon_png(size: int) -> bytes:
    """A benzene ring (a hexagon with a ring inside) on the theme colour,
    inside the safe zone a maskable icon keeps (the middle 80 %)."""
    from PIL import Image, ImageDraw

    scale = 4   # drawn large and shrunk: smooth edges without anti-aliasing support in ImageDraw
    big = size * scale
    image = Image.new("RGB", (big, big), THEME)
    draw = ImageDraw.Draw(image)
    c, r = big / 2, big * 0.28
    corners = [(c + r * math.cos(math.radians(90 + 60 * k)), c + r * math.sin(math.radians(90 + 60 * k)))
               for k in range(6)]
    draw.line(corners + corners[:1], fill=PAPER, width=int(big * 0.045), joint="curve")
    inner = r * 0.55
    draw.ellipse((c - inner, c - inner, c + inner, c + inner), outline=PAPER, width=int(big * 0.035))
    out = io.BytesIO()
    image.resize((size, size), Image.LANCZOS).save(out, format="PNG", optimize=True)
    return out.getvalue()


@bp.get("/sw.js")
def service_worker() -> Response:
    """Served from the root so its scope is the whole site."""
    offline = [url_for("pwa.offline"), url_for("static", filename="companion.css"),
               url_for("pwa.icon", size=192)]
    script = render_template("companion/sw.js.j2", version=SW_VERSION, offline=offline,
                             offline_page=url_for("pwa.offline"))
    return Response(script, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@bp.get("/offline")
def offline() -> str:
    return render_template("companion/offline.html")
