"""The Organic Soup print-and-play set, opened and inspected as real PDFs:
the counts of the rulebook's "About the Cards", recipe cards growing with
their level, each recipe's printed atom counts against RDKit's reading of its
molecule, a double bond's geometry as its SMILES fixes it, the names as text,
and every font embedded."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from rdkit import Chem

from engine import molecules
from engine.organicsoup.drawing import LOOKS
from tests.conftest import RULES
from tests.engine.organicsoup.stereo import drawn_cis, stereo_double_bonds
from tests.generator.organicsoup.cardtext import card_words, need_pdftotext, placed_card_words, printed_counts
from tests.generator.pdfinspect import MM, fonts_used, inspect

DATA = Path(__file__).resolve().parents[3] / "cardsdata" / "organicsoup"
PAPERS = ("a4", "letter")
SUFFIXES = ("", "-bleed")

# About the Cards: each count as the rulebook writes it.
ATOMS = {"Carbon": ("27 Carbon", 27), "Hydrogen": ("42 Hydrogen", 42), "Nitrogen": ("18 Nitrogen", 18),
         "Oxygen": ("27 Oxygen", 27)}
RECIPES = {"basic-recipes": ("4 basic", 4), "simple-recipes": ("20 simple", 20),
           "complex-recipes": ("20 complex", 20), "amino-recipes": ("20 amino/nucleic", 20)}
TOTALS = {"atoms": ("114 atom cards", 114), "recipes": ("64 recipe cards", 64),
          "turn-sequence": ("4 turn sequence cards", 4)}
LEVEL_ORDER = ("basic-recipes", "simple-recipes", "complex-recipes", "amino-recipes")


def pdf(built: Path, paper: str, component: str, suffix: str = "") -> Path:
    return built / paper / f"organicsoup-{paper}-{component}{suffix}.pdf"


def fronts(path: Path) -> Counter:
    """How many copies of each piece's front the file prints."""
    reader = PdfReader(path)
    out: Counter = Counter()
    for i in range(len(reader.pages)):
        for p in inspect(reader, i)[0]:
            if p.name.split(".")[-2] == "front":
                out[p.name.rsplit(".", 2)[0]] += 1
    return out


def recipes_csv() -> list[dict[str, str]]:
    import csv

    with open(DATA / "recipes.csv", newline="", encoding="utf-8") as f:
        return [row for row in csv.DictReader(f) if row.get("id")]


def test_the_counts_are_quoted_from_the_rulebook():
    rulebook = RULES / "organic-soup.md"
    if not rulebook.exists():
        pytest.skip(f"rulebook not found at {rulebook} (outside the repository)")
    text = rulebook.read_text()
    for quote, _ in [*ATOMS.values(), *RECIPES.values(), *TOTALS.values()]:
        assert quote in text, quote
    assert sum(n for _, n in ATOMS.values()) == TOTALS["atoms"][1]
    assert sum(n for _, n in RECIPES.values()) == TOTALS["recipes"][1]


def test_the_files_of_the_set(built):
    for paper in PAPERS:
        names = {f.name.removeprefix(f"organicsoup-{paper}-") for f in (built / paper).glob("*.pdf")}
        components = ["atoms", *LEVEL_ORDER, "turn-sequence"]
        assert names == {f"{c}{s}.pdf" for c in components for s in SUFFIXES} | {"rules.pdf", "rules-booklet.pdf", "player-aid.pdf",
                                                                                   "calibration.pdf"}
    guide = (built / "PRINTING.md").read_text()
    assert "organicsoup-a4-atoms.pdf` | 114 pieces" in guide and "What else to gather" in guide


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("suffix", SUFFIXES)
def test_component_counts_match_the_rulebook(built, paper, suffix):
    atoms = fronts(pdf(built, paper, "atoms", suffix))
    assert {k.removeprefix("atoms."): v for k, v in atoms.items()} == {
        name.lower(): n for name, (_, n) in ATOMS.items()}
    assert sum(atoms.values()) == TOTALS["atoms"][1]
    recipes = 0
    for component, (_, n) in RECIPES.items():
        found = fronts(pdf(built, paper, component, suffix))
        assert len(found) == n and set(found.values()) == {1}, (component, found)  # every recipe once
        recipes += n
    assert recipes == TOTALS["recipes"][1]
    assert fronts(pdf(built, paper, "turn-sequence", suffix)) == {"turn-sequence.turn-sequence": 4}


def test_every_recipe_of_the_data_is_printed_at_its_level(built):
    printed = {}
    for component in LEVEL_ORDER:
        for piece in fronts(pdf(built, "a4", component)):
            printed[piece.split(".", 1)[1]] = component
    assert printed == {row["id"]: f"{row['level']}-recipes" for row in recipes_csv()}


def card_sizes(path: Path) -> set[tuple[float, float]]:
    """Trim sizes (mm, short side first) of the cards a grid file prints."""
    reader = PdfReader(path)
    out = set()
    for i in range(len(reader.pages)):
        for p in inspect(reader, i)[0]:
            out.add(tuple(sorted((round((p.box.x2 - p.box.x) / MM, 1), round((p.box.y2 - p.box.y) / MM, 1)))))
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_recipe_cards_grow_with_their_level(built, paper):
    """The basic recipes are "the four smallest recipe cards", and each
    level up is a larger card: wider and taller."""
    sizes = []
    for component in LEVEL_ORDER:
        found = card_sizes(pdf(built, paper, component))
        assert len(found) == 1, (component, found)
        sizes.append(found.pop())
    for small, large in zip(sizes, sizes[1:]):
        assert small[0] < large[0] and small[1] < large[1], sizes
    assert sizes[0] == (44.0, 63.0)   # mini, as the atom cards
    assert card_sizes(pdf(built, paper, "atoms")) == {(44.0, 63.0)}


def test_printed_atom_counts_are_each_molecules_formula(built):
    """Every recipe card asks for the atom cards of its molecule, as RDKit
    counts them from the SMILES in the data (hydrogens included)."""
    need_pdftotext()
    expected = {}
    for row in recipes_csv():
        mol = Chem.AddHs(Chem.MolFromSmiles(row["smiles"]))
        expected[row["id"]] = dict(Counter(a.GetSymbol() for a in mol.GetAtoms()))
    seen = set()
    for paper in PAPERS:
        for component in LEVEL_ORDER:
            for piece, copies in card_words(pdf(built, paper, component)).items():
                rid = piece.split(".", 1)[1]
                for words in copies:
                    assert printed_counts(words) == expected[rid], (paper, rid, words)
                seen.add(rid)
    assert seen == set(expected)
    assert expected["glutamic-acid"] == {"C": 5, "H": 9, "N": 1, "O": 4}   # the rulebook's Glutamic Acid


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_double_bonds_are_printed_with_their_geometry(built, suffix):
    """A recipe whose SMILES fixes a double bond's geometry is printed with
    it: on Diaminomaleonitrile (Z) both amino groups on one side of the C=C.
    The molecule's atom letters are read back from the PDF in drawing order,
    the engine's layout order, which is RDKit's atom order."""
    need_pdftotext()
    checked = set()
    for row in recipes_csv():
        bonds = stereo_double_bonds(row["smiles"])
        if not bonds:
            continue
        assert LOOKS[row["level"]] == "explicit", row["id"]  # each atom its own letter
        letters = [a.element for a in molecules.explicit(row["smiles"]).atoms]
        for paper in PAPERS:
            copies = placed_card_words(pdf(built, paper, f"{row['level']}-recipes", suffix))
            for words in copies[f"{row['level']}-recipes.{row['id']}"]:
                texts = [w for w, _, _ in words]
                starts = [i for i in range(len(texts)) if texts[i:i + len(letters)] == letters]
                assert len(starts) == 1, (row["id"], texts)
                points = [(x, y) for _, x, y in words[starts[0]:starts[0] + len(letters)]]
                for a, b, c, d, cis in bonds:
                    assert drawn_cis(points, a, b, c, d) == cis, (row["id"], paper, suffix)
                if row["id"] == "diaminomaleonitrile":
                    mol = Chem.MolFromSmiles(row["smiles"])
                    amino = [a.GetIdx() for a in mol.GetAtoms() if a.GetSymbol() == "N" and a.GetTotalNumHs() == 2]
                    (_, b, c, _, _), = bonds
                    assert drawn_cis(points, amino[0], b, c, amino[1]), (paper, suffix)  # Z, not E
                checked.add(row["id"])
    assert checked == {"diaminomaleonitrile"}


def test_names_levels_and_facts_are_text(built):
    need_pdftotext()
    rows = {row["id"]: row for row in recipes_csv()}
    words = {"LEVEL": {"basic": "BASIC", "simple": "SIMPLE", "complex": "COMPLEX", "amino": "AMINO/NUCLEIC"}}
    for component in LEVEL_ORDER:
        for piece, copies in card_words(pdf(built, "letter", component)).items():
            row = rows[piece.split(".", 1)[1]]
            text = " ".join(copies[0])
            assert row["name"] in text and words["LEVEL"][row["level"]] in text
            assert " ".join(row["fact"].split()[:3]) in text
    atoms = card_words(pdf(built, "letter", "atoms"))
    for name in ATOMS:
        assert name.upper() in atoms[f"atoms.{name.lower()}"][0]
    sequence = " ".join(card_words(pdf(built, "letter", "turn-sequence"))["turn-sequence.turn-sequence"][0])
    for heading in ("Build molecules", "Trigger a reaction", "End your turn", "Winning"):
        assert heading in sequence


def test_every_font_is_embedded(built):
    files = sorted(built.rglob("*.pdf"))
    assert len(files) == 2 * (2 * 6 + 4)  # per paper: 6 components, grid and bleed; rules, rules-booklet, player-aid, calibration
    for f in files:
        fonts = fonts_used(PdfReader(f))
        assert fonts, f
        for name, font in fonts.items():
            desc = (font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                    if font.get("/Subtype") == "/Type0" else font.get("/FontDescriptor"))
            assert desc is not None, f"{f}: {name} is a standard font, not embedded"
            assert any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"{f}: {name}"
            assert "DejaVuSans" in name, f"{f}: unexpected font {name}"


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_backs_show_the_level_behind_each_card(built, suffix):
    """A hand's levels are seen by their backs (the decks are per level):
    every recipe card has its level's back behind it, every atom the same back."""
    for component in ("atoms", *LEVEL_ORDER, "turn-sequence"):
        reader = PdfReader(pdf(built, "a4", component, suffix))
        assert len(reader.pages) % 2 == 0
        for i in range(0, len(reader.pages), 2):
            front = sorted(p.name.rsplit(".", 2)[0] for p in inspect(reader, i)[0])
            back = sorted(p.name.rsplit(".", 2)[0] for p in inspect(reader, i + 1)[0])
            assert front == back and all(p.name.split(".")[-2] == "back" for p in inspect(reader, i + 1)[0])
    for level in ("basic", "simple", "complex", "amino"):
        faces = {p.read_text() for p in (built / "svg" / f"{level}-recipes").glob("*-back.svg")}
        assert len(faces) == 1, level        # one back for the whole level: it gives no card away
    assert len({p.read_text() for p in (built / "svg" / "atoms").glob("*-back.svg")}) == 1


def test_the_rules_booklet_title_page(built):
    text = PdfReader(pdf(built, "a4", "rules")).pages[0].extract_text()
    assert "Organic Soup" in text and "2 to 4 players" in text


def test_printing_md_counts_the_sheets_to_buy_as_the_pdfs_have_them(built):
    from tests.generator.sheetcounts import check

    said = check(built, Path(__file__).resolve().parents[3] / "cardsdata" / "organicsoup")
    assert said[("home files", "card stock", "a4")] > 0 and said[("home files", "card stock", "letter")] > 0
