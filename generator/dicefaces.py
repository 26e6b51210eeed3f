"""A paper die's six faces, cut from its net's render: for a shop's custom
die (one picture per face) and for a virtual table's custom die (the six
faces on one picture, where Tabletop Simulator's die template puts them).

A die's faces are numbered as a standard die's, 1 to 6 with 1-6, 2-5 and
3-4 opposite, so that the faces opposite on the paper net (0-4, 1-3 and
2-5 of ``die_net``) stay opposite on a bought die and a virtual one.

>>> [STANDARD_ORDER[v] for v in range(6)]   # the net's face shown as 1, 2, ... 6
[0, 1, 2, 5, 3, 4]
"""

from __future__ import annotations

from generator.components import DIE_TAB
from generator.drawing_helpers import die_net
from generator.oneup import DRAWN_BLEED

STANDARD_ORDER = (0, 1, 2, 5, 3, 4)
"""The net's face (data order) that shows each value 1..6 (index 0..5): 1
and 6 are the net's 0 and 4, 2 and 5 its 1 and 3, 3 and 4 its 2 and 5."""

TTS_CELLS = {1: (0, 2), 2: (0, 1), 3: (1, 2), 4: (1, 1), 5: (2, 1), 6: (2, 2)}
"""Where each value's face goes on Tabletop Simulator's six-sided die
picture, a 3 x 3 grid (column, row; the top row is not used), as its own
die template (Modding/Dice Templates) lays them out."""
TTS_CELL = 512
"""Pixels a side of each face on the virtual die's picture."""
TTS_TURNED = (1, 6)
"""Values whose face the template shows upside down."""
TTS_ROTATIONS = {1: (-90, 0, 0), 2: (0, 0, 0), 3: (0, 0, -90), 4: (0, 0, 90), 5: (0, 0, 180), 6: (90, 0, 0)}
"""The die's rotation (x, y, z degrees) that shows each value on top: a
quarter turn about x for 1 and 6, about z for 3 and 4, a half turn for 5."""


def face_mm(net_size: tuple[float, float]) -> float:
    """A die's face from the size of its net (three faces wide)."""
    return net_size[0] / 3


FOLD_MM = 0.35
"""The net's fold and cut lines run along a face's edges: a face is taken
this far inside them (a bought or virtual die has its own edges)."""


def faces(render, net_size: tuple[float, float], ppm: float) -> list:
    """The six faces (PIL images, in data order) of a net rendered with
    :data:`DRAWN_BLEED` round it at ``ppm``, each as many pixels a side as
    the face is at ``ppm``."""
    from PIL import Image

    f = face_mm(net_size)
    geo = die_net(f, DIE_TAB * f)
    side = round(f * ppm)
    out = []
    for x, y in geo["faces"]:
        box = [(DRAWN_BLEED + v + d) * ppm for v, d in ((x, FOLD_MM), (y, FOLD_MM), (x, f - FOLD_MM), (y, f - FOLD_MM))]
        out.append(render.resize((side, side), Image.LANCZOS, box=tuple(box)))
    return out


def in_standard_order(items: list) -> list:
    """The net's faces (or face codes) as values 1 to 6."""
    return [items[i] for i in STANDARD_ORDER]


def tts_picture(face_images: list, cell: int = TTS_CELL):
    """Tabletop Simulator's picture of a six-sided die from its faces in data order."""
    from PIL import Image

    sheet = Image.new("RGB", (3 * cell, 3 * cell), "white")
    for value, face in enumerate(in_standard_order(face_images), 1):
        im = face.convert("RGB").resize((cell, cell), Image.LANCZOS, reducing_gap=2.0)
        if value in TTS_TURNED:
            im = im.rotate(180)
        col, row = TTS_CELLS[value]
        sheet.paste(im, (col * cell, row * cell))
    return sheet
