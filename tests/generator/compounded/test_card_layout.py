"""The parts of every compound and Lab Partner card, read back from the SVG
the build draws (issue 20, prepress): flame tokens fit the flame slots and
stacked tokens never overlap; the element spots are one size across both
decks and stay inside the safe zone; the element spots, the bonus box, the
flame slots and the claim spots never cut into one another.

Each part is a group labelled in the templates ("flame slot", "elements",
"bonus", "claim spot"); its shapes are circles and rectangles.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations

import pytest
from lxml import etree

from generator import components as comp
from generator.printable import load
from labkit import registry

SVG = "{http://www.w3.org/2000/svg}"
SAFE = 3.0
PARTS = ("flame slot", "elements", "bonus", "claim spot")
DECKS = ("compound-cards", "lab-partner-cards")


@lru_cache(maxsize=1)
def printable():
    return load(registry.games()["compounded"])


@lru_cache(maxsize=1)
def cards() -> tuple[tuple[str, str, tuple[float, float], etree._Element], ...]:
    """(deck, card id, trim, front) of every compound and Lab Partner card but the Lab Fires."""
    p = printable()
    out = []
    for deck in DECKS:
        component = p.manifest.component(deck)
        seen = set()
        for piece in comp.pieces(component, p.cardset, bleed=0.0, ink_saver=False).pieces:
            if piece.key in seen or "lab-fire" in piece.key:
                continue
            seen.add(piece.key)
            out.append((deck, piece.key.split("/", 1)[1], piece.size, etree.fromstring(piece.front.svg.encode())))
    return tuple(out)


def shapes(svg: etree._Element, label: str) -> list[tuple[str, tuple[float, ...]]]:
    """("circle", (cx, cy, r)) or ("rect", (x0, y0, x1, y1)) of every shape in the part's groups."""
    out = []
    for g in svg.iter(f"{SVG}g"):
        if g.get("aria-label") != label:
            continue
        for s in g.iter(f"{SVG}circle"):
            out.append(("circle", (float(s.get("cx")), float(s.get("cy")), float(s.get("r")))))
        for s in g.iter(f"{SVG}rect"):
            x, y = float(s.get("x")), float(s.get("y"))
            out.append(("rect", (x, y, x + float(s.get("width")), y + float(s.get("height")))))
    return out


def bounds(shape) -> tuple[float, float, float, float]:
    kind, v = shape
    if kind == "circle":
        cx, cy, r = v
        return (cx - r, cy - r, cx + r, cy + r)
    return v


def meet(a, b) -> bool:
    """Whether two shapes overlap (circles as circles, rectangles as boxes)."""
    if a[0] == b[0] == "circle":
        return math.dist(a[1][:2], b[1][:2]) < a[1][2] + b[1][2] - 1e-6
    if b[0] == "circle":
        a, b = b, a
    if a[0] == "circle":  # circle against a box: the box's nearest point to the centre
        cx, cy, r = a[1]
        x0, y0, x1, y1 = b[1]
        return math.dist((cx, cy), (min(max(cx, x0), x1), min(max(cy, y0), y1))) < r - 1e-6
    ax0, ay0, ax1, ay1 = a[1]
    bx0, by0, bx1, by1 = b[1]
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def test_the_cards_have_their_parts():
    found = {label for _, _, _, svg in cards() for label in PARTS if shapes(svg, label)}
    assert found == set(PARTS)


def test_every_flame_token_fits_its_slot_and_stacked_tokens_never_touch():
    token = printable().manifest.component("flame-tokens").trim
    assert token[0] == token[1], "a flame token is round"
    d = token[0]
    slotted = 0
    for deck, card, _, svg in cards():
        slots = [v for _, v in shapes(svg, "flame slot")]
        for cx, cy, r in slots:
            # the token lies inside the slot's drawn circle, with at most 1 mm to spare round it
            assert d <= 2 * r and 2 * r - d <= 1.0, (deck, card, d, 2 * r)
        for (ax, ay, _), (bx, by, _) in zip(slots, slots[1:]):
            assert math.dist((ax, ay), (bx, by)) >= d + 0.5, (deck, card, "tokens in neighbouring slots touch")
        for a, b in combinations(slots, 2):
            assert math.dist(a[:2], b[:2]) >= a[2] + b[2], (deck, card, "slots overlap")
        slotted += bool(slots)
    assert slotted > 20


def test_element_spots_are_one_size_across_both_decks():
    radii = {round(v[2], 3) for _, _, _, svg in cards() for _, v in shapes(svg, "elements")}
    assert len(radii) == 1, radii


def test_no_two_parts_of_a_card_cut_into_each_other_and_all_stay_in_the_safe_zone():
    problems = []
    for deck, card, (w, h), svg in cards():
        parts = {label: shapes(svg, label) for label in PARTS}
        for (la, sa), (lb, sb) in combinations(parts.items(), 2):
            for a in sa:
                for b in sb:
                    if meet(a, b):
                        problems.append(f"{deck}/{card}: a {la} cuts into a {lb}: {a} {b}")
        for label in ("elements", "claim spot", "flame slot"):
            for s in parts[label]:
                x0, y0, x1, y1 = bounds(s)
                if min(x0, y0, w - x1, h - y1) < SAFE - 0.05:
                    problems.append(f"{deck}/{card}: a {label} leaves the {SAFE:g} mm safe zone: {s}")
        spots = parts["elements"]
        for a, b in combinations(spots, 2):
            if meet(a, b):
                problems.append(f"{deck}/{card}: two element spots overlap")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("deck,rows", [("compound-cards", 2), ("lab-partner-cards", 2)])
def test_element_spots_take_no_more_rows_than_the_layout_leaves_room_for(deck, rows):
    """Two rows at most: the card with the most elements still ends inside the safe zone."""
    for d, card, _, svg in cards():
        if d != deck:
            continue
        ys = {round(v[1], 2) for _, v in shapes(svg, "elements")}
        assert len(ys) <= rows, (card, sorted(ys))


def test_the_ink_saver_lab_fire_bonus_is_an_outlined_flame_not_a_yellow_drop():
    """In the ink saver the Lab Fire bonus was a white flame on white with
    its yellow inner tongue alone: a yellow drop, like the LIQUID droplet.
    It is now the whole flame in solid ink with a white inner tongue."""
    p = printable()
    component = p.manifest.component("compound-cards")
    ink = "#1d2430"
    drawn = comp.pieces(component, p.cardset, bleed=0.0, ink_saver=True).pieces
    fires = [piece for piece in drawn if p.cardset.cards.compounds.get(piece.key.split("/", 1)[1]) is not None
             and p.cardset.cards.compounds[piece.key.split("/", 1)[1]].reward == "lab_fire"]
    assert fires
    for piece in fires:
        svg = etree.fromstring(piece.front.svg.encode())
        assert "#ffd34d" not in piece.front.svg, piece.key
        glyphs = [g for g in svg.iter(f"{SVG}g") if g.get("stroke") == ink and g.get("stroke-linejoin") == "round"]
        paths = [path for g in glyphs for path in g.iter(f"{SVG}path")]
        assert any(path.get("fill") == ink and path.get("stroke") == ink for path in paths), piece.key
        assert any(path.get("fill") == "#ffffff" for path in paths), piece.key
