"""A component's files for one print shop: a picture per face at the
product's pixel size and 300 dpi (said in the file), and ``quantities.csv``.

``shops/<shop>/<component>/NNN-<piece>-front.png`` with its ``-back.png``,
or one ``back.png`` when every piece shares a back; a one-sided piece on a
two-sided product gets a plain white ``back.png`` (an element token drawn
blind from a bag shows nothing on its back). Dice: ``NNN-<die>-<value>.png``,
one per face, numbered 1 to 6 as on a standard die (:mod:`generator.dicefaces`).
``quantities.csv``: file, back, count (and for dice the die each face is on).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from generator import dicefaces, pictures
from generator import shops as shoplist
from generator.files import atomic_write
from generator.printable import BuildError


def picture(image, ppm: float, fit: shoplist.Fit, size: tuple[float, float], dpi: int):
    """A face's render (trim and art round it, at ``ppm``) as the product's
    picture: scaled so that our trim lands on the product's trim (or, fitted,
    at full size), centred on the product's pixels."""
    want = fit.scale * dpi / 25.4
    px = shop_pixels(fit.product, size, dpi)
    return pictures.centred(pictures.scaled(image, want / ppm), px)


def shop_pixels(product: shoplist.Product, size: tuple[float, float], dpi: int = shoplist.DPI) -> tuple[int, int]:
    w, h = product.oriented(size)
    return (round(w * dpi / shoplist.DPI), round(h * dpi / shoplist.DPI))


def write(folder: Path, game_out: Path, designs, images, ppm: float, fit: shoplist.Fit, size, dpi: int,
          dice: list | None = None) -> list[str]:
    """Every picture of one component for one shop, and its quantities; the files written."""
    if fit.product.kind == "die":
        rows, written = _dice(folder, designs, images, ppm, fit, size, dpi, dice or [])
        header = ("file", "back", "count", "die")
    else:
        rows, written = _flat(folder, designs, images, ppm, fit, size, dpi)
        header = ("file", "back", "count")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    qty = folder / "quantities.csv"
    atomic_write(qty, out.getvalue().encode())
    written.append(qty)
    pictures.remove_stale(folder, written)
    return [str(p.relative_to(game_out)) for p in written]


def _flat(folder: Path, designs, images, ppm, fit, size, dpi):
    backs = {p.back.digest for p, _ in designs if p.back}
    one_sided = not backs
    common = one_sided or (len(backs) == 1 and all(p.back for p, _ in designs))
    rows, written = [], []

    def save(image, path: Path) -> None:
        pictures.save_png(image, path, dpi)
        written.append(path)

    for i, (piece, count) in enumerate(designs, 1):
        stem = f"{i:03d}-{pictures.slug(piece.key.split('/')[-1])}"
        front = folder / f"{stem}-front.png"
        save(picture(images[piece.front.digest], ppm, fit, size, dpi), front)
        back = "back.png" if common else ""
        if piece.back and not common:
            back = f"{stem}-back.png"
            save(picture(images[piece.back.digest], ppm, fit, size, dpi), folder / back)
        rows.append((front.name, back, count))
    if one_sided:
        from PIL import Image

        save(Image.new("RGB", shop_pixels(fit.product, size, dpi), "white"), folder / "back.png")
    elif common:
        save(picture(images[designs[0][0].back.digest], ppm, fit, size, dpi), folder / "back.png")
    return rows, written


def _dice(folder: Path, designs, images, ppm, fit, size, dpi, dice):
    from PIL import Image

    if len(dice) != len(designs):
        raise BuildError(f"{folder.name}: {len(designs)} dice drawn, {len(dice)} in the data")
    px = shop_pixels(fit.product, size, dpi)
    rows, written = [], []
    for i, ((piece, count), codes) in enumerate(zip(designs, dice), 1):
        faces = dicefaces.in_standard_order(dicefaces.faces(images[piece.front.digest], size, ppm))
        for value, face in enumerate(faces, 1):
            path = folder / f"{i:03d}-{pictures.slug(piece.label)}-{value}.png"
            pictures.save_png(face.resize(px, Image.LANCZOS, reducing_gap=2.0), path, dpi)
            written.append(path)
            rows.append((path.name, "", count, piece.label))
    return rows, written
