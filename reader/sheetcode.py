"""The small QR code on a readable sheet: it names the game, the component,
the piece, its side and the paper it was printed on, as
``LABKIT/MYGAME/BOARDS/C/A/A4`` (QR's alphanumeric mode: capitals,
digits and ``/-``; version 2, medium error correction, so every code of
every sheet has the same 25 modules and fits the same printed square).

The face's template draws it with ``ANY`` for the paper (the face is one
drawing for A4 and Letter); each PDF stamps its own paper in
(:func:`with_paper`). The reader decodes it from the rectified sheet,
where it knows the code's square to the millimetre.

>>> code = SheetCode.parse("LABKIT/MYGAME/BOARDS/C/A/A4")
>>> code.game, code.piece, code.side, code.paper
('mygame', 'c', 'A', 'a4')
>>> SheetCode.parse("LABKIT/MYGAME/SHEETS/-/-/ANY").text
'LABKIT/MYGAME/SHEETS/-/-/ANY'
>>> with_paper("LABKIT/MYGAME/SHEETS/-/-/ANY", "letter")
'LABKIT/MYGAME/SHEETS/-/-/LETTER'
>>> len(modules("LABKIT/MYGAME/BOARDS/C/A/ANY"))
25
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

PREFIX = "LABKIT"
ANY_PAPER = "ANY"
VERSION = 2
QUIET = 2
"""Modules of white round the code that the printed square keeps (the
standard asks 4; decoding a rectified crop needs less)."""
_TEXT = re.compile(r"LABKIT/([A-Z0-9-]+)/([A-Z0-9-]+)/([A-Z0-9-]+)/([A-Z0-9-]+)/([A-Z0-9]+)")


@dataclass(frozen=True)
class SheetCode:
    game: str
    component: str
    piece: str
    """The piece's id (``c``: board C), or ``-`` for a component of one design."""
    side: str
    """As the game names its sides (``A``, ``B``), or ``-``."""
    paper: str
    """``a4``, ``letter``, or ``any`` (a face not printed through a PDF)."""

    @property
    def text(self) -> str:
        return "/".join((PREFIX, self.game.upper(), self.component.upper(), self.piece.upper(), self.side.upper(),
                         self.paper.upper()))

    @staticmethod
    def parse(text: str) -> "SheetCode":
        m = _TEXT.fullmatch(text.strip())
        if m is None:
            raise ValueError(f"not a labkit sheet code: {text[:60]!r}")
        game, component, piece, side, paper = m.groups()
        return SheetCode(game.lower(), component.lower(), piece.lower(), side, paper.lower())


def payload(game: str, component: str, piece: str = "-", side: str = "-") -> str:
    """A face's code before a paper is stamped in."""
    text = SheetCode(game, component, piece or "-", side or "-", ANY_PAPER).text
    modules(text)   # raises if it does not fit the fixed version
    return text


def with_paper(text: str, paper: str) -> str:
    code = SheetCode.parse(text)
    return SheetCode(code.game, code.component, code.piece, code.side, paper).text


def modules(text: str) -> list[str]:
    """The code's dark (``1``) and light (``0``) modules, row by row, without the quiet zone."""
    import segno

    try:
        qr = segno.make(text, error="m", version=VERSION, micro=False, boost_error=False)
    except segno.DataOverflowError:
        raise ValueError(f"{text!r} is too long for a version {VERSION} code") from None
    return ["".join("1" if v & 1 else "0" for v in row) for row in qr.matrix]


def decode(gray: np.ndarray) -> str | None:
    """The text of the one code in a grey picture of it (its square and quiet
    zone, upright), or None when it cannot be read."""
    import cv2

    detector = cv2.QRCodeDetector()
    for picture in (gray, cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]):
        padded = cv2.copyMakeBorder(picture, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
        text, points, _ = detector.detectAndDecode(padded)
        if text:
            return text
    return None
