"""Files for print shops and virtual tables, one component at a time.

For each component (the rules summary aside) the faces are drawn once more
with :data:`oneup.DRAWN_BLEED` of art round the trim, put in the 1-up PDF,
and that PDF's pages are rendered by PDFium; every picture below is cut from
those renders:

* ``shops/<shop>/<component>/...``: each face as the product the shop prints
  the piece as (:mod:`generator.shops`), at its pixel size and 300 dpi, with
  ``quantities.csv`` (:mod:`generator.shopfiles`);
* ``1-up/<game>-<component>-1up.pdf`` (dice too: a net a page);
* ``tts/<component>/...``: deck sheets, dice, single pictures, and the
  objects of the saved object (:mod:`generator.tts`);
* a page or more of the contact sheet, every face with its id.

A component's exports are skipped when the digest of its faces, the options
and the generator's code is the one recorded for them and its files exist.
The saved object's addresses (``tts_base_url``) are not part of that digest:
they are written with the game's saved object (:func:`finish`).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from generator import components as comp
from generator import contact, dicefaces, facecheck, oneup, pictures, shopfiles, tts
from generator import shops as shoplist
from generator.files import digest_key, write_if_changed
from generator.manifest import Component
from generator.pdf import Piece
from generator.printable import BuildError, Printable

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
    tts_base_url: str | None = None
    """Where the game's ``tts/`` folder is uploaded (http(s)://... or a
    ``file:///`` folder on the player's computer): every picture's address is
    this plus its path inside ``tts/``. None: paths only."""

    @property
    def any(self) -> bool:
        return bool(self.shops or self.one_up or self.tts or self.contact)

    def digest(self) -> dict:
        """What the pictures depend on (not the addresses they are given)."""
        d = asdict(self)
        d.pop("tts_base_url")
        return d


@dataclass
class ComponentExport:
    component: str
    name: str
    files: list[str] = field(default_factory=list)
    """Every file written, relative to the game's folder."""
    products: dict[str, str] = field(default_factory=dict)
    """shop id -> what the pieces are printed as, in words ("" for nothing)."""
    product_ids: dict[str, str] = field(default_factory=dict)
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
    return component.id != RULES_ID


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


def smallest_type(designs) -> float | None:
    """The smallest type on any face, in points (None: no text)."""
    sizes = [t.points for p, _ in designs for f in (p.front, p.back) if f is not None for t in facecheck.texts(f.svg)]
    return min(sizes) if sizes else None


def fit_size(component: Component, size: tuple[float, float]) -> tuple[float, float]:
    """What a shop prints of a piece: the piece, or a die's face (its net is ours to fold)."""
    if component.kind == "dice":
        f = dicefaces.face_mm(size)
        return (f, f)
    return size


def fits(component: Component, designs, shops: tuple[str, ...]) -> dict[str, shoplist.Fit | None]:
    """Per shop, the product the component's pieces are printed as (None: none).
    A die's faces are the shop's die's: the smallest type on them is said in
    PRINTING.md rather than kept at 6 pt (there is no larger die to choose)."""
    size = fit_size(component, designs[0][0].size)
    smallest = None if component.kind == "dice" else smallest_type(designs)
    return {sid: shoplist.SHOPS[sid].choose(size, kinds=component.shop_kinds(), round_=component.shape == "round",
                                            smallest_pt=smallest) for sid in shops}


def wanted_ppm(component: Component, fit: shoplist.Fit, size, dpi: int) -> float:
    """Pixels per mm of ours a product's pictures need."""
    if component.kind == "dice":
        return fit.product.pixels[0] * dpi / shoplist.DPI / dicefaces.face_mm(size)
    return fit.scale * dpi / 25.4


def run(printable: Printable, component: Component, index: int, options: ExportOptions, game_out: Path,
        bleed: float, code: str, recorded: dict | None) -> ComponentExport:
    """Every export of one component (or the recorded result when nothing changed)."""
    started = time.perf_counter()
    drawn = comp.pieces(component, printable.cardset, bleed=oneup.DRAWN_BLEED, ink_saver=False, cut_guides=False)
    if drawn.problems:
        raise BuildError("\n".join(str(p) for p in drawn.problems))
    pieces = drawn.pieces
    size = pieces[0].size
    key = digest_key(code, "exports", options.digest(), bleed, index, component.model_dump(),
                     [(p.key, p.label, p.front.digest, p.back.digest if p.back else None) for p in pieces])
    if recorded and recorded.get("key") == key and all((game_out / f).exists() for f in recorded["files"]):
        return ComponentExport.from_dict(dict(recorded, skipped=True, seconds=0.0))

    game = printable.game.name
    result = ComponentExport(component.id, component.name, size=size, pieces=len(pieces), key=key)
    designs = _designs(pieces)
    dice = _dice_faces(printable, component, designs)
    chosen = fits(component, designs, options.shops)
    cache_dir = game_out / ".cache"
    one_up = (game_out / "1-up" / f"{game}-{component.id}-1up.pdf" if options.one_up
              else cache_dir / f"{component.id}-1up.pdf")
    data, pages = oneup.write(pieces, one_up, title=f"{printable.manifest.title}: {component.name} (1-up)",
                              bleed=bleed)
    if options.one_up:
        result.files.append(str(one_up.relative_to(game_out)))
    else:
        one_up.unlink()

    renders: dict[float, dict] = {}

    def render_for(ppm: float) -> tuple[float, dict]:
        """A render at ``ppm`` or at most 1 % finer (an exact match's trim lands that much beyond the product's)."""
        for have, images in renders.items():
            if ppm <= have <= ppm * 1.01:
                return have, images
        renders[ppm] = oneup.render(data, pages, ppm)
        return ppm, renders[ppm]

    wants = [wanted_ppm(component, f, size, options.dpi) for f in chosen.values() if f is not None]
    # The table and the contact sheet need no more than a tile's pixels (a board's shop picture does).
    largest = tts.TILE_SIDE_PX * options.dpi / shoplist.DPI / max(size)
    base = min(max(wants), largest) if wants else min(options.dpi / 25.4, largest)
    if component.kind == "dice":   # a virtual die's faces are larger than a bought one's
        base = max(base, dicefaces.TTS_CELL * options.dpi / shoplist.DPI / dicefaces.face_mm(size))
    base, images = render_for(base)
    result.faces = len(images)
    for sid, fit in chosen.items():
        result.products[sid] = fit.describe(fit_size(component, size)) if fit else ""
        smallest = smallest_type(designs) if fit and fit.scale < 1 else None
        if smallest is not None and smallest * fit.scale < shoplist.MIN_PT - 0.05:
            result.products[sid] += f"; its smallest words print at {smallest * fit.scale:.1f} pt"
        result.product_ids[sid] = fit.product.id if fit else ""
        if fit is not None:
            ppm, shop_images = render_for(wanted_ppm(component, fit, size, options.dpi))
            result.files += shopfiles.write(game_out / "shops" / sid / component.id, game_out, designs, shop_images,
                                            ppm, fit, size, options.dpi, dice)
    if options.tts:
        out = tts.Pictures(game_out / "tts" / component.id, game_out / "tts")
        result.tts_kind, result.tts = tts.component_objects(component, index, designs, images, size, base, out, dice)
        pictures.remove_stale(out.folder, out.written)
        result.files += [str(p.relative_to(game_out)) for p in out.written]
    if options.contact:
        target = cache_dir / f"contact-{component.id}.pdf"
        contact.component_pages(target, printable.manifest.title, component, pieces, images, size, base)
        result.contact = str(target.relative_to(game_out))
        result.files.append(result.contact)
    result.seconds = time.perf_counter() - started
    return result


def _dice_faces(printable: Printable, component: Component, designs) -> list | None:
    """Each die's face codes, in the order of its designs (None: not dice)."""
    if component.kind != "dice":
        return None
    faces = {f"{component.id}/{d.colour}": list(d.faces) for d in comp.source(printable.cardset, component).dice}
    return [faces[p.key] for p, _ in designs]


def finish(printable: Printable, game_out: Path, done: list[ComponentExport], options: ExportOptions) -> list[str]:
    """The game's Tabletop Simulator saved object and contact sheet, from its components' exports."""
    if not done:
        return []
    game = printable.game.name
    files = []
    if options.tts:
        objects = [o for e in done for o in e.tts]
        saved = tts.addressed(tts.saved_object(printable.manifest.title, objects), options.tts_base_url)
        target = game_out / "tts" / f"{game}-saved-object.json"
        write_if_changed(target, (json.dumps(saved, indent=1) + "\n").encode("utf-8"))
        files.append(str(target.relative_to(game_out)))
    if options.contact:
        target = game_out / f"{game}-contact-sheet.pdf"
        if not target.exists() or any(not e.skipped for e in done):
            contact.merge([game_out / e.contact for e in done if e.contact], target)
        files.append(target.name)
    return files


def result_dict(r: ComponentExport) -> dict[str, Any]:
    d = asdict(r)
    d.pop("skipped")
    d.pop("seconds")
    return d
