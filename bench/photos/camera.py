"""A phone's photo of a sheet lying on a table, made from the sheet's image:
the photo set's camera (docs/design/reader.md).

Every photo has a little of everything a phone does (a slanted view, a
turn, the paper's curl, uneven light, a colour cast, a little blur and
noise, JPEG); each names one **kind** that it has much more of:

``perspective``  the phone held at a slant (the far edge up to 40% shorter);
``rotation``     the sheet at any angle, upside down included;
``curl``         the paper bowed off the table;
``shadow``       a soft shadow (the phone, a hand) across part of the sheet;
``gradient``     light falling off from one side to the other, to a third;
``white``        a strong colour cast (tungsten, shade);
``blur``         out of focus or shaken;
``noise``        dim light's grain;
``jpeg``         heavy compression;
``cut``          partly out of frame (a corner, a marker with it, outside).

>>> import numpy as np
>>> sheet = np.ones((130, 190, 3), np.float32)
>>> shot = photograph(sheet, 1.0, np.random.default_rng(1), "blur", (400, 300))
>>> shot.image.shape, shot.kind
((300, 400, 3), 'blur')
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KINDS = ("perspective", "rotation", "curl", "shadow", "gradient", "white", "blur", "noise", "jpeg", "cut")


@dataclass
class Shot:
    image: np.ndarray
    """BGR uint8, as decoded from the JPEG."""
    jpeg: bytes
    kind: str
    corners: np.ndarray
    """The sheet's corners in the photo (top left, top right, bottom right, bottom left)."""
    settings: dict = field(default_factory=dict)


def _table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A table top: a wood or laminate colour with a slow grain."""
    import cv2

    w, h = size
    base = np.array(rng.choice([(0.55, 0.4, 0.28), (0.35, 0.27, 0.2), (0.7, 0.68, 0.62), (0.25, 0.28, 0.3),
                                (0.8, 0.75, 0.65)]), np.float32)
    small = rng.normal(0, 1, (max(2, h // 16), max(2, w // 64))).astype(np.float32)
    grain = cv2.resize(cv2.GaussianBlur(small, (0, 0), 1.2), (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(base[None, None, :] * (1 + 0.12 * grain[..., None]), 0, 1)


def _corners(rng, kind: str, sheet_wh: tuple[float, float], size: tuple[int, int]) -> np.ndarray:
    """Where the sheet's corners land in the photo."""
    W, H = size
    sw, sh = sheet_wh
    angle = rng.uniform(0, 360) if kind == "rotation" else rng.normal(0, 5) + (180 if rng.random() < 0.1 else 0)
    fill = rng.uniform(0.6, 0.8)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    box = np.array([[-sw / 2, -sh / 2], [sw / 2, -sh / 2], [sw / 2, sh / 2], [-sw / 2, sh / 2]])
    turned = box @ np.array([[c, s], [-s, c]])
    extent = turned.max(axis=0) - turned.min(axis=0)
    scale = fill * min(W / extent[0], H / extent[1])
    pts = turned * scale
    tilt = rng.uniform(0.12, 0.2) if kind == "perspective" else rng.uniform(0.0, 0.04)
    # the far edge shorter: a slant of the phone towards one side of the sheet
    side = rng.integers(4)
    a, b = side, (side + 1) % 4
    mid = pts.mean(axis=0)
    for k in (a, b):
        pts[k] = mid + (pts[k] - mid) * (1 - tilt)
    pts += rng.normal(0, 0.01 * scale * max(sw, sh), pts.shape)
    centre = np.array([W / 2, H / 2]) + rng.normal(0, 0.03, 2) * np.array([W, H])
    return (pts + centre).astype(np.float32)


def _curl(image: np.ndarray, rng, amount: float) -> np.ndarray:
    """The sheet bowed: a smooth displacement, largest in the middle of one edge."""
    import cv2

    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    along_x = rng.random() < 0.5
    u = xs / w if along_x else ys / h
    v = ys / h if along_x else xs / w
    bow = amount * (1 - (2 * u - 1) ** 2) * (0.5 + v) * (h if along_x else w)
    wave = amount * 0.3 * np.sin(np.pi * u * rng.uniform(1, 2)) * (h if along_x else w)
    dx, dy = (np.zeros_like(bow), bow + wave) if along_x else (bow + wave, np.zeros_like(bow))
    out = cv2.remap(image, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shade = 1 - 0.25 * amount / 0.03 * (1 - (2 * u - 1) ** 2) * v
    return out * np.clip(shade, 0.6, 1)[..., None]


def _light(rng, kind: str, size: tuple[int, int]) -> np.ndarray:
    """The light over the photo: a gradient, perhaps a soft shadow."""
    import cv2

    W, H = size
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    t = ((xs - W / 2) * np.cos(a) + (ys - H / 2) * np.sin(a)) / max(W, H) + 0.5
    low = rng.uniform(0.3, 0.5) if kind == "gradient" else rng.uniform(0.8, 0.95)
    light = low + (1 - low) * np.clip(t, 0, 1)
    if kind == "shadow" or rng.random() < 0.15:
        mask = np.zeros((H, W), np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
        poly = np.array([[cx + rng.normal(0, 0.25) * W, cy + rng.normal(0, 0.25) * H] for _ in range(5)], np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(poly)], 1.0)
        soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.01, 0.03) * W)
        depth = rng.uniform(0.4, 0.6) if kind == "shadow" else rng.uniform(0.15, 0.3)
        light = light * (1 - depth * soft)
    return light


def photograph(sheet: np.ndarray, px_per_mm: float, rng: np.random.Generator, kind: str,
               size: tuple[int, int] = (4000, 3000), keep: list[tuple[float, float, float, float]] | None = None
               ) -> Shot:
    """A photo (``size`` = width, height) of ``sheet`` (RGB float, ``px_per_mm``)
    with a little of every distortion and much of ``kind``. ``keep``: boxes
    (mm on the sheet) that a ``cut`` photo must still show whole."""
    import cv2

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    W, H = size
    h, w = sheet.shape[:2]
    paper = sheet * (1 + 0.02 * cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2)[..., None])
    curl = rng.uniform(0.01, 0.02) if kind == "curl" else rng.uniform(0.0, 0.004)
    if curl > 0.001:
        paper = _curl(paper, rng, curl)
    corners = _corners(rng, kind, (w, h), size)
    if kind == "cut":
        corners = _cut(corners, rng, (w / px_per_mm, h / px_per_mm), keep or [], size)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(src, corners)
    photo = _table(rng, size)
    warped = cv2.warpPerspective(paper.astype(np.float32), M, (W, H), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((h, w), np.float32), M, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    photo = photo * (1 - mask) + warped * mask
    photo = photo * _light(rng, kind, size)[..., None]
    cast = (np.array([rng.uniform(0.65, 0.8), 0.95, rng.uniform(1.15, 1.35)])[::-1 if rng.random() < 0.5 else 1]
            if kind == "white" else rng.uniform(0.92, 1.08, 3))
    photo = photo * cast.astype(np.float32) * rng.uniform(0.85, 1.0)
    sigma = rng.uniform(2.0, 3.2) * W / 4000 if kind == "blur" else rng.uniform(0.3, 0.9) * W / 4000
    if kind == "blur" and rng.random() < 0.4:   # shaken: a short streak
        k = max(3, int(sigma * 3))
        kernel = np.zeros((k, k), np.float32)
        cv2.line(kernel, (0, int(rng.integers(k))), (k - 1, int(rng.integers(k))), 1.0, 1)
        photo = cv2.filter2D(photo, -1, kernel / kernel.sum())
    else:
        photo = cv2.GaussianBlur(photo, (0, 0), max(sigma, 0.3))
    noise = rng.uniform(0.03, 0.05) if kind == "noise" else rng.uniform(0.004, 0.012)
    photo = photo + rng.normal(0, 1, photo.shape).astype(np.float32) * noise * np.sqrt(np.clip(photo, 0.05, 1))
    quality = int(rng.integers(18, 35)) if kind == "jpeg" else int(rng.integers(75, 93))
    bgr = (np.clip(photo, 0, 1)[..., ::-1] * 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return Shot(image, data.tobytes(), kind, corners,
                {"curl": round(float(curl), 4), "blur": round(float(sigma), 2), "noise": round(float(noise), 3),
                 "jpeg": quality})


def _cut(corners: np.ndarray, rng, sheet_mm: tuple[float, float], keep, size) -> np.ndarray:
    """The sheet moved so that one corner leaves the frame (with what is printed there), the
    ``keep`` boxes, and the other corners' 12 mm, still in it."""
    import cv2

    W, H = size
    w, h = sheet_mm
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(src, corners)
    k = int(rng.integers(4))
    others = [(x, y, x + 12, y + 12) for i, (x, y) in enumerate(((0, 0), (w - 12, 0), (w - 12, h - 12), (0, h - 12)))
              if i != k]
    pts = np.array([[x, y] for x0, y0, x1, y1 in [*keep, *others] for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))],
                   np.float32)
    inside = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), M).reshape(-1, 2) if len(pts) else np.zeros((0, 2))
    corner = corners[k]
    target = np.array([0 if corner[0] < W / 2 else W, 0 if corner[1] < H / 2 else H], np.float32)
    push = target - corner
    best = np.zeros(2, np.float32)
    for f in np.linspace(0.2, 3.0, 30):
        shift = push * f
        moved = inside + shift
        if len(moved) and ((moved < 3).any() or (moved[:, 0] > W - 3).any() or (moved[:, 1] > H - 3).any()):
            break
        best = shift
    return (corners + best).astype(np.float32)
