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
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from generator import components as comp
from generator import oneup, tts
from generator import shops as shoplist
from generator.geometry import pt
from generator.manifest import Component
from generator.pdf import Face, Piece
from generator.printable import BuildError, Printable

SKIPPED_KINDS = ("dice",)
"""Paper dice are nets to fold: no shop product, no virtual table piece (a
table uses its own dice)."""
CONTACT_CELL_MM = 42.0
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


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "piece"


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
    return _crop(image, shop_pixels(product, size, dpi))


def _crop(image, size_px: tuple[int, int]):
    w, h = image.size
    W, H = size_px
    if W > w or H > h:
        raise BuildError(f"a face rendered at {w}x{h} px cannot give {W}x{H} px")
    left, top = (w - W) // 2, (h - H) // 2
    return image.crop((left, top, left + W, top + H))


def _trim(image, size: tuple[float, float], ppm: float):
    m = round(oneup.DRAWN_BLEED * ppm)
    return image.crop((m, m, image.size[0] - m, image.size[1] - m))


def _save_png(image, path: Path) -> None:
    from generator.build import atomic_write

    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=3)
    atomic_write(path, buf.getvalue())


def run(printable: Printable, component: Component, index: int, options: ExportOptions, game_out: Path,
        bleed: float, code: str, recorded: dict | None) -> ComponentExport:
    """Every export of one component (or the recorded result when nothing changed)."""
    from generator.build import _key

    started = time.perf_counter()
    drawn = comp.pieces(component, printable.cardset, bleed=oneup.DRAWN_BLEED, ink_saver=False)
    if drawn.problems:
        raise BuildError("\n".join(str(p) for p in drawn.problems))
    pieces = drawn.pieces
    size = pieces[0].size
    key = _key(code, "exports", asdict(options), bleed, str(game_out.resolve()), index, component.model_dump(),
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
        result.tts_kind, result.tts, files = _tts(component, index, designs, images, size, ppm,
                                                  game_out / "tts" / component.id, game_out)
        result.files += files
    if options.contact:
        target = cache_dir / f"contact-{component.id}.pdf"
        _contact(target, printable.manifest.title, component, pieces, images, size, ppm)
        result.contact = str(target.relative_to(game_out))
        result.files.append(result.contact)
    result.seconds = time.perf_counter() - started
    return result


def _shop_files(folder: Path, designs, images, px: tuple[int, int], game_out: Path) -> list[str]:
    backs = {p.back.digest for p, _ in designs if p.back}
    common = len(backs) == 1 and all(p.back for p, _ in designs)
    rows, written = [], []
    for i, (piece, count) in enumerate(designs, 1):
        stem = f"{i:03d}-{slug(piece.key.split('/')[-1])}"
        front = folder / f"{stem}-front.png"
        _save_png(_crop(images[piece.front.digest], px), front)
        written.append(front)
        back = ""
        if piece.back and not common:
            path = folder / f"{stem}-back.png"
            _save_png(_crop(images[piece.back.digest], px), path)
            written.append(path)
            back = path.name
        elif common:
            back = "back.png"
        rows.append((front.name, back, count))
    if common:
        path = folder / "back.png"
        _save_png(_crop(images[designs[0][0].back.digest], px), path)
        written.append(path)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(("file", "back", "count"))
    w.writerows(rows)
    from generator.build import atomic_write

    qty = folder / "quantities.csv"
    atomic_write(qty, out.getvalue().encode())
    written.append(qty)
    _remove_stale(folder, written)
    return [str(p.relative_to(game_out)) for p in written]


def _remove_stale(folder: Path, keep: list[Path]) -> None:
    """Pictures of pieces no longer in the data would be uploaded with the rest."""
    names = {p.name for p in keep}
    for f in folder.iterdir():
        if f.suffix in (".png", ".csv") and f.name not in names:
            f.unlink()


def _url(path: Path) -> str:
    return "file://" + path.resolve().as_posix()


def _tts(component: Component, index: int, designs, images, size, ppm, folder: Path, game_out: Path):
    from PIL import Image

    has_back = all(p.back for p, _ in designs)
    x = index * 12.0
    written: list[Path] = []
    objects: list[dict] = []

    def trimmed(face: Face):
        return _trim(images[face.digest], size, ppm)

    if component.kind == "deck" and has_back and max(size) <= tts.CARD_SIDE_MM:
        native = trimmed(designs[0][0].front).size
        backs = {p.back.digest for p, _ in designs}
        unique = len(backs) > 1
        decks, cards = {}, []
        start = 0
        for s, n in enumerate(tts.sheets_for(len(designs))):
            chunk = designs[start:start + n]
            grid = tts.grid_for(n + 1, native)
            if s >= 10:
                raise BuildError(f"component {component.id}: more than 10 Tabletop Simulator sheets")
            deck_id = (index + 1) * 10 + s
            faces = Image.new("RGB", grid.size, "white")
            back_sheet = Image.new("RGB", grid.size, "white") if unique else None
            hidden = grid.cols * grid.rows - 1
            for slot, (piece, count) in enumerate(chunk):
                cell = ((slot % grid.cols) * grid.cell[0], (slot // grid.cols) * grid.cell[1])
                faces.paste(trimmed(piece.front).resize(grid.cell, Image.LANCZOS), cell)
                if back_sheet is not None:
                    back_sheet.paste(trimmed(piece.back).resize(grid.cell, Image.LANCZOS), cell)
                cards += [(deck_id * 100 + slot, piece.label)] * count
            # The hidden card: the back, in the sheet's last slot.
            last = ((hidden % grid.cols) * grid.cell[0], (hidden // grid.cols) * grid.cell[1])
            faces.paste(trimmed(chunk[0][0].back).resize(grid.cell, Image.LANCZOS), last)
            face_path = folder / f"{component.id}-sheet-{s + 1}.png"
            _save_png(faces, face_path)
            written.append(face_path)
            if back_sheet is not None:
                back_sheet.paste(trimmed(chunk[0][0].back).resize(grid.cell, Image.LANCZOS), last)
                back_path = folder / f"{component.id}-backs-{s + 1}.png"
                _save_png(back_sheet, back_path)
            else:
                back_path = folder / f"{component.id}-back.png"
                if back_path not in written:
                    _save_png(trimmed(designs[0][0].back).resize(grid.cell, Image.LANCZOS), back_path)
            if back_path not in written:
                written.append(back_path)
            decks[deck_id] = tts.custom_deck(_url(face_path), _url(back_path), grid, unique_back=unique,
                                             square=abs(size[0] - size[1]) < 0.5)
            start += n
        objects.append(tts.deck_object(f"{component.id}", component.name, decks, cards, size, (x, 0.0)))
        kind = "deck"
    else:
        round_ = component.shape == "round"
        token = round_ and not has_back and component.kind in ("token", "deck")
        kind = "token" if token else "tile"
        copies = [(p, 1) for p, _ in designs] if component.kind == "sheet" else designs  # a pad: one tile
        for j, (piece, count) in enumerate(copies):
            stem = slug(piece.key.split("/")[-1]) if "/" in piece.key else slug(component.id)
            front = _tts_picture(trimmed(piece.front), round_ and token)
            front_path = folder / f"{stem}-front.png"
            _save_png(front, front_path)
            written.append(front_path)
            back_url = ""
            if piece.back is not None:
                back_path = folder / f"{stem}-back.png"
                _save_png(_tts_picture(trimmed(piece.back), False), back_path)
                written.append(back_path)
                back_url = _url(back_path)
            for c in range(count):
                at = (x, j * (max(size) / 25.4 + 0.5))
                name = f"{component.id}/{j}/{c}"
                obj = (tts.token_object(name, piece.label, _url(front_path), size, at) if token
                       else tts.tile_object(name, piece.label, _url(front_path), back_url, size, at, round_=round_))
                obj["Transform"]["posY"] = round(1.0 + 0.2 * c, 3)
                objects.append(obj)
    for obj in objects:
        obj["Description"] = component.name   # which component a piece on the table belongs to
    _remove_stale(folder, written)
    return kind, objects, [str(p.relative_to(game_out)) for p in written]


def _tts_picture(image, round_: bool):
    from PIL import Image, ImageDraw

    k = min(1.0, tts.TILE_SIDE_PX / max(image.size))
    if k < 1:
        image = image.resize((round(image.size[0] * k), round(image.size[1] * k)), Image.LANCZOS)
    if not round_:
        return image
    # A round token's picture is transparent outside its circle: a token takes its shape from it.
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, image.size[0] - 1, image.size[1] - 1), fill=255)
    out = image.convert("RGBA")
    out.putalpha(mask)
    return out


def _contact(target: Path, title: str, component: Component, pieces: list[Piece], images, size, ppm) -> None:
    """Pages of every face of the component with its id, for proofing: one
    picture per distinct face, and the ids of faces that share a picture
    listed after them (a deck's sixty identical backs are one picture)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as rl_canvas

    from generator import fonts

    page_w, page_h = 297.0, 210.0
    margin, label = 10.0, 6.0
    cols = int((page_w - 2 * margin) // CONTACT_CELL_MM)
    rows = int((page_h - 2 * margin - 8) // (CONTACT_CELL_MM + label))
    groups: dict[str, dict[str, Face]] = {}
    for piece in pieces:
        for f in (piece.front, piece.back):
            if f is not None:
                groups.setdefault(f.digest, {}).setdefault(f.name, f)
    faces = [list(g.values()) for g in groups.values()]
    k = min((CONTACT_CELL_MM - 2) / size[0], (CONTACT_CELL_MM - 2) / size[1])
    w, h = size[0] * k, size[1] * k
    thumb_px = (max(1, round(w / 25.4 * 150)), max(1, round(h / 25.4 * 150)))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    c = rl_canvas.Canvas(str(tmp), pagesize=(pt(page_w), pt(page_h)), invariant=True, pageCompression=1,
                         initialFontName=fonts.REGULAR, initialFontSize=10)
    c.setTitle(f"{title}: contact sheet")
    heading = f"{title} · {component.name} · {len(faces)} different faces"
    per = cols * rows
    for start in range(0, len(faces), per):
        c.setFont(fonts.BOLD, 10)
        c.drawString(pt(margin), pt(page_h - margin), heading)
        for i, group in enumerate(faces[start:start + per]):
            cx = margin + (i % cols) * CONTACT_CELL_MM
            cy = page_h - margin - 8 - (i // cols + 1) * (CONTACT_CELL_MM + label)
            thumb = _trim(images[group[0].digest], size, ppm).resize(thumb_px, Image.LANCZOS)
            c.drawImage(ImageReader(thumb), pt(cx + (CONTACT_CELL_MM - w) / 2), pt(cy + label), pt(w), pt(h))
            c.setFont(fonts.REGULAR, 6)
            more = f" (+{len(group) - 1})" if len(group) > 1 else ""
            c.drawCentredString(pt(cx + CONTACT_CELL_MM / 2), pt(cy + 2.5), group[0].name + more)
        c.showPage()
    shared = [g for g in faces if len(g) > 1]
    if shared:
        lines = []
        for g in shared:
            lines += _wrap(f"{g[0].name} is also: " + ", ".join(f.name for f in g[1:]), 190)
        per_page = int((page_h - 2 * margin - 8) // 3)
        for start in range(0, len(lines), per_page):
            c.setFont(fonts.BOLD, 10)
            c.drawString(pt(margin), pt(page_h - margin), f"{heading}: faces that share a picture")
            c.setFont(fonts.REGULAR, 6)
            for i, line in enumerate(lines[start:start + per_page]):
                c.drawString(pt(margin), pt(page_h - margin - 8 - 3 * i), line)
            c.showPage()
    c.save()
    tmp.replace(target)


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    return out + [line]


def merge_contact(fragments: list[Path], target: Path) -> None:
    """One contact sheet of the game from its components' pages."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    for f in fragments:
        part = pdfium.PdfDocument(str(f))
        doc.import_pages(part)
        part.close()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    doc.save(str(tmp))
    doc.close()
    tmp.replace(target)


def result_dict(r: ComponentExport) -> dict[str, Any]:
    d = asdict(r)
    d.pop("skipped")
    d.pop("seconds")
    return d
