"""The formula's lattice and bond shapes: hexagons, lines and corners;
shapes turned, mirrored and mutated (Rules for Synthesis 1-3, Mutant Bonds)."""

from __future__ import annotations

import pytest

from engine.synthesis import bonds
from engine.synthesis.bonds import (MUTATIONS, canonical, connected, normalize, orientations, parse_shape,
                                    placements, removable, sub_bonds, variants)
from engine.synthesis.lattice import (Lattice, edge, edge_hexes, hex_label, mirror, parse_hex, parse_side, rotate,
                                      side, sides)

ARC = parse_shape("A1:NE A1:E A1:SE")
BRANCH = parse_shape("B1:NW B1:NE A1:E")
ZIGZAG = parse_shape("A1:NW A1:NE A2:NW")


def test_a_line_has_two_names_one_per_hexagon():
    assert parse_side("C4:E") == parse_side("C5:W")
    assert parse_side("B1:NE") == parse_side("A2:SW")  # odd rows sit half a hexagon right
    assert parse_side("C3:SE") == parse_side("D3:NW")


def test_hexagon_names_round_trip_through_axial_coordinates():
    for row in "ABCDEFG":
        for col in range(1, 9):
            assert hex_label(parse_hex(f"{row}{col}")) == f"{row}{col}"


@pytest.mark.parametrize("text", ["C4", "C4:X", "4C:E", "", None, "Z0:E"])
def test_bad_line_names_are_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match="expected a line such as C4:E"):
        parse_side(text)


def test_every_line_borders_the_two_hexagons_it_is_a_side_of():
    for h in [(0, 0), (2, -1), (-3, 4)]:
        for k, e in enumerate(sides(h)):
            a, b = edge_hexes(e)
            assert h in (a, b) and e in sides(a) and e in sides(b)


def test_a_sixth_of_a_turn_six_times_and_a_mirror_twice_are_the_identity():
    v = (5, -1)
    w = v
    for _ in range(6):
        w = rotate(w)
    assert w == v and mirror(mirror(v)) == v
    # a turn maps every side of a hexagon to a side of a hexagon
    for e in sides((1, 1)):
        turned = edge(rotate(e[0]), rotate(e[1]))
        assert turned in sides(edge_hexes(turned)[0])


def test_a_small_formula_numbers_every_line_once():
    lat = Lattice.from_labels(["A1", "A2", "B1", "B2"])
    assert len(lat.edges) == 4 * 6 - 5  # five shared lines
    assert all(len(on) in (1, 2) for on in lat.edge_hexes)
    assert lat.neighbours[lat.hex_index("A1")] == (1, 2)
    assert lat.connected_hexes()
    assert not Lattice.from_labels(["A1", "A3"]).connected_hexes()


def test_rule_2_bonds_can_be_rotated_or_mirrored():
    """"Bonds can be rotated or mirrored": an arc has 6 drawings, a branch 2,
    a zigzag 6 (its mirror image is one of its turns)."""
    assert len(orientations(ARC)) == 6
    assert len(orientations(BRANCH)) == 2
    assert len(orientations(ZIGZAG)) == 6
    assert canonical(ARC) == canonical(parse_shape("C3:SW C3:W C3:NW"))


def test_each_die_shape_is_one_piece():
    for shape in (ARC, BRANCH, ZIGZAG):
        assert connected(shape)
    assert not connected(parse_shape("A1:E A3:E"))


def test_mutant_bonds_no_splitting_the_dotted_line_cannot_be_removed():
    """"You cannot use the removal mutation to remove the dotted line from
    your mandatory bond (it would split it)": the middle line of an arc is
    that line; its two ends can go."""
    middle = parse_side("A1:E")
    assert middle not in removable(ARC)
    assert set(removable(ARC)) == ARC - {middle}
    for v in variants(ARC, "remove_line"):
        assert connected(v) and len(v) == 2


def test_remove_a_line_is_mandatory_and_leaves_one_line_fewer():
    assert all(len(v) == len(ARC) - 1 for v in variants(ARC, "remove_line"))
    assert canonical(ARC) not in variants(ARC, "remove_line")


def test_add_a_line_touches_the_bond_and_is_mandatory():
    """"this extra bond line must connect directly to the drawn bond"."""
    found = variants(ARC, "add_line")
    assert found and all(len(v) == 4 and connected(v) for v in found)
    assert canonical(ARC) not in found


def test_remove_thin_lines_any_number_at_least_one_never_split():
    found = variants(ARC, "remove_lines")
    assert canonical(ARC) in found  # optional: keeping all is allowed
    assert {len(v) for v in found} == {1, 2, 3}
    assert all(connected(v) for v in found)
    assert len(sub_bonds(ARC)) == 6  # 3 single lines, 2 pairs (not the split ends), the arc


def test_move_a_line_keeps_the_count_touches_and_never_splits():
    found = variants(ZIGZAG, "move_line")
    assert canonical(ZIGZAG) in found  # optional
    assert all(len(v) == 3 and connected(v) for v in found)
    assert len(found) > 1


def test_twice_and_no_connect_do_not_change_the_shape():
    for m in ("twice", "no_connect", None):
        assert variants(ARC, m) == (canonical(ARC),)
    with pytest.raises(ValueError, match="unknown mutation"):
        variants(ARC, "explode")


def test_rule_5_placements_stay_inside_the_formula():
    lat = Lattice.from_labels(["A1", "A2", "B1"])
    found = placements(lat, ARC, None)
    assert found
    for mask, corners in found.pairs():
        assert mask < 1 << len(lat.edges) and bin(mask).count("1") == 3
        assert corners == lat.vertex_mask(mask)
    # a bay (four sides of one hexagon) fits in each hexagon, six ways each
    bay = parse_shape("A1:NW A1:NE A1:E A1:SE")
    assert len(placements(Lattice.from_labels(["A1"]), bay, None)) == 6


def test_placements_are_deduplicated_across_mutated_shapes():
    lat = Lattice.from_labels(["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"])
    for mutation in MUTATIONS:
        masks = [m for m, _ in placements(lat, ARC, mutation).pairs()]
        assert len(masks) == len(set(masks))


def test_legal_keeps_what_is_free_and_touches_an_anchor():
    lat = Lattice.from_labels(["A1"])
    cands = placements(lat, parse_shape("A1:NE A1:E"), None)
    e_ne = 1 << lat.edge_index(parse_side("A1:NE"))
    top = lat.vertex_mask(e_ne) & ~lat.vertex_mask(1 << lat.edge_index(parse_side("A1:E")))
    assert all(not m & e_ne for m in bonds.legal(cands, e_ne, top, True))
    assert len(bonds.legal(cands, 0, 0, False)) == 6
    assert bonds.legal(cands, 0, 0, True) == []


def test_side_indexes_follow_the_names():
    assert side((0, 0), 0) == parse_side("A1:E")


def test_warm_works_out_every_placement_once_and_the_same():
    """``Synthesis.warm`` (a server calls it before its workers start) leaves
    nothing for play to work out later, and what it works out is what play
    would have: compared on a fresh lattice for one formula."""
    from labkit import cardsets, registry

    game = cardsets.new_game(registry.find("synthesis"))
    game.warm()
    formulas = list(game.rules.formulas.values())
    for f in formulas:
        cache = f.lattice.__dict__["_placements"]
        for shape in game.rules.shapes.values():
            for mutation in (None, *MUTATIONS):
                assert (normalize(shape), mutation) in cache
    lattice = formulas[0].lattice
    warmed = lattice.__dict__.pop("_placements")
    lattice.__dict__.pop("_placed")
    try:
        for shape in game.rules.shapes.values():
            key = (normalize(shape), "move_line")
            assert placements(lattice, shape, "move_line").pairs() == warmed[key].pairs()
    finally:
        lattice.__dict__["_placements"] = warmed
