"""Photos for the reader's tests: generated (bench/photos), small and seeded,
from the held-out part of the photo set (its fonts were never trained on);
skipped with the reason when the handwriting fonts are not installed
(``make test`` installs them as root)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from reader import pen

SIZE = (1800, 1350)
"""Smaller than a phone's photo (2.4 MP, the sheet drawn at 7 px a mm): quicker to make and
read, and no easier."""


def fonts_or_skip() -> None:
    try:
        pen.font_files(held_out=True)
        pen.font_files(held_out=False)
    except pen.MissingFonts as exc:
        pytest.skip(str(exc))


@lru_cache(maxsize=64)
def held_out(game: str, index: int, kind: str, size: tuple[int, int] = SIZE):
    from bench import photos

    return photos.sample(game, index, kind, held_out=True, size=size, face_px=7.0)
