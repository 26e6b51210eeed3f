"""The host's bot controls, as pages: a bot on a free seat in the lobby, a
seat whose player left handed to a bot mid-game. Giving a bot's seat back
to a person is the host's handover link (``pages.handover``). The rules
are :mod:`companion.bot_seats`'."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from companion.caller import again
from companion.errors import REFUSALS
from companion.pages import _host, refused, render_live
from companion.web import get_referee

bp = Blueprint("bots", __name__)


@bp.post("/t/<code>/bots")
def add_bot(code: str) -> Any:
    """The host seats a bot in the lobby (``level``: easy, medium or hard; ``name`` optional)."""
    caller = _host(code, "add a bot")
    try:
        snap = get_referee().add_bot(caller.snap, request.form.get("level"), request.form.get("name"))
    except REFUSALS as exc:
        return refused(exc, "bots")
    return render_live(again(caller, snap))


@bp.post("/t/<code>/seats/<int:seat>/bot")
def hand_to_bot(code: str, seat: int) -> Any:
    """The host hands a seat to a bot mid-game (its player left)."""
    caller = _host(code, "hand a seat to a bot")
    try:
        snap = get_referee().hand_to_bot(caller.snap, seat, request.form.get("level"))
    except REFUSALS as exc:
        return refused(exc, "host")
    return render_live(again(caller, snap))
