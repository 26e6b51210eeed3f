"""Files for print shops and virtual tables (issue 20): shop PNGs at the
shops' published sizes, 1-up PDFs with a TrimBox and BleedBox on every
page, a Tabletop Simulator saved object whose decks and sheets hold the
component's cards, quantity lists, the contact sheet.

Structure is checked on a low-dpi build of Compounded (decks of three
sizes, round tokens, boards); pixel sizes at the shops' 300 dpi on one card
per shop size of every game."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image
from pypdf import PdfReader

from generator import components as comp
from generator import exports, oneup, shops, tts
from generator.build import BuildOptions, build
from generator.printable import load
from labkit import cardsets, registry

MM = 72 / 25.4
LOW_DPI = 40


@pytest.fixture(scope="module")
def compounded(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    options = BuildOptions(games=["compounded"], out=out, papers=("a4",), layouts=("grid",), svg=False,
                           exports=exports.ExportOptions(dpi=LOW_DPI))
    report = build(options)
    printable = load(registry.find("compounded"))
    return out / "compounded", report, printable


def _exported(printable):
    return [c for c in printable.components() if exports.exported(c)]


def _pieces(printable, component):
    return comp.pieces(component, printable.cardset, bleed=0.0, ink_saver=False).pieces


# --- shop images ----------------------------------------------------------------------------
def test_every_shop_size_says_where_it_is_published():
    for shop in shops.SHOPS.values():
        for p in shop.products:
            assert p.source.strip() and p.pixels[0] > 0 and p.pixels[1] > 0, (shop.id, p.id)
    tgc, mpc = shops.SHOPS["thegamecrafter"], shops.SHOPS["makeplayingcards"]
    assert tgc.product_for((63, 88)).pixels == (825, 1125)
    assert mpc.product_for((63, 88)).pixels == (822, 1122)


def test_shop_pngs_are_the_published_size_at_300_dpi(tmp_path):
    """One card of every size that some shop prints, rendered as the build
    renders it, at full resolution: exactly the product's pixels."""
    checked = set()
    for game in registry.games().values():
        printable = load(game)
        for component in _exported(printable):
            if component.trim is None:
                continue
            for sid, shop in shops.SHOPS.items():
                product = shop.product_for(component.trim)
                if product is None or (sid, product.id, component.trim) in checked:
                    continue
                checked.add((sid, product.id, component.trim))
                piece = comp.pieces(component, printable.cardset, bleed=oneup.DRAWN_BLEED,
                                    ink_saver=False).pieces[0]
                data, pages = oneup.write([piece], tmp_path / f"{len(checked)}.pdf", title="t", bleed=3.0)
                images = oneup.render(data, pages[:1], exports.px_per_mm(piece.size, [product]))
                png = exports.shop_picture(images[piece.front.digest], product, piece.size)
                assert png.size == product.oriented(piece.size), (game.name, component.id, sid)
                assert png.mode == "RGB"
    sizes = {(sid, pid) for sid, pid, _ in checked}
    # poker at both shops; tarot, mini and the two square decks at The Game Crafter
    assert {("thegamecrafter", "PokerDeck"), ("makeplayingcards", "poker"), ("thegamecrafter", "TarotDeck"),
            ("thegamecrafter", "MiniDeck"), ("thegamecrafter", "EuroSquareDeck"),
            ("thegamecrafter", "SquareDeck")} <= sizes


def test_shop_folders_pair_fronts_and_backs_and_count_every_piece(compounded):
    game_out, report, printable = compounded
    for component in _exported(printable):
        pieces = _pieces(printable, component)
        for sid, shop in shops.SHOPS.items():
            folder = game_out / "shops" / sid / component.id
            if shop.product_for(component.trim) is None:
                assert not folder.exists()
                continue
            rows = list(csv.DictReader((folder / "quantities.csv").open()))
            assert sum(int(r["count"]) for r in rows) == len(pieces)
            for r in rows:
                front = folder / r["file"]
                assert front.name.endswith("-front.png") and front.exists()
                if r["back"]:
                    assert (folder / r["back"]).exists()
                    assert r["back"] == "back.png" or r["back"] == r["file"].replace("-front", "-back")
                with Image.open(front) as im:
                    assert im.size == exports.shop_pixels(shop.product_for(component.trim), component.trim, LOW_DPI)


def test_quantities_sum_to_the_printed_counts(compounded):
    game_out, report, printable = compounded
    printed = {f.path.name: f.pieces for f in report.files}
    for component in _exported(printable):
        qty = game_out / "shops" / "thegamecrafter" / component.id / "quantities.csv"
        if not qty.exists():
            continue
        total = sum(int(r["count"]) for r in csv.DictReader(qty.open()))
        assert total == printed[f"compounded-a4-{component.id}.pdf"]


def test_guide_names_the_pieces_no_shop_prints(compounded):
    game_out, _, _ = compounded
    text = (game_out / "PRINTING.md").read_text()
    assert "Euro Square Deck" in text and "Square Deck" in text
    assert "not exported: no The Game Crafter size of 45 x 45 mm" in text   # the tool tiles
    assert "Saved Objects" in text and "file:///" in text


# --- 1-up PDFs -----------------------------------------------------------------------------
def test_one_up_pages_carry_their_own_trim_and_bleed_boxes(compounded):
    game_out, _, printable = compounded
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
def _local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def test_tts_saved_object_has_every_deck_board_and_token(compounded):
    game_out, _, printable = compounded
    saved = json.loads((game_out / "tts" / "compounded-saved-object.json").read_text())
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
        objects = by_name.get(component.name, [])
        if objects and objects[0]["Name"] == "DeckCustom":
            decks += 1
            _check_deck(objects[0], pieces)
        else:
            # boards, tiles and tokens: one object a piece
            assert {o["Name"] for o in objects} <= {"Custom_Tile", "Custom_Token"}, component.id
            expected = 1 if component.kind == "sheet" else len(pieces)
            assert len(objects) == expected, component.id
            for o in objects:
                image = o["CustomImage"]
                assert _local(image["ImageURL"]).exists()
                if image.get("ImageSecondaryURL"):
                    assert _local(image["ImageSecondaryURL"]).exists()
                kind = "CustomToken" if o["Name"] == "Custom_Token" else "CustomTile"
                assert kind in image
    assert decks >= 3   # compound cards, Lab Partners, tool tiles
    tokens = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Token"]
    assert len(tokens) >= 30 + 40 + 90   # flames, scientist pieces, element tokens
    with Image.open(_local(tokens[0]["CustomImage"]["ImageURL"])) as im:
        assert im.mode == "RGBA"   # a round token takes its shape from its picture


def _check_deck(deck: dict, pieces) -> None:
    assert {"DeckIDs", "CustomDeck", "ContainedObjects"} <= deck.keys()
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == len(pieces)
    per_sheet: dict[int, set[int]] = {}
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"]):
        assert card["Name"] == "Card" and card["CardID"] == card_id
        deck_id, index = divmod(card_id, 100)
        assert str(deck_id) in deck["CustomDeck"] and str(deck_id) in card["CustomDeck"]
        per_sheet.setdefault(deck_id, set()).add(index)
    for deck_id, entry in deck["CustomDeck"].items():
        for field in ("FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"):
            assert field in entry
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= cols <= 10 and 1 <= rows <= 7
        used = per_sheet[int(deck_id)]
        # every card on the sheet, the last slot kept for the hidden card
        assert max(used) < cols * rows - 1
        assert len(used) <= cols * rows - 1
        with Image.open(_local(entry["FaceURL"])) as im:
            assert im.mode == "RGB" and max(im.size) <= 4096
            assert im.size[0] % cols == 0 and im.size[1] % rows == 0
        if entry["UniqueBack"]:
            with Image.open(_local(entry["BackURL"])) as back:
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
    game_out, _, printable = compounded
    text = " ".join(p.extract_text() for p in PdfReader(game_out / "compounded-contact-sheet.pdf").pages)
    names = {f.name for c in _exported(printable) for p in _pieces(printable, c)
             for f in (p.front, p.back) if f is not None}
    missing = [n for n in names if n not in text]
    assert not missing, missing[:5]


# --- rebuilds -------------------------------------------------------------------------------
def _mtimes(root: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def test_rebuild_writes_nothing_and_a_change_rebuilds_what_it_feeds(tmp_path, monkeypatch):
    """The toy game from copies of its data and templates: nothing changed,
    nothing written; a data row, a template, an option each rebuild what
    they feed."""
    from dataclasses import replace

    from tests.toygame import GAME

    pkg = tmp_path / "toycopy"
    shutil.copytree(cardsets.package_dir(GAME.templates), pkg / "templates")
    shutil.copytree(cardsets.data_dir(GAME), pkg / "data", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register(replace(GAME, templates="toycopy.templates", data="toycopy.data"))
    try:
        out = tmp_path / "out"
        options = BuildOptions(games=["toyrace"], out=out, papers=("a4",), svg=False,
                               exports=exports.ExportOptions(shops=("thegamecrafter",), dpi=LOW_DPI))
        first = build(options)
        assert first.written and not first.fresh_games
        before = _mtimes(out)
        with monkeypatch.context() as m:
            # told unchanged from the recorded folders, without loading the game
            m.setattr("generator.build.targets", lambda options: pytest.fail("loaded the games"))
            again = build(options)
        assert again.fresh_games == ["toyrace"] and not again.written
        assert len(again.files) == len(first.files) and len(again.exports) == 1
        assert _mtimes(out) == before   # not a byte, not a time

        # a data row changes: its deck's files are written again
        csv_path = pkg / "data" / "bonuses.csv"
        rows = csv_path.read_text().splitlines()
        rows[1] = rows[1].replace(rows[1].split(",")[1], rows[1].split(",")[1] + " II", 1)
        csv_path.write_text("\n".join(rows) + "\n")
        changed = build(options)
        assert not changed.fresh_games
        rewritten = {f.path.name for f in changed.written}
        assert "toyrace-a4-bonus-cards.pdf" in rewritten
        assert "toyrace-a4-calibration.pdf" not in rewritten   # fed by nothing that changed
        assert [e.skipped for e in changed.exports] == [False]
        assert build(options).fresh_games == ["toyrace"]

        # a template changes
        template = pkg / "templates" / "bonus-back.svg.j2"
        template.write_text(template.read_text().replace("</svg>", "<!-- changed --></svg>"))
        changed = build(options)
        assert "toyrace-a4-bonus-cards.pdf" in {f.path.name for f in changed.written}

        # an option changes: the bleed sheets and the 1-up file follow it
        wider = replace(options, bleed=2.0)
        changed = build(wider)
        assert "toyrace-a4-bonus-cards-bleed.pdf" in {f.path.name for f in changed.written}
        page = PdfReader(out / "toyrace" / "1-up" / "toyrace-bonus-cards-1up.pdf").pages[0]
        assert float(page.bleedbox.width) - float(page.trimbox.width) == pytest.approx(4 * MM, abs=0.03)
    finally:
        registry.unregister("toyrace")
