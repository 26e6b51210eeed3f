"""Files for print shops and virtual tables, one component at a time.

For each component (dice nets and the rules summary aside) the faces are
drawn once more with :data:`oneup.DRAWN_BLEED` of art round the trim, put in
the 1-up PDF, and that PDF's pages are rendered once by PDFium; every
picture below is cut from those renders:

* ``shops/<shop>/<component>/NNN-<piece>-front.png`` (and ``-back.png``, or
  one ``back.png`` when every piece shares its back), at the shop's pixel
  size for the product the piece matches (``shops.yaml``), with
  ``quantities.csv`` (file, back, count);
* ``1-up/<game>-<component>-1up.pdf``;
* ``tts/<component>/...``: deck sheets or single pictures, and the objects
  of the saved object (:mod:`generator.tts`);
* a page or more of the contact sheet, every face with its id.

A component's exports are skipped when the digest of its faces, the options
and the generator's code is the one recorded for them and its files exist.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from generator import components as comp
from generator import contact, oneup, pictures, tts
from generator import shops as shoplist
from generator.manifest import Component
from generator.pdf import Piece
from generator.files import atomic_write, digest_key
from generator.printable import BuildError, Printable

SKIPPED_KINDS = ("dice",)
"""Paper dice are nets to fold: no shop product, no virtual table piece (a
table uses its own dice)."""
RULES_ID = "rules"


@dataclass
class ExportOptions:
    shops: tuple[str, ...] = ("thegamecrafter", "makeplayingcards")
    one_up: bool = True
    tts: bool = True
    contact: bool = True
    dpi: int = shoplist.DPI
    """Below the shops' 300 dpi every picture shrinks alike (shop files then
    are not the shop's size): for tests that check structure, not pixels."""

    @property
    def any(self) -> bool:
        return bool(self.shops or self.one_up or self.tts or self.contact)


@dataclass
class ComponentExport:
    component: str
    name: str
    files: list[str] = field(default_factory=list)
    """Every file written, relative to the game's folder."""
    products: dict[str, str] = field(default_factory=dict)
    """shop id -> the product name the pieces are printed as ("" for none)."""
    tts: list[dict] = field(default_factory=list)
    tts_kind: str = ""
    contact: str | None = None
    size: tuple[float, float] = (0.0, 0.0)
    pieces: int = 0
    faces: int = 0
    seconds: float = 0.0
    skipped: bool = False
    key: str = ""

    @classmethod
    def from_dict(cls, d: dict) -> "ComponentExport":
        return cls(**d)


def exported(component: Component) -> bool:
    return component.kind not in SKIPPED_KINDS and component.id != RULES_ID


def _designs(pieces: list[Piece]) -> list[tuple[Piece, int]]:
    """Distinct pieces (front and back) in print order, with their counts."""
    seen: dict[tuple[str, str | None], list] = {}
    for p in pieces:
        k = (p.front.digest, p.back.digest if p.back else None)
        if k in seen:
            seen[k][1] += 1
        else:
            seen[k] = [p, 1]
    return [(p, n) for p, n in seen.values()]


def px_per_mm(size: tuple[float, float], products: list[shoplist.Product], dpi: int = shoplist.DPI) -> float:
    """Products' trims land on ours; with none, 300 dpi, a large piece less
    (it only becomes a virtual table's picture)."""
    k = dpi / shoplist.DPI
    if products:
        return k * max(max(tw / size[0], th / size[1])
                       for p in products for tw, th in [p.trim_pixels(size, shoplist.DPI)])
    return k * min(shoplist.DPI / 25.4, tts.TILE_SIDE_PX / max(size))


def shop_pixels(product: shoplist.Product, size: tuple[float, float], dpi: int = shoplist.DPI) -> tuple[int, int]:
    w, h = product.oriented(size)
    return (round(w * dpi / shoplist.DPI), round(h * dpi / shoplist.DPI))


def shop_picture(image, product: shoplist.Product, size: tuple[float, float], dpi: int = shoplist.DPI):
    """A face's render cut to the product's image size, centred: our trim
    on the product's trim, the rest bleed."""
    return pictures.crop(image, shop_pixels(product, size, dpi))


def run(printable: Printable, component: Component, index: int, options: ExportOptions, game_out: Path,
        bleed: float, code: str, recorded: dict | None) -> ComponentExport:
    """Every export of one component (or the recorded result when nothing changed)."""
    started = time.perf_counter()
    drawn = comp.pieces(component, printable.cardset, bleed=oneup.DRAWN_BLEED, ink_saver=False)
    if drawn.problems:
        raise BuildError("\n".join(str(p) for p in drawn.problems))
    pieces = drawn.pieces
    size = pieces[0].size
    key = digest_key(code, "exports", asdict(options), bleed, str(game_out.resolve()), index, component.model_dump(),
               [(p.key, p.label, p.front.digest, p.back.digest if p.back else None) for p in pieces])
    if recorded and recorded.get("key") == key and all((game_out / f).exists() for f in recorded["files"]):
        return ComponentExport.from_dict(dict(recorded, skipped=True, seconds=0.0))

    game = printable.game.name
    result = ComponentExport(component.id, component.name, size=size, pieces=len(pieces), key=key)
    matched = {sid: shoplist.SHOPS[sid].product_for(size) for sid in options.shops}
    ppm = px_per_mm(size, [p for p in matched.values() if p], options.dpi)
    cache_dir = game_out / ".cache"
    one_up = (game_out / "1-up" / f"{game}-{component.id}-1up.pdf" if options.one_up
              else cache_dir / f"{component.id}-1up.pdf")
    data, pages = oneup.write(pieces, one_up, title=f"{printable.manifest.title}: {component.name} (1-up)",
                              bleed=bleed)
    if options.one_up:
        result.files.append(str(one_up.relative_to(game_out)))
    else:
        one_up.unlink()
    images = oneup.render(data, pages, ppm)
    result.faces = len(images)
    designs = _designs(pieces)

    for sid, product in matched.items():
        result.products[sid] = product.name if product else ""
        if product is not None:
            result.files += _shop_files(game_out / "shops" / sid / component.id, designs, images,
                                        shop_pixels(product, size, options.dpi), game_out)
    if options.tts:
        result.tts_kind, result.tts, files = tts.component_objects(component, index, designs, images, size, ppm,
                                                  game_out / "tts" / component.id, game_out)
        result.files += files
    if options.contact:
        target = cache_dir / f"contact-{component.id}.pdf"
        contact.component_pages(target, printable.manifest.title, component, pieces, images, size, ppm)
        result.contact = str(target.relative_to(game_out))
        result.files.append(result.contact)
    result.seconds = time.perf_counter() - started
    return result


def _shop_files(folder: Path, designs, images, px: tuple[int, int], game_out: Path) -> list[str]:
    backs = {p.back.digest for p, _ in designs if p.back}
    common = len(backs) == 1 and all(p.back for p, _ in designs)
    rows, written = [], []
    for i, (piece, count) in enumerate(designs, 1):
        stem = f"{i:03d}-{pictures.slug(piece.key.split('/')[-1])}"
        front = folder / f"{stem}-front.png"
        pictures.save_png(pictures.crop(images[piece.front.digest], px), front)
        written.append(front)
        back = ""
        if piece.back and not common:
            path = folder / f"{stem}-back.png"
            pictures.save_png(pictures.crop(images[piece.back.digest], px), path)
            written.append(path)
            back = path.name
        elif common:
            back = "back.png"
        rows.append((front.name, back, count))
    if common:
        path = folder / "back.png"
        pictures.save_png(pictures.crop(images[designs[0][0].back.digest], px), path)
        written.append(path)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(("file", "back", "count"))
    w.writerows(rows)
    qty = folder / "quantities.csv"
    atomic_write(qty, out.getvalue().encode())
    written.append(qty)
    pictures.remove_stale(folder, written)
    return [str(p.relative_to(game_out)) for p in written]


def result_dict(r: ComponentExport) -> dict[str, Any]:
    d = asdict(r)
    d.pop("skipped")
    d.pop("seconds")
    return d
