"""Every game's rules booklet (docs/design/booklets.md), for each game that
has a ``booklet.md``: it covers every section of its rulebook, its setup
table is what the engine deals, its worked example is what the engine
scores, and the PDFs are real: embedded fonts only, the paper's size, the
folded booklet in saddle-stitch order, the player aid on one page."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from generator import booklet as booklets
from generator.booklet_md import BookletError, parse, plain
from generator import booklet_pdf as booklets_pdf
from generator.booklet_pdf import folded_order, impose, render_all, render_rules
from generator.build import BuildError, BuildOptions, plan
from generator.geometry import PAPERS, pt
from labkit import cardsets, registry
from tests.conftest import RULES
from tests.generator.pdfinspect import fonts_used

GAMES = sorted(name for name, g in registry.games().items()
               if (d := cardsets.template_dir(g)) is not None and (d / booklets.BOOKLET).exists())


@cache
def planned(game: str):
    [(printable, rendered, booklet)] = plan(BuildOptions(games=[game], layouts=("grid",)))
    return printable, rendered, booklet


@cache
def printed(game: str, paper: str):
    return render_all(planned(game)[2], paper)


def hooks(game: str):
    printable, _, booklet = planned(game)
    module = booklets.load_hooks(booklet.folder, game)
    assert module is not None, f"{game} has no {booklets.HOOKS}"
    return module


# --- the rulebook's sections ------------------------------------------------------
def rulebook_headings(text: str) -> list[str]:
    """The rulebook's sections, from its table of contents: ``• X`` a
    section, an indented ``• Y`` a subsection (the files have no Markdown
    headings)."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip() == "Table of Contents")
    out = []
    for line in lines[start + 1:]:
        if not line.strip():
            if out:
                break
            continue
        m = re.match(r"^\s*•\s+(.*\S)\s*$", line)
        if not m:
            break
        out.append(m.group(1))
    return out


def test_the_rulebooks_sections_are_read_from_their_contents():
    text = "Book\n\nTable of Contents\n\n• Components\n• Round\n  • Roll Dice\n\nComponents\n\n• 6 Dice\n"
    assert rulebook_headings(text) == ["Components", "Round", "Roll Dice"]


@pytest.mark.parametrize("game", GAMES)
def test_the_booklet_covers_every_section_of_the_rulebook(game):
    printable, _, booklet = planned(game)
    rulebook = RULES / (printable.manifest.rulebook or f"{game}.md")
    if not rulebook.exists():
        pytest.skip(f"rulebook not found at {rulebook} (it lives outside the repository)")
    headings = rulebook_headings(rulebook.read_text("utf-8"))
    assert len(headings) >= 5, headings
    coverage = yaml.safe_load((booklet.folder / booklets.COVERAGE).read_text("utf-8"))
    sections = booklet.doc.sections()
    problems = []
    for h in headings:
        entry = coverage.get(h)
        if entry is None:
            problems.append(f"rulebook section {h!r} is not mapped in {booklets.COVERAGE}")
            continue
        target = sections.get(entry["booklet"])
        if target is None:
            problems.append(f"{h!r} -> {entry['booklet']!r}: no such heading in booklet.md")
            continue
        text = target.text().casefold()
        if len(text) < 40:
            problems.append(f"{h!r} -> {entry['booklet']!r}: the section is (nearly) empty")
        if len(entry.get("terms", [])) < 2:
            problems.append(f"{h!r}: give at least two key terms")
        for term in entry.get("terms", []):
            if plain(str(term)).casefold() not in text:
                problems.append(f"{h!r} -> {entry['booklet']!r}: the term {term!r} is not in that section")
    for key in set(coverage) - set(headings):
        problems.append(f"{booklets.COVERAGE} maps {key!r}, which is not a section of the rulebook")
    assert not problems, "\n".join(problems)


# --- readings of unclear rules ------------------------------------------------------
UNCLEAR = "Where the rulebook is unclear"


def booklet_doc(game: str):
    """The game's booklet.md, parsed (no build: the marks are text)."""
    folder = cardsets.template_dir(registry.find(game))
    return parse((folder / booklets.BOOKLET).read_text("utf-8"), folder / booklets.BOOKLET)


def design_readings(game: str) -> dict[int, str]:
    """The numbered readings of ``docs/design/<game>.md``: ``N. **Title**``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "design" / f"{game}.md").read_text("utf-8")
    return {int(n): title for n, title in re.findall(r"(?m)^(\d+)\. \*\*(.+?)\*\*", text)}


def marks(block) -> list[int]:
    from generator.booklet_md import readings

    out = readings(block.text) + [n for _, t in block.items for n in readings(t)]
    out += [n for row in block.rows for cell in row for n in readings(cell)]
    for child in block.children:
        if child is not None:
            out += marks(child)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_is_marked_and_listed_where_the_rulebook_is_unclear(game):
    """A rule that is our reading of an unclear rulebook carries a mark ``{Rn}``
    (n: its number in docs/design/<game>.md), and the booklet ends with the
    list of them, each once, each marked somewhere above."""
    doc = booklet_doc(game)
    headings = [b for b in doc.blocks if b.kind == "heading" and b.level == 2]
    assert headings[-1].text == UNCLEAR, f"the booklet's last section must be {UNCLEAR!r}"
    end = doc.blocks.index(headings[-1])
    marked = [n for b in doc.blocks[:end] for n in marks(b)]
    [listing] = [b for b in doc.blocks[end:] if b.kind == "bullets"]
    listed = [int(m.group(1)) for _, t in listing.items for m in [re.match(r"\*\*R(\d+)\*\* ", t)] if m]
    assert len(listed) == len(listing.items), "each item of the list starts with its mark, **R12**"
    assert listed == sorted(set(listed)), "each reading listed once, in order"
    assert set(marked) == set(listed), (f"marked, not listed: {sorted(set(marked) - set(listed))}; "
                                         f"listed, not marked: {sorted(set(listed) - set(marked))}")
    known = design_readings(game)
    assert set(listed) <= set(known), f"no such reading in docs/design/{game}.md: {sorted(set(listed) - set(known))}"
    assert len(set(marked)) >= 8, "every booklet rests on readings; mark them"


def test_a_reading_mark_prints_as_a_small_raised_mark_and_braces_are_refused():
    from generator.booklet_pdf import markup

    assert plain("It stays.{R22} Then") == "It stays. Then"
    assert "<super>" in markup("It stays.{R22}") and "R22</font></super>" in markup("It stays.{R22}")
    with pytest.raises(BookletError, match=r"b.md:3:1: braces make a reading's mark"):
        parse("# T\n\nA {set} of things.\n", "b.md")


@pytest.mark.parametrize("game", GAMES)
def test_a_round_overview_numbers_its_steps_as_its_sections(game):
    """Where a section's numbered steps stand for its numbered subsections
    (### 1. Roll the dice), step n's bold words are in subsection n's heading."""
    doc = booklet_doc(game)
    found = 0
    for heading, section in doc.sections().items():
        if section.level != 2:
            continue
        subs = [b.text for b in section.blocks if b.kind == "heading" and b.level == 3
                and re.match(r"^\d+\. ", b.text)]
        overview = next((b for b in section.blocks if b.kind == "steps"), None)
        if len(subs) < 3 or overview is None:
            continue
        found += 1
        assert len(overview.items) == len(subs), f"{heading}: {len(overview.items)} steps, {len(subs)} sections"
        for k, ((_, item), sub) in enumerate(zip(overview.items, subs), start=1):
            assert sub.startswith(f"{k}. "), sub
            label = re.match(r"^\*\*(.+?)\*\*", item)
            assert label, f"{heading}: step {k} starts with its name in bold"
            words = set(label.group(1).casefold().split())
            assert words <= set(sub.casefold().replace(".", " ").split()), (k, label.group(1), sub)
    if game == "labnotes":
        assert found == 1


# --- numbers the engine checks ------------------------------------------------------
def _cell(text: str) -> str:
    return plain(text).strip()


@pytest.mark.parametrize("game", GAMES)
def test_the_setup_table_is_what_the_engine_deals(game):
    printable, _, booklet = planned(game)
    tables = [t for _, t in booklet.doc.tables_under("Setup") if _cell(t.rows[0][0]) == "Players"]
    assert tables, "booklet.md has no setup table (a 'Players' column under a heading with 'Setup')"
    module = hooks(game)
    rules = printable.cardset.play
    seen = set()
    mismatches = []
    for table in tables:
        header = [_cell(h) for h in table.rows[0]]
        for row in table.rows[1:]:
            players = int(_cell(row[0]))
            seen.add(players)
            dealt = module.setup_quantities(rules, players)
            for column, value in zip(header[1:], row[1:]):
                assert column in dealt, f"setup_quantities gives no {column!r} (it gives {sorted(dealt)})"
                if _cell(value) != str(dealt[column]):
                    mismatches.append(f"{players} players, {column}: the booklet says {_cell(value)!r}, "
                                      f"the engine deals {dealt[column]!r}")
    lo, hi = printable.manifest.players
    assert seen >= set(range(lo, hi + 1)) - set(getattr(module, "SETUP_NOT_TABLED", ())), seen
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_example_is_what_the_engine_scores(game):
    printable, _, booklet = planned(game)
    tables = booklet.doc.tables_under("Worked example")
    assert tables, "booklet.md has no table under a 'Worked example' heading"
    scored = hooks(game).worked_example(printable.cardset.play)
    checked = 0
    for _, table in tables:
        header = [_cell(h) for h in table.rows[0]]
        for row in table.rows[1:]:
            label = _cell(row[0])
            assert label in scored, f"the engine's example has no row {label!r} (it has {sorted(scored)})"
            for column, value in zip(header[1:], row[1:]):
                assert column in scored[label], f"row {label!r}: the engine gives no column {column!r}"
                assert _cell(value) == str(scored[label][column]), (label, column, value, scored[label][column])
                checked += 1
    assert checked >= 3


# --- the PDFs ------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_the_pdfs_embed_their_fonts_and_have_the_papers_size(game, paper):
    out = printed(game, paper)
    w, h = (round(pt(v), 1) for v in PAPERS[paper].size)
    for name, data, size, pages in (("rules", out.rules, (w, h), out.rules_pages),
                                    ("rules-booklet", out.folded, (h, w), out.folded_pages),
                                    ("player-aid", out.aid, (w, h), 1)):
        reader = PdfReader(io.BytesIO(data))
        assert len(reader.pages) == pages, name
        for page in reader.pages:
            assert (round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)) == size, name
        fonts = fonts_used(reader)
        assert fonts, name
        for base, font in fonts.items():
            desc = (font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if font.get("/Subtype") == "/Type0"
                    else font.get("/FontDescriptor"))
            assert desc is not None and "/FontFile2" in desc.get_object(), f"{name}: {base} is not embedded"
            assert "DejaVuSans" in base, f"{name}: {base}"
    assert out.rules_pages >= 4
    title = PdfReader(io.BytesIO(out.rules)).pages[0].extract_text()
    assert planned(game)[2].doc.title.split(":")[0] in title


def _text(pdf: Path, page: int, crop: tuple[float, float, float, float] | None = None) -> Counter:
    """The characters (spaces aside) poppler reads on a page, or on a part of it (x, y, w, h in pt)."""
    box = [] if crop is None else ["-x", str(int(crop[0])), "-y", str(int(crop[1])), "-W", str(int(crop[2])),
                                   "-H", str(int(crop[3]))]
    out = subprocess.run(["pdftotext", "-r", "72", "-f", str(page), "-l", str(page), *box, str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    return Counter("".join(out.split()))


@pytest.mark.parametrize("game", GAMES)
def test_the_folded_booklet_is_in_saddle_stitch_order(game, tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: `make debs` installs it")
    half = printed(game, "a4").half
    pages = len(PdfReader(io.BytesIO(half)).pages)
    folded = PdfReader(io.BytesIO(printed(game, "a4").folded))
    (tmp_path / "half.pdf").write_bytes(half)
    (tmp_path / "folded.pdf").write_bytes(printed(game, "a4").folded)
    assert len(folded.pages) % 2 == 0 and (2 * len(folded.pages)) % 4 == 0
    assert len(folded.pages) == 2 * -(-pages // 4)
    order = folded_order(pages)
    n = 2 * len(folded.pages)
    assert order[0] == (n if n == pages else 0, 1)  # the first sheet holds the last page and the first
    w, h = float(folded.pages[0].mediabox.width), float(folded.pages[0].mediabox.height)
    page = lambda i: _text(tmp_path / "half.pdf", i) if i else Counter()  # noqa: E731
    for number, (left, right) in enumerate(order, start=1):
        got_left = _text(tmp_path / "folded.pdf", number, (0, 0, w / 2, h))
        got_right = _text(tmp_path / "folded.pdf", number, (w / 2, 0, w / 2, h))
        assert got_left == page(left) and got_right == page(right), (number, left, right)


def test_folded_order_puts_each_sheet_around_the_fold():
    assert folded_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert folded_order(6) == [(0, 1), (2, 0), (6, 3), (4, 5)]
    for pages in range(1, 30):
        order = folded_order(pages)
        assert len(order) == 2 * -(-pages // 4)
        got = sorted(p for side in order for p in side if p)
        assert got == list(range(1, pages + 1))
        assert all(a + b == len(order) * 2 + 1 for a, b in order if a and b)


def test_imposing_pads_with_blank_halves():
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(pt(148.5), pt(210)))
    for _ in range(3):
        c.showPage()
    c.save()
    sides = PdfReader(io.BytesIO(impose(buf.getvalue(), "a4"))).pages
    assert len(sides) == 2
    assert (round(float(sides[0].mediabox.width)), round(float(sides[0].mediabox.height))) == (842, 595)


@pytest.mark.parametrize("game", GAMES)
def test_the_player_aid_is_one_page(game):
    reader = PdfReader(io.BytesIO(printed(game, "letter").aid))
    assert len(reader.pages) == 1
    assert len(reader.pages[0].extract_text().split()) > 80


# --- what stops a build ----------------------------------------------------------------
def test_a_game_without_a_booklet_does_not_build(tmp_path, monkeypatch):
    monkeypatch.setattr(booklets, "booklet_dir", lambda printable: tmp_path)
    with pytest.raises(BuildError) as err:
        plan(BuildOptions(games=[GAMES[0]], layouts=("grid",)))
    assert f"{tmp_path / 'booklet.md'}: missing" in str(err.value)
    assert "player-aid.md" in str(err.value)


def test_an_authors_set_without_a_card_the_booklet_shows_gets_the_rulebooks_pictures(tmp_path):
    game = "labnotes" if "labnotes" in GAMES else GAMES[0]
    printable, _, booklet = planned(game)
    text = (booklet.folder / booklets.BOOKLET).read_text("utf-8")
    decks = {c.id: c.source for c in printable.manifest.components if c.source and c.source.endswith(".csv")}
    shown = [(m.group(1), m.group(2)) for m in re.finditer(r"\]\(faces?:([a-z-]+)/([a-z0-9_-]+)", text)
             if m.group(1) in decks]
    for component, piece in shown[:4]:  # some ids are fixed by the rules (a tool's ability): try another
        folder = tmp_path / f"{component}-{piece}"
        shutil.copytree(cardsets.data_dir(registry.find(game)), folder)
        data = (folder / decks[component]).read_text("utf-8")
        (folder / decks[component]).write_text(data.replace(f"\n{piece},", f"\n{piece}-renamed,"), "utf-8")
        try:
            [(_, _, authored)] = plan(BuildOptions(data_dir=folder, layouts=("grid",)))
        except BuildError as exc:
            assert "booklet" not in str(exc)
            continue
        assert authored.note.startswith("The rules booklet's pictures and counts show the rulebook's own cards")
        assert f"{component} has no piece '{piece}'" in authored.note
        return
    pytest.fail(f"no card the booklet shows could be renamed in a copy of the set: {shown[:4]}")


def test_a_custom_sets_booklet_and_aid_say_its_own_counts_and_cards(tmp_path):
    """A Lab Notes set of 29 tool cards (the Centrifuge in 4 copies), 19
    notecards and a tool renamed: its booklet says 29, 19 and the new name,
    its setup table is what the engine deals with its cards, and its player
    aid names the renamed tool (the game's own set says 30 and 20)."""
    if "labnotes" not in GAMES:
        pytest.skip("Lab Notes is not installed")
    own = planned("labnotes")[2]
    own_box = own.doc.sections()["What is in the box"].text()
    assert "Tool cards 30 6 different tools, 5 copies of each" in own_box and "Notecards 20" in own_box
    folder = tmp_path / "my-lab"
    shutil.copytree(cardsets.data_dir(registry.find("labnotes")), folder)
    tools = (folder / "tools.csv").read_text("utf-8")
    tools = tools.replace("Before you select your die, reroll any number of available dice up to 2 times.\",yes,5",
                          "Before you select your die, reroll any number of available dice up to 2 times.\",yes,4")
    tools = tools.replace("fume-hood,Fume Hood,", "fume-hood,Extractor Fan,")
    (folder / "tools.csv").write_text(tools, "utf-8")
    notes = (folder / "notecards.csv").read_text("utf-8").splitlines(keepends=True)
    (folder / "notecards.csv").write_text("".join(n for n in notes if not n.startswith("urea,")), "utf-8")
    [(printable, _, booklet)] = plan(BuildOptions(data_dir=folder, layouts=("grid",)))
    assert sum(t.copies for t in printable.cardset.cards.tools) == 29 and not booklet.note
    box = booklet.doc.sections()["What is in the box"].text()
    assert "Tool cards 29 6 different tools, 4 to 5 copies of each" in box and "Notecards 19" in box
    assert "Shuffle the 15 notecards and the 4 Lab Fires" in booklet.doc.sections()["Setup"].text()
    [table] = [t for _, t in booklet.doc.tables_under("Setup") if _cell(t.rows[0][0]) == "Players"]
    deck = table.rows[0].index("Notecards in the deck")
    assert {r[deck] for r in table.rows[1:]} == {"17"}      # 19 cards, 2 face up: the engine's deal
    assert "Extractor Fan" in booklet.doc.sections()["The six tools"].text()
    aid = PdfReader(io.BytesIO(booklets_pdf.render_aid(booklet, booklets_pdf.aid_look("a4")))).pages[0].extract_text()
    assert "Extractor Fan" in aid and "Fume Hood" not in aid


def test_a_booklet_mistake_names_its_file_and_line():
    with pytest.raises(BookletError) as err:
        parse("# T\n\n## A\n\n#### deep\n\n| a | b |\n|---|---|\n| 1 |\n\n1. one\n3. three\n\nan **open\n", "b.md")
    assert err.value.problems == [
        "b.md:5:1: only '#', '##' and '###' headings are allowed",
        "b.md:9:1: this row has 1 cells, the header 2",
        "b.md:7:1: a table needs at least one row under its header",
        "b.md:12:1: step 3 should be numbered 2",
        "b.md:14:1: a '**' is not closed",
    ]
    doc = parse("# T\n\nWater is H₂O ☢ and 甲烷.\n", "c.md")
    [problem] = booklets.glyph_problems(doc)
    assert problem.startswith("c.md:3: characters the printed font cannot draw: '甲' (U+7532), '烷'")


def test_a_player_aid_too_long_stops_the_build_before_any_file_is_written(tmp_path, monkeypatch):
    import dataclasses

    from generator.build import build

    real = booklets.load

    def long_aid(printable, rendered):
        booklet = real(printable, rendered)
        return dataclasses.replace(booklet, aid=parse("# Aid\n\n" + "Words to fill the page.\n\n" * 90, "aid.md"))

    monkeypatch.setattr(booklets, "load", long_aid)
    with pytest.raises(BuildError, match=r"aid.md: the player aid takes \d+ pages; it must fit one"):
        build(BuildOptions(games=[GAMES[0]], out=tmp_path, papers=("a4",), layouts=("grid",), svg=False))
    assert list(tmp_path.rglob("*.pdf")) == []


def test_a_booklet_too_wide_or_too_long_is_refused(monkeypatch):
    import dataclasses

    from generator.booklet_pdf import flat_look, render_aid

    booklet = planned(GAMES[0])[2]
    wide = dataclasses.replace(booklet, doc=parse("# T\n\n| a |\n|---|\n| " + "W" * 120 + " |\n", "w.md"))
    with pytest.raises(BookletError, match=r"w.md:3: the table is wider than the page"):
        render_rules(wide, flat_look("a4"))
    long_aid = dataclasses.replace(booklet, aid=parse("# Aid\n\n" + "Some words to fill the page.\n\n" * 120,
                                                      "aid.md"))
    with pytest.raises(BookletError, match=r"aid.md: the player aid takes \d+ pages; it must fit one"):
        render_aid(long_aid, flat_look("a4"))
