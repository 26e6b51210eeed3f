"""From a photo to the sheet as printed: the markers found, the sheet they
belong to chosen, the code read, the page rectified by homography and its
light corrected from the paper's white, and what it shows aligned with the
blank face (:class:`Sheet`); or a refusal that says why in a player's words
and what to do (:class:`Refused`).

The rectified page is :data:`PX_PER_MM` pixels a millimetre, and only the
part of the face a game reads (its marks' bounds and a margin) is warped:
the cost of a 12 MP photo is the marker search on a small copy, one warp of
a few megapixels and some filtering on it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from reader import fiducials, light
from reader.maps import FaceMap, Mark, SheetKind, blank
from reader.sheetcode import SheetCode, decode

PX_PER_MM = 8.0
MARGIN_MM = 4.0
"""Warped round the marks a game reads: room for the alignment to move them."""
CODE_PX_PER_MM = 14.0


class Refused(ValueError):
    """A photo that cannot be read: ``reason`` a short code (``no-markers``,
    ``too-dark``, ``too-blurred``, ``cut-off``, ``wrong-game``, ``no-code``,
    ``not-a-photo``), the message a sentence a player understands."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(sentence)
        self.reason = reason


@dataclass
class Sheet:
    """The part of a face a game reads, rectified and aligned: ``photo`` and
    ``blank`` are RGB float images (paper white near 1) of the same mm
    window (``origin``, top left, in mm on the face)."""

    face: FaceMap
    code: SheetCode | None
    photo: np.ndarray
    blank: np.ndarray
    origin: tuple[float, float]
    px: float = PX_PER_MM
    homography: np.ndarray = field(default_factory=lambda: np.eye(3))
    """Face mm to photo pixels."""
    sharpness: float = 1.0
    native: float = PX_PER_MM
    """The photo's own pixels a mm on the sheet (the rectified page may have more)."""
    notes: list[str] = field(default_factory=list)

    _cache: dict = field(default_factory=dict, repr=False)

    def measured(self) -> None:
        """The photo is final (corrected and aligned): what every measure reads is worked out once."""
        from reader.marks import PRINTED, gray

        self._cache = {"photo": gray(self.photo), "blank": gray(self.blank)}
        dark = np.clip(self._cache["blank"] - self._cache["photo"], 0, 1)
        dark[self._cache["blank"] < PRINTED] = 0
        self._cache["dark"] = dark

    def gray(self, which: str) -> np.ndarray:
        """``photo`` or ``blank`` in grey, or ``dark``: what the player added, the print left out."""
        if not self._cache:
            self.measured()
        return self._cache[which]

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.origin[0]) * self.px, (y - self.origin[1]) * self.px

    def window(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        (a, b), (c, d) = self.to_px(x0, y0), self.to_px(x1, y1)
        h, w = self.photo.shape[:2]
        return (slice(max(0, int(round(b))), min(h, int(round(d)))),
                slice(max(0, int(round(a))), min(w, int(round(c)))))


# --- finding the sheet --------------------------------------------------------------------
def decode_photo(data: bytes) -> np.ndarray:
    """A photo file's pixels (BGR), turned as the phone's EXIF says."""
    import cv2

    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise Refused("not-a-photo", "This file is not a photo this reader can open (a JPEG or PNG works): "
                      "take the photo again with the phone's camera.")
    return image


def _dark(gray: np.ndarray) -> bool:
    return float(np.percentile(gray, 95)) < 55


def _fit(kind: SheetKind, face_side: int, points: dict[int, fiducials.Found], corners_mm: Callable[[int], np.ndarray]
         ) -> tuple[np.ndarray, float] | None:
    """The homography mm -> px of the chosen markers, and its error relative to their size."""
    import cv2

    src = np.concatenate([corners_mm(m) for m in points])
    dst = np.concatenate([f.corners for f in points.values()])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None
    back = cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2)
    err = float(np.sqrt(np.mean(np.sum((back - dst) ** 2, axis=1))))
    side = float(np.mean([f.side for f in points.values()]))
    return H, err / max(side, 1.0)


def choose(found: list[fiducials.Found], kinds: dict[int, tuple[SheetKind, int, int]], game: str,
           corners_mm: Callable[[SheetKind, int, int], np.ndarray]
           ) -> tuple[SheetKind, int, np.ndarray, list[fiducials.Found]]:
    """The sheet of ``game`` in the photo: its kind, its face, the homography
    from its mm to the photo's pixels and the markers it rests on. Two sheets
    of a pad on one page: the one nearest the camera."""
    ours: dict[tuple[str, int], dict[int, list[fiducials.Found]]] = {}
    others: set[str] = set()
    for f in found:
        if f.marker not in kinds:
            continue
        kind, face_side, corner = kinds[f.marker]
        if kind.game != game:
            others.add(kind.game)
            continue
        ours.setdefault((kind.component, face_side), {}).setdefault(f.marker, []).append(f)
    if not ours:
        if others:
            from labkit import registry

            names = ", ".join(registry.find(g).title for g in sorted(others))
            raise Refused("wrong-game", f"This is a photo of a sheet of {names}, not of {registry.find(game).title}: "
                          f"open that game's paper page to score it.")
        raise Refused("no-markers", "No sheet markers found: photograph the whole printed sheet, with its four black "
                      "corner squares in the picture, flat and in good light.")
    best = None
    for (component, face_side), by_marker in ours.items():
        kind = next(kinds[m][0] for m in by_marker)
        options = [[None, *fs] for fs in by_marker.values()]
        for combo in itertools.islice(itertools.product(*options), 256):
            chosen = {f.marker: f for f in combo if f is not None}
            if len(chosen) < 2:
                continue
            fit = _fit(kind, face_side, chosen, lambda m: corners_mm(kind, face_side, m))
            if fit is None or fit[1] > 0.25:   # two sheets mixed miss by far more; a curled one by less
                continue
            H, err = fit
            area = abs(np.linalg.det(H[:2, :2]))
            score = (len(chosen), area)
            if best is None or score > best[0]:
                best = (score, kind, face_side, H, list(chosen.values()))
    if best is None:
        raise Refused("no-markers", "The sheet's corner markers do not fit together: photograph one sheet at a "
                      "time, flat, with all four corners in the picture.")
    return best[1], best[2], best[3], best[4]


def warp(image: np.ndarray, H: np.ndarray, x0: float, y0: float, w: float, h: float, px: float) -> np.ndarray:
    """The face's window ``x0, y0, w, h`` (mm) of the photo, at ``px`` pixels a mm."""
    import cv2

    to_mm = np.array([[1 / px, 0, x0], [0, 1 / px, y0], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(image, H @ to_mm, (int(round(w * px)), int(round(h * px))),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def read_code(image: np.ndarray, H: np.ndarray, mark: Mark | None) -> SheetCode | None:
    import cv2

    if mark is None:
        return None
    x, y, w, h = mark.box  # type: ignore[misc]
    crop = cv2.cvtColor(warp(image, H, x, y, w, h, CODE_PX_PER_MM), cv2.COLOR_BGR2GRAY)
    text = decode(crop)
    try:
        return SheetCode.parse(text) if text else None
    except ValueError:
        return None


def in_frame(image: np.ndarray, H: np.ndarray, marks: list[Mark]) -> list[Mark]:
    """The marks that lie (partly) outside the photo."""
    import cv2

    h, w = image.shape[:2]
    out = []
    for m in marks:
        x0, y0, x1, y1 = m.bounds
        pts = cv2.perspectiveTransform(np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float64), H)
        pts = pts.reshape(-1, 2)
        if (pts[:, 0] < 1).any() or (pts[:, 1] < 1).any() or (pts[:, 0] > w - 2).any() or (pts[:, 1] > h - 2).any():
            out.append(m)
    return out


def rectify(image: np.ndarray, H: np.ndarray, face: FaceMap, code: SheetCode | None,
            px: float = PX_PER_MM) -> Sheet:
    """The part of ``face`` a game reads, rectified, its light corrected and
    aligned with the blank face; refuses a photo too dark or too blurred to read."""
    import cv2

    marks = face.read
    x0 = max(0.0, min(m.bounds[0] for m in marks) - MARGIN_MM)
    y0 = max(0.0, min(m.bounds[1] for m in marks) - MARGIN_MM)
    x1 = min(face.size[0], max(m.bounds[2] for m in marks) + MARGIN_MM)
    y1 = min(face.size[1], max(m.bounds[3] for m in marks) + MARGIN_MM)
    i0, j0 = int(round(y0 * px)), int(round(x0 * px))
    warped = warp(image, H, x0, y0, x1 - x0, y1 - y0, px)
    template = blank(face, px)[i0:i0 + warped.shape[0], j0:j0 + warped.shape[1]]
    warped = warped[:template.shape[0], :template.shape[1]]
    photo = cv2.cvtColor(warped, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    blank_f = template.astype(np.float32) / 255.0
    sheet = Sheet(face, code, photo, blank_f, (x0, y0), px, H)
    sheet.native = _scale(H, (x0 + x1) / 2, (y0 + y1) / 2)
    white = light.paper_white(sheet)
    if white < 0.16:
        raise Refused("too-dark", "The photo is too dark to read the sheet: take it again in better light "
                      "(or with the flash), without your shadow on the sheet.")
    light.correct(sheet)
    light.align(sheet)
    sheet.measured()
    sheet.sharpness = light.sharpness(sheet)
    if sheet.sharpness < light.BLURRED:
        raise Refused("too-blurred", "The photo is too blurred to read the sheet: hold the phone still, tap the "
                      "sheet on the screen to focus, and take it again.")
    return sheet


def _scale(H: np.ndarray, x: float, y: float) -> float:
    """The photo's pixels a mm at a point of the face (the side of a projected 1 mm square)."""
    import cv2

    pts = cv2.perspectiveTransform(np.array([[[x, y]], [[x + 1, y]], [[x, y + 1]]], np.float64), H).reshape(3, 2)
    a, b = pts[1] - pts[0], pts[2] - pts[0]
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


def locate(image: np.ndarray, game: str, kinds: dict[int, tuple[SheetKind, int, int]],
           face_of: Callable[[SheetKind, int, SheetCode | None, bool], FaceMap]) -> Sheet:
    """The sheet of ``game`` in a photo, ready to read (:class:`Sheet`), or :class:`Refused`.
    ``face_of(kind, side, code, final)`` gives the face's map: any piece of the
    component for the markers' places, then (``final``) the piece the code names."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = [f for f in fiducials.detect(gray) if f.marker in kinds]   # a printed sheet's, not a stray square
    sizes = {}

    def corners_mm(kind: SheetKind, side: int, marker: int) -> np.ndarray:
        key = (kind.game, kind.component, side)
        if key not in sizes:
            sizes[key] = face_of(kind, side, None, False)
        return sizes[key].marker_points(marker)

    try:
        kind, side, H, used = choose(found, kinds, game, corners_mm)
    except Refused as exc:
        # no sheet found: say why, if the photo shows why
        if exc.reason == "no-markers" and _dark(gray):
            raise Refused("too-dark", "The photo is too dark to find the sheet: take it again in better light "
                          "(or with the flash).") from None
        if exc.reason == "no-markers" and light.blurred_photo(gray):
            raise Refused("too-blurred", "The photo is too blurred to find the sheet's corner markers: hold the "
                          "phone still, tap the sheet on the screen to focus, and take it again.") from None
        raise
    code = read_code(image, H, sizes[(kind.game, kind.component, side)].code)
    face = face_of(kind, side, code, True)
    cut = in_frame(image, H, face.read)
    if cut:
        raise Refused("cut-off", f"The sheet is cut off: {len(cut)} of the places to read are outside the photo. "
                      "Step back so that the whole sheet, its four corner markers included, is in the picture.")
    sheet = rectify(image, H, face, code)
    if len(used) < 4:
        sheet.notes.append(f"{4 - len(used)} corner marker(s) not seen; read from the other {len(used)}")
    return sheet


def describe(sheet: Sheet) -> dict[str, Any]:
    return {"game": sheet.face.game, "component": sheet.face.component, "piece": sheet.face.piece,
            "side": sheet.face.side, "code": sheet.code.text if sheet.code else None,
            "sharpness": round(sheet.sharpness, 3), "notes": list(sheet.notes)}
