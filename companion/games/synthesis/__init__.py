"""Synthesis: The Molecular Journey at the table: the turn with the Active
Element disc and the dice, each phone's choices (the bond picked from the
engine's legal placements, by tapping lines in a loupe or from a list; the
elemental and active molecules' choices; free bonds; the goal cards of
Unpredictable Consequences), every board drawn like the printed one, and
each board's score formula line by line; and a page to score a finished
paper board by tapping it in (it posts to the house's paper tools)."""

from __future__ import annotations

from flask import Blueprint

from companion.games.synthesis.board import action_label, board_context
from companion.games.synthesis.narrate import narrate
from companion.games.synthesis.paper import paper_page, paper_submit
from companion.games.synthesis.paper_photo import PHOTO_BYTES, photo_submit
from companion.plugins import Part, Plugin

blueprint = Blueprint("synthesis", __name__, template_folder="templates", static_folder="static",
                      static_url_path="/static/games/synthesis")

blueprint.add_url_rule("/synthesis/board", "paper", paper_page, methods=["GET"])
blueprint.add_url_rule("/synthesis/board", "paper_submit", paper_submit, methods=["POST"])
blueprint.add_url_rule("/synthesis/board/photo", "photo", photo_submit, methods=["POST"])

photo_submit.max_body = PHOTO_BYTES + 64 * 1024   # type: ignore[attr-defined]  # a photo: companion/home.py

BOARD_PARTS = 8
"""A part per seat's board (the last also holds any seat beyond): a move
sends every phone the one board it changed, not all of them."""

PLUGIN = Plugin(
    parts=(Part("turn", "synthesis/_turn.html", shared=True), Part("decision", "synthesis/_decision.html"),
           Part("mine", "synthesis/_mine.html", beside=True),
           *(Part(f"board{k}", f"synthesis/_board_{k}.html", shared=True) for k in range(1, BOARD_PARTS + 1)),
           Part("breakdown", "synthesis/_breakdown.html", shared=True)),
    board_context=board_context,
    action_label=action_label,
    blueprint=blueprint,
    styles=("synthesis.css",),
    scripts=("synthesis.js",),
    narrate=narrate,
    links=(("Score a paper Synthesis board", "synthesis.paper"),),
)
