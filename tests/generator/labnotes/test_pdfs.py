"""The Lab Notes print-and-play set, opened and inspected as real PDFs."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import RULES
from tests.generator.pdfinspect import Box, MM, fonts_used, front_pages, inspect, page_box

PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

# Rulebook, "Components": the counts every printed set must match.
COMPONENTS = {
    "tool-cards": ("30 Tool cards (6 per player)", 30),
    "notecards": ("20 Notecards (tarot sized cards). Lab Fires are also considered Notecards.", 20),
    "note-sheets": ("100 Note Sheets (1 pad)", 100),
    "dice": ("6 Dice (3 white, 3 yellow)", 6),
}
LEAD_TOKEN = ("1 Lead Player Token (Pencil Sharpener)", 1)
"""Printed on the dice page (front and back side by side, to glue together)."""
CARD_SIZES_MM = {"tool-cards": (63, 88), "notecards": (70, 120)}  # poker; rulebook: "tarot sized"


def pdfs(built: Path, paper: str, suffix: str = "") -> dict[str, Path]:
    out = {}
    for comp in COMPONENTS:
        p = built / paper / f"labnotes-{paper}-{comp}{suffix}.pdf"
        if p.exists():
            out[comp] = p
    return out


def test_rulebook_counts_are_quoted_from_the_rulebook():
    rulebook = RULES / "lab-notes.md"
    if not rulebook.exists():
        pytest.skip(f"rulebook not found at {rulebook} (outside the repository)")
    text = rulebook.read_text()
    for quote, _ in [*COMPONENTS.values(), LEAD_TOKEN]:
        assert quote in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes(built, paper):
    files = list((built / paper).glob("*.pdf"))
    names = {f.name.removeprefix(f"labnotes-{paper}-") for f in files}
    assert names == {"tool-cards.pdf", "tool-cards-bleed.pdf", "notecards.pdf", "notecards-bleed.pdf",
                     "note-sheets.pdf", "dice.pdf", "rules.pdf", "rules-booklet.pdf", "player-aid.pdf",
                     "calibration.pdf"}
    for f in files:
        for page in PdfReader(f).pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert sorted((round(w, 1), round(h, 1))) == sorted((round(PAPERS[paper][0], 1), round(PAPERS[paper][1], 1))), f


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_component_counts_match_the_rulebook(built, paper, suffix):
    for comp, path in pdfs(built, paper, suffix).items():
        reader = PdfReader(path)
        fronts = Counter()
        for i in front_pages(reader):
            for p in inspect(reader, i)[0]:
                if comp == "dice" and p.name.startswith("lead-token."):
                    fronts[p.name.rsplit(".", 1)[0]] += 1
                    continue
                assert p.name.startswith(comp + "."), (path, p.name)
                fronts[p.name.rsplit(".", 1)[0]] += 1
        if comp == "dice":  # the lone Lead Player Token shares the dice page: both its faces
            assert (fronts.pop("lead-token.front"), fronts.pop("lead-token.back")) == (1, 1)
            assert len(PdfReader(path).pages) == 1
        assert sum(fronts.values()) == COMPONENTS[comp][1], (path, fronts)
        if comp == "tool-cards":
            # "6 per player": 6 tools, one copy for each of 5 players.
            assert len(fronts) == 6 and set(fronts.values()) == {5}
        if comp == "dice":
            assert fronts == {"dice.white.front": 3, "dice.yellow.front": 3}
        if comp == "notecards":
            fires = sum(v for k, v in fronts.items() if "lab-fire" in k)
            assert fires >= 1 and len(fronts) == 20


def test_nine_poker_cards_per_page_on_a4_and_letter(built):
    for paper in PAPERS:
        reader = PdfReader(built / paper / f"labnotes-{paper}-tool-cards.pdf")
        counts = [len(inspect(reader, i)[0]) for i in front_pages(reader)]
        assert counts == [9, 9, 9, 3]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_sizes(built, paper):
    for comp, (w, h) in CARD_SIZES_MM.items():
        reader = PdfReader(built / paper / f"labnotes-{paper}-{comp}.pdf")
        for p in inspect(reader, 0)[0]:
            size = sorted((round((p.box.x2 - p.box.x) / MM, 1), round((p.box.y2 - p.box.y) / MM, 1)))
            assert size == sorted((w, h))


def test_card_names_are_text(built):
    from tests.conftest import load_cards as load  # noqa: E402

    data = load(Path(__file__).resolve().parents[3] / "cardsdata" / "labnotes")
    for paper in PAPERS:
        tools = " ".join(p.extract_text() for p in PdfReader(built / paper / f"labnotes-{paper}-tool-cards.pdf").pages)
        for t in data.tools:
            assert t.name in tools and t.compound in tools
        notes = " ".join(p.extract_text() for p in PdfReader(built / paper / f"labnotes-{paper}-notecards.pdf").pages)
        for c in data.notecards:
            assert c.name.upper() in notes.upper()
        sheet = PdfReader(built / paper / f"labnotes-{paper}-note-sheets.pdf").pages[0].extract_text()
        for word in ("TOOLS", "NOTECARDS", "TRASH", "COMPOUNDS", "TOTAL / GRADE", "A1", "F6"):
            assert word in sheet


def test_every_font_is_embedded(built):
    for f in sorted(built.rglob("*.pdf")):
        fonts = fonts_used(PdfReader(f))
        assert fonts, f
        for name, font in fonts.items():
            if font.get("/Subtype") == "/Type0":
                desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            else:
                desc = font.get("/FontDescriptor")
            assert desc is not None, f"{f}: {name} has no descriptor (a standard, unembedded font)"
            desc = desc.get_object()
            assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"{f}: {name} not embedded"
            assert "DejaVuSans" in name, f"{f}: unexpected font {name}"


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) not installed")
def test_pdffonts_agrees(built):
    for f in sorted(built.rglob("*.pdf")):
        lines = subprocess.run(["pdffonts", str(f)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
        assert lines, f
        for line in lines:
            cols = line.split()
            assert cols[-5] == "yes", f"{f}: {line}"  # the 'emb' column


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_crop_marks_stay_outside_every_trim(built, paper, suffix):
    for comp, path in pdfs(built, paper, suffix).items():
        if comp == "dice":
            continue  # nets carry their own cut lines
        reader = PdfReader(path)
        for i in range(len(reader.pages)):
            placements, segments = inspect(reader, i)
            assert segments, f"{path} page {i + 1}: no crop marks"
            trim = page_box(reader, i, "/TrimBox")
            bleed = page_box(reader, i, "/BleedBox")
            assert trim.inside(bleed)
            for s in segments:
                assert not trim.touches_segment(s), f"{path} page {i + 1}: mark {s} inside the trim box"
                for p in placements:
                    # p.box is what the form draws: trim plus bleed. No mark
                    # may land on any card, its own or a neighbour's.
                    assert not p.box.touches_segment(s), f"{path} page {i + 1}: mark on {p.name}"
            for p in placements:
                b = bleed_inner(p.box, suffix)
                assert b.inside(trim), f"{path} page {i + 1}: {p.name} trim outside the TrimBox"


def bleed_inner(box: Box, suffix: str) -> Box:
    d = 3 * MM if suffix == "-bleed" else 0
    return Box(box.x + d, box.y + d, box.x2 - d, box.y2 - d)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_backs_line_up_for_long_edge_duplex(built, paper, suffix):
    checked = 0
    for comp in ("tool-cards", "notecards"):
        path = built / paper / f"labnotes-{paper}-{comp}{suffix}.pdf"
        reader = PdfReader(path)
        assert len(reader.pages) % 2 == 0
        for i in range(0, len(reader.pages), 2):
            fronts, _ = inspect(reader, i)
            backs, _ = inspect(reader, i + 1)
            W = float(reader.pages[i].mediabox.width)
            assert W < float(reader.pages[i].mediabox.height), "duplex pages are portrait"
            assert len(fronts) == len(backs)
            by_place = {}
            for b in backs:
                by_place[b.box.round(1)] = b
            for f in fronts:
                card = f.name.rsplit(".", 2)[0]
                mirrored = Box(W - f.box.x2, f.box.y, W - f.box.x, f.box.y2).round(1)
                assert mirrored in by_place, f"{path}: no back behind {f.name}"
                back = by_place[mirrored]
                assert back.name.rsplit(".", 2)[0] == card and back.name.split(".")[-2] == "back"
                assert back.rotation == -f.rotation
                checked += 1
    assert checked >= 50


def test_back_offset_moves_only_the_backs(tmp_path):
    from generator.build import BuildOptions, build

    build(BuildOptions(games=["labnotes"], out=tmp_path, papers=("a4",), layouts=("grid",), back_offset=(1.5, -0.5),
                       svg=False))
    reader = PdfReader(tmp_path / "labnotes" / "a4" / "labnotes-a4-tool-cards.pdf")
    fronts, _ = inspect(reader, 0)
    backs, _ = inspect(reader, 1)
    W = float(reader.pages[0].mediabox.width)
    f = fronts[0]
    expected = Box(W - f.box.x2 + 1.5 * MM, f.box.y - 0.5 * MM, W - f.box.x + 1.5 * MM, f.box.y2 - 0.5 * MM).round(1)
    assert expected in {b.box.round(1) for b in backs}


def test_no_backs_option(tmp_path):
    from generator.build import BuildOptions, build

    build(BuildOptions(games=["labnotes"], out=tmp_path, papers=("letter",), layouts=("grid",), backs=False, svg=False))
    reader = PdfReader(tmp_path / "labnotes" / "letter" / "labnotes-letter-tool-cards.pdf")
    assert len(reader.pages) == 4
    for i in range(4):
        assert all(p.name.endswith(p.name.split(".")[-1]) and ".front." in p.name for p in inspect(reader, i)[0])


def test_trim_and_bleed_boxes(built):
    reader = PdfReader(built / "a4" / "labnotes-a4-notecards-bleed.pdf")
    trim = page_box(reader, 0, "/TrimBox")
    bleed = page_box(reader, 0, "/BleedBox")
    # Bleed extends 3 mm beyond the trim on every side.
    assert round((trim.x - bleed.x) / MM, 2) == 3.0
    assert round((bleed.y2 - trim.y2) / MM, 2) == 3.0


def test_svg_files_for_every_face(built):
    svgs = list((built / "svg").rglob("*.svg"))
    # 6 tools x 2 sides, 20 notecards + 20 backs, sheet, 2 dice, 2 token sides, the rules
    names = {p.name for p in svgs}
    assert "centrifuge-front.svg" in names and "centrifuge-back.svg" in names
    assert len([p for p in svgs if p.parent.name == "notecards"]) == 40
    assert (built / "svg" / "fonts" / "DejaVuSans.ttf").exists()
    text = (built / "svg" / "tool-cards" / "centrifuge-front.svg").read_text()
    assert "Water" in text and "@font-face" in text


def test_printing_guide(built):
    guide = (built / "PRINTING.md").read_text()
    assert "100%" in guide and "flip on long edge" in guide
    assert re.search(r"labnotes-a4-tool-cards.pdf` \| 30 pieces", guide)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_5mm_inside_the_page_edge(built, paper):
    """Home printers leave about 5 mm unprinted: a mark out there is lost."""
    checked = 0
    for path in sorted((built / paper).glob("*.pdf")):
        reader = PdfReader(path)
        for i, page in enumerate(reader.pages):
            W, H = float(page.mediabox.width), float(page.mediabox.height)
            for s in inspect(reader, i)[1]:
                for x, y in ((s.x1, s.y1), (s.x2, s.y2)):
                    assert 5 * MM - 0.01 <= x <= W - 5 * MM + 0.01 and 5 * MM - 0.01 <= y <= H - 5 * MM + 0.01, \
                        (path.name, i, s)
                checked += 1
    assert checked > 100


def test_the_set_comes_with_its_rules_and_what_else_to_gather(built):
    title = PdfReader(built / "a4" / "labnotes-a4-rules.pdf").pages[0].extract_text()
    assert "Lab Notes" in title and "2 to 5 players" in title
    guide = (built / "PRINTING.md").read_text()
    assert "## What else to gather" in guide and "pencil" in guide
    assert "## How to play, in short" in guide
