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


# --- the examples, drawn from the engine's own tables -----------------------------------------
EXAMPLE_SOUP = "CHHHHNNNOOOO"
"""The rulebook's example soup: four hydrogen, four oxygen, three nitrogen, one carbon."""
BUILD_TABLE = f"nitrogen +nitrogen | hydrogen*2 +hydrogen | ; soup={EXAMPLE_SOUP}; turn=2"
"""The rulebook's build example: you are the third player."""
REACTION_TABLE = "oxygen*2 +oxygen ?nitric-oxide | nitrogen | nitrogen*2 +nitrogen"
"""The rulebook's reaction example: you, the player on your left (seat 1), the one on your right."""
LIFE_TABLE = "graphite*5 ammonia hydrogen*3 oxygen*2 +propane ?glutamic-acid | +ammonia; turn=0"
"""Create life: Glutamic Acid from five Graphite, one Ammonia, three Hydrogen and two Oxygen."""
LIFE = {"type": "react", "products": {"glutamic-acid": 1},
        "ingredients": [{"seat": 0, "recipe": r, "count": n}
                        for r, n in (("graphite", 5), ("ammonia", 1), ("hydrogen", 3), ("oxygen", 2))]}
ELEMENT_FACES = {"C": "carbon", "H": "hydrogen", "N": "nitrogen", "O": "oxygen"}
COMPONENT = {"basic": "basic-recipes", "simple": "simple-recipes", "complex": "complex-recipes",
             "amino": "amino-recipes"}


def _svg(w: float, h: float, body: str) -> str:
    from generator.booklet import svg_page

    return svg_page(w, h, body)


def _text(x: float, y: float, words: str, size: float = 3.2, bold: bool = False, colour: str = "#222222") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}"{weight} fill="{colour}" '
            f'font-family="DejaVu Sans">{words}</text>')


class _Sketch:
    """Cards laid out left to right, each at one scale, with words: a player's area of the table."""

    def __init__(self, book: Any, scale: float = 0.3) -> None:
        self.book, self.scale, self.parts, self.right, self.bottom = book, scale, [], 0.0, 0.0

    def card(self, component: str, piece: str, x: float, y: float, scale: float | None = None) -> tuple[float, float]:
        face = self.book.face(component, piece)
        k = scale or self.scale
        w, h = face.size[0] * k, face.size[1] * k
        self.parts.append(self.book.nest(face, x, y, w, h))
        self.right, self.bottom = max(self.right, x + w), max(self.bottom, y + h)
        return w, h

    def recipe(self, rid: str, x: float, y: float) -> float:
        r = self.book.cards.recipe(rid)
        return self.card(COMPONENT[r.level], rid, x, y)[0]

    def molecule(self, rid: str, x: float, y: float) -> float:
        """One molecule: its atom cards stacked as the rulebook allows, each a little right of the last."""
        r = self.book.cards.recipe(rid)
        atoms = [e for e, n in zip("CHNO", r.atoms) for _ in range(n)]
        step, start = 2.2, x
        for e in atoms:
            w, _ = self.card("atoms", ELEMENT_FACES[e], x, y, scale=self.scale * 0.6)
            x += step
        return x - start - step + w

    def words(self, x: float, y: float, text: str, **kw: Any) -> None:
        self.parts.append(_text(x, y, text, **kw))
        self.right, self.bottom = max(self.right, x + len(text) * 3.2 * 0.62), max(self.bottom, y + 1)

    def area(self, seat: Any, x: float, y: float, label: str) -> float:
        """A player's recipes in front, then each molecule; returns the width used."""
        self.words(x, y - 1.5, label, bold=True)
        cx = x
        for rid in seat.recipes:
            cx += self.recipe(rid, cx, y) + 2
        for rid, n in seat.molecules.items():
            for _ in range(n):
                cx += self.molecule(rid, cx, y + 4) + 3
        return cx - x

    def svg(self) -> str:
        return _svg(self.right + 1, self.bottom + 1, "".join(self.parts))


def _table(book: Any, text: str) -> Any:
    from engine.organicsoup.scenario import table

    return table(book.cards, text)


def _rows(book: Any, states: list[tuple[str, Any]], names: list[str], gap: float = 40.0) -> str:
    """Each state as a row of player areas, titled."""
    sketch = _Sketch(book)
    y = 5.0
    for title, state in states:
        sketch.words(0, y, title, size=3.6, bold=True, colour="#12706f")
        y += 8
        x = 0.0
        for seat, name in zip(state.seats, names):
            x += max(sketch.area(seat, x, y, name), len(name) * 3.2 * 0.62, 30.0) + 8
        if state.middle:
            sketch.words(x, y - 1.5, "In the middle", bold=True)
            for rid in state.middle:
                x += sketch.recipe(rid, x, y) + 2
        y = sketch.bottom + 9
    return sketch.svg()


def build_example(book: Any) -> str:
    """The rulebook's build: you (the third player) build one Nitrogen and,
    tied with the first player, take the Nitrogen recipe from them."""
    game = book.game
    before = _table(book, BUILD_TABLE)
    after = game.apply(before, 2, {"type": "build", "recipe": "nitrogen", "count": 1})
    assert "nitrogen" in after.seats[2].recipes and after.seats[0].molecules == {"nitrogen": 1}
    return _rows(book, [("Before your build", before), ("After it: a tie takes the recipe", after)],
                 ["Player 1", "Player 2", "You"])


def reaction_example(book: Any) -> str:
    """The rulebook's reaction: your Oxygen and the unguarded Nitrogen of the
    player on your left make two Nitric Oxide; the Nitrogen on your right is
    guarded by its recipe."""
    game = book.game
    before = _table(book, REACTION_TABLE)
    act = {"type": "react", "products": {"nitric-oxide": 2},
           "ingredients": [{"seat": 0, "recipe": "oxygen", "count": 1}, {"seat": 1, "recipe": "nitrogen", "count": 1}]}
    after = game.apply(before, 0, act)
    assert after.seats[0].molecules == {"oxygen": 1, "nitric-oxide": 2}
    return _rows(book, [("Before the reaction", before), ("After it", after)],
                 ["You", "On your left (unguarded)", "On your right (guarded)"])


def life_example(book: Any) -> str:
    """Glutamic Acid from the molecules that hold exactly its atoms: the
    ingredients, and the one molecule and recipe they become."""
    game = book.game
    before = _table(book, LIFE_TABLE)
    after = game.apply(before, 0, LIFE)
    assert after.winner == 0
    return _rows(book, [("The ingredients, in front of you", before), ("Life: you win at once", after)],
                 ["You", "Player 2"])


def worked_example_figure(book: Any) -> str:
    """The worked example's end: the recipes in front of each player."""
    state = example_state(book.game)
    sketch = _Sketch(book)
    x = 0.0
    for i, seat in enumerate(state.seats):
        sketch.words(x, 3.5, f"Player {i + 1}", bold=True)
        cx = x
        for rid in seat.recipes:
            cx += sketch.recipe(rid, cx, 6) + 2
        x = cx + 8
    return sketch.svg()


FIGURES = {"levels": levels, "build-example": build_example, "reaction-example": reaction_example,
           "life-example": life_example, "worked-example": worked_example_figure}


# --- the card set's own numbers and names (docs/design/booklets.md) ------------------------------
WORDS = {"C": "Carbon", "H": "Hydrogen", "N": "Nitrogen", "O": "Oxygen"}


def set_values(book: Any) -> dict[str, int | str]:
    """What the booklet and player aid print that the card set decides: its
    atom cards, its recipes per level and their sizes, the turn sequence cards."""
    from engine.organicsoup.cards import SOUP

    cards = book.cards
    atoms = sum(a.count for a in cards.atoms)
    out: dict[str, int | str] = {
        "atoms": atoms,
        "atom-counts": ", ".join(f"{a.count} {WORDS.get(a.element, a.element)}" for a in cards.atoms),
        "soup": SOUP,
        "atom-deck": atoms - SOUP,
        "turn-sequence-cards": cards.turn_sequence.copies,
        "basic-names": ", ".join(r.name for r in cards.level("basic")),
    }
    for level in ("basic", "simple", "complex", "amino"):
        recipes = cards.level(level)
        sizes = sorted(r.size for r in recipes) or [0]
        out[f"{level}-recipes"] = len(recipes)
        out[f"{level}-sizes"] = f"{sizes[0]} to {sizes[-1]}" if sizes[0] != sizes[-1] else str(sizes[0])
        out[f"{level}-largest"] = sizes[-1]
    return out
