"""Every component of every game as a product a shop sells, at the shop's
pixels and 300 dpi; dice for shops and for Tabletop Simulator; the saved
object's pictures under a base address, read from another folder as another
computer reads them (issue 39). The structure of a whole game's exports:
test_exports.py."""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from generator import components as comp
from generator import dicefaces, exports, oneup, pictures, shopfiles, shops, tts
from generator.build import BuildOptions, build
from generator.printable import load
from labkit import cardsets, registry

MM = 72 / 25.4
LOW_DPI = 40
GAMES = ("labnotes", "synthesis", "compounded", "organicsoup")


@pytest.fixture(scope="module")
def chosen():
    """Every component of the four games with its product at each shop."""
    out = []
    for name in GAMES:
        printable = load(registry.find(name))
        for c in printable.components():
            if exports.exported(c):
                designs = exports._designs(comp.pieces(c, printable.cardset, bleed=oneup.DRAWN_BLEED,
                                                       ink_saver=False, cut_guides=False).pieces)
                out.append((name, printable, c, designs, exports.fits(c, designs, tuple(shops.SHOPS))))
    return out


def test_every_shop_size_says_where_it_is_published():
    for shop in shops.SHOPS.values():
        for p in shop.products:
            assert p.source.strip() and p.pixels[0] > 0 and p.pixels[1] > 0, (shop.id, p.id)
    tgc, mpc = shops.SHOPS["thegamecrafter"], shops.SHOPS["makeplayingcards"]
    assert tgc.product_for((63, 88)).pixels == (825, 1125)
    assert mpc.product_for((63, 88)).pixels == (822, 1122)
    assert mpc.product_for((70, 120)).pixels == (897, 1497)   # MakePlayingCards' tarot: 70 x 120 mm cards


def test_every_component_of_every_game_is_a_product_a_shop_sells(chosen):
    """Each component at The Game Crafter (boards, mats, pads, tiles, chits,
    custom dice, custom-cut cardstock, cards of five sizes); at
    MakePlayingCards every poker and tarot-sized one. A product holds its
    piece: the same size, the same shape scaled with type kept at 6 pt, or
    the whole piece at full size."""
    per_game: dict[str, dict[str, int]] = {}
    for name, printable, c, designs, fits in chosen:
        tgc, mpc = fits["thegamecrafter"], fits["makeplayingcards"]
        assert tgc is not None, (name, c.id)
        counts = per_game.setdefault(name, {"components": 0, "thegamecrafter": 0, "makeplayingcards": 0})
        counts["components"] += 1
        counts["thegamecrafter"] += 1
        counts["makeplayingcards"] += mpc is not None
        if c.trim in ((63.0, 88.0), (70.0, 120.0)):
            assert mpc is not None and mpc.mode == "same" and tgc.mode == "same", (name, c.id)
        size = exports.fit_size(c, designs[0][0].size)
        for fit in (f for f in fits.values() if f):
            w, h = fit.product.oriented_mm(size)
            if fit.mode == "fitted":
                assert w >= size[0] - 1 and h >= size[1] - 1 and fit.scale == 1.0, (name, c.id)
            else:
                assert max(w / size[0], h / size[1]) == pytest.approx(fit.scale)
            if fit.scale < 1 and c.kind != "dice":
                assert exports.smallest_type(designs) * fit.scale >= shops.MIN_PT - 0.05, (name, c.id)
            if c.shape == "round":
                assert fit.product.round or fit.product.kind == "cardstock", (name, c.id, fit.product.id)
    assert per_game == {
        "labnotes": {"components": 5, "thegamecrafter": 5, "makeplayingcards": 2},
        "synthesis": {"components": 8, "thegamecrafter": 8, "makeplayingcards": 4},
        "compounded": {"components": 11, "thegamecrafter": 11, "makeplayingcards": 1},
        "organicsoup": {"components": 6, "thegamecrafter": 6, "makeplayingcards": 3},
    }


def test_the_disc_parts_keep_their_sizes_together(chosen):
    """The name disc sits inside the ring's colours: both print at full size."""
    fits = {c.id: f["thegamecrafter"] for name, _, c, _, f in chosen if name == "synthesis"}
    assert fits["disc-ring"].scale == fits["disc-names"].scale == 1.0


def test_shop_pictures_are_the_products_pixels_at_300_dpi(chosen, tmp_path):
    """One piece of each product in use, drawn as the build draws it, saved
    and opened again: exactly the product's pixels, 300 dpi in the file."""
    done = set()
    for name, printable, c, designs, fits in chosen:
        for sid, fit in fits.items():
            if fit is None or (sid, fit.product.id) in done:
                continue
            done.add((sid, fit.product.id))
            piece, _ = designs[0]
            data, pages = oneup.write([piece], tmp_path / "one.pdf", title="t", bleed=3.0)
            ppm = exports.wanted_ppm(c, fit, piece.size, shops.DPI)
            render = oneup.render(data, pages[:1], ppm)[piece.front.digest]
            if c.kind == "dice":
                folder = tmp_path / sid / c.id
                shopfiles.write(folder, tmp_path, [(piece, 1)], {piece.front.digest: render}, ppm, fit, piece.size,
                                shops.DPI, [exports._dice_faces(printable, c, designs)[0]])
                files = sorted(folder.glob("*.png"))
                assert len(files) == 6
            else:
                files = [tmp_path / f"{sid}-{fit.product.id}.png"]
                pictures.save_png(shopfiles.picture(render, ppm, fit, piece.size, shops.DPI), files[0], shops.DPI)
            for f in files:
                with Image.open(f) as im:
                    assert im.size == fit.product.oriented(exports.fit_size(c, piece.size)), (name, c.id, sid)
                    assert im.mode == "RGB" and round(im.info["dpi"][0]) == 300 == round(im.info["dpi"][1])
    kinds = {p.kind for sid, pid in done for p in shops.SHOPS[sid].products if p.id == pid}
    assert kinds == {"card", "tile", "chit", "cardstock", "board", "mat", "pad", "die"}


# --- dice -------------------------------------------------------------------------------------
def test_dice_as_shop_dice_one_up_pages_and_virtual_dice(tmp_path):
    """Lab Notes' six element dice: a 1-up page per die, a picture per face
    numbered as on a standard die (the net's opposite faces stay opposite),
    and a Custom_Dice per die in Tabletop Simulator naming its faces."""
    printable = load(registry.find("labnotes"))
    index, component = next((i, c) for i, c in enumerate(printable.components()) if c.kind == "dice")
    dice = comp.source(printable.cardset, component).dice
    result = exports.run(printable, component, index, exports.ExportOptions(dpi=LOW_DPI), tmp_path, 3.0, "t", None)
    assert len(PdfReader(tmp_path / "1-up" / f"labnotes-{component.id}-1up.pdf").pages) == sum(d.count for d in dice)
    contact = " ".join(p.extract_text() for p in PdfReader(tmp_path / result.contact).pages)
    assert all(f"{component.id}.{d.colour}.front" in contact for d in dice)

    rows = list(csv.DictReader((tmp_path / "shops" / "thegamecrafter" / component.id / "quantities.csv").open()))
    assert len(rows) == 6 * len(dice)
    assert {(r["die"], int(r["count"])) for r in rows} == {(f"{d.colour} die", d.count) for d in dice}
    assert result.product_ids == {"thegamecrafter": "CustomColorD6", "makeplayingcards": ""}

    objects = [o for o in result.tts if o["Name"] == "Custom_Dice"]
    assert len(objects) == sum(d.count for d in dice) == len(result.tts)
    for d in dice:
        die = next(o for o in objects if o["Nickname"] == f"{d.colour} die")
        values = [v["Value"] for v in die["RotationValues"]]
        assert values == dicefaces.in_standard_order(list(d.faces))
        assert die["CustomImage"]["CustomDice"]["Type"] == 1   # six-sided
        with Image.open(tmp_path / "tts" / die["CustomImage"]["ImageURL"]) as im:
            w, h = im.size
            assert w == h and im.convert("L").crop((0, 0, w, h // 3)).getextrema() == (255, 255)  # top row unused


def test_a_die_shows_opposite_faces_opposite():
    net_opposites = {(0, 4), (1, 3), (2, 5)}
    order = dicefaces.STANDARD_ORDER
    assert {tuple(sorted((order[v - 1], order[6 - v]))) for v in (1, 2, 3)} == net_opposites


# --- Tabletop Simulator: a base address, read from another folder -----------------------------
def _mtimes(root: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def test_rebuild_writes_nothing_and_a_change_rebuilds_what_it_feeds(tmp_path, monkeypatch):
    """The toy game from copies of its data and templates: nothing changed,
    nothing written; a data row, a template, an option each rebuild what
    they feed; a base address for Tabletop Simulator rewrites the saved
    object alone, and every picture it names is under that address in a
    copy of the folder elsewhere."""
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

        # a base address: the saved object changes, no picture is drawn again
        elsewhere = tmp_path / "another computer" / "toy"
        base = elsewhere.as_uri() + "/tts/"
        addressed = build(replace(options, exports=replace(options.exports, tts_base_url=base)))
        assert [e.skipped for e in addressed.exports] == [True]
        shutil.copytree(out / "toyrace", elsewhere)
        saved = json.loads((elsewhere / "tts" / "toyrace-saved-object.json").read_text())
        urls = tts.pictures_of(saved)
        assert urls and all(u.startswith(base) for u in urls)
        for u in urls:
            path = Path(unquote(urlparse(u).path))
            assert path.is_file() and path.is_relative_to(elsewhere), u
            with Image.open(path) as im:
                assert im.mode == "RGB" and "dpi" in im.info
        web = tts.addressed(tts.saved_object("t", first.exports[0].tts), "https://example.org/games/toy/tts")
        assert all(u.startswith("https://example.org/games/toy/tts/bonus-cards/") for u in tts.pictures_of(web))

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


@pytest.mark.parametrize("url", ["tts/", "C:\\games\\tts", "ftp://example.org/tts/", "file://host/tts/"])
def test_a_base_address_tabletop_simulator_cannot_load_is_refused(url, tmp_path):
    from labkit.cli import main

    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--tts-base-url", url])
    text = " ".join(result.output.split())   # stdout and stderr, without rich's line wrapping
    assert result.exit_code == 1 and "Traceback" not in text
    assert "--tts-base-url" in text and "http://, https:// or file:///" in text
    assert not any(tmp_path.iterdir())   # refused before anything is built


def test_picture_runs_the_art_on_to_a_larger_products_edge():
    """Fitted at full size, the render is centred and its outermost pixels
    carried to the product's edge; scaled, our trim lands on theirs."""
    fit = shops.Fit(shops.SHOPS["thegamecrafter"].products[0], "fitted", 1.0)   # a poker card's pixels
    render = Image.new("RGB", (100, 200), (10, 200, 30))
    out = shopfiles.picture(render, 300 / 25.4, fit, (40.0, 60.0), 300)
    assert out.size == (825, 1125) and out.getpixel((0, 0)) == (10, 200, 30)
