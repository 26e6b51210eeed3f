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


def trim(image, size: tuple[float, float], ppm: float):
    m = round(DRAWN_BLEED * ppm)
    return image.crop((m, m, image.size[0] - m, image.size[1] - m))


def save_png(image, path: Path) -> None:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)  # speed over size: these are uploaded once
    atomic_write(path, buf.getvalue())


def remove_stale(folder: Path, keep: list[Path]) -> None:
    """Pictures of pieces no longer in the data would be uploaded with the rest."""
    names = {p.name for p in keep}
    for f in folder.iterdir():
        if f.suffix in (".png", ".csv") and f.name not in names:
            f.unlink()


def file_url(path: Path) -> str:
    return "file://" + path.resolve().as_posix()
