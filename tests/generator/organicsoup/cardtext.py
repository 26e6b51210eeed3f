"""The words printed on each card of a real PDF: poppler's ``pdftotext``
reads every word with its place on the page, in the order it was drawn
(``-raw -bbox``), and each word goes to the card (the placed form,
:func:`tests.generator.pdfinspect.inspect`) it lies on. Within a card the
words keep their drawing order, so a word can be read with its neighbour
(an atom's letter, then its count)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.generator.pdfinspect import inspect

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


def need_pdftotext() -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")


def words_by_page(path: Path) -> list[list[tuple[str, float, float]]]:
    """Each page's words as ``(text, x, y)``, the word's centre in PDF
    points with y up (as :func:`inspect` gives boxes), in drawing order."""
    out = subprocess.run(["pdftotext", "-raw", "-bbox", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    pages = []
    for _, height, body in _PAGE.findall(out):
        h = float(height)
        pages.append([(html.unescape(t), (float(x0) + float(x1)) / 2, h - (float(y0) + float(y1)) / 2)
                      for x0, y0, x1, y1, t in _WORD.findall(body)])
    return pages


def card_words(path: Path) -> dict[str, list[list[str]]]:
    """Every front face in a PDF: its piece id (``simple-recipes.water``) to
    the words of each printed copy, in drawing order."""
    return {piece: [[text for text, _, _ in words] for words in copies]
            for piece, copies in placed_card_words(path).items()}


def placed_card_words(path: Path) -> dict[str, list[list[tuple[str, float, float]]]]:
    """:func:`card_words` with each word's centre on the page, ``(text, x, y)``."""
    reader = PdfReader(path)
    found: dict[str, list[list[tuple[str, float, float]]]] = defaultdict(list)
    for index, words in enumerate(words_by_page(path)):
        placements, _ = inspect(reader, index)
        fronts = [p for p in placements if p.name.split(".")[-2] == "front"]
        mine: dict[int, list[tuple[str, float, float]]] = defaultdict(list)
        for text, x, y in words:
            for i, p in enumerate(fronts):
                if p.box.x <= x <= p.box.x2 and p.box.y <= y <= p.box.y2:
                    mine[i].append((text, x, y))
                    break
        for i, p in enumerate(fronts):
            found[p.name.rsplit(".", 2)[0]].append(mine[i])
    return dict(found)


def printed_counts(words: list[str]) -> dict[str, int]:
    """The atom cards a recipe card asks for: each ``×n`` with the element
    letter drawn just before it (its disc)."""
    out: dict[str, int] = {}
    for before, word in zip(words, words[1:]):
        m = re.fullmatch(r"×(\d+)", word)
        if m:
            assert before in ("C", "H", "N", "O"), (before, word, words)
            assert before not in out, f"{before} printed twice: {words}"
            out[before] = int(m.group(1))
    return out
