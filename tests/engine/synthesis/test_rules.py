"""Rules for Synthesis 1-6 and Mutant Bonds, played through the game on the
example board (engine/synthesis/examples.py: S is C3, C5:SE is printed),
with Denis' first two turns from the rulebook."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.engine.synthesis.conftest import bond, lines_of, painted, rolled

S_SIDES = {"C3:E", "B3:SW", "B2:SE", "C2:E", "C3:SW", "C3:SE"}


def start(small, players=1, **options):
    return small.setup(players, 1, {"first_game": True, **options})


def touches(small, state, seat, lines, corners_of: set[str]) -> bool:
    lat = small.rules.formula(state, seat).lattice
    mask = sum(1 << lat.parse_edge(t) for t in lines)
    anchor = sum(1 << lat.parse_edge(t) for t in corners_of)
    return bool(lat.vertex_mask(mask) & lat.vertex_mask(anchor))


def test_rule_1_bonds_follow_the_lines_of_the_formula(small):
    s = rolled(small, start(small), "arc", "no_connect")
    lat = small.rules.formula(s, 0).lattice
    for a in small.actions(s, 0):
        if a["type"] == "bond":
            assert all(lat.parse_edge(t) is not None for t in a["lines"])
    with pytest.raises(IllegalAction, match="not a line of this formula"):
        small.apply(s, 0, bond("A1:E", "A1:NE", "A1:SE"))  # A1 is no hexagon of this formula


def test_rule_2_any_turn_or_mirror_of_the_rolled_shape_is_offered(small):
    s = rolled(small, start(small), "zigzag", "no_connect")
    drawings = [a for a in small.actions(s, 0) if a["type"] == "bond"]
    from engine.synthesis.bonds import canonical, orientations
    lat = small.rules.formula(s, 0).lattice
    shapes = {tuple(sorted(lat.edges[lat.parse_edge(t)] for t in a["lines"])) for a in drawings}
    kinds = {min(orientations(x)) for x in shapes}
    assert kinds == {canonical(small.rules.shape("zigzag"))}
    from engine.synthesis.bonds import normalize
    assert len({normalize(x) for x in shapes}) == 6  # all six turns appear somewhere


def test_rule_3_all_parts_of_a_bond_must_be_drawn(small):
    s = rolled(small, start(small), "arc", "twice")
    with pytest.raises(IllegalAction, match="not the rolled Arc"):
        small.apply(s, 0, bond("C4:SW", "C4:SE"))  # two lines of three


def test_rule_4_the_first_bond_connects_to_the_starting_molecule(small):
    """Denis' first bond "must connect to the starting molecule"."""
    s = rolled(small, start(small), "arc", "twice")
    drawings = [a for a in small.actions(s, 0) if a["type"] == "bond"]
    assert drawings and all(touches(small, s, 0, a["lines"], S_SIDES) for a in drawings)
    with pytest.raises(IllegalAction, match="must touch your bonds or the starting molecule S"):
        small.apply(s, 0, bond("A2:NW", "A2:NE", "A2:E"))


def test_rule_5_bonds_stay_inside_the_formula(small):
    s = rolled(small, start(small), "bay", "twice")
    lat = small.rules.formula(s, 0).lattice
    for a in small.actions(s, 0):
        for t in a.get("lines", []):
            assert lat.has_edge(lat.edges[lat.parse_edge(t)])
    with pytest.raises(IllegalAction, match="is not a line of this formula"):
        small.apply(s, 0, bond("A4:E", "A5:E", "A4:NE", "A4:SE"))  # A5 is off the formula


def test_rule_6_never_over_a_bond_the_starting_molecule_or_a_printed_line(small):
    s = rolled(small, start(small), "angle", "twice")
    with pytest.raises(IllegalAction, match="side of the starting molecule S"):
        small.apply(s, 0, bond("C3:E", "C4:NE"))
    s = painted(small, s, 0, "C4:E", "r")
    with pytest.raises(IllegalAction, match="printed on the board"):
        small.apply(s, 0, bond("C5:SE", "C5:E"))
    with pytest.raises(IllegalAction, match="drawn already"):
        small.apply(s, 0, bond("C4:E", "C4:NE"))
    for a in small.actions(s, 0):
        assert not {"C4:E", "C5:SE"} & set(a.get("lines", []))


def test_denis_turn_1_red_twice_the_second_bond_may_connect_to_s_instead(small):
    """"Denis has the red marker. He must connect his first bond to the
    starting molecule. The Mutation die forces him to draw a second,
    identical bond. He can connect it to the previous bond or to the
    starting molecule. Denis chooses the latter.\""""
    s = rolled(small, start(small), "angle", "twice", turn=1)
    assert small.rules.marker(s, 0) == "r"
    s = small.apply(s, 0, bond("C4:SW", "C4:SE"))
    assert s.seats[0].todo == 1 and not s.seats[0].done
    second = [a for a in small.actions(s, 0) if a["type"] == "bond"]
    to_first = [a for a in second if touches(small, s, 0, a["lines"], {"C4:SE"})
                and not touches(small, s, 0, a["lines"], S_SIDES)]
    to_s = [a for a in second if not touches(small, s, 0, a["lines"], {"C4:SW", "C4:SE"})]
    assert to_first and to_s
    s = small.apply(s, 0, to_s[0])
    assert s.seats[0].done and s.seats[0].lines.count("r") == 4


def test_denis_turn_2_blue_may_keep_every_thin_line(small):
    """"On his next turn, Denis gets the blue marker. He connects a new bond to
    the starting molecule. This time, he decides not to remove thin lines
    from the bond (since this mutation is optional).\""""
    s = rolled(small, start(small), "arc", "remove_lines", turn=2)
    assert small.rules.marker(s, 0) == "b"
    sizes = {len(a["lines"]) for a in small.actions(s, 0) if a["type"] == "bond"}
    assert sizes == {1, 2, 3}
    kept = small.apply(s, 0, bond("C4:E", "C4:SE", "C4:SW"))
    assert kept.seats[0].lines.count("b") == 3
    thinned = small.apply(s, 0, bond("C4:SW"))
    assert thinned.seats[0].lines.count("b") == 1


def test_no_splitting_remove_thin_lines_never_leaves_two_pieces(small):
    s = rolled(small, start(small), "arc", "remove_lines", turn=2)
    with pytest.raises(IllegalAction, match="one piece"):
        small.apply(s, 0, bond("C4:E", "C4:SW"))  # the arc's two ends without its middle


def test_twice_each_copy_is_legal_on_its_own(small):
    """"You must always follow the legal drawing rules for both bonds (each
    must be connected to the starting bond or to an existing bond).\""""
    s = rolled(small, start(small), "arc", "twice")
    first = small.actions(s, 0)[0]
    s = small.apply(s, 0, first)
    for a in small.actions(s, 0):
        if a["type"] == "bond":
            assert not set(a["lines"]) & set(first["lines"])
            assert touches(small, s, 0, a["lines"], S_SIDES | set(first["lines"]))


def test_add_a_line_is_mandatory(small):
    s = rolled(small, start(small), "angle", "add_line")
    sizes = {len(a["lines"]) for a in small.actions(s, 0) if a["type"] == "bond"}
    assert sizes == {3}
    with pytest.raises(IllegalAction, match="Add a line"):
        small.apply(s, 0, bond("C4:SW", "C4:SE"))


def test_remove_a_line_is_mandatory(small):
    s = rolled(small, start(small), "arc", "remove_line")
    sizes = {len(a["lines"]) for a in small.actions(s, 0) if a["type"] == "bond"}
    assert sizes == {2}
    with pytest.raises(IllegalAction):
        small.apply(s, 0, bond("C4:E", "C4:SE", "C4:SW"))


def test_no_connect_lets_the_bond_float_but_does_not_have_to(small):
    s = rolled(small, start(small), "arc", "no_connect")
    drawings = [a for a in small.actions(s, 0) if a["type"] == "bond"]
    assert any(not touches(small, s, 0, a["lines"], S_SIDES) for a in drawings)
    assert any(touches(small, s, 0, a["lines"], S_SIDES) for a in drawings)
    floated = small.apply(s, 0, bond("A2:NW", "A2:NE", "A2:E"))
    assert floated.seats[0].lines.count("r") == 3


def test_move_a_line_keeps_three_lines_in_one_piece(small):
    s = rolled(small, start(small), "arc", "move_line")
    drawings = [a for a in small.actions(s, 0) if a["type"] == "bond"]
    assert {len(a["lines"]) for a in drawings} == {3}
    assert any(lines_of(a) == {"C4:E", "C4:SE", "C4:SW"} for a in drawings)  # optional: unmoved
    # the arc's end C4:E moved down to D4:W, touching C4:SE: a zigzag-like bond, still one piece
    assert any(lines_of(a) == {"C4:SE", "C4:SW", "D3:E"} for a in drawings)


def test_a_bond_that_fits_nowhere_is_skipped_unless_a_free_bond_could_help(small):
    s = rolled(small, start(small), "bay", "add_line")
    f = small.rules.formula(s, 0)
    crowded = painted(small, s, 0, " ".join(t for t in f.lattice.edge_labels
                                           if t not in S_SIDES | {"C5:SE", "A3:NE", "A3:NW"}), "g")
    crowded.seats[0].pending = ()
    from engine.synthesis.turn import bond_masks, settle
    assert bond_masks(small.rules, crowded, 0) == []
    free = f.free_left(crowded.seats[0])
    settle(small.rules, crowded, [0])
    if free:
        assert crowded.seats[0].todo == 1 and {"type": "pass"} in small.actions(crowded, 0)
        passed = small.apply(crowded, 0, {"type": "pass"})
        assert passed.seats[0].todo == 0
    else:
        assert crowded.seats[0].todo == 0 and crowded.seats[0].done
    # without free bonds the bond is skipped at once
    crowded.seats[0].free_used = len(f.free_earned(crowded.seats[0]))
    crowded.seats[0].todo, crowded.seats[0].done = 1, False
    settle(small.rules, crowded, [0])
    assert crowded.seats[0].todo == 0 and crowded.seats[0].done
