"""Files for print shops and virtual tables (issues 20 and 39), checked on a
low-dpi build of Compounded (decks of three sizes, tiles, round tokens in a
bag, boards, one-sided pieces, custom-cut pieces), opened as another
computer opens them: the game's folder is copied elsewhere first, and every
file is read from the copy.

Shop pictures at the shops' full 300 dpi, every component of every game and
the Tabletop Simulator base address: test_export_products.py."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from generator import components as comp
from generator import exports, shopfiles, shops, tts
from generator.build import BuildOptions, build
from generator.printable import load
from labkit import registry

MM = 72 / 25.4
LOW_DPI = 40


@pytest.fixture(scope="module")
def compounded(tmp_path_factory):
    """The build, then its folder copied to another place (as it reaches
    another computer) and the original removed: nothing may depend on where
    it was built."""
    out = tmp_path_factory.mktemp("exports")
    options = BuildOptions(games=["compounded"], out=out, papers=("a4",), layouts=("grid",), svg=False,
                           exports=exports.ExportOptions(dpi=LOW_DPI))
    report = build(options)
    printable = load(registry.find("compounded"))
    elsewhere = tmp_path_factory.mktemp("another-computer") / "compounded"
    shutil.copytree(out / "compounded", elsewhere)
    shutil.rmtree(out / "compounded")
    return elsewhere, report, printable, str(out.resolve())


def _exported(printable):
    return [c for c in printable.components() if exports.exported(c)]


def _pieces(printable, component):
    return comp.pieces(component, printable.cardset, bleed=0.0, ink_saver=False).pieces


def _designs(printable, component):
    return exports._designs(_pieces(printable, component))


# --- shop images ----------------------------------------------------------------------------
def test_every_component_is_in_a_shop_folder_with_its_count(compounded):
    """Every component (cards, tiles, tokens, boards, the tray, the dish) is
    in The Game Crafter's folder, as the product chosen for it; the counts
    add up to the pieces printed; each picture is the product's size at the
    build's dpi, said in the file; one-sided pieces get a white back."""
    game_out, report, printable, _ = compounded
    for component in _exported(printable):
        designs = _designs(printable, component)
        pieces = _pieces(printable, component)
        for sid, fit in exports.fits(component, designs, tuple(shops.SHOPS)).items():
            folder = game_out / "shops" / sid / component.id
            if fit is None:
                assert not folder.exists(), (sid, component.id)
                continue
            rows = list(csv.DictReader((folder / "quantities.csv").open()))
            assert sum(int(r["count"]) for r in rows) == len(pieces), (sid, component.id)
            assert len(rows) == len(designs)
            px = shopfiles.shop_pixels(fit.product, component.trim, LOW_DPI)
            for r in rows:
                front, back = folder / r["file"], folder / r["back"]
                assert front.name.endswith("-front.png") and r["back"], (component.id, r)
                assert r["back"] == "back.png" or r["back"] == r["file"].replace("-front", "-back")
                for picture in (front, back):
                    with Image.open(picture) as im:
                        assert im.size == px and im.mode == "RGB", (picture, im.size, px)
                        assert round(im.info["dpi"][0]) == LOW_DPI
            if not all(p.back for p in pieces):
                with Image.open(folder / "back.png") as im:
                    assert im.getextrema() == ((255, 255), (255, 255), (255, 255))   # plain white
        assert (game_out / "shops" / "thegamecrafter" / component.id).is_dir(), component.id


def test_quantities_sum_to_the_printed_counts(compounded):
    game_out, report, printable, _ = compounded
    printed = {f.path.name: f.pieces for f in report.files}
    def ordered(component) -> int:
        return sum(int(r["count"]) for r in csv.DictReader(
            (game_out / "shops" / "thegamecrafter" / component.id / "quantities.csv").open()))

    for component in _exported(printable):
        if component.gang_with or component.sheet_with:
            continue   # printed in another component's file, counted with it
        sharing = [c for c in printable.components() if component.id in (c.gang_with, c.sheet_with)]
        total = ordered(component) + sum(ordered(c) for c in sharing)
        assert total == printed[f"compounded-a4-{component.id}.pdf"], component.id


def test_the_reminder_cards_have_a_back_for_the_shop(compounded):
    game_out, _, _, _ = compounded
    folder = game_out / "shops" / "thegamecrafter" / "reminder-cards"
    rows = list(csv.DictReader((folder / "quantities.csv").open()))
    assert [r["back"] for r in rows] == ["back.png"]
    with Image.open(folder / "back.png") as im:
        assert len(im.convert("RGB").getcolors(1 << 16) or []) > 2   # the game's back, not a blank


def test_guide_names_the_product_each_component_is_printed_as(compounded):
    game_out, _, _, _ = compounded
    text = (game_out / "PRINTING.md").read_text()
    for product in ("Euro Square Deck", "Square Deck", "Small Square Tile (50.8 x 50.8 mm), scaled to 113%",
                    "Medium Circle Chit", "Quad-Fold Mat", "Custom Medium Cardstock", "Tarot Deck"):
        assert product in text, product
    assert "not exported: MakePlayingCards sells nothing that holds 70 x 70 mm" in text
    for step in ("--tts-base-url", "Saves/Saved Objects", "Cloud Manager", "~/Library/Tabletop Simulator"):
        assert step in text, step


# --- 1-up PDFs -----------------------------------------------------------------------------
def test_one_up_pages_carry_their_own_trim_and_bleed_boxes(compounded):
    game_out, _, printable, _ = compounded
    for component in _exported(printable):
        pieces = _pieces(printable, component)
        reader = PdfReader(game_out / "1-up" / f"compounded-{component.id}-1up.pdf")
        assert len(reader.pages) == sum(2 if p.back else 1 for p in pieces)
        w, h = component.trim
        for page in reader.pages:
            trim, bleed = page.trimbox, page.bleedbox
            assert float(trim.width) == pytest.approx(w * MM, abs=0.03)
            assert float(trim.height) == pytest.approx(h * MM, abs=0.03)
            assert float(bleed.width) == pytest.approx((w + 6) * MM, abs=0.03)
            assert float(bleed.height) == pytest.approx((h + 6) * MM, abs=0.03)
            assert float(trim.left) - float(bleed.left) == pytest.approx(3 * MM, abs=0.03)
            assert float(trim.bottom) - float(bleed.bottom) == pytest.approx(3 * MM, abs=0.03)


# --- Tabletop Simulator ---------------------------------------------------------------------
def _saved(game_out: Path) -> dict:
    return json.loads((game_out / "tts" / "compounded-saved-object.json").read_text())


def test_a_plain_build_names_nothing_of_the_machine_that_built_it(compounded):
    """No absolute path of the build machine in any file a player opens; the
    saved object's pictures are their paths inside tts/, each there in the copy."""
    game_out, _, _, built_at = compounded
    for f in game_out.rglob("*"):
        if f.suffix in (".json", ".md", ".csv", ".svg"):
            text = f.read_text(encoding="utf-8")
            assert built_at not in text, f
            assert f.suffix == ".md" or "file://" not in text, f   # PRINTING.md tells how to give one
    urls = tts.pictures_of(_saved(game_out))
    assert urls and all(not u.startswith("/") and ":" not in u for u in urls)
    for u in set(urls):
        assert (game_out / "tts" / u).is_file(), u


def test_tts_saved_object_has_every_deck_board_and_token(compounded):
    game_out, _, printable, _ = compounded
    saved = _saved(game_out)
    for field in ("SaveName", "ObjectStates", "TabStates", "VersionNumber"):
        assert field in saved
    by_name: dict[str, list[dict]] = {}
    for obj in saved["ObjectStates"]:
        assert {"Name", "Transform", "Nickname", "GUID"} <= obj.keys()
        assert {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"} <= obj["Transform"].keys()
        by_name.setdefault(obj["Description"], []).append(obj)
    decks = 0
    for component in _exported(printable):
        pieces = _pieces(printable, component)
        objects = by_name[component.name]
        if objects[0]["Name"] == "DeckCustom":
            decks += 1
            _check_deck(game_out, objects[0], pieces, component.trim)
        elif objects[0]["Name"] == "Bag":
            assert len(objects) == 1 and len(objects[0]["ContainedObjects"]) == len(pieces)
        else:
            assert {o["Name"] for o in objects} <= {"Custom_Tile", "Custom_Token"}, component.id
            assert len(objects) == len(pieces), component.id
            for o in objects:
                _check_picture(game_out, o, component.trim)
    assert decks == 4   # compound cards, Lab Partners, tool tiles, reminder cards


def test_the_element_tokens_start_in_the_draw_bag(compounded):
    """90 tokens, 25 H, 20 O, 15 N, 15 C, 10 Ca and 5 S (the rulebook's bag), in one Bag."""
    game_out, _, _, _ = compounded
    bags = [o for o in _saved(game_out)["ObjectStates"] if o["Name"] == "Bag"]
    assert [b["Nickname"] for b in bags] == ["Draw bag"]
    tokens = bags[0]["ContainedObjects"]
    assert {t["Name"] for t in tokens} == {"Custom_Token"}
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t["Nickname"]] = counts.get(t["Nickname"], 0) + 1
    assert sorted(counts.values(), reverse=True) == [25, 20, 15, 15, 10, 5] and len(tokens) == 90
    with Image.open(game_out / "tts" / tokens[0]["CustomImage"]["ImageURL"]) as im:
        assert im.mode == "RGBA"   # a round token takes its shape from its picture


def _check_picture(game_out: Path, o: dict, trim) -> None:
    """A tile keeps its picture's proportions (Stretch off), which are the piece's."""
    image = o["CustomImage"]
    with Image.open(game_out / "tts" / image["ImageURL"]) as im:
        assert im.size[0] / im.size[1] == pytest.approx(trim[0] / trim[1], rel=0.01)
    if image.get("ImageSecondaryURL"):
        assert (game_out / "tts" / image["ImageSecondaryURL"]).is_file()
    if o["Name"] == "Custom_Tile":
        assert image["CustomTile"]["Stretch"] is False


def _check_deck(game_out: Path, deck: dict, pieces, trim) -> None:
    assert {"DeckIDs", "CustomDeck", "ContainedObjects"} <= deck.keys()
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == len(pieces)
    # one scale both ways: the card takes its proportions from its cell
    t = deck["Transform"]
    assert t["scaleX"] == t["scaleZ"] == pytest.approx(min(trim) / 63.5, abs=1e-3)
    per_sheet: dict[int, set[int]] = {}
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"]):
        assert card["Name"] == "Card" and card["CardID"] == card_id
        assert card["Transform"]["scaleX"] == card["Transform"]["scaleZ"]
        deck_id, index = divmod(card_id, 100)
        assert str(deck_id) in deck["CustomDeck"] and str(deck_id) in card["CustomDeck"]
        per_sheet.setdefault(deck_id, set()).add(index)
    for deck_id, entry in deck["CustomDeck"].items():
        for field in ("FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"):
            assert field in entry
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= cols <= 10 and 1 <= rows <= 7
        used = per_sheet[int(deck_id)]
        assert max(used) < cols * rows - 1   # the last slot kept for the hidden card
        with Image.open(game_out / "tts" / entry["FaceURL"]) as im:
            assert im.mode == "RGB" and max(im.size) <= 4096
            assert im.size[0] % cols == 0 and im.size[1] % rows == 0
            cell = (im.size[0] // cols, im.size[1] // rows)
            assert cell[0] / cell[1] == pytest.approx(trim[0] / trim[1], rel=0.01)   # square cards in square cells
        if entry["UniqueBack"]:
            with Image.open(game_out / "tts" / entry["BackURL"]) as back:
                assert back.size == im.size
    distinct = {(p.front.digest, p.back.digest if p.back else None) for p in pieces}
    assert sum(len(v) for v in per_sheet.values()) == len(distinct)


def test_tts_sheets_for_large_decks_split_at_69_cards():
    assert tts.sheets_for(69) == [69]
    assert tts.sheets_for(70) == [69, 1]
    g = tts.grid_for(70, (750, 1050))
    assert (g.cols, g.rows) == (10, 7) and max(g.size) <= 4096
    with pytest.raises(ValueError):
        tts.grid_for(71, (10, 10))


# --- contact sheet --------------------------------------------------------------------------
def test_contact_sheet_holds_every_face_id(compounded):
    game_out, _, printable, _ = compounded
    text = " ".join(p.extract_text() for p in PdfReader(game_out / "compounded-contact-sheet.pdf").pages)
    names = {f.name for c in _exported(printable) for p in _pieces(printable, c)
             for f in (p.front, p.back) if f is not None}
    missing = [n for n in names if n not in text]
    assert not missing, missing[:5]
