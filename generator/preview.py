"""PNG previews of the built PDFs for the README, rendered from the real
files by PDFium (pypdfium2): what you see is what prints.

    python -m generator.preview [OUTPUT_DIR] [DOCS_IMAGES_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

PREVIEWS = [
    # (file under output/, page index, png name, width in px)
    ("labnotes/a4/labnotes-a4-tool-cards.pdf", 0, "labnotes-tool-cards.png", 900),
    ("labnotes/a4/labnotes-a4-tool-cards.pdf", 1, "labnotes-tool-cards-backs.png", 900),
    ("labnotes/a4/labnotes-a4-notecards.pdf", 0, "labnotes-notecards.png", 900),
    ("labnotes/a4/labnotes-a4-note-sheets.pdf", 0, "labnotes-note-sheets.png", 900),
    ("labnotes/a4/labnotes-a4-dice.pdf", 0, "labnotes-dice.png", 700),
]


def render(pdf: Path, page: int, png: Path, width: int) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    p = doc[page]
    scale = width / p.get_width()
    image = p.render(scale=scale).to_pil()
    png.parent.mkdir(parents=True, exist_ok=True)
    image.save(png, optimize=True)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("output")
    docs = Path(argv[1]) if len(argv) > 1 else Path("docs/images")
    for rel, page, name, width in PREVIEWS:
        render(out / rel, page, docs / name, width)
        print(docs / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
