"""The Organic Soup rules booklet's worked example is a real game, and what
its prose says about the end of that game is true. (The shared tests in
tests/generator/test_booklets.py check the standings table, the setup table
and the coverage of the rulebook; this checks the sentences around them.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.organicsoup.game import OrganicSoup
from tests.engine.organicsoup.conftest import rulebook_files
from engine.organicsoup.cards import parse
from generator.booklet import load_hooks
from tests.rulebook import follows

FOLDER = Path(__file__).resolve().parents[3] / "templates" / "organicsoup"


@pytest.fixture(scope="module")
def book():
    return load_hooks(FOLDER, "organicsoup")   # the game's booklet.py, loaded as the build loads it


@pytest.fixture(scope="module")
def game():
    return OrganicSoup(parse(rulebook_files()))


def replay(book, game, upto: int | None = None):
    data = json.loads(book.EXAMPLE.read_text("utf-8"))
    state = game.setup(data["players"], data["seed"], data["options"])
    for seat, action in data["actions"][:upto]:
        state = game.apply(state, seat, action)
    return state, data["actions"]


def prose() -> str:
    text = (FOLDER / "booklet.md").read_text("utf-8")
    start = text.index("### Worked example")
    return text[start:text.find("\n## ", start)]


def test_the_example_ends_when_the_atom_deck_runs_out_on_player_3s_build(book, game):
    state = book.example_state(game)
    assert state.phase == "over" and state.winner is None and state.atoms == ""
    assert len(state.soup) == 10  # "with ten atoms in the soup"
    before, actions = replay(book, game, -1)
    seat, last = actions[-1]
    assert (seat, last) == (2, {"type": "build", "recipe": "ethylene", "count": 1})
    # "Player 2 held the Ethylene recipe with two Ethylene molecules"
    assert "ethylene" in before.seats[1].recipes and before.seats[1].molecules["ethylene"] == 2
    assert before.seats[2].molecules["ethylene"] == 1
    # "took the last four cards of the atom deck"
    assert len(before.atoms) == 4
    assert "ethylene" in state.seats[2].recipes and state.seats[2].molecules["ethylene"] == 2
    text = prose()
    for words in ("after a build by Player 3", "last four cards", "ten atoms in the soup",
                  "Player 2 held the Ethylene recipe with two Ethylene molecules"):
        assert words in text, words


def test_player_2_took_the_cyanamide_recipe_by_a_build_that_tied(book, game):
    state = book.example_state(game)
    _, actions = replay(book, game)
    k = actions.index([1, {"type": "build", "recipe": "cyanamide", "count": 1}])
    before, _ = replay(book, game, k)
    after, _ = replay(book, game, k + 1)
    assert "cyanamide" in before.seats[2].recipes and before.seats[2].molecules["cyanamide"] == 1
    assert "cyanamide" in after.seats[1].recipes and after.seats[1].molecules["cyanamide"] == 1
    assert [s.molecules.get("cyanamide") for s in state.seats] == [None, 1, 1]
    assert "Player 2 had taken the Cyanamide recipe from Player 3 the same way: one Cyanamide each, by a build" \
        in prose()


def test_the_winner_is_decided_on_basic_recipes(book, game):
    result = game.result(book.example_state(game))
    counts = [s.details["recipes"] for s in result.scores]
    assert [c["complex"] for c in counts] == [1, 0, 1] and [c["simple"] for c in counts] == [1, 2, 1]
    assert [c["basic"] for c in counts] == [1, 1, 2] and result.winners == (2,)


def test_the_card_facts_in_the_booklet_are_the_cards(game):
    cards = game.cards
    size = lambda rid: sum(cards.recipe(rid).atoms)  # noqa: E731
    sizes = {level: sorted(size(r.id) for r in cards.level(level)) for level in ("simple", "complex", "amino")}
    import types

    from generator.booklet import fill

    values = load_hooks(FOLDER, "organicsoup").set_values(types.SimpleNamespace(cards=cards, game=game))
    text = fill((FOLDER / "booklet.md").read_text("utf-8"), "booklet.md", {k: str(v) for k, v in values.items()})
    # "Simple recipe cards | 20, up to 5 atoms", "Complex ... 6 to 12 atoms", "Amino/nucleic ... 10 to 24 atoms"
    assert sizes["simple"][-1] == 5 and "| 20, up to 5 atoms |" in text
    assert (sizes["complex"][0], sizes["complex"][-1]) == (6, 12) and "| 20, 6 to 12 atoms |" in text
    assert (sizes["amino"][0], sizes["amino"][-1]) == (10, 24) and "| 20, 10 to 24 atoms |" in text
    assert [size(r) for r in ("graphite", "hydrogen", "nitrogen", "oxygen")] == [1, 2, 2, 2]
    # "five Graphite, one Ammonia, three Hydrogen and two Oxygen molecules hold exactly its atoms"
    parts = {"graphite": 5, "ammonia": 1, "hydrogen": 3, "oxygen": 2}
    total = tuple(sum(cards.recipe(r).atoms[i] * k for r, k in parts.items()) for i in range(4))
    assert total == tuple(cards.recipe("glutamic-acid").atoms)
    assert "five Graphite, one Ammonia, three Hydrogen and two Oxygen molecules" in text


class _Book:
    """What a figure draws with, recording every printed face it asks for (no build needed)."""

    def __init__(self, game):
        from generator.booklet import FaceSvg

        self.game, self.cards, self.asked = game, game.cards, []
        self._face = FaceSvg('<svg viewBox="0 0 10 10"></svg>', (44.0, 63.0))

    def face(self, component, piece="front", back=False):
        self.asked.append(f"{component}/{piece}")
        return self._face

    def nest(self, face, x, y, w, h):
        return f'<g transform="translate({x:.1f},{y:.1f})"/>'


@follows("organic-soup.md", "If you do, you will tie with the first player in number of Nitrogen molecules, and "
         "so you would take the recipe from him.",
         "You react his Nitrogen molecule with one of your Oxygen molecules to form two Nitric Oxide molecules")
def test_the_examples_pictures_are_the_engines_tables_before_and_after(book, game):
    """Each example's picture draws a table the engine sets up, and the table the engine's ``apply``
    makes of it (the figure functions check the move's outcome themselves)."""
    b = _Book(game)
    book.build_example(b)
    assert b.asked.count("basic-recipes/nitrogen") == 2           # with Player 1 before, with you after
    b = _Book(game)
    book.reaction_example(b)
    assert b.asked.count("simple-recipes/nitric-oxide") == 1      # in front of you after the reaction
    # N2 molecules of two atoms: before, left 1 and right 2; after, right 2 and your two NO (one each)
    assert b.asked.count("atoms/nitrogen") == (1 + 2) * 2 + 2 * 2 + 2
    b = _Book(game)
    book.life_example(b)
    assert b.asked.count("amino-recipes/glutamic-acid") == 1 and b.asked.count("atoms/carbon") == 5 + 5
    text = (FOLDER / "booklet.md").read_text("utf-8")
    for name in ("build-example", "reaction-example", "life-example", "worked-example"):
        assert f"](figure:{name})" in text
