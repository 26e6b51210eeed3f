"""PNG previews of the built PDFs for the README, rendered from the real
files by PDFium (pypdfium2): what you see is what prints. Each game's
``game.yaml`` lists its pictures (``previews``).

    python -m generator.preview [OUTPUT_DIR] [DOCS_IMAGES_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator.printable import load
from labkit import registry


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
    for game in registry.games().values():
        manifest = load(game).manifest
        for p in manifest.previews:
            pdf = out / game.name / "a4" / f"{game.name}-a4-{p.component}.pdf"
            render(pdf, p.page, docs / f"{p.name}.png", p.width)
            print(docs / f"{p.name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
