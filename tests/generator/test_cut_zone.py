"""Every graphic a cut could touch keeps 3 mm inside the trim (issue 39):
each distinct front of every component of every game, drawn as a shop gets
it (the 1-up PDF, no cut guides), rendered by PDFium and measured pixel by
pixel (generator/cutzone.py). Text keeps its 3 mm already
(test_type_on_faces.py); this is the rest: badges, frames, rules, pips."""

from __future__ import annotations

import numpy as np
import pytest

from generator import components as comp
from generator import cutzone, oneup
from generator.printable import load
from labkit import registry

RESHAPED_ELSEWHERE = {("labnotes", "note-sheets"), ("synthesis", "boards")}
"""Sheets whose layout issue 40 reshapes (fiducial markers and a QR code for
reading a photo of them): measured there, not here."""


def _measured_components():
    for game in registry.games().values():
        if game.name not in ("labnotes", "synthesis", "compounded", "organicsoup"):
            continue
        printable = load(game)
        for c in printable.components():
            if c.kind == "dice" or c.cut == "outline" or (game.name, c.id) in RESHAPED_ELSEWHERE:
                continue
            yield printable, c


def test_no_front_has_graphics_within_3_mm_of_its_cut():
    measured = 0
    problems = []
    for printable, component in _measured_components():
        pieces = comp.pieces(component, printable.cardset, bleed=oneup.DRAWN_BLEED, ink_saver=False,
                             cut_guides=False).pieces
        measured += len({p.front.digest for p in pieces})
        problems += [f"{printable.game.name} {key}: " + ", ".join(f"{f.edge} {f.mm} mm" for f in found)
                     for key, found in cutzone.measured(component, pieces)]
    assert measured >= 230   # every card, token, tile and board front of the four games
    assert not problems, "graphics in the cut zone:\n" + "\n".join(problems)


@pytest.mark.parametrize("inset_mm, found", [(3.5, False), (2.5, True), (1.0, True)])
def test_the_measure_finds_a_badge_by_how_far_it_is_from_the_cut(inset_mm, found):
    """A 63 x 88 card with 4 mm of plain art round it, a dark 5 mm badge
    ``inset_mm`` from the top right corner: in the zone under 3 mm, clear beyond."""
    ppm = 6.0
    w, h, bleed = 63.0, 88.0, 4.0
    a = np.full((round((h + 2 * bleed) * ppm), round((w + 2 * bleed) * ppm), 3), 240, np.uint8)
    x1 = round((bleed + w - inset_mm) * ppm)
    y0 = round((bleed + inset_mm) * ppm)
    a[y0:y0 + 30, x1 - 30:x1] = 30
    result = cutzone.findings(a, (w, h), ppm, bleed=bleed)
    assert bool(result) is found
    if found:
        assert {f.edge for f in result} == {"top", "right"}
        assert min(f.mm for f in result) == pytest.approx(inset_mm, abs=0.2)


def test_art_that_runs_into_the_bleed_is_not_a_graphic_in_the_cut_zone():
    """A header band running off the top and a stripe running off the side
    are cut through whatever the cut does: not findings; a frame is."""
    ppm = 6.0
    w, h, bleed = 63.0, 88.0, 4.0
    a = np.full((round((h + 2 * bleed) * ppm), round((w + 2 * bleed) * ppm), 3), 240, np.uint8)
    a[: round((bleed + 12) * ppm)] = (200, 40, 30)            # header band into the bleed
    a[300:330, :] = (40, 90, 200)                             # a stripe across the card and its bleed
    assert cutzone.findings(a, (w, h), ppm, bleed=bleed) == []
    m, top = round((bleed + 1.5) * ppm), round((bleed + 12) * ppm)
    a[top:-top, m] = 0                                        # a rule 1.5 mm inside the left edge
    assert [f.edge for f in cutzone.findings(a, (w, h), ppm, bleed=bleed)] == ["left"]


def test_round_pieces_are_measured_along_their_radius():
    ppm = 6.0
    d, bleed = 40.0, 4.0
    side = round((d + 2 * bleed) * ppm)
    yy, xx = np.mgrid[0:side, 0:side]
    rho = np.hypot(xx + 0.5 - side / 2, yy + 0.5 - side / 2) / ppm
    a = np.full((side, side, 3), 255, np.uint8)
    a[rho < d / 2 + bleed] = (20, 110, 110)                   # the token's colour runs into the bleed
    assert cutzone.findings(a, (d, d), ppm, bleed=bleed, round_piece=True) == []
    a[(rho > d / 2 - 2.0) & (rho < d / 2 - 1.6)] = 255        # a ring 1.6-2 mm inside the cut
    found = cutzone.findings(a, (d, d), ppm, bleed=bleed, round_piece=True)
    assert [f.edge for f in found] == ["circle"] and found[0].mm == pytest.approx(1.6, abs=0.25)
