"""What only Organic Soup knows about its rules booklet (docs/design/booklets.md):
what its setup deals per player count, the table set up with our own cards,
and the worked example's standings as the engine ranks them.

The worked example is a real game of three played to the end by the engine's
greedy robot (seed 6), which ended when the atom deck ran out.
``booklet-example.json`` beside this file keeps that game's setup and every
action; the example's state is that game replayed through the engine's
``apply``, which refuses an illegal action; the standings are the engine's.
"""

from __future__ import annotations

from functools import lru_cache
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
    and the three recipe decks face down beside it; below, each player's hand
    of three, the dealt simple recipe face up (everyone saw it dealt), the
    others as the table sees them: their backs. Every card at one scale."""
    state = book.game.setup(players, SEED)
    cards = book.cards
    scale, gap = 0.42, 2.0
    parts: list[str] = []

    def place(face: Any, x: float, y: float) -> tuple[float, float]:
        w, h = face.size[0] * scale, face.size[1] * scale
        parts.append(book.nest(face, x, y, w, h))
        return w, h

    def label(x: float, y: float, text: str) -> None:
        parts.append(f'<text x="{x:.2f}" y="{y:.2f}" font-size="3.4" font-family="DejaVu Sans">{text}</text>')

    y = 0.0
    for rid in state.middle:
        w, h = place(book.face("basic-recipes", rid), 0, y)
        y += h + gap
    middle_h = y
    x0 = w + 6
    elements = {"C": "carbon", "H": "hydrogen", "N": "nitrogen", "O": "oxygen"}
    for i, element in enumerate(state.soup):
        row, col = divmod(i, 4)
        w, h = place(book.face("atoms", elements[element]), x0 + col * (w + gap), row * (h + gap))  # w: a mini card
    x = x0 + 4 * (w + gap) + 4
    decks = (("atoms", "carbon"), ("simple-recipes", state.decks["simple"][0]),
             ("complex-recipes", state.decks["complex"][0]), ("amino-recipes", state.decks["amino"][0]))
    y, col_w = 0.0, 0.0
    for k, (component, piece) in enumerate(decks):
        w, h = place(book.face(component, piece, back=True), x + (col_w + gap if k % 2 else 0), y)
        if k % 2 == 0:
            col_w, row_h = w, h
        else:
            y += max(row_h, h) + gap
    width = x + 2 * col_w + gap + 12
    below = max(middle_h, y) + 4.5
    label(0, below, "Basic")
    label(0, below + 4, "recipes")
    label(x0, below, "The soup: twelve atoms")
    label(x, below, "Atom deck and the recipe decks")
    top = below + 10
    components = {"simple": "simple-recipes", "complex": "complex-recipes", "amino": "amino-recipes"}
    per_row = 2
    hands = [[book.face(components[cards.recipe(rid).level], rid, back=not (seat.shown and rid == state.dealt[i]))
              for rid in seat.hand] for i, seat in enumerate(state.seats)]
    hand_w = max(sum(f.size[0] * scale + gap for f in hand) for hand in hands) + 8
    hand_h = max(f.size[1] * scale for hand in hands for f in hand)
    width = max(width, per_row * hand_w)
    for i, hand in enumerate(hands):
        row, col = divmod(i, per_row)
        hx, hy = col * hand_w, top + row * (hand_h + 10)
        cx = hx
        for face in hand:
            w, _ = place(face, cx, hy)
            cx += w + gap
        first = " (plays first)" if i == state.first else ""
        label(hx, hy + hand_h + 4.5, f"Player {i + 1}{first}")
    rows = (players + per_row - 1) // per_row
    from generator.booklet import svg_page

    return svg_page(width, top + rows * (hand_h + 10), "".join(parts))


@lru_cache(maxsize=4)
def example_state(game: Any):
    """The worked example's final state (:func:`generator.booklet.recorded_game`)."""
    from generator.booklet import recorded_game

    return recorded_game(game, EXAMPLE)


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


def levels(book: Any) -> str:
    """One recipe of each level at one scale: the cards grow with the molecules."""
    faces = [book.face("basic-recipes", "oxygen"), book.face("simple-recipes", "water"),
             book.face("complex-recipes", "propionitrile"), book.face("amino-recipes", "glutamic-acid")]
    scale, gap, x, parts = 0.7, 4.0, 0.0, []
    top = max(f.size[1] for f in faces) * scale
    for f in faces:
        w, h = f.size[0] * scale, f.size[1] * scale
        parts.append(book.nest(f, x, top - h, w, h))
        x += w + gap
    from generator.booklet import svg_page

    return svg_page(x - gap, top, "".join(parts))


FIGURES = {"levels": levels}
