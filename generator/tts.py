"""Tabletop Simulator: deck sheets and a saved object.

A deck's faces go on sheets of at most :data:`MAX_COLS` x :data:`MAX_ROWS`
cards and :data:`MAX_SIDE` pixels a side (what Tabletop Simulator loads),
RGB, the last slot of every sheet holding the card back: Tabletop Simulator
shows the last slot as the hidden card (a card in another player's hand)
unless ``BackIsHidden`` says to use the back, which we also set. Boards,
sheets and tokens are single images (``Custom_Tile``, ``Custom_Token``).

The saved object is the JSON a player puts in Tabletop Simulator's
``Saves/Saved Objects`` folder: ``ObjectStates`` holds one object per deck,
board or token. Its image addresses are ``file:///`` paths to this build's
files, written at build time (a moved output folder needs a rebuild); for
a game with other people online, the host uploads the images (Tabletop
Simulator's Cloud Manager, or any web host) and replaces the addresses.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import ceil

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
CARD_SIDE_MM = 130.0
"""A two-sided deck whose pieces are larger than this is laid out as tiles, not cards."""
TILE_SIDE_PX = 2048
"""Longest side of a board or tile picture (a board at 300 dpi is 3,000 px and more)."""


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return (self.cols * self.cell[0], self.rows * self.cell[1])


def sheets_for(designs: int) -> list[int]:
    """How many designs go on each sheet (the last slot of each is the back)."""
    per = MAX_COLS * MAX_ROWS - 1
    return [min(per, designs - i) for i in range(0, designs, per)]


def grid_for(slots: int, native: tuple[int, int]) -> Grid:
    """The smallest grid holding ``slots`` cards, with cells as large as the
    picture allows and no side over :data:`MAX_SIDE`."""
    cols = min(MAX_COLS, slots)
    rows = ceil(slots / cols)
    if rows > MAX_ROWS:
        raise ValueError(f"{slots} slots do not fit a {MAX_COLS}x{MAX_ROWS} sheet")
    w, h = native
    k = min(1.0, MAX_SIDE / (cols * w), MAX_SIDE / (rows * h))
    return Grid(cols, rows, (max(1, int(w * k)), max(1, int(h * k))))


def guid(*parts: object) -> str:
    """A stable six-hex-digit object id (Tabletop Simulator's GUID field)."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def transform(x: float, z: float, sx: float, sz: float, *, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(sx, 4), "scaleY": 1.0, "scaleZ": round(sz, 4)}


def card_scale(size_mm: tuple[float, float]) -> tuple[float, float]:
    """Tabletop Simulator's card at scale 1 is a poker card (2.5 x 3.5 in)."""
    return (size_mm[0] / 63.5, size_mm[1] / 88.9)


def deck_object(name: str, nickname: str, decks: dict[int, dict], cards: list[tuple[int, str]],
                size_mm: tuple[float, float], at: tuple[float, float]) -> dict:
    """``decks``: deck id -> CustomDeck entry; ``cards``: (CardID, nickname)
    for every card, copies included, top of the deck last."""
    sx, sz = card_scale(size_mm)
    sideways = size_mm[0] > size_mm[1]
    contained = []
    for i, (card_id, card_name) in enumerate(cards):
        deck_id = card_id // 100
        contained.append({"Name": "Card", "GUID": guid(name, i), "Nickname": card_name, "CardID": card_id,
                          "Transform": transform(*at, sx, sz, face_down=True), "SidewaysCard": sideways,
                          "Hands": True, "CustomDeck": {str(deck_id): decks[deck_id]}})
    if len(contained) == 1:
        single = dict(contained[0], Nickname=nickname)
        return single
    return {"Name": "DeckCustom", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, sx, sz, face_down=True),
            "SidewaysCard": sideways, "Hands": True, "DeckIDs": [c for c, _ in cards],
            "CustomDeck": {str(k): v for k, v in decks.items()}, "ContainedObjects": contained}


def custom_deck(face_url: str, back_url: str, grid: Grid, *, unique_back: bool, square: bool) -> dict:
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": grid.cols, "NumHeight": grid.rows,
            "BackIsHidden": True, "UniqueBack": unique_back, "Type": 1 if square else 0}


def tile_object(name: str, nickname: str, front_url: str, back_url: str, size_mm: tuple[float, float],
                at: tuple[float, float], *, round_: bool) -> dict:
    # A tile's picture keeps its aspect; its scale sets the longer side (1 unit is about an inch).
    s = max(size_mm) / 25.4 / 2
    return {"Name": "Custom_Tile", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, s, s),
            "CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 2 if round_ else 0, "Thickness": 0.1, "Stackable": False,
                                           "Stretch": True}}}


def token_object(name: str, nickname: str, url: str, size_mm: tuple[float, float], at: tuple[float, float]) -> dict:
    s = max(size_mm) / 25.4 / 2
    return {"Name": "Custom_Token", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, s, s),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                            "Stackable": True}}}


def saved_object(title: str, objects: list[dict]) -> dict:
    """The file for ``Saves/Saved Objects``: every deck, board and token of a game."""
    return {"SaveName": title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "",
            "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
