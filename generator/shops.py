"""Print shops' products and their image sizes (``shops.yaml``), and which
product each piece of ours is printed as.

A piece is printed, per shop, as the first of:

1. **the same size**: a product of a kind the component may be printed as
   whose trim is ours within ``match_mm`` (our 63 x 88 mm cards as 2.5 x 3.5
   in poker cards); our trim lands on theirs;
2. **the same shape, scaled**: a product of our proportions (a round piece a
   round product) between ``scale`` times our size, the scale nearest 1, and
   never one that would print type under the smallest size (6 pt); a die's
   face is the shop's die's, whatever its size;
3. **at full size on a larger product**: the smallest product that holds the
   piece at 100 % (a round piece: a round product, or custom-cut cardstock
   that follows its outline; a card product no more than ``card_slack``
   larger each way); the art round the piece runs on to the product's edge.

>>> shop = SHOPS["thegamecrafter"]
>>> shop.product_for((63.0, 88.0)).pixels
(825, 1125)
>>> SHOPS["makeplayingcards"].product_for((70.0, 120.0)).pixels
(897, 1497)
>>> fit = shop.choose((45.0, 45.0), kinds=("card", "tile", "chit"))
>>> fit.product.id, fit.mode, round(fit.scale, 3)
('SmallSquareTile', 'scaled', 1.129)
>>> fit = shop.choose((190.0, 130.0), kinds=("pad",))
>>> fit.product.id, fit.mode, fit.scale
('LargeScorePadColor', 'fitted', 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

MM_PER_IN = 25.4
DATA = Path(__file__).with_name("shops.yaml")
MIN_PT = 6.0
"""The smallest type printed (``facecheck.MIN_PT``): a piece is not scaled down below it."""


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    kind: str
    trim_in: tuple[float, float]
    pixels: tuple[int, int]
    source: str
    round: bool = False

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_IN, self.trim_in[1] * MM_PER_IN)

    def oriented(self, size: tuple[float, float]) -> tuple[int, int]:
        """The pixel size turned the way the piece is (a landscape piece as landscape)."""
        w, h = self.pixels
        return (max(w, h), min(w, h)) if size[0] > size[1] else (min(w, h), max(w, h))

    def oriented_mm(self, size: tuple[float, float]) -> tuple[float, float]:
        w, h = sorted(self.trim_mm)
        return (h, w) if size[0] > size[1] else (w, h)

    def trim_pixels(self, size: tuple[float, float], dpi: int) -> tuple[float, float]:
        w, h = self.oriented_mm(size)
        return (w / MM_PER_IN * dpi, h / MM_PER_IN * dpi)


@dataclass(frozen=True)
class Fit:
    """How a piece is printed as a product: ``mode`` is ``same`` (our trim
    on theirs), ``scaled`` (by ``scale``, our trim on theirs) or ``fitted``
    (at full size, centred on the product)."""

    product: Product
    mode: str
    scale: float

    def describe(self, size: tuple[float, float]) -> str:
        w, h = self.product.oriented_mm(size)
        what = f"{self.product.name} ({w:.1f} x {h:.1f} mm)"
        if self.product.kind == "die":
            return f"{self.product.name} ({w:.1f} mm faces), each face scaled to {self.scale:.0%}"
        if self.mode == "scaled":
            return f"{what}, scaled to {self.scale:.0%}"
        if self.mode == "fitted":
            return f"{what}, at full size in its middle" + (
                ", cut along the piece's own outline" if self.product.kind == "cardstock" else "")
        return what


@dataclass(frozen=True)
class Shop:
    id: str
    name: str
    url: str
    upload: str
    products: tuple[Product, ...]
    match_mm: float
    aspect: float
    scale: tuple[float, float]
    card_slack: float

    def product_for(self, size: tuple[float, float], kinds: tuple[str, ...] | None = None,
                    round_: bool = False) -> Product | None:
        """The product whose trim is ours within ``match_mm`` (either way round), or None."""
        ours = sorted(size)
        for p in self._of(kinds, round_):
            if all(abs(a - b) <= self.match_mm for a, b in zip(ours, sorted(p.trim_mm))):
                return p
        return None

    def choose(self, size: tuple[float, float], *, kinds: tuple[str, ...], round_: bool = False,
               smallest_pt: float | None = None) -> Fit | None:
        """The product a piece of ``size`` mm is printed as (see the module's
        docstring), or None when this shop sells nothing that holds it.
        ``smallest_pt``: the smallest type on the piece, which scaling down
        must keep at :data:`MIN_PT`."""
        same = self.product_for(size, kinds, round_)
        if same is not None:
            w, h = same.oriented_mm(size)
            return Fit(same, "same", max(w / size[0], h / size[1]))
        lo, hi = self.scale
        ratio = max(size) / min(size)
        scaled = []
        for p in self._of(kinds, round_):
            w, h = p.oriented_mm(size)
            if abs(max(w, h) / min(w, h) / ratio - 1) > self.aspect:
                continue
            s = max(w / size[0], h / size[1])
            if p.kind == "die" or (lo <= s <= hi and (s >= 1 or smallest_pt is None
                                                      or smallest_pt * s >= MIN_PT - 0.05)):
                scaled.append((abs(math.log(s)), -s, p.id, Fit(p, "scaled", s)))
        if scaled:
            return min(scaled)[-1]
        holding = []
        for p in self.products:
            if p.kind not in kinds or (round_ and not (p.round or p.kind == "cardstock")) or (p.round and not round_):
                continue
            w, h = p.oriented_mm(size)
            if p.kind == "card" and (w > size[0] * (1 + self.card_slack) or h > size[1] * (1 + self.card_slack)):
                continue   # a card in the middle of a much larger card is not that card
            if w >= size[0] - self.match_mm and h >= size[1] - self.match_mm:
                holding.append((w * h, p.id, Fit(p, "fitted", 1.0)))
        return min(holding)[-1] if holding else None

    def _of(self, kinds: tuple[str, ...] | None, round_: bool) -> list[Product]:
        return [p for p in self.products if (kinds is None or p.kind in kinds) and p.round == round_]


def load(path: Path = DATA) -> tuple[int, dict[str, Shop]]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    shops = {}
    for sid, s in raw["shops"].items():
        products = tuple(Product(p["id"], p["name"], p["kind"], tuple(p["trim_in"]), tuple(p["pixels"]),
                                 f"{s['source']} ({p['id']})", bool(p.get("round", False)))
                         for p in s["products"])
        shops[sid] = Shop(sid, s["name"], s["url"], s["upload"], products, float(raw["match_mm"]),
                          float(raw["aspect"]), tuple(raw["scale"]), float(raw["card_slack"]))
    return int(raw["dpi"]), shops


DPI, SHOPS = load()
