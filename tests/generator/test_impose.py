"""Imposition geometry, for every card size and paper, with Hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from generator.geometry import CARD_SIZES, PAPERS, Rect
from generator.impose import layout


def seg_rect(s) -> Rect:
    return Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))


def check(lay):
    W, H = lay.page
    page = Rect(0, 0, W, H)
    for i, a in enumerate(lay.slots):
        assert page.contains(a.outer)
        for b in lay.slots[i + 1:]:
            assert not a.trim.intersects(b.trim)
            assert not a.outer.intersects(b.outer)
    for m in lay.marks:
        r = seg_rect(m)
        assert page.contains(r)
        for s in lay.slots:
            # A mark never touches any piece's drawn area (trim plus bleed).
            assert not s.outer.grow(0.01).intersects(r.grow(0.001)) or (r.w == 0 and r.h == 0)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
@pytest.mark.parametrize("style,bleed", [("grid", 0), ("bleed", 3), ("bleed", 5)])
def test_every_card_size_lays_out_cleanly(paper, size, style, bleed):
    lay = layout(paper, CARD_SIZES[size], style=style, bleed=bleed, duplex=True)
    assert lay.per_page >= 1
    assert not lay.landscape
    check(lay)


def test_guillotine_grid_nine_poker_cards():
    for paper in PAPERS:
        lay = layout(paper, CARD_SIZES["poker"], style="grid", duplex=True)
        assert (lay.cols, lay.rows, lay.rotated) == (3, 3, False)
        # Cards share cut lines: neighbours touch exactly.
        a, b = lay.slots[0], lay.slots[1]
        assert abs(a.trim.x2 - b.trim.x) < 1e-9


@given(w=st.floats(20, 150), h=st.floats(20, 200), bleed=st.sampled_from([0, 2, 3, 4]),
       style=st.sampled_from(["grid", "bleed", "loose"]), duplex=st.booleans(), paper=st.sampled_from(["a4", "letter"]))
@settings(max_examples=150, deadline=None)
def test_any_piece_size(w, h, bleed, style, duplex, paper):
    try:
        lay = layout(paper, (w, h), style=style, bleed=bleed, duplex=duplex)
    except ValueError:
        return  # too big for the paper: reported, not squeezed
    check(lay)
    if duplex and style != "loose":
        for s in lay.slots:
            back = lay.back(s)
            twice = lay.back(back).trim                 # mirroring twice is the identity
            assert abs(twice.x - s.trim.x) < 1e-9 and abs(twice.y - s.trim.y) < 1e-9
            assert abs((back.trim.x + back.trim.w / 2) - (lay.page[0] - (s.trim.x + s.trim.w / 2))) < 1e-9
            assert back.rotation == -s.rotation


def test_too_big_is_an_error():
    with pytest.raises(ValueError, match="does not fit"):
        layout("a4", (300, 400))


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("style,bleed", [("grid", 0), ("bleed", 3)])
def test_ganged_tokens_share_a_sheet_each_size_in_a_block_with_its_own_marks(paper, style, bleed):
    """Compounded's tokens (issue 20): 90 element and 40 scientist 15 mm tokens
    and 30 flame tokens of 8.5 mm; on one sheet in the grid style."""
    from generator.impose import gang

    sizes = [(15.0, 15.0)] * 130 + [(8.5, 8.5)] * 30
    pages = gang(paper, sizes, style=style, bleed=bleed)
    assert sum(p.per_page for p in pages) == 160
    assert [s.trim.w for p in pages for s in p.slots] == [w for w, _ in sizes]  # in order
    if style == "grid":
        assert len(pages) == 1
    for lay in pages:
        check(lay)
        W, H = lay.page
        margin = 5.0  # nothing where a home printer cannot print
        assert all(margin <= s.outer.x and s.outer.x2 <= W - margin and margin <= s.outer.y
                   and s.outer.y2 <= H - margin for s in lay.slots)
        # every cut line of every piece has a mark: each slot's edges are extended outside its block
        xs = {round(m.x1, 3) for m in lay.marks if m.x1 == m.x2}
        assert all(round(s.trim.x, 3) in xs and round(s.trim.x2, 3) in xs for s in lay.slots)


@given(st.lists(st.sampled_from([(15.0, 15.0), (8.5, 8.5), (30.0, 20.0), (63.0, 88.0)]), min_size=1, max_size=120))
@settings(max_examples=40, deadline=None)
def test_any_mix_of_sizes_gangs_cleanly(sizes):
    from generator.impose import gang

    pages = gang("a4", sizes)
    assert sum(p.per_page for p in pages) == len(sizes)
    for lay in pages:
        check(lay)
