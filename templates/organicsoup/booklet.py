"""What only Organic Soup knows about its rules booklet (docs/design/booklets.md):
what its setup deals per player count, the table set up with our own cards,
and the worked example's standings as the engine ranks them.

The worked example is a real game of three played to the end by the engine's
greedy robot (seed 6), which ended when the atom deck ran out. Its final
state is kept in ``booklet-example.json`` beside this file and read back
through the engine's ``from_dict``, which checks every card is where one
card can be; the standings are the engine's (``ending.result``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).with_name("booklet-example.json")
SEED = 1
"""The setup drawn for the table: any seed deals the same counts."""


def setup_quantities(game: Any, players: int) -> dict[str, int | str]:
    state = game.setup(players, SEED)
    hands = {len(seat.hand) for seat in state.seats}
    if len(hands) != 1:  # the booklet's table has one number for every hand
        raise ValueError(f"the hands dealt for {players} players differ in size: {sorted(hands)}")
    return {
        "Soup": len(state.soup),
        "Atom deck": len(state.atoms),
        "Basic recipes in the middle": len(state.middle),
        "Recipes in each hand": hands.pop(),
        "Simple deck": len(state.decks["simple"]),
        "Complex deck": len(state.decks["complex"]),
        "Amino/nucleic deck": len(state.decks["amino"]),
    }


def setup_figure(book: Any, players: int) -> str:
    """The middle of the table as the rulebook lays it out: the basic recipes
    in a column, the soup of twelve atoms in three rows of four, the atom deck
    and the three recipe decks face down to its right; below, each player's
    hand of three (their dealt simple recipe face up)."""
    state = book.game.setup(players, SEED)
    cards = book.cards
    elements = {"C": "carbon", "H": "hydrogen", "N": "nitrogen", "O": "oxygen"}
    parts: list[str] = []
    mini_w, mini_h = 22.0, 31.5  # a mini card at half size
    gap = 2.0
    for i, rid in enumerate(state.middle):
        parts.append(book.nest(book.face("basic-recipes", rid), 0, i * (mini_h + gap) * 0.62, mini_w * 0.62,
                               mini_h * 0.62))
    x0 = mini_w * 0.62 + 6
    for i, element in enumerate(state.soup):
        row, col = divmod(i, 4)
        parts.append(book.nest(book.face("atoms", elements[element]), x0 + col * (mini_w + gap),
                               row * (mini_h + gap), mini_w, mini_h))
    x = x0 + 4 * (mini_w + gap) + 4
    decks = (("atoms", "carbon", mini_w, mini_h), ("simple-recipes", state.decks["simple"][0], 22, 30.7),
             ("complex-recipes", state.decks["complex"][0], 22, 37.7),
             ("amino-recipes", state.decks["amino"][0], 22, 31.4))
    y = 0.0
    for component, piece, w, h in decks:
        parts.append(book.nest(book.face(component, piece, back=True), x, y, w, h))
        y += h + gap
    height = max(3 * (mini_h + gap), y)
    # The hands: each player's three recipes, the dealt simple one face up.
    hand_y = height + 6
    per = 3 * 24 + 6
    for i, seat in enumerate(state.seats):
        hx = i * per
        for k, rid in enumerate(seat.hand):
            level = cards.recipe(rid).level
            component = {"simple": "simple-recipes", "complex": "complex-recipes", "amino": "amino-recipes"}[level]
            face = book.face(component, rid, back=not (seat.shown and k == 0 and level == "simple"))
            fw, fh = face.size
            parts.append(book.nest(face, hx + k * 24, hand_y, 22, 22 * fh / fw))
    width = max(x + 24, players * per)
    return _svg(width, hand_y + 40, "".join(parts))


def _svg(w: float, h: float, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2f}mm" height="{h:.2f}mm" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">{body}</svg>')


def example_state(game: Any):
    return game.from_dict(json.loads(EXAMPLE.read_text(encoding="utf-8")))


def worked_example(game: Any) -> dict[str, dict[str, int | str]]:
    """The standings of the example's end: each player's recipes in front
    and their counts per level, and who wins, from the engine's result."""
    state = example_state(game)
    result = game.result(state)
    out: dict[str, dict[str, int | str]] = {"Recipes in front": {}, "Complex recipes": {}, "Simple recipes": {},
                                            "Basic recipes": {}, "Result": {}}
    for score, seat in zip(result.scores, state.seats):
        player = f"Player {score.seat + 1}"
        counts = score.details["recipes"]
        out["Recipes in front"][player] = ", ".join(game.cards.recipe(r).name for r in seat.recipes)
        out["Complex recipes"][player] = counts["complex"]
        out["Simple recipes"][player] = counts["simple"]
        out["Basic recipes"][player] = counts["basic"]
        out["Result"][player] = "wins" if score.seat in result.winners else ""
    return out
