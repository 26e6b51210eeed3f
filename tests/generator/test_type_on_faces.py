"""The type on every printed face of every game (issue 20, prepress), read
back from the SVG the build draws, with every transform applied: at least
6 pt, and inside the safe zone (3 mm from the trim, or the component's own
``safe_zone`` in game.yaml, which must say why); on a round piece, inside
its circle. ``labkit validate`` and ``labkit build`` report a face that
breaks either, by the data's file, line and column where the text is data.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pytest

from generator import components as comp
from generator import facecheck
from generator.printable import load
from labkit import registry


@lru_cache(maxsize=2)
def faces(ink_saver: bool) -> tuple:
    """(game, component, face name, trim, svg) of every distinct face, backs and rules sheets included."""
    out = []
    for name, game in sorted(registry.games().items()):
        printable = load(game)
        for component in printable.components():
            seen = set()
            for piece in comp.pieces(component, printable.cardset, bleed=0.0, ink_saver=ink_saver).pieces:
                for face in (piece.front, piece.back):
                    if face is not None and face.name not in seen:
                        seen.add(face.name)
                        out.append((name, component, face.name, piece.size, face.svg))
    return tuple(out)


def test_every_game_and_every_kind_of_piece_is_read():
    found = faces(False)
    assert {g for g, *_ in found} == set(registry.games())
    assert {c.kind for _, c, *_ in found} == {"deck", "sheet", "dice", "token", "board"}
    assert len(found) > 450
    assert sum(len(facecheck.texts(svg)) for *_, svg in found) > 8_000


@pytest.mark.parametrize("ink_saver", [False, True], ids=["colour", "ink-saver"])
def test_no_type_under_6_pt_on_any_face(ink_saver):
    small = [f"{g} {face}: {t.text!r} {t.points:.1f} pt" for g, _, face, _, svg in faces(ink_saver)
             for t in facecheck.texts(svg) if t.points < facecheck.MIN_PT - 0.05]
    assert not small, "\n".join(small[:30])


@pytest.mark.parametrize("ink_saver", [False, True], ids=["colour", "ink-saver"])
def test_all_text_stays_in_the_safe_zone_of_every_face(ink_saver):
    out = []
    for g, component, face, (w, h), svg in faces(ink_saver):
        safe = component.safe_zone.mm if component.safe_zone else facecheck.SAFE_MM
        for t in facecheck.texts(svg):
            room = facecheck.clearance(t, w, h, component.shape == "round")
            if room < safe - 0.01:
                out.append(f"{g} {face}: {t.text!r} {room:.2f} mm from the edge (safe zone {safe} mm)")
    assert not out, "\n".join(out[:30])


def test_a_smaller_safe_zone_is_data_that_says_why_and_only_where_3_mm_cannot_fit():
    """Only small pieces (under 20 mm a side, or a die net's faces) may keep text nearer their edge."""
    named = []
    for name, game in sorted(registry.games().items()):
        for component in load(game).components():
            zone = component.safe_zone
            if zone is None:
                continue
            named.append((name, component.id))
            assert zone.mm < facecheck.SAFE_MM and len(zone.why.split()) >= 8, (name, component.id)
            assert component.kind == "dice" or min(component.trim) < 20, (name, component.id)
    assert ("compounded", "element-tokens") in named


def test_type_is_measured_through_transforms():
    """A rotated and scaled label is measured as printed: its size on paper, its turned box."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">'
           '<g transform="rotate(90 20 20)"><g transform="scale(0.5)">'
           '<text x="40" y="10" font-size="4" text-anchor="middle">MOLECULE</text></g></g></svg>')
    (t,) = facecheck.texts(svg)
    assert math.isclose(t.size, 2.0) and t.points < facecheck.MIN_PT
    x0, y0, x1, y1 = t.box
    assert x1 - x0 < y1 - y0  # turned upright: taller than wide
    assert math.isclose(x1, 40 - 5 + 0.73 * 2, abs_tol=0.01)  # the cap height, turned, 5 mm left of x=40
    found = facecheck.findings(svg, 40, 40)
    assert [f.message.split(" (")[0] for f in found] == ["the text 'MOLECULE' is 5.7 pt"]
