"""What a game tells the house about itself: one record per game, read by
every face (the ``labkit`` command, the printer, the companion, the
benchmarks), like OpenSpiel's ``GameType`` or python-chess's variants.

A game's package defines one :class:`GameDescriptor`, conventionally as
``GAME`` in ``engine/<game>/__init__.py``, and declares it in packaging
metadata (``[project.entry-points."labkit.games"]`` in ``pyproject.toml``):
the registry (:mod:`labkit.registry`) finds it there, so no core module
names a game. Everything here is plain data and functions; the faces turn
names (``data``, ``templates``, ``companion``) into folders and modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.core import Game
from engine.data import CardFiles


@dataclass(frozen=True)
class PaperReport:
    """What a paper tool found, ready for a terminal table, a page or JSON."""

    ok: bool
    """Legal, scored: ``True``; refused: ``False`` (and ``summary`` says why)."""
    title: str
    summary: str
    rows: tuple[tuple[str, str], ...] = ()
    """``(label, value)`` lines, e.g. the score boxes."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """The whole finding as JSON."""

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "title": self.title, "summary": self.summary,
                "rows": [list(r) for r in self.rows], "data": dict(self.data)}


@dataclass(frozen=True)
class PaperTool:
    """A referee for a table playing with the printed components: a finished
    sheet scored, a proposed reaction judged. ``labkit <verb> <game> FILE.json``
    runs it; the companion offers it as a page."""

    verb: str
    """The command's verb: ``score``, ``check``."""
    what: str
    """What it takes, for help texts: ``"a finished note sheet"``."""
    run: Callable[[Game, Any], PaperReport]
    """JSON data in; raises :class:`engine.core.InvalidState` listing every problem."""
    format: str = ""
    """Where the JSON format is written down (a path under ``docs/``)."""


@dataclass(frozen=True)
class GameDescriptor:
    name: str
    """Registry key; also the folder name of its data and templates."""
    game: Callable[[Any], Game]
    """The rules bound to a card set: ``game(cards)`` (usually the Game class)."""
    card_files: tuple[str, ...]
    """The files of a card set that :attr:`parse_cards` reads."""
    parse_cards: Callable[[CardFiles], Any]
    """Text in, typed card set out; raises :class:`engine.data.DataError` with every problem."""
    data: str
    """The package (folder) holding the rulebook's card set and its print manifest ``game.yaml``."""
    templates: str | None = None
    """The package (folder) of its print templates; names in ``game.yaml`` start with :attr:`name`."""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    paper: tuple[PaperTool, ...] = ()
    companion: str | None = None
    """The module of its companion plugin, imported only by the companion."""
    columns: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False, compare=False)
    """Each card file's columns (CSV) or keys (YAML) -> :class:`engine.columns.Column`
    (or its role alone): which the rules read, which are text only, which are
    a rule in words the rules do not read (``labkit validate`` says, and
    refuses a changed rule in words). Docs: ``docs/authoring.md``."""
    reader: str | None = None
    """The module that reads a photo of its printed sheet (``reader/games/<game>``),
    imported only by the reader (``labkit read``, the companion's paper pages)."""
    workloads: Callable[[Game], Mapping[str, Callable[[], object]]] | None = None
    """Extra figures for ``make bench``: name -> a function to time (pure), returning how many
    units it did (an ``int``: sheets, searches, games; ``None`` counts as one)."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not self.name.islower():
            raise ValueError(f"a game's name is a lower-case identifier, found {self.name!r}")
        if not self.title:
            for attr in ("title", "min_players", "max_players"):
                object.__setattr__(self, attr, getattr(self.game, attr))

    def tool(self, verb: str) -> PaperTool | None:
        return next((t for t in self.paper if t.verb == verb), None)
