"""QR codes for the phones' pages: a link drawn as inline SVG, made once per
link (every seated phone's page carries one at every version)."""

from __future__ import annotations

import functools

import segno
from markupsafe import Markup


@functools.lru_cache(maxsize=1024)
def qr_svg(url: str, scale: int) -> Markup:
    """``url`` as an inline SVG QR code (segno's own markup, no user text in it)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=scale, border=2, dark="#000", light="#fff",
                                                         svgclass="qr", omitsize=True))
