"""What the studio shows: every face of a card set drawn by the print
build's own code (:func:`generator.components.pieces`, the grid's faces,
no bleed), one tile per piece, grouped by component, with every problem
of the set placed on the tile (or the component) it concerns.

A set with a broken row is still drawn: the rows its problems name are
blanked (the CSV parser skips a blank line and keeps the numbering) and
the set is read again, so the other cards show as they are now and the
broken card shows its problem where its face would be. Only when that
fails too (a missing column, a broken cross-reference) are the last faces
read kept, and the page says so.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.data import CardFiles, DataError, Problem
from engine.descriptor import GameDescriptor
from generator import components as comp
from generator.manifest import MANIFEST, Component, parse_manifest
from generator.pdf import Face
from generator.printable import Printable, glyph_problems, load
from generator.svg import RenderError
from labkit import cardsets, setfiles
from labkit.cardsets import CardSet


@dataclass(frozen=True)
class Tile:
    """One piece as the page shows it: its faces, or the problem that stops it being drawn."""

    key: str
    """The print build's piece key: ``component/card``, ``component/colour`` or ``component``."""
    label: str
    copies: int = 1
    front: Face | None = None
    back: Face | None = None
    problems: tuple[str, ...] = ()
    """Problems of this piece's row or faces, each as ``file:line: column '...': message``."""

    @property
    def broken(self) -> bool:
        """Its row could not be read: the problem is shown in place of its face."""
        return self.front is None


@dataclass
class Group:
    """One component of the manifest, with its pieces in print order."""

    id: str
    name: str
    kind: str
    keys: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Problems of its data that name no one piece (a YAML file, a template)."""


@dataclass
class Drawing:
    groups: list[Group]
    tiles: dict[str, Tile]
    problems: list[str]
    """Every problem of the set, as ``labkit validate`` prints it."""
    stale: bool = False
    """The set could not be read at all: the faces are those of the last read."""
    printable: Printable | None = None
    """What was drawn (``None`` when stale): the next edit is compared with it."""

    def faces(self) -> dict[str, str]:
        """Every face drawn, by face name, as the print build names it: SVG text."""
        return {f.name: f.svg for t in self.tiles.values() for f in (t.front, t.back) if f is not None}


def source_file(component: Component) -> str | None:
    return component.source.partition("#")[0] if component.source else None


# --- reading ------------------------------------------------------------------------
def read(game: GameDescriptor, folder: Path) -> tuple[Printable | None, list[Problem], set[tuple[str, int]]]:
    """The set as printing reads it, or (when it has problems) as much of it
    as reads with its broken CSV rows left out; the problems; and the
    ``(shown file, line)`` of each row left out."""
    try:
        return load(game, folder), [], set()
    except DataError as exc:
        problems = list(exc.problems)
    shown = cardsets.display_path(folder)
    found, _, _ = setfiles.collect(Path(folder), shown, cardsets.set_file_names(game))
    files = CardFiles(found, shown)
    blanked: set[tuple[str, int]] = set()
    raw = dict(found)
    for name in game.card_files:
        lines = {p.line for p in problems if p.path == files.shown(name) and p.line and p.line > 1}
        if name.endswith(".csv") and lines and name in raw:
            raw[name] = _blank(raw[name], lines)
            blanked |= {(files.shown(name), n) for n in lines}
    if not blanked or MANIFEST not in raw:
        return None, problems, set()
    try:
        card_files = CardFiles({n: raw[n] for n in game.card_files if n in raw}, shown)
        cards = game.parse_cards(card_files)
        manifest = parse_manifest(CardFiles({MANIFEST: raw[MANIFEST]}, shown))
    except DataError:  # the rest depends on the rows left out: keep the last faces
        return None, problems, set()
    return Printable(CardSet(game, Path(folder), card_files, cards, None, found), manifest), problems, blanked


def _blank(data: bytes, lines: set[int]) -> bytes:
    out = data.split(b"\n")
    for n in lines:
        if 0 < n <= len(out):
            out[n - 1] = b"\r" if out[n - 1].endswith(b"\r") else b""
    return b"\n".join(out)


def row_cells(files: dict[str, bytes], name: str, line: int) -> dict[str, str]:
    """The cells of a CSV line as typed, by column (even a row the parser refused)."""
    try:
        text = files[name].decode("utf-8-sig")
    except (KeyError, UnicodeDecodeError):
        return {}
    rows = text.split("\n")
    if line < 2 or line > len(rows):
        return {}
    header = next(csv.reader(io.StringIO(rows[0])), [])
    cells = next(csv.reader(io.StringIO(rows[line - 1])), [])
    return {h.strip(): c.strip() for h, c in zip(header, cells) if c.strip()}


# --- drawing ------------------------------------------------------------------------
def draw_component(printable: Printable, component: Component, only: set[str] | None = None
                   ) -> tuple[dict[str, Tile], list[str], list[Problem]]:
    """The tiles of one component (of the cards ``only``, for a deck), in
    print order, its problem if it could not be drawn, and its drawing problems."""
    try:
        drawn = comp.pieces(component, printable.cardset, bleed=0.0, ink_saver=False, only=only)
    except (RenderError, ValueError) as exc:
        return {}, [str(exc)], []
    tiles: dict[str, Tile] = {}
    for piece in drawn.pieces:
        if piece.key in tiles:  # copies of one card print the same faces
            tiles[piece.key] = replace(tiles[piece.key], copies=tiles[piece.key].copies + 1)
        else:
            tiles[piece.key] = Tile(piece.key, piece.label, 1, piece.front, piece.back)
    return tiles, [], drawn.problems


def draw(printable: Printable, problems: list[Problem], blanked: set[tuple[str, int]],
         previous: Drawing | None = None, only: dict[str, set[str] | None] | None = None) -> Drawing:
    """Every tile of the set; with ``only`` (component id -> card ids, or
    ``None`` for all of it) those alone, the rest kept from ``previous``."""
    groups, tiles, found = [], {}, list(problems)
    if only is None:
        found.extend(glyph_problems(printable.cardset))
    for component in printable.components():
        group = Group(component.id, component.name, component.kind)
        old = next((g for g in previous.groups if g.id == component.id), None) if previous else None
        if only is not None and component.id not in only and old is not None:
            group.keys, group.problems = list(old.keys), list(old.problems)
            tiles.update((k, previous.tiles[k]) for k in old.keys)  # type: ignore[union-attr]
        else:
            wanted = only.get(component.id) if only is not None else None
            drawn, group.problems, more = draw_component(printable, component, wanted)
            found.extend(more)
            if wanted is not None and old is not None:  # the cards not redrawn keep their tiles
                keep = {k: previous.tiles[k] for k in old.keys}  # type: ignore[union-attr]
                drawn = {k: drawn.get(k) or keep[k] for k in _deck_keys(printable, component) if k in drawn or k in keep}
            tiles.update(drawn)
            group.keys = list(drawn)
        groups.append(group)
    drawing = Drawing(groups, tiles, _unique(found), printable=printable)
    files = printable.cardset.files
    place(drawing, CardFiles(printable.cardset.set_files, files.folder), found, blanked, previous)
    if only is not None:  # the kept tiles' problems were found when they were drawn
        kept = [p for t in tiles.values() for p in t.problems] + [p for g in groups for p in g.problems]
        drawing.problems = list(dict.fromkeys([*drawing.problems, *kept]))
    return drawing


def _deck_keys(printable: Printable, component: Component) -> list[str]:
    return [f"{component.id}/{card.id}" for card in comp.source(printable.cardset, component)]


def _unique(problems: list[Problem]) -> list[str]:
    ordered = sorted(set(problems), key=lambda p: (p.path, p.line or 0, p.column or "", p.message))
    return list(dict.fromkeys(str(p) for p in ordered))


def stale(previous: Drawing | None, problems: list[Problem], files: CardFiles) -> Drawing:
    """The set cannot be read at all: the last faces, marked, with the problems placed on them."""
    groups = [replace(g, keys=list(g.keys), problems=[]) for g in previous.groups] if previous else []
    tiles = dict(previous.tiles) if previous else {}
    tiles = {k: replace(t, problems=()) for k, t in tiles.items()}
    drawing = Drawing(groups, tiles, _unique(problems), stale=True,
                      printable=previous.printable if previous else None)
    # a card whose row a problem names shows it in place of its old face
    place(drawing, files, problems, {(p.path, p.line) for p in problems if p.line and p.line > 1}, previous)
    return drawing


def place(drawing: Drawing, files: CardFiles, problems: list[Problem], blanked: set[tuple[str, int]],
          previous: Drawing | None) -> None:
    """Put each problem on the tile of the row it names (a broken row's tile
    shows it instead of a face), else on the components drawn from its file.
    ``files`` are the set's files as saved (broken rows and all)."""
    printable = drawing.printable or (previous.printable if previous else None)
    components = printable.components() if printable else []
    by_file: dict[str, list[Component]] = {}
    for c in components:
        if source_file(c):
            by_file.setdefault(files.shown(source_file(c)), []).append(c)  # type: ignore[arg-type]
    names = {files.shown(n): n for n in files.files}
    for p in sorted(set(problems), key=lambda p: (p.path, p.line or 0, p.column or "", p.message)):
        owners = by_file.get(p.path, [])
        cells = row_cells(files.files, names[p.path], p.line) if p.path in names and p.line else {}
        card = cells.get("id") or _id_at(printable, names.get(p.path), p.line)
        key = _tile_of(drawing, previous, owners, names.get(p.path), p.line, card)
        if key is not None:
            tile = drawing.tiles.get(key) or _broken_tile(drawing, previous, key, cells.get("name"))
            if (p.path, p.line) in blanked:
                tile = replace(tile, front=None, back=None)
            drawing.tiles[key] = replace(tile, problems=tuple(dict.fromkeys((*tile.problems, str(p)))))
        else:
            for group in drawing.groups:
                if any(c.id == group.id for c in owners) and str(p) not in group.problems:
                    group.problems.append(str(p))


def _id_at(printable: Printable | None, name: str | None, line: int | None) -> str | None:
    """The id of the card last read from that line (a deck whose id is not a column of its own)."""
    rows = printable.cardset.files.read.get(name, []) if printable is not None and name else []
    return next((str(getattr(m, "id", "")) or None for n, m in rows if n == line), None)


def _tile_of(drawing: Drawing, previous: Drawing | None, owners: list[Component],
             name: str | None, line: int | None, card: str | None) -> str | None:
    if not owners or name is None or not name.endswith(".csv") or not line or line < 2 or not card:
        return None
    keys = [f"{c.id}/{card}" for c in owners]
    for tiles in (drawing.tiles, previous.tiles if previous else {}):
        for key in keys:
            if key in tiles:
                return key
    return keys[0]  # a new card whose row is broken: a tile of its own


def _broken_tile(drawing: Drawing, previous: Drawing | None, key: str, name: str | None) -> Tile:
    """A tile for a card that is not drawn now, placed where it was last."""
    component = key.split("/", 1)[0]
    group = next((g for g in drawing.groups if g.id == component), None)
    old_group = next((g for g in previous.groups if g.id == component), None) if previous else None
    old = previous.tiles.get(key) if previous else None
    if group is not None and key not in group.keys:
        at = len(group.keys)
        if old_group is not None and key in old_group.keys:
            before = old_group.keys[:old_group.keys.index(key)]
            at = max((group.keys.index(k) + 1 for k in before if k in group.keys), default=0)
        group.keys.insert(at, key)
    return Tile(key, old.label if old else name or key.split("/", 1)[-1])


def read_and_draw(game: GameDescriptor, folder: Path, previous: Drawing | None = None) -> Drawing:
    """The whole set, drawn anew."""
    printable, problems, blanked = read(game, folder)
    if printable is None:
        found, _, _ = setfiles.collect(Path(folder), cardsets.display_path(folder), cardsets.set_file_names(game))
        return stale(previous, problems, CardFiles(found, cardsets.display_path(folder)))
    return draw(printable, problems, blanked, previous)


def changed(old: Printable, new: Printable) -> dict[str, set[str] | None] | None:
    """What an edit changed, by component: the ids of the deck cards whose row
    differs (or ``None``: the whole component), or ``None`` if it cannot be
    told (a component added or dropped). The page is drawn again whole after
    this quick part: a face may read more than its own row."""
    olds = {c.id: c for c in old.components()}
    if list(olds) != [c.id for c in new.components()]:
        return None
    out: dict[str, set[str] | None] = {}
    for c in new.components():
        if c != olds[c.id]:
            out[c.id] = None
        elif c.source:
            before, after = _source(old, c), _source(new, c)
            if c.kind != "deck":
                if before != after:
                    out[c.id] = None
                continue
            was = {card.id: card for card in before}
            ids = {card.id for card in after if was.get(card.id) != card}
            gone = set(was) - {card.id for card in after}
            if ids or gone:
                out[c.id] = ids
    return out


def _source(printable: Printable, component: Component) -> Any:
    try:
        return comp.source(printable.cardset, component)
    except RenderError:
        return None
