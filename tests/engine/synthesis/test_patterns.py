"""The ten Molecular Pattern cards, each with the Card Reference Guide's
example, on a small formula (S at C3; a shape at A2)."""

from __future__ import annotations

import pytest

from engine.synthesis.lattice import Lattice
from engine.synthesis.patterns import RULES, Board

LAT = Lattice.from_labels([f"{r}{c}" for r in "ABCDE" for c in range(1, 6)])


def board(molecules: dict[str, tuple[str, int | None]], shapes=("A2",), start="C3") -> Board:
    ix = LAT.hex_index
    return Board(LAT, ix(start), {ix(h): "circle" for h in shapes}, {ix(h): m for h, m in molecules.items()})


def around(h: str) -> list[str]:
    return [LAT.hex_label(n) for n in LAT.neighbours[LAT.hex_index(h)]]


def card(game, card_id):
    return game.cards.patterns[card_id]


def points(game, card_id, b: Board) -> int:
    c = card(game, card_id)
    raw, _ = RULES[c.row.rule](b, c.row.points, c.group)
    return min(raw, c.row.maximum)


def test_the_ten_cards_are_the_reference_guide_in_order(game):
    assert [c.row.rule for c in game.cards.patterns.values()] == list(RULES)


def test_homologous_series_same_colour_rising_by_one(game):
    """"The player earns 9 points for a chain of 3 blue molecules with volumes of 4, 5 and 6.\""""
    b = board({"B1": ("b", 4), "B2": ("b", 5), "B3": ("b", 6), "B4": ("r", 1), "A1": ("b", 6)})
    assert points(game, "homologous-series", b) == 9
    mixed = board({"B1": ("b", 4), "B2": ("r", 5), "B3": ("b", 6)})
    assert points(game, "homologous-series", mixed) == 0


def test_reaction_ladder_rising_by_one_any_colour(game):
    """"The player earns 12 points for a chain of molecules with volumes of 2, 3, 4 and 5.\""""
    b = board({"D1": ("r", 2), "D2": ("g", 3), "D3": ("b", 4), "D4": ("y", 5), "E4": ("y", 5)})
    assert points(game, "reaction-ladder", b) == 12


def test_isomers_same_volume_different_colours_in_the_group(game):
    """"The player earns 12 points for 3 molecules of different colors with a volume of 4.\""""
    b = board({"D1": ("r", 4), "D2": ("g", 4), "E1": ("b", 4), "E2": ("b", 4)})  # a rhombus of four
    assert points(game, "isomers", b) == 12


def test_polymer_same_volume_and_colour_in_the_group(game):
    """"The player earns 12 points for three blue molecules with a volume of 5.\""""
    b = board({"D1": ("b", 5), "D2": ("b", 5), "D3": ("b", 5), "E2": ("r", 5)})  # A1 A2 A3 B2, turned
    assert points(game, "polymer", b) == 12


def test_common_core_the_most_frequent_volume_next_to_s(game):
    """"The player earns 12 points for 4 molecules with a volume of 2.\""""
    ring = around("C3")
    vols = [2, 2, 2, 2, 5, 6]
    b = board({h: ("rgby"[i % 4], v) for i, (h, v) in enumerate(zip(ring, vols))})
    assert points(game, "common-core", b) == 12


def test_diverse_core_unique_volumes_next_to_s(game):
    ring = around("C3")
    b = board({h: ("r", v) for h, v in zip(ring, [1, 2, 2, 5])})
    assert points(game, "diverse-core", b) == 6


def test_catalysts_a_colour_next_to_any_shape_created_or_not(game):
    """"An elemental molecule may be created, remain uncreated, or be created
    as a regular molecule.\""""
    near = around("A2")
    plain = board({h: ("g", 3) for h in near})
    shaded = board({**{h: ("g", 3) for h in near}, "A2": ("y", None)})
    assert points(game, "catalysts", plain) == points(game, "catalysts", shaded) == 3 * len(near)


def test_first_shell_a_colour_next_to_s(game):
    ring = around("C3")
    b = board({h: ("r" if i < 4 else "b", 1) for i, h in enumerate(ring)})
    assert points(game, "first-shell", b) == 12


def test_resonance_most_frequent_volume_next_to_a_chosen_shape(game):
    """"The player earns 6 points for 2 molecules with a volume of 4.\""""
    near = around("A2")
    b = board({near[0]: ("r", 4), near[1]: ("b", 4), near[2]: ("g", 1)})
    assert points(game, "resonance", b) == 6


def test_spectrum_unique_volumes_next_to_a_chosen_shape(game):
    near = around("A2")
    b = board({near[0]: ("r", 1), near[1]: ("b", 3), near[2]: ("g", 6)})
    assert points(game, "spectrum", b) == 9


def test_a_card_never_scores_past_its_red_hexagon(game):
    """"The maximum point value of each card is shown in its red hexagon.\""""
    b = board({h: ("r", 2) for h in LAT.edge_labels and [LAT.hex_label(i) for i in range(len(LAT.hexes))]
               if h != "C3"}, shapes=("A2", "E5", "A5"))
    for c in game.cards.patterns.values():
        assert points(game, c.id, b) <= c.row.maximum


@pytest.mark.parametrize("rule", sorted(RULES))
def test_an_empty_formula_scores_nothing(rule):
    assert RULES[rule](board({}), 3, tuple(LAT.hexes[:3]))[0] == 0
