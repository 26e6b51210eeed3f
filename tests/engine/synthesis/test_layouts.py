"""The 24 board layouts play: each formula holds together around S, every
icon can be closed, and a broken layout is reported with its file and line."""

from __future__ import annotations

import pytest

from engine.data import CardFiles, DataError
from engine.synthesis.cards import parse
from engine.synthesis.layout import check_layout, geometry, reachable_edges
from engine.synthesis.scoring import Goals, score
from tests.engine.synthesis.conftest import data_files, real_cards
from tests.rulebook import follows

CARDS = real_cards()
LAYOUTS = sorted(CARDS.layouts)


@pytest.mark.parametrize("key", LAYOUTS, ids=lambda k: f"{k[0]}{k[1]}")
def test_every_layout_is_playable(key):
    lay = CARDS.layouts[key]
    lat = lay.lattice
    assert check_layout(lay, tuple(CARDS.rules.elemental_shapes), tuple(CARDS.bonds)) == []
    assert lat.connected_hexes()
    assert 0 <= lay.start < len(lat.hexes)
    reach = reachable_edges(lay)
    for h in set(lay.active) | set(lay.elemental):
        assert all(reach >> e & 1 or lay.fixed >> e & 1 for e in lat.hex_edges[h])
    # side A: three elemental pairs and a few printed lines; side B: four pairs, more lines
    pairs = 3 if key[1] == "A" else 4
    assert len(lay.pairs) == pairs and len(lay.elemental) == 2 * pairs
    assert lay.table.heights == ((5, 6, 6, 6, 4, 3) if key[1] == "A" else (4, 6, 7, 7, 4, 2))
    assert 35 <= len(lat.hexes) <= 45


def test_side_b_prints_more_lines_than_side_a():
    for board in "ABCDEFGHIJKL":
        a, b = CARDS.layouts[(board, "A")], CARDS.layouts[(board, "B")]
        assert bin(a.printed).count("1") < bin(b.printed).count("1")


def test_geometry_gives_the_printer_and_the_phones_every_hexagon_and_line():
    lay = CARDS.layouts[("A", "A")]
    g = geometry(lay)
    assert len(g["hexagons"]) == len(lay.lattice.hexes) and len(g["lines"]) == len(lay.lattice.edges)
    assert sum(h["kind"] == "start" for h in g["hexagons"]) == 1
    assert sum(e["printed"] for e in g["lines"]) == bin(lay.printed).count("1")
    assert g["table"] == [5, 6, 6, 6, 4, 3] and g["pairs"] == list(lay.pairs)


def layout_line(text: str, board: str, side: str) -> int:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"- board: {board}" and lines[i + 1].strip() == f"side: {side}":
            return i + 1
    raise AssertionError("layout not found")


def broken_boards(edit) -> tuple[str, str]:
    files = data_files()
    text = files["boards.yaml"].decode()
    new = edit(text)
    assert new != text
    files["boards.yaml"] = new.encode()
    with pytest.raises(DataError) as err:
        parse(CardFiles(files, "cardsdata/synthesis"))
    return str(err.value), new


def first_layout(text: str) -> tuple[int, int]:
    start = text.index("  - board: A\n    side: A")
    return start, text.index("\n\n", start)


def test_an_icon_walled_off_by_printed_lines_is_reported_with_its_line():
    def edit(text):
        a, b = first_layout(text)
        block = text[a:b]
        lay = CARDS.layouts[("A", "A")]
        lat = lay.lattice
        h = min(lay.active)
        others = [lat.edge_labels[e] for e in lat.hex_edges[h] if not lay.printed >> e & 1]
        ring = set()
        for e in lat.hex_edges[h]:
            for v in lat.edge_vertices[e]:
                for f in range(len(lat.edges)):
                    if v in lat.edge_vertices[f] and f not in lat.hex_edges[h]:
                        ring.add(lat.edge_labels[f])
        old_lines = block[block.index("lines: ["):].split("\n")[0]
        new_lines = "lines: [" + ", ".join(sorted(ring - {lat.edge_labels[e] for e in lat.hex_edges[h]})) + "]"
        assert others
        return text[:a] + block.replace(old_lines, new_lines) + text[b:]
    message, text = broken_boards(edit)
    line = layout_line(text, "A", "A")
    assert f"boards.yaml:{line}: key 'layouts.0': board A side A: " in message
    assert "can never be closed" in message and "cannot be reached from S" in message


def test_a_formula_without_s_is_reported():
    def edit(text):
        a, b = first_layout(text)
        return text[:a] + text[a:b].replace(" S ", " o ", 1) + text[b:]
    message, text = broken_boards(edit)
    assert "board A side A: the formula has no starting molecule S" in message
    assert f"boards.yaml:{layout_line(text, 'A', 'A') + 2}:" in message  # the formula key's line


def test_a_formula_in_two_pieces_is_reported():
    def edit(text):
        a, b = first_layout(text)
        lines = text[a:b].split("\n")
        last = max(i for i, line in enumerate(lines) if line.startswith('      - "'))
        lines[last + 1:last + 1] = ['      - "."', '      - "' + ". " * 8 + 'o"']  # a hexagon far below
        return text[:a] + "\n".join(lines) + text[b:]
    message, _ = broken_boards(edit)
    assert "board A side A: the formula falls apart" in message


def test_an_elemental_molecule_beside_s_is_reported():
    lay = CARDS.layouts[("C", "A")]
    beside = lay.lattice.hex_label(lay.lattice.neighbours[lay.start][0])

    def edit(text):
        start = text.index("  - board: C\n    side: A")
        end = text.index("\n\n", start)
        block = text[start:end]
        old = block[block.index("elemental: {"):].split("\n")[0]
        first = old[len("elemental: {"):].split(",")[0]
        shape = first.split(":")[1].strip()
        new = old.replace(first, f"{beside}: {shape}")
        return text[:start] + block.replace(old, new) + text[end:]
    message, text = broken_boards(edit)
    assert f"boards.yaml:{layout_line(text, 'C', 'A')}: key 'layouts.4': board C side A: {beside}: " \
           f"an elemental molecule next to S could never be one colour" in message


def test_a_missing_side_and_a_duplicate_are_reported():
    def edit(text):
        return text.replace("  - board: L\n    side: B", "  - board: L\n    side: A")
    message, _ = broken_boards(edit)
    assert "board L side A again" in message and "board L has no side B" in message


def test_the_game_hands_out_a_sides_geometry(game):
    g = game.geometry("B", "B")
    assert g["board"] == "B" and g["side"] == "B" and g["table"] == [4, 6, 7, 7, 4, 2]


@follows("synthesis.md", "Fill an entire row or column in the volume table (with any combination of color types).",
         "When you complete a row or a column in the molecular volume table, you receive a free bond",
         "Each completed row or column earns 5 points.")
def test_no_row_of_a_volume_table_is_a_single_cell(game):
    """A row runs across the columns and holds "any combination of color
    types"; a row of one cell would be the top of its column, so the molecule
    completing the column would complete a row too: 5 points and a free bond
    twice for one molecule. Side B's table is 4, 6, 7, 7, 4, 2: its top row
    is two cells (volumes 3 and 4), and a full column 3 is one line done."""
    for lay in game.cards.layouts.values():
        assert all(len(lay.table.row_cells(r)) >= 2 for r in range(lay.table.rows)), (lay.board, lay.side)
    lay = game.cards.layouts[("A", "B")]
    column_3 = ["", "", "rgbyrgb", "", "", ""]
    lines = {x.key: x.points for x in score(game.cards.rules, game.cards.points, lay, column_3, {}, Goals()).lines}
    assert lines["lines"] == 5
    s = game.setup(1, 1, {"side": "B", "boards": ["A"]})
    assert game.rules.formula(s, 0).layout.table.complete_rows(column_3) == []


def test_a_table_with_a_row_of_one_cell_is_reported():
    def edit(text):
        a, b = first_layout(text)
        return text[:a] + text[a:b].replace("table: [5, 6, 6, 6, 4, 3]", "table: [5, 6, 7, 6, 4, 3]") + text[b:]
    message, text = broken_boards(edit)
    assert "board A side A: row 7 of the volume table is a single cell, which completing its column " \
           "completes too" in message
