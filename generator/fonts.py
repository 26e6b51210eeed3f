"""Fonts that embed: Bitstream Vera, shipped inside reportlab's own package.

SVG-to-PDF converters silently substitute fonts they cannot find, so every
template names only the families registered here, the converter is told
exactly which file each one is, and :func:`generator.svg.to_drawing` refuses
any text that ends up in another font.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(reportlab.__file__).parent / "fonts"

# SVG family name -> (weight, style) -> (reportlab font name, file)
FAMILIES: dict[str, dict[tuple[str, str], tuple[str, str]]] = {
    "Vera": {
        ("normal", "normal"): ("Vera", "Vera.ttf"),
        ("bold", "normal"): ("VeraBd", "VeraBd.ttf"),
        ("normal", "italic"): ("VeraIt", "VeraIt.ttf"),
        ("bold", "italic"): ("VeraBI", "VeraBI.ttf"),
    },
}

FONT_STACK = "Vera, 'Bitstream Vera Sans', 'DejaVu Sans', sans-serif"
"""What templates write in font-family: Vera for the PDF; viewers of the
loose SVG files without Vera fall back to its near twin, DejaVu Sans."""


def registered_names() -> set[str]:
    return {name for styles in FAMILIES.values() for name, _ in styles.values()}


@lru_cache(maxsize=None)
def register() -> None:
    """Register every font with reportlab and with svglib (once per process)."""
    from svglib.fonts import register_font

    for family, styles in FAMILIES.items():
        for (weight, style), (name, filename) in styles.items():
            path = FONT_DIR / filename
            if not path.exists():
                raise FileNotFoundError(f"font file missing from reportlab: {path}")
            pdfmetrics.registerFont(TTFont(name, str(path)))
            register_font(family, str(path), weight=weight, style=style, rlgFontName=name)
        regular = styles[("normal", "normal")][0]
        pdfmetrics.registerFontFamily(
            regular, normal=regular, bold=styles[("bold", "normal")][0],
            italic=styles[("normal", "italic")][0], boldItalic=styles[("bold", "italic")][0])
    # reportlab's drawings start every state in its base font (Helvetica,
    # never embedded) even when no text uses it; make that Vera too.
    from reportlab import rl_config

    rl_config.canvas_basefontname = "Vera"
    rl_config.defaultGraphicsFontName = "Vera"


def font_files() -> list[Path]:
    return [FONT_DIR / f for styles in FAMILIES.values() for _, f in styles.values()]


def text_width(text: str, size: float, bold: bool = False, family: str = "Vera") -> float:
    """Width of ``text`` at ``size`` (any unit: the answer is in the same unit)."""
    register()
    name = FAMILIES[family][("bold" if bold else "normal", "normal")][0]
    return pdfmetrics.stringWidth(text, name, size)
