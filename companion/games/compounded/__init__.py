"""Compounded at the table: the grid, every Workbench, the scoreboard, and
on each phone the choices the engine offers that scientist now (trades,
claims, placements, scoring, the Fire Extinguisher when a Lab Fire comes
up, where an exploding compound's elements go)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from companion.games.compounded.board import board_context
from companion.games.compounded.controls import label
from companion.games.compounded.narrate import narrate
from companion.plugins import Part, Plugin

blueprint = Blueprint("compounded", __name__, template_folder="templates", static_folder="static",
                      static_url_path="/static/games/compounded")


def action_label(action: dict[str, Any]) -> str:
    return label(action)


PLUGIN = Plugin(
    parts=(Part("round", "compounded/_round.html", shared=True), Part("decision", "compounded/_decision.html"),
           Part("grid", "compounded/_grid.html", beside=True), Part("bench", "compounded/_bench.html"),
           Part("scoreboard", "compounded/_scoreboard.html", shared=True),
           Part("others", "compounded/_others.html"), Part("final", "compounded/_final.html", shared=True)),
    board_context=board_context,
    action_label=action_label,
    narrate=narrate,
    blueprint=blueprint,
    styles=("compounded.css",),
)
