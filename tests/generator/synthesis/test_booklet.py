"""The Synthesis rules booklet's worked example is a real game, and what its
prose says about the board is true of it. (The shared tests in
tests/generator/test_booklets.py check the example's score table, the
setup table and the coverage of the rulebook; this checks the sentences
around them, which no table holds.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import IllegalAction
from tests.engine.synthesis.conftest import real_cards
from engine.synthesis.game import Synthesis
from generator.booklet import load_hooks
from tests.rulebook import follows

FOLDER = Path(__file__).resolve().parents[3] / "templates" / "synthesis"


@pytest.fixture(scope="module")
def book():
    return load_hooks(FOLDER, "synthesis")   # the game's booklet.py, loaded as the build loads it


@pytest.fixture(scope="module")
def game():
    return Synthesis(real_cards())


@pytest.fixture(scope="module")
def example(book, game):
    return book.example_state(game)


def filled(name: str) -> str:
    """A booklet file as the build prints it for the rulebook's set: its ``{set:...}`` values filled in."""
    import types

    from generator.booklet import fill

    game = Synthesis(real_cards())
    values = load_hooks(FOLDER, "synthesis").set_values(types.SimpleNamespace(cards=game.cards, game=game))
    return fill((FOLDER / name).read_text("utf-8"), FOLDER / name, {k: str(v) for k, v in values.items()})


def section(title: str) -> str:
    text = filled("booklet.md")
    start = text.index(f"### {title}")
    end = text.find("\n## ", start)
    return text[start:end]


def test_the_example_is_a_whole_game_of_28_turns_replayed_through_the_rules(example):
    assert example.phase == "over" and example.turn == 28
    assert (example.seats[0].board, example.side, example.chain_card, example.pattern_card) == \
        ("E", "A", "twin-pairs", "first-shell")
    prose = section("Worked example")
    assert "**board E, side A**" in prose and "**Twin Pairs**" in prose and "**First Shell**" in prose


def test_an_illegal_action_in_the_record_stops_the_example(book, game, tmp_path, monkeypatch):
    data = json.loads(book.EXAMPLE.read_text("utf-8"))
    first_bond = next(i for i, (_, a) in enumerate(data["actions"]) if a["type"] == "bond")
    data["actions"][first_bond][1]["lines"] = ["A1:E"]  # far from S: not a legal first bond
    broken = tmp_path / "booklet-example.json"
    broken.write_text(json.dumps(data))
    monkeypatch.setattr(book, "EXAMPLE", broken)
    book.example_state.cache_clear()
    with pytest.raises(IllegalAction):
        book.example_state(game)
    book.example_state.cache_clear()


def test_what_the_prose_says_about_the_board_is_true(game, example):
    seat = example.seats[0]
    lat = game.rules.formula(example, 0).lattice
    molecules = {lat.hex_label(m.hexagon): m for m in seat.molecules}
    prose = section("Worked example")
    # "the circle at E5 was closed by six yellow lines and shaded"
    assert (molecules["E5"].colour, molecules["E5"].volume, molecules["E5"].elemental) == ("y", 6, True)
    geo = {h["hexagon"]: h for h in game.geometry("E", "A")["hexagons"]}
    assert geo["E5"]["icon"] == geo["A4"]["icon"] == "circle"
    # "the other circle, A4, ... became an ordinary blue 4"
    assert (molecules["A4"].colour, molecules["A4"].volume, molecules["A4"].elemental) == ("b", 4, False)
    # "the yellow 2 at F4 was made when column 2 was already full ... has no cell"
    f4 = molecules["F4"]
    assert (f4.colour, f4.volume, f4.elemental, f4.row) == ("y", 2, False, None)
    assert sum(m.volume == 2 and m.row is not None for m in seat.molecules) == game.geometry("E", "A")["table"][1]
    # "columns 1 to 4 and rows 1, 5 and 6 are full ... seven in all, and all seven were drawn"
    view = game.view(example, 0)["seats"][0]
    assert view["free_bonds"] == {"earned": ["row 1", "row 5", "row 6", "column 1", "column 2", "column 3",
                                             "column 4"], "used": 7, "left": 0}
    # "the colour with the most molecules next to S (B4, C4, D4 and D5)"
    pattern = game.result(example).scores[0].details["pattern_card"]
    assert pattern["colour"] == "r" and sorted(pattern["molecules"]) == ["B4", "C4", "D4", "D5"]
    for words in ("E5", "A4", "F4", "B4, C4, D4 and D5", "rows 1, 5 and 6", "seven in all"):
        assert words in prose, words


@follows("synthesis.md", "Eligible molecules must be of the same color.", "The player must choose a single color.")
def test_twin_pairs_is_not_found_where_the_pairs_side_by_side_are_two_colours(game, example):
    """The booklet once counted Twin Pairs three times here, on pairs of two colours ("cells not joined
    may be of other colours"), for 107 points; a find is one colour, so it is found nowhere: 92."""
    assert game.result(example).scores[0].details["chain_card"]["found"] == []
    assert game.result(example).scores[0].total == 92
    columns = game.rules.formula(example, 0).columns(example.seats[0])
    colour = lambda c, r: columns[c - 1][r - 1]  # noqa: E731
    # "the red pair in row 1 under the blue cells of row 2, in columns 1 and 2"
    assert [colour(1, 1), colour(2, 1), colour(1, 2), colour(2, 2)] == ["r", "r", "b", "b"]
    # "the red pair of row 4 between the green pairs of rows 3 and 5, in columns 3 and 4"
    assert [colour(3, 3), colour(4, 3), colour(3, 4), colour(4, 4), colour(3, 5), colour(4, 5)] == \
        ["g", "g", "r", "r", "g", "g"]
    prose = section("Worked example")
    assert "**Twin Pairs** is not found" in prose and "a find is all one colour" in prose
    cards = section("Molecular Chain cards")
    assert "may be of other colours" not in cards and "**one colour**" in cards


def test_the_chain_card_table_is_the_cards(game):
    """Each Molecular Chain card's points and maximum as the booklet lists them."""
    text = section("Molecular Chain cards")
    rows = [line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    listed = {r[0].strip(): (int(r[2]), int(r[3])) for r in rows[1:]}
    cards = {c.row.name: (c.row.points, c.row.maximum) for c in game.cards.chains.values()}
    assert listed == cards


def test_the_scoring_numbers_in_the_booklet_and_the_aid_are_the_card_sets(game):
    """The chain points table (in the booklet and on the player aid), the
    elemental and row/column points, and the First Steps example's
    thresholds are rules.yaml's, chains.yaml's and patterns.csv's."""
    rules = game.cards.rules
    points = rules.chain_points
    lengths = sorted(points)
    for name, head in (("booklet.md", "| Chain length |"), ("player-aid.md", "| Chain |")):
        text = filled(name)
        rows = text[text.index(head):].splitlines()[:3]
        cells = [[c.strip() for c in r.split("|")[2:-1]] for r in (rows[0], rows[2])]
        assert [int(c.rstrip("+").split()[0]) for c in cells[0]] == lengths, name
        assert [int(c) for c in cells[1]] == [points[k] for k in lengths], name
    text = filled("booklet.md")
    assert f"worth {rules.elemental_points.one} points; both of a pair, {rules.elemental_points.pair} points" in text
    assert f"and {rules.line_points} points at the end" in text
    triplet, first_shell = game.cards.chains["triplet"].row, game.cards.patterns["first-shell"].row
    assert f"at medium, Triplet needs {triplet.yellow} points and First Shell {first_shell.yellow}" in text


@pytest.fixture(scope="module")
def lessons(book):
    return book._lessons()


@follows("synthesis.md", "Players must remove a line from the drawn bond (no splitting of the bond allowed).",
         "Players may move any line inside the drawn bond.")
def test_the_mutation_pictures_draw_only_what_the_rules_allow(game, lessons):
    """The booklet's picture of each mutation is drawn from the engine's shapes and checked against
    the engine's ``variants`` as it is drawn: an inner line of a Chain left out (which splits it) is refused."""
    import types

    svg = lessons.mutations(types.SimpleNamespace(game=game))
    for m in game.cards.mutations.values():
        assert f">{m.name}</text>" in svg
    chain = frozenset(game.cards.bonds["chain"].lines)
    inner = next(e for e in chain if e not in lessons.removable(chain))
    with pytest.raises(ValueError, match="the rules do not allow"):
        lessons._checked(chain, chain - {inner}, "remove_line")


@follows("synthesis.md", "New bonds must connect to previously added bonds or to the starting molecule (marked \"S\").",
         "Determine the volume of the molecule by counting the number of edges of the hexagon that match the color "
         "of your current marker (used for the last bond).")
def test_the_pictures_of_a_bond_and_of_a_closed_hexagon_are_the_engines(game, lessons):
    import types

    book = types.SimpleNamespace(game=game)
    drawn = lessons.drawing_a_bond(book)          # places found by the engine's legal(); asserts inside
    assert drawn.count(">S</text>") == 3 and "Not allowed" in drawn
    closed = lessons.closing_a_hexagon(book)      # the engine's Formula records the molecule
    assert ">3</text>" in closed and "lowest free cell of column 3" in closed
    shapes = lessons.bond_shapes(book)
    assert all(f">{b.name}: {len(b.lines)} lines</text>" in shapes for b in game.cards.bonds.values())
    text = (FOLDER / "booklet.md").read_text("utf-8")
    for name in ("bond-shapes", "drawing-a-bond", "mutations", "closing-a-hexagon"):
        assert f"](figure:{name})" in text
