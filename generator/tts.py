"""Tabletop Simulator: deck sheets, pictures and a saved object.

A deck's faces go on sheets of at most :data:`MAX_COLS` x :data:`MAX_ROWS`
cards and :data:`MAX_SIDE` pixels a side (what Tabletop Simulator loads),
RGB, the last slot of every sheet holding the card back: Tabletop Simulator
shows the last slot as the hidden card (a card in another player's hand)
unless ``BackIsHidden`` says to use the back, which we also set. A card's
proportions are its cell's on the sheet (its knowledge base: "decks can be
square or rectangular, depending on dimensions of card sheet"), so a deck is
scaled alike both ways: a tarot card stays 70 x 120, a square one square.
Boards, sheets and large pieces are ``Custom_Tile`` s that keep their
picture's proportions (``Stretch`` off: "stretch aspect ratio" would make
them square), round one-sided pieces ``Custom_Token`` s cut from a
transparent outside, dice ``Custom_Dice`` (:mod:`generator.dicefaces`), and
a component drawn blind (``tts_bag`` in game.yaml) starts in a ``Bag``.

Every picture is named by its path inside the game's ``tts/`` folder; the
saved object is written with those paths after a base address
(:func:`addressed`): ``labkit build --tts-base-url`` with the address the
folder is uploaded to (or a ``file:///`` address on the player's own
computer). Without one the paths are left as they are: they name nothing of
the machine that built them, and Tabletop Simulator loads only http(s) and
absolute ``file:///`` addresses, so PRINTING.md says how to give one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import ceil
from pathlib import Path
from urllib.parse import quote

from generator import dicefaces, pictures
from generator.manifest import LARGE_MM, Component
from generator.pdf import Face
from generator.printable import BuildError

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
TILE_SIDE_PX = 2048
"""Longest side of a board or tile picture (a board at 300 dpi is 3,000 px and more)."""
POKER_WIDTH_MM = 63.5
"""A card at scale 1 is as wide as a poker card (2.5 in); its height follows its cell."""
URL_FIELDS = ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL")
CARD_RECTANGLE = 0
"""``CustomDeck.Type``: a rectangle with rounded corners (Tabletop Simulator's
scripting API, custom card types); round pieces are tiles and tokens, not cards."""


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


def transform(x: float, z: float, sx: float, sz: float, *, face_down: bool = False, sy: float = 1.0) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(sx, 4), "scaleY": round(sy, 4),
            "scaleZ": round(sz, 4)}


def card_scale(size_mm: tuple[float, float]) -> float:
    """One scale both ways: the sheet's cell gives the card its proportions,
    the scale its size (the short side against a poker card's width).

    >>> round(card_scale((70.0, 120.0)), 3), round(card_scale((70.0, 70.0)), 3)
    (1.102, 1.102)
    """
    return min(size_mm) / POKER_WIDTH_MM


def deck_object(name: str, nickname: str, decks: dict[int, dict], cards: list[tuple[int, str]],
                size_mm: tuple[float, float], at: tuple[float, float]) -> dict:
    """``decks``: deck id -> CustomDeck entry; ``cards``: (CardID, nickname)
    for every card, copies included, top of the deck last."""
    s = card_scale(size_mm)
    sideways = size_mm[0] > size_mm[1]
    contained = []
    for i, (card_id, card_name) in enumerate(cards):
        deck_id = card_id // 100
        contained.append({"Name": "Card", "GUID": guid(name, i), "Nickname": card_name, "CardID": card_id,
                          "Transform": transform(*at, s, s, face_down=True), "SidewaysCard": sideways,
                          "Hands": True, "CustomDeck": {str(deck_id): decks[deck_id]}})
    if len(contained) == 1:
        return dict(contained[0], Nickname=nickname)
    return {"Name": "DeckCustom", "GUID": guid(name), "Nickname": nickname,
            "Transform": transform(*at, s, s, face_down=True), "SidewaysCard": sideways, "Hands": True,
            "DeckIDs": [c for c, _ in cards], "CustomDeck": {str(k): v for k, v in decks.items()},
            "ContainedObjects": contained}


def custom_deck(face_url: str, back_url: str, grid: Grid, *, unique_back: bool) -> dict:
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": grid.cols, "NumHeight": grid.rows,
            "BackIsHidden": True, "UniqueBack": unique_back, "Type": CARD_RECTANGLE}


def tile_object(name: str, nickname: str, front_url: str, back_url: str, size_mm: tuple[float, float],
                at: tuple[float, float], *, round_: bool) -> dict:
    # The tile takes its picture's proportions (Stretch off); its scale sets the longer side (a unit is about an inch).
    s = max(size_mm) / 25.4 / 2
    return {"Name": "Custom_Tile", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, s, s),
            "CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 2 if round_ else 0, "Thickness": 0.1, "Stackable": False,
                                           "Stretch": False}}}


def token_object(name: str, nickname: str, url: str, size_mm: tuple[float, float], at: tuple[float, float]) -> dict:
    s = max(size_mm) / 25.4 / 2
    return {"Name": "Custom_Token", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, s, s),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                            "Stackable": True}}}


def die_object(name: str, nickname: str, url: str, values: list[str], face_mm: float, at: tuple[float, float]) -> dict:
    """A six-sided custom die; ``values``: what each of its faces 1..6 says
    (Tabletop Simulator names the rolled face by it)."""
    s = face_mm / 25.4
    return {"Name": "Custom_Dice", "GUID": guid(name), "Nickname": nickname, "Transform": transform(*at, s, s, sy=s),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomDice": {"Type": 1}},
            "RotationValues": [{"Value": v, "Rotation": dict(zip("xyz", map(float, dicefaces.TTS_ROTATIONS[i])))}
                               for i, v in enumerate(values, 1)]}


def bag_object(name: str, nickname: str, contents: list[dict], at: tuple[float, float]) -> dict:
    return {"Name": "Bag", "GUID": guid(name, "bag"), "Nickname": nickname, "Transform": transform(*at, 1.0, 1.0),
            "Bag": {"Order": 0}, "ContainedObjects": contents}


def saved_object(title: str, objects: list[dict]) -> dict:
    """The file for ``Saves/Saved Objects``: every deck, board and token of a game."""
    return {"SaveName": title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "",
            "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}


def addressed(node, base: str | None):
    """The saved object with every picture's path inside ``tts/`` made an
    address under ``base`` (None: left as paths).

    >>> addressed({"ImageURL": "dice/white die.png", "Nickname": "x"}, "https://example.org/lab/")
    {'ImageURL': 'https://example.org/lab/dice/white%20die.png', 'Nickname': 'x'}
    """
    if isinstance(node, list):
        return [addressed(n, base) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in URL_FIELDS and isinstance(v, str) and v and base is not None:
            out[k] = base.rstrip("/") + "/" + quote(v)
        else:
            out[k] = addressed(v, base)
    return out


def base_url_problem(base: str) -> str | None:
    """Why ``base`` cannot address pictures in Tabletop Simulator (None: it can).

    >>> base_url_problem("https://example.org/lab/tts/"), base_url_problem("file:///C:/games/tts")
    (None, None)
    >>> base_url_problem("tts/")
    "'tts/' is not an address Tabletop Simulator loads: give http://, https:// or file:/// (an absolute folder)"
    """
    from urllib.parse import urlparse

    u = urlparse(base)
    if (u.scheme in ("http", "https") and u.netloc) or (u.scheme == "file" and base.startswith("file:///")):
        return None
    return (f"{base!r} is not an address Tabletop Simulator loads: give http://, https:// or file:/// "
            "(an absolute folder)")


def pictures_of(node) -> list[str]:
    """Every picture a saved object names (paths or addresses)."""
    if isinstance(node, list):
        return [u for n in node for u in pictures_of(n)]
    if not isinstance(node, dict):
        return []
    return [u for k, v in node.items() for u in ([v] if k in URL_FIELDS and v else pictures_of(v))]


def count_objects(node) -> int:
    """Objects on the table and in their decks and bags."""
    if isinstance(node, list):
        return sum(count_objects(n) for n in node)
    return 1 + count_objects(node.get("ContainedObjects", [])) if isinstance(node, dict) else 0


class Pictures:
    """Where a component's pictures go: files under ``tts/<component>/``,
    each named in the saved object by its path inside ``tts/``."""

    def __init__(self, folder: Path, tts_root: Path):
        self.folder, self.root = folder, tts_root
        self.written: list[Path] = []

    def save(self, image, name: str, width_mm: float) -> str:
        """Save ``image``, which shows ``width_mm`` of print across (its resolution goes in the file)."""
        path = self.folder / name
        if path not in self.written:
            pictures.save_png(image, path, image.size[0] / width_mm * 25.4)
            self.written.append(path)
        return path.relative_to(self.root).as_posix()


def component_objects(component: Component, index: int, designs, images, size, ppm, out: Pictures,
                      dice: list | None = None) -> tuple[str, list[dict]]:
    """A component's objects for the table, its pictures saved through ``out``:
    a deck on sheets, dice, or a tile or token per piece (a pad of sheets is
    one tile); ``dice``: for a component of dice, each die's face codes."""
    has_back = all(p.back for p, _ in designs)
    x = index * 12.0

    def trimmed(face: Face):
        return pictures.trim(images[face.digest], size, ppm)

    if component.kind == "dice":
        objects = []
        for j, ((piece, count), codes) in enumerate(zip(designs, dice or [])):
            faces = dicefaces.faces(images[piece.front.digest], size, ppm)
            url = out.save(dicefaces.tts_picture(faces), f"{pictures.slug(piece.label)}.png",
                           3 * dicefaces.face_mm(size))
            values = dicefaces.in_standard_order(list(codes))
            objects += [die_object(f"{component.id}/{j}/{c}", piece.label, url, values, dicefaces.face_mm(size),
                                   (x, j * 1.5 + c * 0.2)) for c in range(count)]
        return "dice", _described(component, objects)
    if component.kind in ("deck", "token") and has_back and max(size) <= LARGE_MM and component.shape != "round":
        return "deck", _described(component, [_deck(component, index, designs, trimmed, size, out, (x, 0.0))])
    round_ = component.shape == "round"
    token = round_ and not has_back and component.kind in ("token", "deck")
    copies = [(p, 1) for p, _ in designs] if component.kind == "sheet" else designs  # a pad: one tile
    objects = []
    for j, (piece, count) in enumerate(copies):
        stem = pictures.slug(piece.key.split("/")[-1]) if "/" in piece.key else pictures.slug(component.id)
        front = out.save(_picture(trimmed(piece.front), token), f"{stem}-front.png", size[0])
        back = out.save(_picture(trimmed(piece.back), False), f"{stem}-back.png", size[0]) if piece.back else ""
        for c in range(count):
            at = (x, j * (max(size) / 25.4 + 0.5))
            name = f"{component.id}/{j}/{c}"
            obj = (token_object(name, piece.label, front, size, at) if token
                   else tile_object(name, piece.label, front, back, size, at, round_=round_))
            obj["Transform"]["posY"] = round(1.0 + 0.2 * c, 3)
            objects.append(obj)
    objects = _described(component, objects)
    if component.tts_bag:
        objects = [bag_object(component.id, component.tts_bag, objects, (x, -4.0))]
        objects[0]["Description"] = component.name
    return ("token" if token else "tile"), objects


def _described(component: Component, objects: list[dict]) -> list[dict]:
    for obj in objects:
        obj["Description"] = component.name   # which component a piece on the table belongs to
    return objects


def _deck(component: Component, index: int, designs, trimmed, size, out: Pictures, at) -> dict:
    from PIL import Image

    def cellsized(face, cell):
        return trimmed(face).resize(cell, Image.LANCZOS, reducing_gap=2.0)

    native = trimmed(designs[0][0].front).size
    unique = len({p.back.digest for p, _ in designs}) > 1
    decks, cards = {}, []
    start = 0
    for s, n in enumerate(sheets_for(len(designs))):
        if s >= 10:
            raise BuildError(f"component {component.id}: more than 10 Tabletop Simulator sheets")
        chunk = designs[start:start + n]
        grid = grid_for(n + 1, native)
        deck_id = (index + 1) * 10 + s
        faces = Image.new("RGB", grid.size, "white")
        back_sheet = Image.new("RGB", grid.size, "white") if unique else None
        for slot, (piece, count) in enumerate(chunk):
            cell = ((slot % grid.cols) * grid.cell[0], (slot // grid.cols) * grid.cell[1])
            faces.paste(cellsized(piece.front, grid.cell), cell)
            if back_sheet is not None:
                back_sheet.paste(cellsized(piece.back, grid.cell), cell)
            cards += [(deck_id * 100 + slot, piece.label)] * count
        # The hidden card: the back, in the sheet's last slot.
        hidden = grid.cols * grid.rows - 1
        last = ((hidden % grid.cols) * grid.cell[0], (hidden // grid.cols) * grid.cell[1])
        faces.paste(cellsized(chunk[0][0].back, grid.cell), last)
        face_url = out.save(faces, f"{component.id}-sheet-{s + 1}.png", grid.cols * size[0])
        if back_sheet is not None:
            back_sheet.paste(cellsized(chunk[0][0].back, grid.cell), last)
            back_url = out.save(back_sheet, f"{component.id}-backs-{s + 1}.png", grid.cols * size[0])
        else:
            back_url = out.save(cellsized(designs[0][0].back, grid.cell), f"{component.id}-back.png", size[0])
        decks[deck_id] = custom_deck(face_url, back_url, grid, unique_back=unique)
        start += n
    return deck_object(component.id, component.name, decks, cards, size, at)


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
