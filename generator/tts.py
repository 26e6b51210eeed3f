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
from pathlib import Path

from generator import pictures
from generator.manifest import Component
from generator.pdf import Face
from generator.printable import BuildError

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


def component_objects(component: Component, index: int, designs, images, size, ppm, folder: Path, game_out: Path):
    """A component's pictures for the table and its objects: a deck on sheets,
    or a tile or token per piece (a pad of sheets is one tile)."""
    from PIL import Image

    has_back = all(p.back for p, _ in designs)
    x = index * 12.0
    written: list[Path] = []
    objects: list[dict] = []

    def trimmed(face: Face):
        return pictures.trim(images[face.digest], size, ppm)

    if component.kind == "deck" and has_back and max(size) <= CARD_SIDE_MM:
        native = trimmed(designs[0][0].front).size
        backs = {p.back.digest for p, _ in designs}
        unique = len(backs) > 1
        decks, cards = {}, []
        start = 0
        for s, n in enumerate(sheets_for(len(designs))):
            chunk = designs[start:start + n]
            grid = grid_for(n + 1, native)
            if s >= 10:
                raise BuildError(f"component {component.id}: more than 10 Tabletop Simulator sheets")
            deck_id = (index + 1) * 10 + s
            faces = Image.new("RGB", grid.size, "white")
            back_sheet = Image.new("RGB", grid.size, "white") if unique else None
            hidden = grid.cols * grid.rows - 1
            for slot, (piece, count) in enumerate(chunk):
                cell = ((slot % grid.cols) * grid.cell[0], (slot // grid.cols) * grid.cell[1])
                faces.paste(trimmed(piece.front).resize(grid.cell, Image.LANCZOS, reducing_gap=2.0), cell)
                if back_sheet is not None:
                    back_sheet.paste(trimmed(piece.back).resize(grid.cell, Image.LANCZOS, reducing_gap=2.0), cell)
                cards += [(deck_id * 100 + slot, piece.label)] * count
            # The hidden card: the back, in the sheet's last slot.
            last = ((hidden % grid.cols) * grid.cell[0], (hidden // grid.cols) * grid.cell[1])
            faces.paste(trimmed(chunk[0][0].back).resize(grid.cell, Image.LANCZOS, reducing_gap=2.0), last)
            face_path = folder / f"{component.id}-sheet-{s + 1}.png"
            pictures.save_png(faces, face_path)
            written.append(face_path)
            if back_sheet is not None:
                back_sheet.paste(trimmed(chunk[0][0].back).resize(grid.cell, Image.LANCZOS, reducing_gap=2.0), last)
                back_path = folder / f"{component.id}-backs-{s + 1}.png"
                pictures.save_png(back_sheet, back_path)
            else:
                back_path = folder / f"{component.id}-back.png"
                if back_path not in written:
                    pictures.save_png(trimmed(designs[0][0].back).resize(grid.cell, Image.LANCZOS, reducing_gap=2.0), back_path)
            if back_path not in written:
                written.append(back_path)
            decks[deck_id] = custom_deck(pictures.file_url(face_path), pictures.file_url(back_path), grid, unique_back=unique,
                                             square=abs(size[0] - size[1]) < 0.5)
            start += n
        objects.append(deck_object(f"{component.id}", component.name, decks, cards, size, (x, 0.0)))
        kind = "deck"
    else:
        round_ = component.shape == "round"
        token = round_ and not has_back and component.kind in ("token", "deck")
        kind = "token" if token else "tile"
        copies = [(p, 1) for p, _ in designs] if component.kind == "sheet" else designs  # a pad: one tile
        for j, (piece, count) in enumerate(copies):
            stem = pictures.slug(piece.key.split("/")[-1]) if "/" in piece.key else pictures.slug(component.id)
            front = _picture(trimmed(piece.front), round_ and token)
            front_path = folder / f"{stem}-front.png"
            pictures.save_png(front, front_path)
            written.append(front_path)
            back_url = ""
            if piece.back is not None:
                back_path = folder / f"{stem}-back.png"
                pictures.save_png(_picture(trimmed(piece.back), False), back_path)
                written.append(back_path)
                back_url = pictures.file_url(back_path)
            for c in range(count):
                at = (x, j * (max(size) / 25.4 + 0.5))
                name = f"{component.id}/{j}/{c}"
                obj = (token_object(name, piece.label, pictures.file_url(front_path), size, at) if token
                       else tile_object(name, piece.label, pictures.file_url(front_path), back_url, size, at, round_=round_))
                obj["Transform"]["posY"] = round(1.0 + 0.2 * c, 3)
                objects.append(obj)
    for obj in objects:
        obj["Description"] = component.name   # which component a piece on the table belongs to
    pictures.remove_stale(folder, written)
    return kind, objects, [str(p.relative_to(game_out)) for p in written]


def _picture(image, round_: bool):
    from PIL import Image, ImageDraw

    k = min(1.0, TILE_SIDE_PX / max(image.size))
    if k < 1:
        image = image.resize((round(image.size[0] * k), round(image.size[1] * k)), Image.LANCZOS, reducing_gap=2.0)
    if not round_:
        return image
    # A round token's picture is transparent outside its circle: a token takes its shape from it.
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).ellipse((0, 0, image.size[0] - 1, image.size[1] - 1), fill=255)
    out = image.convert("RGBA")
    out.putalpha(mask)
    return out
