"""The Compounded print-and-play set, opened and inspected as real PDFs:
counts against the rulebook's component list, sizes, what each card says
(its elements checked against RDKit's own reading of its structure), the
fonts, and backs that land behind their fronts."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from rdkit import Chem

from tests.conftest import RULES
from tests.generator.compounded.pdftext import card_of, face_texts
from tests.generator.pdfinspect import MM, fonts_used, fronts, inspect

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "compounded"
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

# Rulebook, "Components": what every printed set must match.
COMPONENTS = {
    "compound-cards": ("55 Compound cards", 55),
    "lab-partner-cards": ("20 Lab Partner Cards", 20),
    "tool-tiles": ("35 Tool tiles", 35),
    "flame-tokens": ("30 Flame tokens", 30),
    "scientist-pieces": ("40 Scientist pieces (8 in each scientist color)", 40),
    "element-tokens": ("90 Element gems", 90),
    "workbenches": ("5 Workbenches", 5),
    "reminder-cards": ("5 Reminder cards", 5),
    "lead-tray": ("1 Lead Scientist tray", 1),
    "trade-dish": ("1 Evaporating Trade Dish", 1),
}
SCOREBOARD = ("1 Scoreboard", 1)
GEMS = {"h": ("25 Hydrogen (Clear)", 25), "o": ("20 Oxygen (Red)", 20), "n": ("15 Nitrogen (Blue)", 15),
        "c": ("15 Carbon (Black)", 15), "ca": ("10 Calcium (Green)", 10), "s": ("5 Sulfur (Yellow)", 5)}
SIZES_MM = {"compound-cards": (70, 70), "lab-partner-cards": (88, 88), "tool-tiles": (45, 45),
            "flame-tokens": (11, 11), "scientist-pieces": (15, 15), "element-tokens": (15, 15),
            "workbenches": (185, 250), "reminder-cards": (70, 120), "lead-tray": (110, 150),
            "trade-dish": (120, 120)}
ORDER = ("H", "O", "N", "C", "Ca", "S")
"""The Workbench's order of the elements, which the cards follow."""
STATE_WORDS = {"LIQUID", "SOLID", "GAS"}


def rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


def rdkit_counts(smiles: str) -> Counter:
    """Every atom of the structure, hydrogens included, as RDKit reads it."""
    return Counter(a.GetSymbol() for a in Chem.AddHs(Chem.MolFromSmiles(smiles)).GetAtoms())


def formula_counts(formula: str) -> Counter:
    """Atoms of a written formula, groups in brackets included: Ca(OH)2, CO(NH2)2."""
    while "(" in formula:
        formula = re.sub(r"\(([^()]*)\)(\d*)", lambda m: m.group(1) * int(m.group(2) or 1), formula)
    found: Counter = Counter()
    for e, k in re.findall(r"([A-Z][a-z]?)(\d*)", formula):
        found[e] += int(k or 1)
    return found


def test_counts_are_quoted_from_the_rulebook():
    rulebook = RULES / "compounded.md"
    if not rulebook.exists():
        pytest.skip(f"rulebook not found at {rulebook} (outside the repository)")
    text = rulebook.read_text()
    for quote, _ in [*COMPONENTS.values(), SCOREBOARD, *GEMS.values()]:
        assert quote in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_file_is_on_the_paper(built, paper):
    files = sorted((built / paper).glob("*.pdf"))
    names = {f.name.removeprefix(f"compounded-{paper}-").removesuffix(".pdf") for f in files}
    expected = {c + tail for c in COMPONENTS for tail in ("", "-bleed")} | {"scoreboard", "rules", "rules-booklet", "player-aid",
                                                                                  "calibration"}
    assert names == expected
    for f in files:
        for page in PdfReader(f).pages:
            size = sorted((round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)))
            assert size == sorted(round(v, 1) for v in PAPERS[paper]), f


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_component_counts_match_the_rulebook(built, paper, suffix):
    for comp, (_, count) in COMPONENTS.items():
        seen = fronts(built / paper / f"compounded-{paper}-{comp}{suffix}.pdf")
        assert all(k.startswith(comp + ".") for k in seen), seen
        assert sum(seen.values()) == count, (comp, seen)
        by_card = Counter({k.split(".")[1]: v for k, v in seen.items()})
        if comp == "compound-cards":
            assert len(by_card) == 55 and sum(v for k, v in by_card.items() if k.startswith("lab-fire")) == 5
        if comp == "tool-tiles":
            # a Fire Extinguisher for each of 5 scientists; 6 of each other tool
            assert by_card == {"fire_extinguisher": 5, "pipette": 6, "safety_goggles": 6, "journal": 6,
                               "graduated_cylinder": 6, "bunsen_burner": 6}
        if comp == "scientist-pieces":
            assert by_card == {c: 8 for c in ("white", "pink", "teal", "grey", "brown")}
        if comp == "workbenches":
            assert set(by_card.values()) == {1} and len(by_card) == 5   # one in each scientist colour
        if comp == "element-tokens":
            assert by_card == {k: n for k, (_, n) in GEMS.items()}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_piece_sizes(built, paper):
    for comp, (w, h) in SIZES_MM.items():
        reader = PdfReader(built / paper / f"compounded-{paper}-{comp}.pdf")
        for p in inspect(reader, 0)[0]:
            size = sorted((round((p.box.x2 - p.box.x) / MM, 1), round((p.box.y2 - p.box.y) / MM, 1)))
            assert size == sorted((w, h)), comp
    # "Lab Partner cards are oversized cards"
    assert SIZES_MM["lab-partner-cards"][0] > SIZES_MM["compound-cards"][0]


def _after(items: list[str], word: str, keep) -> list[str]:
    start = items.index(word) + 1
    out = []
    for item in items[start:]:
        if not keep(item):
            break
        out.append(item)
    return out


@pytest.mark.parametrize("deck", ["compounds.csv", "lab_partners.csv"])
def test_each_card_prints_its_name_points_formula_states_elements_and_bonus(built, deck):
    comp = "compound-cards" if deck == "compounds.csv" else "lab-partner-cards"
    texts = {card_of(k): v for k, v in face_texts(built / "a4" / f"compounded-a4-{comp}.pdf").items()
             if ".front." in k}
    rewards = {r["id"]: r["name"] for r in rows("tools.csv") + rows("reactions.csv")}
    checked = 0
    for row in rows(deck):
        items = texts[row["id"]]
        if row["kind"] == "lab_fire":
            assert items[0] == "LAB FIRE"
            continue
        assert row["name"] in items
        assert items[items.index("PTS") - 1] == row["points"]
        # the formula's runs (letters, subscript digits) up to the first state word
        start = items.index("PTS") + 1
        end = next(i for i in range(start, len(items)) if items[i] in STATE_WORDS)
        printed = "".join(items[start:end])
        assert printed == row["formula"], row["id"]   # the data's, as chemists write it (not Hill's order)
        assert formula_counts(printed) == rdkit_counts(row["smiles"]), row["id"]
        assert set(_after(items, items[end - 1], lambda t: t in STATE_WORDS)) <= STATE_WORDS
        # one gem spot per atom, in the Workbench's order of the elements
        gems = _after(items, "ELEMENTS", lambda t: t in ORDER)
        counts = rdkit_counts(row["smiles"])
        assert gems == sorted(counts.elements(), key=ORDER.index), row["id"]
        if row["reward"]:
            bonus = " ".join(_after(items, next(t for t in items if t.startswith("BONUS")),
                                     lambda t: t not in ("CLAIM", "ELEMENTS")))
            assert bonus == rewards[row["reward"]], row["id"]
        else:
            assert not any(t.startswith("BONUS") for t in items)
        if comp == "lab-partner-cards":
            assert items.count("CLAIM") == 2 and "LAB PARTNERS" in items
        checked += 1
    assert checked == (50 if deck == "compounds.csv" else 20)


def test_tool_tiles_name_their_tool_on_both_sides(built):
    texts = face_texts(built / "a4" / "compounded-a4-tool-tiles.pdf")
    tools = {r["id"]: r for r in rows("tools.csv")}
    for form, items in texts.items():
        tool = tools[card_of(form)]
        if ".front." in form:
            assert tool["name"].upper() in items and f"{tool['phase'].upper()} PHASE" in items
        else:
            assert items[0] == "SPENT" and tool["name"] in items


def test_workbenches_show_the_tracks_and_the_distribution(built):
    texts = face_texts(built / "a4" / "compounded-a4-workbenches.pdf")
    assert {card_of(k) for k in texts} == {"white", "pink", "teal", "grey", "brown"}
    for form, items in texts.items():
        assert f"{card_of(form).upper()} SCIENTIST" in items
        for word in ("1 DISCOVER", "2 STUDY", "3 RESEARCH", "4 LAB", "EVAPORATING DISH", "Journal", "+10", "+5",
                     "25 Hydrogen", "5 Sulfur", "START"):
            assert word in items, (form, word)


def test_tokens_say_what_they_are(built):
    elements = face_texts(built / "a4" / "compounded-a4-element-tokens.pdf")
    for form, items in elements.items():
        assert items[0] == {"h": "H", "o": "O", "n": "N", "c": "C", "ca": "Ca", "s": "S"}[card_of(form)]
    pieces = face_texts(built / "a4" / "compounded-a4-scientist-pieces.pdf")
    assert sorted(items[0] for items in pieces.values()) == ["BROWN", "GREY", "PINK", "TEAL", "WHITE"]
    flames = face_texts(built / "a4" / "compounded-a4-flame-tokens.pdf")
    assert list(flames.values()) == [["FLAME"]]


def test_every_font_is_embedded(built):
    for f in sorted((built / "a4").glob("*.pdf")) + sorted((built / "letter").glob("*scoreboard*.pdf")):
        fonts = fonts_used(PdfReader(f))
        assert fonts, f
        for name, font in fonts.items():
            desc = (font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if font.get("/Subtype") == "/Type0"
                    else font.get("/FontDescriptor"))
            assert desc is not None, f"{f}: {name} is a standard, unembedded font"
            assert any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"{f}: {name}"
            assert "DejaVuSans" in name, f"{f}: unexpected font {name}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_line_up_for_long_edge_duplex(built, paper):
    checked = 0
    for comp in ("compound-cards", "lab-partner-cards", "tool-tiles"):
        reader = PdfReader(built / paper / f"compounded-{paper}-{comp}.pdf")
        assert len(reader.pages) % 2 == 0
        for i in range(0, len(reader.pages), 2):
            front, _ = inspect(reader, i)
            back, _ = inspect(reader, i + 1)
            W = float(reader.pages[i].mediabox.width)
            by_place = {b.box.round(1): b for b in back}
            for f in front:
                mirrored = (round(W - f.box.x2, 1), round(f.box.y, 1), round(W - f.box.x, 1), round(f.box.y2, 1))
                b = by_place[mirrored]
                # the back of a tool tile is the same tool, spent
                assert b.name.split(".")[:2] == f.name.split(".")[:2] and b.name.split(".")[2] == "back"
                checked += 1
    assert checked == 55 + 20 + 35
