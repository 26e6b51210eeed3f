"""The fiducial markers printed at a readable sheet's corners: ArUco markers
of OpenCV's 4x4 dictionary of 50, drawn by the printer from their bits and
found in a photo by OpenCV's detector.

A game's ``game.yaml`` gives each readable component its first marker id
(``markers: 8``): the front of a piece carries ids ``first`` to
``first + 3`` (top left, top right, bottom right, bottom left), its back
the next four. A marker alone therefore says which game's sheet, and which
side, a photo shows, even when the rest of the sheet is cut off.

OpenCV's ArUco interface moved between 4.6, 4.7 and 5.x (the detector
became a class): the version is pinned in ``pyproject.toml``.

>>> bits(3)
['000000', '010010', '010010', '001000', '001100', '000000']
>>> corner_of(9, 8), corner_of(13, 8), corner_of(7, 8)
((0, 'top right'), (1, 'top right'), None)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

DICTIONARY = "DICT_4X4_50"
CELLS = 6
"""A marker's side in cells: 4 data cells and a black border cell each side."""
CORNERS = ("top left", "top right", "bottom right", "bottom left")
IDS = 50


@lru_cache(maxsize=1)
def dictionary():
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))


@lru_cache(maxsize=IDS)
def bits(marker: int) -> list[str]:
    """Marker ``marker`` as rows of ``1`` (white) and ``0`` (black), border included."""
    import cv2

    if not 0 <= marker < IDS:
        raise ValueError(f"a marker id is 0 to {IDS - 1}, found {marker}")
    image = cv2.aruco.generateImageMarker(dictionary(), marker, CELLS)
    return ["".join("1" if v else "0" for v in row) for row in image]


def corner_of(marker: int, first: int) -> tuple[int, str] | None:
    """``(face, corner)`` of ``marker`` on a component whose ids start at
    ``first`` (face 0 the front, 1 the back), or None if it is not one of them."""
    k = marker - first
    if not 0 <= k < 8:
        return None
    return k // 4, CORNERS[k % 4]


@dataclass(frozen=True)
class Found:
    """A marker found in a photo: its id and its four corners in pixels,
    clockwise from its own top left (as printed)."""

    marker: int
    corners: np.ndarray

    @property
    def side(self) -> float:
        """The marker's mean side, in pixels."""
        c = self.corners
        return float(np.mean([np.hypot(*(c[i] - c[(i + 1) % 4])) for i in range(4)]))


def detect(gray: np.ndarray, longest: int = 1400) -> list[Found]:
    """Every marker of the dictionary in a grey photo. The search runs on a
    copy at most ``longest`` pixels on its long side (a marker is still 30 px or more) (a 12 MP photo costs
    no more than a small one), and the corners are then refined on the
    full photo."""
    import cv2

    scale = min(1.0, longest / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 45
    params.adaptiveThreshWinSizeStep = 10
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(), params).detectMarkers(small)
    if ids is None:
        return []
    found = []
    for c, i in zip(corners, ids.ravel()):
        pts = (c.reshape(4, 2) / scale).astype(np.float32)
        if scale < 1:
            win = max(2, int(round(0.5 / scale)))
            pts = cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2), (win, win), (-1, -1),
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)).reshape(4, 2)
        found.append(Found(int(i), pts))
    return found
