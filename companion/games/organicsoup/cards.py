"""Recipe cards as a phone shows them: name, level, formula, the atom cards
one molecule takes, and the drawing the printed card has (the engine lays
it out once, :meth:`engine.organicsoup.game.OrganicSoup.drawing`). Each
card is worked out once per card set and process, and so is its HTML: a
card face is printed, the same on every phone all game long, and drawing
the faces (their molecules' SVG) for every phone at every version was most
of the board's work (profiled: over 40% of a move's CPU)."""

from __future__ import annotations

import re
import weakref
from typing import Any

from markupsafe import Markup

from engine.chem import ELEMENT_NAMES, element
from engine.organicsoup.atoms import ELEMENTS
from engine.organicsoup.cards import LEVEL_NAMES, LEVELS
from companion.plugins import macros

PIPS = {level: i + 1 for i, level in enumerate(LEVELS)}
"""A level's rank in pips, one to four: the level reads by shape as well as colour."""
R = 0.3
"""An atom's radius, in bond lengths (as on the printed card)."""
LABEL_SIZE = 0.46
"""An atom's letters, in bond lengths (``svg.molecule text`` in organicsoup.css):
larger against the bonds than on the printed card, to read on a phone."""
LABEL_EM = {"C": 0.734, "H": 0.837, "N": 0.837, "O": 0.850, **{d: 0.696 for d in "0123456789"}}
"""Advance widths in ems of DejaVu Sans Bold, the widest of the fonts a
phone draws the label in (Debian's; Roboto and San Francisco are narrower),
so a pill sized by them holds its label on every phone. Checked against the
font file itself (tests/companion/organicsoup/test_cards.py); a character
not here counts as a whole em."""
PILL_PAD = 0.06
"""Room between a label's ends and its pill's rounded ends, in bond lengths."""

# Per game's rules, and gone with them (a custom card set's rules are let go
# when no table uses them: companion.card_sets): by recipe id, and by (id, big).
_cache: "weakref.WeakKeyDictionary[Any, dict[str, dict[str, Any]]]" = weakref.WeakKeyDictionary()
_faces: "weakref.WeakKeyDictionary[Any, dict[tuple[str, bool], Markup]]" = weakref.WeakKeyDictionary()


def _of(shelf: "weakref.WeakKeyDictionary[Any, dict]", game: Any) -> dict:
    found = shelf.get(game)
    return found if found is not None else shelf.setdefault(game, {})


def formula_runs(text: str) -> list[tuple[str, bool]]:
    """``"C3H8"`` as runs of letters and of subscript digits."""
    return [(m.group(0), m.group(0).isdigit()) for m in re.finditer(r"\d+|\D+", text or "")]


def label_width(label: str) -> float:
    """``label`` (``CH2``: the phone sets its digit as large as its letters) as wide as it is drawn, in bond lengths."""
    return LABEL_SIZE * sum(LABEL_EM.get(ch, 1.0) for ch in label)


def structure(layout: Any) -> dict[str, Any]:
    """A molecule for a small SVG, in bond lengths with a margin: each atom
    a disc, or a pill as wide as its label (``CH2``), in its element's colour.
    (The pills were once as wide as a guess, narrower than their labels:
    "OH" and "NH2" lost their ends.)"""
    halves = [max(R, label_width(a.label) / 2 + PILL_PAD) if a.hydrogens else R for a in layout.atoms]
    mx, my = 0.55 + max(halves) - R, 0.55
    atoms = []
    for i, (a, half) in enumerate(zip(layout.atoms, halves)):
        el = element(a.element)
        dx, dy = layout.charge_side(i) if a.charge else (0.0, 0.0)
        atoms.append({"x": round(a.x + mx, 3), "y": round(a.y + my, 3), "half": round(half, 3),
                      "left": round(a.x + mx - half, 3), "top": round(a.y + my - R, 3),
                      "runs": formula_runs(a.label), "fill": el.fill, "ink": el.ink, "stroke": el.stroke,
                      "name": ELEMENT_NAMES.get(a.element, a.element), "charge": a.charge_text,
                      # beside the atom on the side its bonds leave free
                      "charge_x": round(a.x + mx + dx * (half + R * 0.5), 3),
                      "charge_y": round(a.y + my + dy * R * 1.4 + R * 0.3, 3)})
    lines = [{"x1": round(x1 + mx, 3), "y1": round(y1 + my, 3), "x2": round(x2 + mx, 3), "y2": round(y2 + my, 3)}
             for x1, y1, x2, y2 in layout.lines(0.12, 0.2)]
    return {"atoms": atoms, "lines": lines, "width": round(layout.width + 2 * mx, 3),
            "height": round(layout.height + 2 * my, 3), "r": R}


def recipe_card(game: Any, recipe_id: str) -> dict[str, Any]:
    """Everything a phone draws for one recipe card."""
    cards = _of(_cache, game)
    if recipe_id not in cards:
        r = game.cards.recipe(recipe_id)
        cards[recipe_id] = {
            "id": r.id, "name": r.name, "level": r.level, "level_name": LEVEL_NAMES[r.level], "pips": PIPS[r.level],
            "formula": r.formula, "formula_runs": formula_runs(r.formula), "fact": r.fact,
            "counts": [{"element": e, "name": ELEMENT_NAMES[e], "n": r.counts[e]} for e in ELEMENTS if r.counts.get(e)],
            "structure": structure(game.drawing(r)),
        }
    return cards[recipe_id]


def face(game: Any, recipe_id: str, big: bool = False) -> Markup:
    """A recipe card as the ``recipe`` macro draws it (``big``: the hand's
    larger molecule). Which cards a phone shows is up to its page (a hand
    is its owner's alone); the face itself is public."""
    faces = _of(_faces, game)
    html = faces.get((recipe_id, big))
    if html is None:   # two threads may draw the same face at once: both get the same text
        macro = macros("organicsoup/_recipe.html").recipe
        html = faces[(recipe_id, big)] = Markup(macro(recipe_card(game, recipe_id), big=big))
    return html
