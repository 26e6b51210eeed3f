"""Print shops' products and their image sizes (``shops.yaml``), and which
product a piece of ours is printed as.

>>> shop = SHOPS["thegamecrafter"]
>>> shop.product_for((63.0, 88.0)).pixels
(825, 1125)
>>> SHOPS["makeplayingcards"].product_for((63.0, 88.0)).pixels
(822, 1122)
>>> shop.product_for((89.0, 127.0)) is None   # no Game Crafter product is 89 x 127 mm
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

MM_PER_IN = 25.4
DATA = Path(__file__).with_name("shops.yaml")


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    trim_in: tuple[float, float]
    pixels: tuple[int, int]
    source: str

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_IN, self.trim_in[1] * MM_PER_IN)

    def oriented(self, size: tuple[float, float]) -> tuple[int, int]:
        """The pixel size turned the way the piece is (a landscape piece as landscape)."""
        w, h = self.pixels
        return (max(w, h), min(w, h)) if size[0] > size[1] else (min(w, h), max(w, h))

    def trim_pixels(self, size: tuple[float, float], dpi: int) -> tuple[float, float]:
        tw, th = sorted(self.trim_in)
        pw, ph = (th, tw) if size[0] > size[1] else (tw, th)
        return (pw * dpi, ph * dpi)


@dataclass(frozen=True)
class Shop:
    id: str
    name: str
    url: str
    upload: str
    products: tuple[Product, ...]
    match_mm: float

    def product_for(self, size: tuple[float, float]) -> Product | None:
        """The product whose trim is ours within ``match_mm`` (either way round), or None."""
        ours = sorted(size)
        for p in self.products:
            theirs = sorted(p.trim_mm)
            if all(abs(a - b) <= self.match_mm for a, b in zip(ours, theirs)):
                return p
        return None


def load(path: Path = DATA) -> tuple[int, dict[str, Shop]]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    match = float(raw["match_mm"])
    shops = {}
    for sid, s in raw["shops"].items():
        products = tuple(Product(p["id"], p["name"], tuple(p["trim_in"]), tuple(p["pixels"]), p["source"])
                         for p in s["products"])
        shops[sid] = Shop(sid, s["name"], s["url"], s["upload"], products, match)
    return int(raw["dpi"]), shops


DPI, SHOPS = load()
