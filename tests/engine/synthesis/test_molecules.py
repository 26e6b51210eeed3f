"""Molecule Creation, Active Molecules, Elemental Molecules and Free Bonds,
on the example board (B2 shows x2, D4 an arc; A2 and E3 a circle, B4 and
D1 a triangle; S is C3), with Denis' later turns from the rulebook."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.engine.synthesis.conftest import bond, hex_lines, lines_of, painted, rolled


def start(small):
    return small.setup(1, 1, {"first_game": True})


def columns(small, s, seat=0):
    return small.rules.formula(s, seat).columns(s.seats[seat])


def around_b2_b3(small):
    """B2 needs only B2:E; B3 needs B2:E and A3:SE (S gives each a black side)."""
    s = start(small)
    for lines, colour in (("A3:SW B3:E", "g"), ("A2:SE B3:SE", "r"), ("B1:E A4:SW", "b"), ("B2:SW", "y")):
        s = painted(small, s, 0, lines, colour)
    return s


def test_denis_turn_3_two_green_molecules_of_volume_2_and_3(small):
    """"On his third turn, Denis gets the green marker and creates two green
    molecules. One has a volume of 2, and the other of 3. Denis fills the
    bottom cells in the second and third columns of the molecular volume
    table with his green marker.\""""
    s = rolled(small, around_b2_b3(small), "angle", "no_connect", turn=3)
    assert small.rules.marker(s, 0) == "g"
    s = small.apply(s, 0, bond("A3:SE", "B2:E"))
    made = {small.rules.formula(s, 0).lattice.hex_label(m.hexagon): (m.colour, m.volume, m.row)
            for m in s.seats[0].molecules}
    assert made == {"B2": ("g", 2, 0), "B3": ("g", 3, 0)}
    assert columns(small, s)[:3] == ["", "g", "g"]


def test_the_last_bond_decides_the_type_and_the_volume_counts_its_colour(small):
    """"The color of the last bond added determines the type of the molecule
    [...] The volume is the number of bonds of the molecule that match its type.\""""
    s = start(small)
    s = painted(small, s, 0, " ".join(hex_lines(small, s, 0, "A3")[:5]), "b")
    s = rolled(small, s, "angle", "remove_lines", turn=1)  # red, thinned to one line
    s = small.apply(s, 0, bond(hex_lines(small, s, 0, "A3")[5]))
    (m,) = s.seats[0].molecules
    assert (m.colour, m.volume) == ("r", 1)
    assert columns(small, s)[0] == "r"


def test_a_hexagon_is_closed_once_and_numbered_once(small):
    s = around_b2_b3(small)
    s = rolled(small, s, "angle", "no_connect", turn=3)
    s = small.apply(s, 0, bond("A3:SE", "B2:E"))
    hexes = [m.hexagon for m in s.seats[0].molecules]
    assert len(hexes) == len(set(hexes)) == 2
    small.check(s)


def test_lowest_free_cell_and_a_full_column(small):
    """"Color the lowest available cell of that column"; the example board's
    columns hold 3 cells, so a fourth molecule of that volume has no cell."""
    s = start(small)
    f = small.rules.formula(s, 0)
    for i, h in enumerate(["A3", "A4", "B1", "E2"]):
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six[:5]), "y")
        s = painted(small, s, 0, six[5], "r")  # volume 1, red
    rows = [m.row for m in s.seats[0].molecules if m.volume == 1]
    assert rows[:3] == [0, 1, 2] and rows[3:] == [None] * (len(rows) - 3)
    assert f.columns(s.seats[0])[0] == "rrr"
    small.check(s)


def test_denis_turn_4_yellow_all_yellow_shape_hexagon_may_be_elemental(small):
    """"Denis receives a yellow marker and creates a molecule containing a
    shape. Since all the bonds in the molecule are yellow, he can create an
    elemental molecule [...] shading the left cell under this elemental
    molecule in the score formula.\""""
    s = painted(small, start(small), 0, "A2:NE A2:NW A2:W A2:SW", "y")
    s = rolled(small, s, "angle", "twice", turn=4)
    assert small.rules.marker(s, 0) == "y"
    s = small.apply(s, 0, bond("A2:E", "A2:SE"))
    assert small.actions(s, 0) == [{"type": "elemental", "hexagon": "A2", "shade": True},
                                   {"type": "elemental", "hexagon": "A2", "shade": False}]
    with pytest.raises(IllegalAction, match="First choose whether to shade"):
        small.apply(s, 0, small.actions(rolled(small, start(small), "angle", "twice"), 0)[0])
    shaded = small.apply(s, 0, {"type": "elemental", "hexagon": "A2", "shade": True})
    f = small.rules.formula(shaded, 0)
    assert f.boxes(shaded.seats[0]) == {"circle": "y", "triangle": ""}
    assert f.columns(shaded.seats[0])[5] == ""  # shaded, not recorded in the table
    plain = small.apply(s, 0, {"type": "elemental", "hexagon": "A2", "shade": False})
    assert f.columns(plain.seats[0])[5] == "y"  # treated as a normal molecule of volume 6
    assert f.boxes(plain.seats[0])["circle"] == ""


def test_mixed_colours_around_a_shape_give_no_choice(small):
    """"If [...] the hexagon is surrounded by bonds of different colors (2 or
    more) - you have no choice: ignore the shape icon.\""""
    s = painted(small, start(small), 0, "A2:NE A2:NW A2:W", "y")
    s = painted(small, s, 0, "A2:SW", "b")
    s = rolled(small, s, "angle", "twice", turn=4)
    s = small.apply(s, 0, bond("A2:E", "A2:SE"))
    assert not s.seats[0].pending
    (m,) = s.seats[0].molecules
    assert (m.elemental, m.volume, m.row) == (False, 5, 0)


def test_an_elemental_pair_earns_a_free_bond(small):
    """"Each elemental molecule has 2 corresponding boxes - a pair. If you
    shade both boxes, you gain a free bond.\""""
    s = start(small)
    for h in ("A2", "E3"):
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six), "g")
        s = small.apply(rolled(small, s, "angle", "twice"), 0, {"type": "elemental", "hexagon": h, "shade": True})
    f = small.rules.formula(s, 0)
    assert f.boxes(s.seats[0])["circle"] == "gg"
    assert f.free_earned(s.seats[0]) == ["pair circle"]


def test_a_completed_row_or_column_earns_a_free_bond(small):
    s = start(small)
    for h in ("A3", "A4", "B1"):
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six[:5]), "y")
        s = painted(small, s, 0, six[5], "r")
    f = small.rules.formula(s, 0)
    assert f.columns(s.seats[0])[0] == "rrr"
    assert f.free_earned(s.seats[0]) == ["column 1"]


def test_free_bond_one_line_any_colour_any_time_in_the_turn(small):
    s = start(small)
    for h in ("A3", "A4", "B1"):
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six[:5]), "y")
        s = painted(small, s, 0, six[5], "r")
    s = rolled(small, s, "arc", "twice", turn=2)
    frees = [a for a in small.actions(s, 0) if a["type"] == "free_bond"]
    assert {a["colour"] for a in frees} == {"red", "yellow", "green", "blue"}
    s2 = small.apply(s, 0, {"type": "free_bond", "line": "C4:SW", "colour": "green"})  # before the bond
    assert s2.seats[0].free_used == 1 and s2.seats[0].todo == 2
    assert s2.seats[0].lines[small.rules.formula(s2, 0).lattice.parse_edge("C4:SW")] == "g"
    with pytest.raises(IllegalAction, match="no free bond"):
        small.apply(s2, 0, {"type": "free_bond", "line": "C4:SE", "colour": "green"})
    with pytest.raises(IllegalAction, match="any marker"):
        small.apply(s, 0, {"type": "free_bond", "line": "C4:SE", "colour": "purple"})


def test_x2_active_molecule_copies_the_rolled_bond_without_its_mutation(small):
    """"Denis has the green marker. He surrounds the "x2" icon, so he adds
    another copy of the bond shape shown on the Bond die - without the
    mutation modification.\""""
    s = rolled(small, around_b2_b3(small), "angle", "no_connect", turn=3)
    s = small.apply(s, 0, bond("A3:SE", "B2:E"))
    (offer,) = s.seats[0].pending
    assert (offer.kind, offer.shape, offer.colour) == ("active", "angle", "g")
    offered = small.actions(s, 0)
    assert offered[-1] == {"type": "decline"}
    drawings = [a for a in offered if a["type"] == "active_bond"]
    assert drawings and all(len(a["lines"]) == 2 for a in drawings)
    # no "free floating" for the active bond: every drawing touches the formula's bonds
    f = small.rules.formula(s, 0)
    anchors = f.anchors(s.seats[0].lines)
    for a in drawings:
        mask = sum(1 << f.lattice.parse_edge(t) for t in a["lines"])
        assert f.lattice.vertex_mask(mask) & anchors
    s2 = small.apply(s, 0, drawings[0])
    assert s2.seats[0].lines.count("g") == s.seats[0].lines.count("g") + 2 and s2.seats[0].done


def test_an_active_bond_can_be_declined_but_not_taken_later(small):
    """"You can choose not to add this new bond to the formula, but you cannot add it later.\""""
    s = rolled(small, around_b2_b3(small), "angle", "no_connect", turn=3)
    s = small.apply(s, 0, bond("A3:SE", "B2:E"))
    s = small.apply(s, 0, {"type": "decline"})
    assert not s.seats[0].pending and s.seats[0].done
    with pytest.raises(IllegalAction):
        small.apply(s, 0, {"type": "decline"})


def test_an_active_molecule_showing_a_bond_offers_that_shape(small):
    """D4 shows an arc: closing it offers an arc, drawn with the same marker."""
    s = start(small)
    six = hex_lines(small, s, 0, "D4")
    s = painted(small, s, 0, " ".join(six[:4]), "b")
    s = rolled(small, s, "angle", "twice", turn=1)
    s = small.apply(s, 0, bond(*six[4:]))
    offer = s.seats[0].pending[0]
    assert (offer.shape, offer.colour) == ("arc", "r")
    assert {len(a["lines"]) for a in small.actions(s, 0) if a["type"] == "active_bond"} == {3}


def test_an_active_molecule_closed_by_a_free_bond_offers_another_free_bond(small):
    """"If you create this active molecule with a free bond, you can draw
    another free bond": x2 closed by a free bond copies a single line."""
    s = start(small)
    for h in ("A3", "A4", "B1"):  # a full column: one free bond
        six = hex_lines(small, s, 0, h)
        s = painted(small, s, 0, " ".join(six[:5]), "y")
        s = painted(small, s, 0, six[5], "r")
    b2 = [t for t in hex_lines(small, s, 0, "B2") if t != "B2:SE"]
    missing = [t for t in b2 if s.seats[0].lines[small.rules.formula(s, 0).lattice.parse_edge(t)] == "."]
    s = painted(small, s, 0, " ".join(missing[1:]), "b")
    s = rolled(small, s, "arc", "twice", turn=2)
    s = small.apply(s, 0, {"type": "free_bond", "line": missing[0], "colour": "blue"})
    offer = s.seats[0].pending[0]
    assert (offer.hexagon, offer.shape, offer.colour) == (small.rules.formula(s, 0).lattice.hex_index("B2"), "line", "b")
    assert {len(a["lines"]) for a in small.actions(s, 0) if a["type"] == "active_bond"} == {1}


def test_one_line_can_close_two_hexagons_at_once(small):
    s = start(small)
    shared = "B3:E"  # between B3 and B4
    for h in ("B3", "B4"):
        s = painted(small, s, 0, " ".join(t for t in hex_lines(small, s, 0, h) if t != shared and t != "B3:SW"), "g")
    s = rolled(small, s, "angle", "remove_line", turn=1)
    s = small.apply(s, 0, bond(shared))
    labels = sorted(small.rules.formula(s, 0).lattice.hex_label(m.hexagon) for m in s.seats[0].molecules)
    assert labels == ["B3", "B4"]
    small.check(s)


def test_lines_of_helper_reads_actions():
    assert lines_of(bond("A1:E")) == {"A1:E"}


def test_a_printed_line_closes_a_hexagon_but_has_no_colour_and_anchors_nothing(small):
    """Rules for Synthesis 6 calls the thin black lines printed on the board
    existing bonds: they close hexagons like any line, but belong to no
    marker, and they are not "previously added bonds" to connect to (4)."""
    s = start(small)
    c5 = hex_lines(small, s, 0, "C5")
    assert "C5:SE" in c5
    s = painted(small, s, 0, " ".join(t for t in c5 if t not in ("C5:SE", "C5:E")), "b")
    with pytest.raises(IllegalAction, match="must touch your bonds or the starting molecule"):
        small.apply(rolled(small, start(small), "angle", "twice"), 0, bond("D4:E", "D4:SE"))  # beside C5:SE only
    s = small.apply(rolled(small, s, "angle", "remove_line", turn=1), 0, bond("C5:E"))
    (m,) = s.seats[0].molecules
    assert (small.rules.formula(s, 0).lattice.hex_label(m.hexagon), m.colour, m.volume) == ("C5", "r", 1)
