"""The text of each piece's face in a real PDF, in the order it is drawn:
every form (a face) is drawn alone on a copy of its page and its text read
back through the embedded fonts' maps, so nothing is taken from our own
templates."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ContentStream, NameObject

from tests.generator.pdfinspect import inspect


def face_texts(path: Path) -> dict[str, list[str]]:
    """Form name (``component.card.front.digest``) -> its text items, in order."""
    reader = PdfReader(path)
    writer = PdfWriter()
    out: dict[str, list[str]] = {}
    for i in range(len(reader.pages)):
        placements, _ = inspect(reader, i)
        page = writer.add_page(reader.pages[i])
        for p in placements:
            if p.name in out:
                continue
            stream = ContentStream(None, writer)
            stream.operations = [([NameObject("/FormXob." + p.name)], b"Do")]
            page.replace_contents(stream)
            items: list[str] = []
            page.extract_text(visitor_text=lambda text, *_: items.append(text.strip()) if text.strip() else None)
            out[p.name] = items
    return out


def card_of(form: str) -> str:
    """``compound-cards.water.front.1a2b`` -> ``water``."""
    return form.split(".")[1]
