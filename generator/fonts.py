"""Fonts that embed: DejaVu Sans, Bitstream Vera's extended family (Latin,
Greek, Cyrillic and more), from the npm package ``dejavu-fonts-ttf`` that
the Makefile installs at set-up (never copied into the repository).

SVG-to-PDF converters silently substitute fonts they cannot find, so every
template names only the family registered here, the converter is told
exactly which file each face is, :func:`generator.svg.to_drawing` refuses
any text that ends up in another font, and :func:`missing_glyphs` finds the
characters the font cannot draw before anything prints (an empty box on a
printed card is a bug).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "node_modules" / "dejavu-fonts-ttf" / "ttf"

FAMILY = "DejaVu Sans"
# (weight, style) -> (reportlab font name, file)
FACES: dict[tuple[str, str], tuple[str, str]] = {
    ("normal", "normal"): ("DejaVuSans", "DejaVuSans.ttf"),
    ("bold", "normal"): ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf"),
    ("normal", "italic"): ("DejaVuSans-Oblique", "DejaVuSans-Oblique.ttf"),
    ("bold", "italic"): ("DejaVuSans-BoldOblique", "DejaVuSans-BoldOblique.ttf"),
}

REGULAR, BOLD = FACES[("normal", "normal")][0], FACES[("bold", "normal")][0]
"""What the generator's own captions and marks are set in."""

FONT_STACK = "'DejaVu Sans', 'Bitstream Vera Sans', sans-serif"
"""What templates write in font-family: DejaVu Sans for the PDF; the loose
SVG files carry the font files beside them for viewers."""


class FontMissing(RuntimeError):
    pass


def registered_names() -> set[str]:
    return {name for name, _ in FACES.values()}


def font_files() -> list[Path]:
    return [FONT_DIR / f for _, f in FACES.values()]


@lru_cache(maxsize=None)
def register() -> None:
    """Register every face with reportlab and with svglib (once per process)."""
    from svglib.fonts import register_font

    for (weight, style), (name, filename) in FACES.items():
        path = FONT_DIR / filename
        if not path.exists():
            raise FontMissing(f"font file missing: {path}. It comes from the npm package dejavu-fonts-ttf: "
                              "run `make print` (or `npm ci`) to install it")
        pdfmetrics.registerFont(TTFont(name, str(path)))
        register_font(FAMILY, str(path), weight=weight, style=style, rlgFontName=name)
    regular = FACES[("normal", "normal")][0]
    pdfmetrics.registerFontFamily(
        regular, normal=regular, bold=FACES[("bold", "normal")][0],
        italic=FACES[("normal", "italic")][0], boldItalic=FACES[("bold", "italic")][0])
    # reportlab's drawings start every state in its base font (Helvetica,
    # never embedded) even when no text uses it; make that DejaVu too.
    from reportlab import rl_config

    rl_config.canvas_basefontname = regular
    rl_config.defaultGraphicsFontName = regular


@lru_cache(maxsize=None)
def _coverage(bold: bool) -> frozenset[int]:
    register()
    name = FACES[("bold" if bold else "normal", "normal")][0]
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


def missing_glyphs(text: str, bold: bool = False) -> list[str]:
    """The characters of ``text`` the printed font cannot draw, each once.

    >>> missing_glyphs("Méthane Ωμέγα Метан")
    []
    >>> missing_glyphs("Méthane ☢ 甲烷")
    ['甲', '烷']
    """
    have = _coverage(bold)
    out: dict[str, None] = {}
    for ch in text:
        if ord(ch) not in have and not ch.isspace() and ch not in out:
            out[ch] = None
    return list(out)


def describe_missing(chars: list[str]) -> str:
    """``'甲' (U+7532)``, for an error message."""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` at ``size`` (any unit: the answer is in the same unit)."""
    register()
    name = FACES[("bold" if bold else "normal", "normal")][0]
    return pdfmetrics.stringWidth(text, name, size)
