"""The region that changes during play (``#live``), part by part.

Each part is rendered once per version for each viewpoint that sees it (a
shared part once for everyone, another once per seat), kept on the
table's snapshot, and shared by every request and stream of that version.
A change sends a phone only the parts whose HTML changed, each morphed in
place (idiomorph), so what a player has open (a panel, a half-made choice,
the scroll) stays as it is.

Per-response words (a refusal next to the control that caused it) are
rendered for that response only, never kept.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from flask import current_app, render_template, request, url_for
from markupsafe import Markup

from companion import plugins, reuse
from companion.caller import Caller
from companion.plugins import Part, ascii_html
from companion.snapshot import Snapshot

NOTICE = Part("notice", "companion/_notice.html", shared=True, board=False)
LOBBY = Part("lobby", "companion/_lobby.html", board=False)
PLAYERS = Part("players", "companion/_players.html", board=False)
LOG = Part("log", "companion/_log.html", shared=True, board=False)
HOST = Part("host", "companion/_host.html", board=False)
HOST_TOOLS = Part("host-tools", "companion/_host_tools.html", board=False)
"""The host's seat and link tools, apart from the undo (which carries the
version, so is drawn at every version): drawn again only when they change."""
REMATCH = Part("rematch", "companion/_rematch.html", board=False)


def parts_of(snap: Snapshot, host: bool) -> list[Part]:
    """The parts of ``#live`` now, in page order."""
    if not snap.started:
        return [NOTICE, LOBBY]
    plugin = plugins.plugin(snap.table["game"])
    out = [NOTICE, PLAYERS] + ([plugin.score, REMATCH] if snap.over and plugin.score else
                               [REMATCH] if snap.over else []) + list(plugin.parts)
    out.append(LOG)
    if host:
        out += [HOST, HOST_TOOLS]
    return out


@dataclass
class Response:
    """Per-response words: a refusal by its control, a notice, a join error."""

    error: dict[str, str] | None = None
    notice: str | None = None
    join_error: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.error or self.notice or self.join_error)


def context(caller: Caller, said: Response | None = None, board: bool = True,
            base: str | None = None) -> dict[str, Any]:
    """What a part's template is given. Made afresh for each part, from the
    board context the version keeps per viewer: a context kept in the
    snapshot would hold the snapshot itself (``snap``, and the closures
    below), a cycle that only a full garbage collection frees, with every
    page rendered from it. ``base``: the public address, when the caller
    has it (:func:`render` works it out once for all its parts)."""
    from companion.web import public_base_url

    snap, seat = caller.snap, caller.seat
    game = snap.table["game"]
    plugin = plugins.plugin(game)
    extra = (snap.cached(("board", seat), lambda: plugin.board_context(snap, seat))
             if board and plugin.board_context and snap.started else {})
    said = said or Response()
    return {
        "snap": snap, "game": snap.game, "me": seat, "is_host": caller.host,
        "error": said.error, "notice": said.notice, "join_error": said.join_error,
        "handovers": (lambda: handovers(snap)) if caller.host else _no_handovers,
        "host_key": (lambda: host_key(snap)) if caller.host else _no_host_key,
        "take_back": lambda: _take_back(snap, seat),
        "join_url": _join_url(snap.code, base or public_base_url()),
        "plugin": plugin, "label": functools.partial(plugins.action_label, game),
        "to_json": _to_json,
        **extra,
    }


def _take_back(snap: Snapshot, seat: int | None) -> Any:
    """What this seat's "Take back" button would do (worked out once per version and seat)."""
    from companion.web import get_referee

    return get_referee().take_back_offer(snap, seat)


def _no_handovers() -> list[dict[str, Any]]:
    return []


def _no_host_key() -> None:
    return None


def host_key(snap: Snapshot) -> dict[str, Any] | None:
    """The host's way back from another phone: a link holding the host's
    secret (the one this phone's cookie holds: the database keeps only its
    digest), with its QR code, for the host to save while they have it."""
    from companion.qr import qr_svg
    from companion.security import host_cookie
    from companion.web import public_base_url

    key = request.cookies.get(host_cookie(snap.code))
    if not key or not snap.is_host(key):
        return None
    url = f"{public_base_url()}{url_for('pages.host_key_page', code=snap.code, key=key)}"
    return {"url": url, "qr": qr_svg(url, 4)}


def _to_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@functools.lru_cache(maxsize=4096)
def _join_url_path(code: str, root: str) -> str:
    return url_for("pages.table", code=code)


def _join_url(code: str, base: str) -> str:
    """The table's address (worked out once per code: every part of every
    phone's page carries it in its context)."""
    return base + _join_url_path(code, request.script_root)


def handovers(snap: Snapshot) -> list[dict[str, Any]]:
    """The host's handover links still waiting to be used, each with its QR code."""
    import segno

    from companion.web import get_referee, public_base_url

    out = []
    for h in get_referee().open_handovers(snap):
        url = f"{public_base_url()}{url_for('pages.claim_page', code=snap.code, nonce=h['nonce'])}"
        qr = Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                          svgclass="qr", omitsize=True))
        out.append({"seat": h["seat"], "name": snap.name(int(h["seat"])), "url": url, "qr": qr,
                    "until": str(h["expires_at"])[11:16]})
    return out


def render_part(caller: Caller, part: Part, said: Response | None = None,
                contexts: dict[Any, dict[str, Any]] | None = None, base: str | None = None) -> str:
    """A part's HTML (with its wrapper), from the version's cache when it can be.
    ``contexts``: the contexts made so far for this version's other parts of
    the same page (one per viewer, the same for each of its parts); ``base``:
    the public address, when the caller has it (looking it up for each part
    of each phone was 3% of the CPU of drawing them)."""
    from companion.web import public_base_url

    base = base or public_base_url()
    viewer = caller if not part.shared else Caller(caller.snap, None, False)
    if said is not None and not said.empty:
        return _wrap(part, render_template(part.template, **context(viewer, said, part.board, base)))
    key = ("part", part.name, None if part.shared else (caller.seat, caller.host), base)
    return caller.snap.cached(key, lambda: _draw(viewer, part, key, {} if contexts is None else contexts, base))


def _draw(viewer: Caller, part: Part, key: Any, contexts: dict[Any, dict[str, Any]], base: str) -> str:
    """The part at this version: the HTML it had when its inputs were the
    same (the table's last drawing of it for this viewer), else drawn now."""
    made = (viewer.seat, viewer.host, part.board)
    ctx = contexts.get(made)
    if ctx is None:
        ctx = contexts[made] = context(viewer, board=part.board, base=base)
    env = current_app.jinja_env
    reads = _reads(current_app).of(part.template)
    now = reuse.inputs(env, reads, ctx) if reads is not None else None
    drawn = viewer.snap.drawn
    kept = drawn.get(key)
    if now is not None and kept is not None and kept[0] == now:
        return kept[1]
    html = _wrap(part, render_template(part.template, **ctx))
    if now is not None:
        drawn[key] = (now, html)
    return html


def read_every_part(app: Any) -> None:
    """Every part's template read for its inputs now (:mod:`companion.reuse`),
    as a worker starts: each was otherwise read the first time the worker
    drew it, the score part when the worker's first game ended: tens of
    milliseconds of parsing during which every phone of the worker waited."""
    reads = _reads(app)
    parts = [NOTICE, LOBBY, PLAYERS, LOG, HOST, HOST_TOOLS, REMATCH]
    for plugin in plugins.plugins().values():
        parts += [*plugin.parts, *([plugin.score] if plugin.score else [])]
    for template in sorted({part.template for part in parts}):
        reads.of(template)


def _reads(app: Any) -> reuse.Reads:
    found = app.extensions.get("companion_reads")
    if found is None:
        found = app.extensions["companion_reads"] = reuse.Reads(app.jinja_env)
    return found


def _wrap(part: Part, html: str) -> str:
    return ascii_html(f'<div id="part-{part.name}" class="part{" beside" if part.beside else ""}" '
                      f'data-part="{part.name}">{html}</div>')


def state(caller: Caller) -> str:
    """The table's version and who may move, for companion.js (kept out of the parts)."""
    snap, seat = caller.snap, caller.seat
    my_turn = seat is not None and seat in snap.to_move()
    return (f'<div id="live-state" hidden data-code="{snap.code}" data-version="{snap.version}" '
            f'data-status="{snap.status}" data-playing="{"true" if snap.status == "playing" else "false"}" '
            f'data-seat="{"" if seat is None else seat}" data-my-turn="{"true" if my_turn else "false"}"></div>')


def render(caller: Caller, said: Response | None = None) -> Markup:
    """The whole ``#live`` region."""
    from companion.web import public_base_url

    contexts: dict[Any, dict[str, Any]] = {}
    base = public_base_url()
    body = "".join(render_part(caller, p, said, contexts, base) for p in parts_of(caller.snap, caller.host))
    return Markup(f'<section id="live" data-code="{caller.snap.code}">{state(caller)}{body}</section>')


class Sent:
    """What one phone's stream has sent: the version, each part's HTML (the
    very strings the table keeps: a part drawn again from the same inputs is
    the same string, so most comparisons stop at its identity)."""

    def __init__(self) -> None:
        self.version = -1
        self.parts: dict[str, str] = {}

    def changes(self, caller: Caller) -> str:
        """Out-of-band fragments for what changed since the last send: the
        parts whose HTML changed, or the whole region when its parts did."""
        parts = parts_of(caller.snap, caller.host)
        from companion.web import public_base_url

        contexts: dict[Any, dict[str, Any]] = {}
        base = public_base_url()
        html = {p.name: render_part(caller, p, None, contexts, base) for p in parts}
        self.version = caller.snap.version
        if list(html) != list(self.parts):
            self.parts = html
            whole = str(render(caller))
            return whole.replace('<section id="live"', '<section id="live" hx-swap-oob="morph"', 1)
        out = [_oob(state(caller))]
        for name, h in html.items():
            before = self.parts.get(name)
            if before is not h and before != h:
                out.append(_oob(h))
        self.parts = html
        return "".join(out)


def _oob(html: str) -> str:
    head, sep, rest = html.partition(" ")
    return f'{head} hx-swap-oob="morph"{sep}{rest}'


def poll_ms() -> int:
    return int(current_app.config["POLL_MS"])
