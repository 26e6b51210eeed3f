"""A game's rules booklet and player aid, read and checked before anything
prints (docs/design/booklets.md): the Markdown parsed, every figure drawn to
SVG (printed faces exactly as the build draws them, the table set up by the
engine and drawn by the game, the game's own figures), every character
checked against the font. :mod:`generator.booklet_pdf` sets the result in type.

What only a game knows comes from its own ``templates/<game>/booklet.py``,
loaded by its path, so the core names no game.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from engine.core import RulesError
from generator import fonts
from generator.booklet_md import Block, BookletError, Document, parse
from generator.booklet_values import fill, own_set, set_values, setup_tables_from_the_engine
from generator.pdf import Piece

BOOKLET = "booklet.md"
PLAYER_AID = "player-aid.md"
COVERAGE = "booklet-coverage.yaml"
HOOKS = "booklet.py"

Rendered = dict[tuple[str, str], list[Piece]]


@dataclass(frozen=True)
class FaceSvg:
    """A printed face drawn at its trim: its SVG and size (mm)."""

    svg: str
    size: tuple[float, float]


def booklet_dir(printable: Any) -> Path:
    """Where a game's booklet files are: its templates folder."""
    from labkit import cardsets

    folder = cardsets.template_dir(printable.game)
    if folder is None:
        raise BookletError([f"{printable.game.title} has no templates folder, so no {BOOKLET}: "
                            "every game prints its rules booklet (docs/design/booklets.md)"])
    return folder


def load_hooks(folder: Path, game: str) -> ModuleType | None:
    """The game's ``booklet.py``, loaded from its file (None when it has none)."""
    path = folder / HOOKS
    if not path.exists():
        return None
    name = f"_labkit_booklet_{game}"
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(path):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_ID = re.compile(r'\bid="([^"]+)"')


def nest(svg: str, x: float, y: float, w: float, h: float, prefix: str = "") -> str:
    """``svg`` (with a ``viewBox``) placed at ``x, y`` mm inside another SVG,
    scaled to ``w`` x ``h`` mm, as a group (svglib sizes a nested ``<svg>``
    in pixels, not in its parent's units). Ids get ``prefix`` so two copies of
    a face do not share definitions."""
    head, _, rest = svg.partition(">")
    body = rest.rsplit("</svg>", 1)[0]
    m = re.search(r'viewBox="([-\d.\s]+)"', head)
    if not m:
        raise BookletError([f"a face to nest has no viewBox: {head[:80]}"])
    vx, vy, vw, vh = (float(v) for v in m.group(1).split())
    if prefix:
        ids = set(_ID.findall(body))
        for i in ids:
            body = body.replace(f'id="{i}"', f'id="{prefix}{i}"').replace(f"#{i})", f"#{prefix}{i})").replace(
                f'"#{i}"', f'"#{prefix}{i}"')
    sx, sy = w / vw, h / vh
    return f'<g transform="translate({x:.3f},{y:.3f}) scale({sx:.5f},{sy:.5f}) translate({-vx},{-vy})">{body}</g>'


def svg_page(w: float, h: float, body: str) -> str:
    """An SVG of ``w`` x ``h`` mm whose user unit is the millimetre."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w:.2f}mm" height="{h:.2f}mm" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">{body}</svg>')


def recorded_game(game: Any, path: Path) -> Any:
    """The final state of a game recorded as JSON (players, seed, options and
    every (seat, action)), replayed from setup through the engine's ``apply``,
    which refuses an action the rules no longer allow: a worked example that
    the rules and the booklet must both still agree with."""
    import json

    data = json.loads(path.read_text(encoding="utf-8"))
    state = game.setup(data["players"], data["seed"], data["options"])
    for seat, action in data["actions"]:
        state = game.apply(state, seat, action)
    if not game.is_over(state):
        raise ValueError(f"{path.name}: the game it records has not ended")
    return state


@dataclass
class BookContext:
    """What a game's figure functions draw with: the rules, the cards, and
    the printed faces of this build."""

    printable: Any
    rendered: Rendered
    _nested: int = 0

    @property
    def game(self) -> Any:
        return self.printable.cardset.play

    @property
    def cards(self) -> Any:
        return self.printable.cardset.cards

    @property
    def title(self) -> str:
        return self.printable.manifest.title

    def _pieces(self, component: str) -> list[Piece]:
        for (cid, style), pieces in self.rendered.items():
            if cid == component and style in ("grid", "loose"):
                return pieces
        for c in self.printable.components():
            if c.sheet_with == component or c.id == component:
                break
        else:
            known = ", ".join(c.id for c in self.printable.components())
            raise KeyError(f"no component {component!r} (known: {known})")
        raise KeyError(f"component {component!r} was not drawn")

    def face(self, component: str, piece_id: str = "front", back: bool = False) -> FaceSvg:
        """One printed face: ``piece_id`` is a card's id, a die's colour, or
        ``front`` for a sheet, token or board."""
        pieces = self._pieces(component)
        keys = {component if piece_id == "front" else f"{component}/{piece_id}"}
        for p in pieces:
            if p.key in keys:
                face = p.back if back else p.front
                if face is None:
                    raise KeyError(f"{component}/{piece_id} has no back")
                return FaceSvg(face.svg, p.size)
        ids = sorted({p.key.partition("/")[2] or "front" for p in pieces})
        raise KeyError(f"{component} has no piece {piece_id!r} (it has: {', '.join(ids[:12])}"
                       f"{', ...' if len(ids) > 12 else ''})")

    def piece_ids(self, component: str) -> list[str]:
        return list(dict.fromkeys(p.key.partition("/")[2] or "front" for p in self._pieces(component)))

    def nest(self, face: FaceSvg | str, x: float, y: float, w: float, h: float) -> str:
        self._nested += 1
        return nest(face.svg if isinstance(face, FaceSvg) else face, x, y, w, h, prefix=f"n{self._nested}-")

    def row_of_faces(self, faces: list[FaceSvg], height: float = 60.0, gap: float = 4.0,
                     wrap: float | None = None) -> str:
        """Faces side by side at one height, as one SVG; with ``wrap`` (mm),
        in rows no wider than that, each row centred."""
        rows: list[list[tuple[FaceSvg, float]]] = [[]]
        width = 0.0
        for f in faces:
            w = f.size[0] * height / f.size[1]
            if wrap is not None and rows[-1] and width + gap + w > wrap:
                rows.append([])
                width = 0.0
            width += (gap if rows[-1] else 0.0) + w
            rows[-1].append((f, w))
        widths = [sum(w for _, w in row) + gap * (len(row) - 1) for row in rows]
        total = max(widths + [1.0])
        parts = []
        for r, (row, row_w) in enumerate(zip(rows, widths)):
            x = (total - row_w) / 2
            for f, w in row:
                parts.append(self.nest(f, x, r * (height + gap), w, height))
                x += w + gap
        return svg_page(total, len(rows) * (height + gap) - gap, "".join(parts))

    def components_figure(self) -> str:
        """The title page's picture: one face of each component (a card of each deck)."""
        faces = []
        for c in self.printable.components():
            if c.sheet_with:
                continue
            pieces = self._pieces(c.id)
            if pieces:
                faces.append(FaceSvg(pieces[0].front.svg, pieces[0].size))
        spread = sum(f.size[0] / f.size[1] for f in faces) * 70.0
        return self.row_of_faces(faces, height=70.0, wrap=max(spread / 2 + 80.0, 300.0) if spread > 450 else None)


@dataclass
class Figure:
    svg: str
    caption: str
    line: int


@dataclass
class Booklet:
    """A game's booklet and player aid, parsed, with every figure drawn."""

    game: str
    title: str
    players: tuple[int, int]
    folder: Path
    doc: Document
    aid: Document
    figures: dict[tuple[str, int], Figure] = field(default_factory=dict)
    """(document path, line) -> the figure drawn for that line."""
    cover: str = ""
    """The title page's picture of the components (SVG)."""

    note: str = ""
    """Said in PRINTING.md: e.g. that the figures show the rulebook's own cards."""
    values: dict[str, str] = field(default_factory=dict)
    """The card set's numbers and names its ``{set:...}`` marks were filled with."""

    def _digest(self, name: str, doc: Document, extra: str = "") -> str:
        h = hashlib.sha256()
        for part in (self.title, repr(self.players), (self.folder / name).read_text("utf-8"), extra,
                     repr(sorted(self.values.items())), repr([b.rows for b in doc.blocks if b.kind == "table"]),
                     *(f"{k}{f.svg}" for k, f in sorted(self.figures.items()) if k[0] == doc.path)):
            h.update(part.encode("utf-8"))
        return h.hexdigest()[:16]

    @cached_property
    def digest(self) -> str:
        """What the booklet's two rules files are made of: its text, title page and figures."""
        return self._digest(BOOKLET, self.doc, self.cover)

    @cached_property
    def aid_digest(self) -> str:
        """What the player aid is made of: a card edited elsewhere does not rewrite it."""
        return self._digest(PLAYER_AID, self.aid)


def _read(folder: Path, name: str, title: str, values: dict[str, str] | None = None) -> Document:
    path = folder / name
    if not path.exists():
        raise BookletError([f"{path}: missing: every game prints a rules booklet and a one-page player aid "
                            f"(docs/design/booklets.md); {title} has no {name}"])
    return parse(fill(path.read_text("utf-8"), path, values or {}), path)


def _figure(book: BookContext, hooks: ModuleType | None, block: Block, where: str) -> str:
    scheme, address = block.scheme, block.address
    try:
        if scheme == "face":
            parts = address.split("/")
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "back"):
                raise KeyError("a face is <component>/<piece-id> or <component>/<piece-id>/back")
            f = book.face(parts[0], parts[1], back=len(parts) == 3)
            return svg_page(*f.size, book.nest(f, 0, 0, *f.size))
        if scheme == "faces":
            component, _, ids = address.partition("/")
            names = book.piece_ids(component)[:10] if ids == "*" else ids.split(",")
            faces = []
            for name in names:  # an id, or <id>/back for its back
                pid, _, side = name.partition("/")
                if side not in ("", "back"):
                    raise KeyError(f"{name!r}: a face is <piece-id> or <piece-id>/back")
                faces.append(book.face(component, pid, back=side == "back"))
            return book.row_of_faces(faces)
        if scheme == "setup":
            if hooks is None or not hasattr(hooks, "setup_figure"):
                raise KeyError(f"the game's {HOOKS} has no setup_figure(book, players)")
            if not address.isdigit():
                raise KeyError(f"setup:<players> takes a number, not {address!r}")
            return hooks.setup_figure(book, int(address))
        if scheme == "figure":
            table: dict[str, Callable[[BookContext], str]] = getattr(hooks, "FIGURES", {}) if hooks else {}
            if address not in table:
                raise KeyError(f"no figure {address!r} in the game's {HOOKS} FIGURES "
                               f"(it has: {', '.join(table) or 'none'})")
            return table[address](book)
    except KeyError as exc:
        raise BookletError([f"{where}: {scheme}:{address}: {exc.args[0]}"]) from None
    except RulesError as exc:  # the game's figure asked its rules for something this card set lacks
        raise BookletError([f"{where}: {scheme}:{address}: the rules refused it: {exc}"]) from None
    raise BookletError([f"{where}: unknown figure scheme {scheme!r}"])


def _texts(b: Block) -> list[tuple[int, str]]:
    out = [(b.line, b.text)] + list(b.items) + [(b.line, c) for r in b.rows for c in r]
    for child in b.children:
        if child is not None:
            out.extend(_texts(child))
    return out


def glyph_problems(doc: Document) -> list[str]:
    out = []
    for b in doc.blocks:
        texts = _texts(b)
        for line, text in texts:
            missing = fonts.missing_glyphs(text) + fonts.missing_glyphs(text, bold=True)
            if missing:
                out.append(f"{doc.path}:{line}: characters the printed font cannot draw: "
                           f"{fonts.describe_missing(list(dict.fromkeys(missing)))}")
    return out


def load(printable: Any, rendered: Rendered) -> Booklet:
    """The game's booklet and player aid with their figures, or
    :class:`BookletError` listing every problem."""
    folder = booklet_dir(printable)
    title = printable.manifest.title
    problems: list[str] = []
    docs = []
    book = BookContext(printable, rendered)
    hooks = load_hooks(folder, printable.game.name)
    values = set_values(hooks, book)
    for name in (BOOKLET, PLAYER_AID):
        try:
            docs.append(_read(folder, name, title, values))
        except BookletError as exc:
            problems.extend(exc.problems)
    if problems:
        raise BookletError(problems)
    doc, aid = docs
    if not own_set(printable):
        setup_tables_from_the_engine(doc, hooks, book.game)
    out = Booklet(printable.game.name, title, tuple(printable.manifest.players), folder, doc, aid,
                  values=values)
    for d in (doc, aid):
        problems.extend(glyph_problems(d))
        for b in d.blocks:
            if b.kind != "figure":
                continue
            where = f"{d.path}:{b.line}"
            try:
                out.figures[(d.path, b.line)] = Figure(_figure(book, hooks, b, where), b.text, b.line)
            except BookletError as exc:
                problems.extend(exc.problems)
    out.cover = book.components_figure()
    if problems:
        raise BookletError(problems)
    return out
