"""What the engine hands the printer and the phones: the host's setup
choices (each one the engine accepts), and the drawings both faces share
(a bond, the disc on any turn, a card's shape, a Pattern card's group)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.synthesis.setup import OPTIONS


def test_every_setup_choice_offered_to_the_host_is_one_the_engine_takes(game):
    offered = {o.key: o for o in game.setup_options}
    assert set(offered) <= set(OPTIONS)
    assert {"first_game", "side", "mode", "difficulty", "project"} == set(offered)
    for side, _ in offered["side"].choices:
        assert game.setup(3, 1, {"side": side}).side == side
    for mode, _ in offered["mode"].choices:
        for level, _ in offered["difficulty"].choices:
            state = game.setup(1, 2, {"mode": mode, "difficulty": level})
            assert state.mode == mode
    assert len(offered["project"].choices) == len(game.cards.projects) == 26
    for project, words in offered["project"].choices:
        assert game.setup(1, 3, {"mode": "predictable", "project": project}).project == project
        assert f"difficulty {game.cards.projects[project].row.difficulty}" in words
    assert game.setup(2, 1, {"first_game": True}).chain_card is None


def test_a_solo_difficulty_in_words_draws_a_project_of_that_many_shaded_hexagons(game):
    """Predictable Results: "Choose a Project card of your preferred
    difficulty level or draw one at random"; the host says easy, medium or
    hard on the phone, and the engine reads 1, 2 or 3 shaded hexagons."""
    for word, shaded in (("easy", 1), ("medium", 2), ("hard", 3)):
        for seed in range(4):
            state = game.setup(1, seed, {"mode": "predictable", "difficulty": word})
            assert game.cards.projects[state.project].row.difficulty == shaded
    assert game.setup(1, 1, {"mode": "first_steps", "difficulty": "hard"}).level == "red"
    with pytest.raises(IllegalAction, match="1, 2 or 3"):
        game.setup(1, 1, {"mode": "predictable", "difficulty": "extreme"})


def test_the_disc_figure_follows_the_disc_on_every_turn(game):
    disc = game.rules.disc
    for turn in range(1, 10):
        fig = game.disc_figure(turn)
        assert [b["colour"] for b in fig["boxes"]] == [disc.colour(k, turn) for k in range(disc.boxes)]
        assert fig["boxes"][fig["roller_box"]]["colour"] == disc.roller_colour
    top = game.disc_figure(1)["boxes"][0]
    assert top["middle"] == [0.0, -1.0] and top["colour"] == "red"      # box 1 at the top beside red on turn 1


@pytest.mark.parametrize("shape", ["angle", "arc", "zigzag", "branch", "chain", "bay", "line"])
def test_a_bond_figure_draws_each_line_once_centred(game, shape):
    fig = game.bond_figure(shape)
    assert len(fig["segments"]) == len(game.rules.shape(shape))
    xs = [x for s in fig["segments"] for x in (s[0], s[2])]
    ys = [y for s in fig["segments"] for y in (s[1], s[3])]
    assert abs(min(xs) + max(xs)) < 1e-6 and abs(min(ys) + max(ys)) < 1e-6
    for x1, y1, x2, y2 in fig["segments"]:
        assert abs(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 - 1) < 1e-3     # every line one side long


def test_card_figures_are_the_cards_drawings(game):
    for card in game.cards.chains.values():
        fig = game.chain_figure(card.id)
        assert len(fig["cells"]) == len(card.pattern.cells)
        assert {link["kind"] for link in fig["links"]} <= {"solid", "dotted", "absent"}
    for card in game.cards.projects.values():
        assert len(game.project_figures(card.id)) == len(card.chains)
    groups = {c.id: game.group_figure(c.id) for c in game.cards.patterns.values()}
    assert {k for k, v in groups.items() if v} == {"isomers", "polymer"}
    assert len(groups["isomers"]["hexagons"]) == 4
