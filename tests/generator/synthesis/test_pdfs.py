"""The Synthesis print-and-play set, opened and inspected as real PDFs:
counts against the rulebook's component list, sizes, what each board side
and card says (read back through the embedded fonts, checked against the
data files read here on their own), the fonts, and backs that land behind
their fronts."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from tests.conftest import RULES
from tests.generator.compounded.pdftext import card_of, face_texts
from tests.generator.pdfinspect import MM, fonts_used, fronts, inspect

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "cardsdata" / "synthesis"
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

# Rulebook, "Game Components": what every printed set must match.
QUOTES = ("Active Element disc", "Bond die", "Mutation die", "12 double-sided Synthesis boards",
          "26 Project cards (for Solo mode)", "21 Goal cards in two types", "10 Molecular Pattern cards",
          "11 Molecular Chain cards")
DECKS = {"boards": 12, "pattern-cards": 10, "chain-cards": 11, "project-cards": 26}
SIZES_MM = {"boards": (185, 250), "pattern-cards": (63, 88), "chain-cards": (63, 88), "project-cards": (63, 88),
            "reference-cards": (70, 120)}
DUPLEX = ("boards", "pattern-cards", "chain-cards", "project-cards", "reference-cards")


def rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


def doc(name: str) -> dict:
    return yaml.safe_load((DATA / name).read_text())


def test_counts_are_quoted_from_the_rulebook():
    rulebook = RULES / "synthesis.md"
    if not rulebook.exists():
        pytest.skip(f"rulebook not found at {rulebook} (outside the repository)")
    text = rulebook.read_text()
    for quote in QUOTES:
        assert quote in text, quote
    assert DECKS["pattern-cards"] + DECKS["chain-cards"] == 21


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_file_is_on_the_paper(built, paper):
    files = sorted((built / paper).glob("*.pdf"))
    names = {f.name.removeprefix(f"synthesis-{paper}-").removesuffix(".pdf") for f in files}
    expected = {c + tail for c in DUPLEX for tail in ("", "-bleed")} | {"dice", "rules", "rules-booklet", "player-aid",
                                                                                "calibration"}
    assert names == expected
    for f in files:
        for page in PdfReader(f).pages:
            size = sorted((round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)))
            assert size == sorted(round(v, 1) for v in PAPERS[paper]), f


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_component_counts_match_the_rulebook(built, paper, suffix):
    for comp, count in DECKS.items():
        seen = fronts(built / paper / f"synthesis-{paper}-{comp}{suffix}.pdf")
        assert sum(seen.values()) == count and set(seen.values()) == {1}, (comp, seen)
    boards = {card_of(k) for k in fronts(built / paper / f"synthesis-{paper}-boards{suffix}.pdf")}
    assert boards == {chr(ord("a") + i) for i in range(12)}
    assert {card_of(k) for k in fronts(built / paper / f"synthesis-{paper}-pattern-cards{suffix}.pdf")} == {
        r["id"] for r in rows("patterns.csv")}
    assert {card_of(k) for k in fronts(built / paper / f"synthesis-{paper}-chain-cards{suffix}.pdf")} == {
        c["id"] for c in doc("chains.yaml")["cards"]}
    reference = fronts(built / paper / f"synthesis-{paper}-reference-cards{suffix}.pdf")
    assert sum(reference.values()) == 4


def test_project_cards_by_difficulty():
    """Rulebook, Predictable Results: one, two or three shaded hexagons; the
    design notes: 9 easier, 9 moderate, 8 high."""
    levels = Counter(c["difficulty"] for c in doc("projects.yaml")["cards"])
    assert levels == {1: 9, 2: 9, 3: 8}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_piece_sizes(built, paper):
    for comp, (w, h) in SIZES_MM.items():
        reader = PdfReader(built / paper / f"synthesis-{paper}-{comp}.pdf")
        for p in inspect(reader, 0)[0]:
            size = sorted((round((p.box.x2 - p.box.x) / MM, 1), round((p.box.y2 - p.box.y) / MM, 1)))
            assert size == sorted((w, h)), comp
    # a board is one to a page, on both papers, with or without bleed
    for suffix in ("", "-bleed"):
        reader = PdfReader(built / paper / f"synthesis-{paper}-boards{suffix}.pdf")
        assert len(reader.pages) == 24 and all(len(inspect(reader, i)[0]) == 1 for i in range(24))


def test_the_dice_and_the_disc_share_one_page(built):
    for paper in ("a4", "letter"):
        reader = PdfReader(built / paper / f"synthesis-{paper}-dice.pdf")
        assert len(reader.pages) == 1
        placed = {p.name.rsplit(".", 1)[0]: p.box for p in inspect(reader, 0)[0]}
        assert set(placed) == {"dice.bond.front", "dice.mutation.front", "disc-ring.front", "disc-names.front"}
        size = {k: (round((b.x2 - b.x) / MM, 1), round((b.y2 - b.y) / MM, 1)) for k, b in placed.items()}
        assert size["disc-ring.front"] == (110, 110) and size["disc-names.front"] == (72, 72)
        assert size["dice.bond.front"] == size["dice.mutation.front"] == (66, 95.7)   # a 22 mm cube with tabs
        # the name disc is smaller than the ring, so the ring's colours show round it
        assert size["disc-names.front"][0] < size["disc-ring.front"][0] - 30


def test_the_dice_show_every_face(built):
    texts = face_texts(built / "a4" / "synthesis-a4-dice.pdf")
    dice = doc("dice.yaml")
    bond = next(v for k, v in texts.items() if k.startswith("dice.bond."))
    assert [t for t in bond if t != "BOND" and t != "DIE"] == [f["name"].upper() for f in dice["bond_die"]]
    mutation = next(v for k, v in texts.items() if k.startswith("dice.mutation."))
    for face in dice["mutation_die"]:
        assert face["name"] in mutation
    assert mutation.count("MANDATORY") == 3 and mutation.count("OPTIONAL") == 3


def test_the_disc_shows_the_colours_the_roller_and_four_name_boxes(built):
    texts = face_texts(built / "a4" / "synthesis-a4-dice.pdf")
    ring = next(v for k, v in texts.items() if k.startswith("disc-ring."))
    rules = doc("rules.yaml")
    words = [t for t in ring if t in {c.upper() for c in rules["disc"]["ring"]}]
    assert words == [c.upper() for c in rules["disc"]["ring"]]          # clockwise from box 1
    # the words of the roller's sector: its colour, then "ROLLS THE DICE"
    roller = ring.index(rules["disc"]["roller"].upper())
    assert "ROLLS THE DICE" in ring[roller:roller + 3] and ring.count("ROLLS THE DICE") == 1
    names = next(v for k, v in texts.items() if k.startswith("disc-names."))
    assert [t for t in names if t.startswith("BOX ")] == ["BOX 1", "BOX 2", "BOX 3", "BOX 4"]


def _hexagons(layout: dict) -> list[str]:
    out = []
    for r, line in enumerate(layout["formula"]):
        for c, token in enumerate(line.split()):
            if token == "o":
                out.append(f"{chr(65 + r)}{c + 1}")
    return out


def test_each_board_side_shows_its_formula_table_and_score_formula(built):
    texts = face_texts(built / "a4" / "synthesis-a4-boards.pdf")
    layouts = {(lay["board"], lay["side"]): lay for lay in doc("boards.yaml")["layouts"]}
    labels = [b["label"].upper() for b in doc("rules.yaml")["score_boxes"]]
    checked = 0
    for form, items in texts.items():
        board = card_of(form).upper()
        side = "A" if ".front." in form else "B"
        lay = layouts[(board, side)]
        assert f"BOARD {board}" in items and f"SIDE {side}" in items
        # every hexagon but S named in it, as the phone and the paper score tool name it
        named = [t for t in items if re.fullmatch(r"[A-Z]\d{1,2}", t)]
        assert sorted(named) == sorted(_hexagons(lay)), (board, side)
        assert "S" in items and "PLAYER" in items
        assert [str(t) for t in range(1, 29)] == [t for t in items if t.isdigit()][:28]   # the turn track
        for word in ("MOLECULAR VOLUME TABLE", "ELEMENTAL MOLECULES", "TOTAL"):
            assert word in items
        joined = " ".join(items)
        assert all(label in joined for label in labels)
        checked += 1
    assert checked == 24


def test_each_goal_card_prints_its_name_points_maximum_and_thresholds(built):
    patterns = face_texts(built / "a4" / "synthesis-a4-pattern-cards.pdf")
    for row in rows("patterns.csv"):
        items = next(v for k, v in patterns.items() if card_of(k) == row["id"] and ".front." in k)
        assert items[0] == "MOLECULAR PATTERN" and items[1] == row["name"]
        assert items[items.index("MAX") + 1] == row["maximum"] and items[items.index("MAX") + 2] == row["points"]
        assert [items[items.index(w) + 1] for w in ("EASY", "MEDIUM", "HARD")] == [row["green"], row["yellow"], row["red"]]
    chains = face_texts(built / "a4" / "synthesis-a4-chain-cards.pdf")
    for card in doc("chains.yaml")["cards"]:
        items = next(v for k, v in chains.items() if card_of(k) == card["id"] and ".front." in k)
        assert items[:2] == ["MOLECULAR CHAIN", card["name"]]
        assert items[items.index("MAX") + 1] == str(card["maximum"])
        assert f"{card['points']} points each time it is found" in items
        assert [items[items.index(w) + 1] for w in ("EASY", "MEDIUM", "HARD")] == [
            str(card[k]) for k in ("green", "yellow", "red")]
    backs = {card_of(k): v for k, v in chains.items() if ".back." in k}
    assert all(v == ["SYNTHESIS", "MOLECULAR CHAIN"] for v in backs.values()) and len(backs) == 11


def test_each_project_card_asks_for_its_elemental_molecules(built):
    texts = face_texts(built / "a4" / "synthesis-a4-project-cards.pdf")
    for card in doc("projects.yaml")["cards"]:
        items = next(v for k, v in texts.items() if card_of(k) == card["id"] and ".front." in k)
        n = card["elemental"]
        assert f"CREATE {n} ELEMENTAL MOLECULE{'S' if n != 1 else ''}" in items
        assert items[1] == card["id"].replace("-", " ").capitalize()


def test_every_font_is_embedded(built):
    files = sorted((built / "a4").glob("*.pdf")) + sorted((built / "letter").glob("*.pdf"))
    for f in files:
        if "calibration" in f.name:
            continue
        fonts = fonts_used(PdfReader(f))
        assert fonts, f
        for name, font in fonts.items():
            desc = (font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if font.get("/Subtype") == "/Type0"
                    else font.get("/FontDescriptor"))
            assert desc is not None, f"{f}: {name} is a standard, unembedded font"
            assert any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"{f}: {name}"
            assert "DejaVuSans" in name, f"{f}: unexpected font {name}"
    if shutil.which("pdffonts"):
        for f in files[:3]:
            listed = subprocess.run(["pdffonts", str(f)], capture_output=True, text=True, check=True).stdout
            body = listed.splitlines()[2:]
            assert body and all(" yes " in line and "DejaVuSans" in line for line in body), listed


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_line_up_for_long_edge_duplex(built, paper):
    checked = Counter()
    for comp in DUPLEX:
        for suffix in ("", "-bleed"):
            reader = PdfReader(built / paper / f"synthesis-{paper}-{comp}{suffix}.pdf")
            assert len(reader.pages) % 2 == 0
            for i in range(0, len(reader.pages), 2):
                front, _ = inspect(reader, i)
                back, _ = inspect(reader, i + 1)
                W = float(reader.pages[i].mediabox.width)
                by_place = {b.box.round(1): b for b in back}
                for f in front:
                    mirrored = (round(W - f.box.x2, 1), round(f.box.y, 1), round(W - f.box.x, 1), round(f.box.y2, 1))
                    b = by_place[mirrored]
                    # a board's side B is behind its own side A; every card's back behind it
                    piece = f.name.split(".")[:-2]
                    assert b.name.split(".")[:-2] == piece and b.name.split(".")[-2] == "back", (f.name, b.name)
                    checked[comp] += 1
    assert checked == {"boards": 24, "pattern-cards": 20, "chain-cards": 22, "project-cards": 52,
                       "reference-cards": 8}


def test_the_set_comes_with_its_rules_booklet_and_printing_guide(built):
    guide = (built / "PRINTING.md").read_text()
    for words in ("Synthesis boards", "side B on the back", "paper fastener", "8 markers", "Player reference cards"):
        assert words in guide, words
    title = PdfReader(built / "a4" / "synthesis-a4-rules.pdf").pages[0].extract_text()
    assert "Synthesis" in title and "1 to 8 players" in title
