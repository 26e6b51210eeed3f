"""Pictures cut from a face's render (:mod:`generator.oneup`), and the files they go to."""

from __future__ import annotations

import io
import re
from pathlib import Path

from generator.files import atomic_write
from generator.oneup import DRAWN_BLEED
from generator.printable import BuildError


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "piece"


def crop(image, size_px: tuple[int, int]):
    w, h = image.size
    W, H = size_px
    if W > w or H > h:
        raise BuildError(f"a face rendered at {w}x{h} px cannot give {W}x{H} px")
    left, top = (w - W) // 2, (h - H) // 2
    return image.crop((left, top, left + W, top + H))


def centred(image, size_px: tuple[int, int]):
    """``image`` centred on a picture of ``size_px``: cut where it is larger,
    and where it is smaller its outermost pixels run on to the edge (the
    render's art round the trim, carried out to a larger product's edge).

    >>> from PIL import Image
    >>> im = Image.new("RGB", (4, 2), "red"); im.putpixel((0, 0), (0, 0, 255))
    >>> out = centred(im, (6, 2)); out.size, out.getpixel((0, 0)), out.getpixel((5, 1))
    ((6, 2), (0, 0, 255), (255, 0, 0))
    """
    import numpy as np
    from PIL import Image

    a = np.asarray(image)
    W, H = size_px
    h, w = a.shape[:2]
    top, left = (h - H) // 2, (w - W) // 2
    a = a[max(top, 0):max(top, 0) + min(h, H), max(left, 0):max(left, 0) + min(w, W)]
    pad_y, pad_x = max(H - h, 0), max(W - w, 0)
    if pad_x or pad_y:
        spec = [(pad_y // 2, pad_y - pad_y // 2), (pad_x // 2, pad_x - pad_x // 2)] + [(0, 0)] * (a.ndim - 2)
        a = np.pad(a, spec, mode="edge")
    return Image.fromarray(a, image.mode)


def scaled(image, k: float):
    """The picture resized by ``k`` (no change within half a percent)."""
    from PIL import Image

    if abs(k - 1) < 0.005:
        return image
    return image.resize((max(1, round(image.size[0] * k)), max(1, round(image.size[1] * k))), Image.LANCZOS,
                        reducing_gap=2.0)


def trim(image, size: tuple[float, float], ppm: float):
    m = round(DRAWN_BLEED * ppm)
    return image.crop((m, m, image.size[0] - m, image.size[1] - m))


def save_png(image, path: Path, dpi: float) -> None:
    """A PNG that says its resolution (its pHYs chunk): a shop's uploader, a
    layout program or a printer reads the size it prints at from it."""
    buf = io.BytesIO()
    # speed over size: these are uploaded once
    image.save(buf, format="PNG", compress_level=1, dpi=(round(dpi, 2), round(dpi, 2)))
    atomic_write(path, buf.getvalue())


def remove_stale(folder: Path, keep: list[Path]) -> None:
    """Pictures of pieces no longer in the data would be uploaded with the rest."""
    names = {p.name for p in keep}
    if not folder.is_dir():
        return
    for f in folder.iterdir():
        if f.suffix in (".png", ".csv") and f.name not in names:
            f.unlink()
