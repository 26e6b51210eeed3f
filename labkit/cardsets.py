"""Card sets on disk: the thin layer that reads a game's data folder (the
rulebook's, or an author's copy) and hands the bytes to the game's own
parser, which does all the checking without touching a file.

>>> from labkit import registry
>>> games = [new_game(g) for g in registry.games().values()]
>>> all(game.title == g.title for game, g in zip(games, registry.games().values()))
True
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from engine.core import Game
from pydantic import ConfigDict

from engine.data import CardFiles, DataError, Model, Problem, parse_yaml
from engine.descriptor import GameDescriptor
from labkit import registry

MANIFEST = "game.yaml"


def package_dir(package: str) -> Path:
    """The folder of a package or a plain folder inside one (``cardsdata.<game>``)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"no folder for {package!r}")
    return Path(list(spec.submodule_search_locations)[0])


def data_dir(game: GameDescriptor) -> Path:
    """Where the rulebook's card set of ``game`` is."""
    return package_dir(game.data)


def template_dir(game: GameDescriptor) -> Path | None:
    return package_dir(game.templates) if game.templates else None


def display_path(path: Path) -> str:
    """A path as a person would type it: relative to the working folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read(game: GameDescriptor, folder: Path) -> CardFiles:
    """The raw files of a card set (a missing one is reported by the parser)."""
    folder = Path(folder)
    files = {}
    for name in game.card_files:
        path = folder / name
        if path.is_file():
            files[name] = path.read_bytes()
    return CardFiles(files, display_path(folder))


@dataclass(frozen=True, eq=False)
class CardSet:
    """One card set of one game, read and checked: the typed cards, the raw
    files they came from (so a later check can name a card's line), and the
    rules bound to them."""

    game: GameDescriptor
    folder: Path
    files: CardFiles
    cards: Any

    @cached_property
    def play(self) -> Game:
        """The game's rules bound to these cards."""
        return self.game.game(self.cards)

    def origin(self, model: Any) -> tuple[str, int] | None:
        """``(shown file, line)`` of a card row or data document."""
        found = self.files.origin(model)
        return None if found is None else (self.files.shown(found[0]), found[1])


def _stamp(game: GameDescriptor, folder: Path) -> tuple:
    """What changes when a card set is edited: each file's size and time."""
    out = []
    for name in game.card_files:
        try:
            st = os.stat(Path(folder) / name)
            out.append((name, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((name, None, None))
    return tuple(out)


@lru_cache(maxsize=16)
def _cardset(game: GameDescriptor, folder: Path, stamp: tuple) -> CardSet:
    files = read(game, folder)
    try:
        cards = game.parse_cards(files)
    except DataError as exc:
        raise DataError(files.numbered(exc.problems)) from None
    return CardSet(game, folder, files, cards)


def cardset(game: GameDescriptor, folder: Path | None = None) -> CardSet:
    """The card set in ``folder`` (default: the rulebook's); raises
    :class:`DataError` with every problem. Read again only when a file changed."""
    folder = Path(folder) if folder is not None else data_dir(game)
    return _cardset(game, folder.resolve(), _stamp(game, folder))


def load(game: GameDescriptor, folder: Path | None = None) -> Any:
    """The typed cards of a card set."""
    return cardset(game, folder).cards


def new_game(game: GameDescriptor, folder: Path | None = None) -> Game:
    """The game's rules bound to a card set (default: the rulebook's), made
    once per card set: the rules work out their lookups from the cards."""
    return cardset(game, folder).play


@dataclass(frozen=True)
class NamedGame:
    """A registered game by name, as a picklable factory: a worker process
    (a pool's, a cluster's) builds the rules itself, once, instead of being
    sent them (``engine.bots.arena.play_many``)."""

    name: str
    folder: Path | None = None

    def __call__(self) -> Game:
        return new_game(registry.find(self.name), self.folder)


class _Which(Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    game: str


def game_of_folder(folder: Path, games: dict[str, GameDescriptor]) -> GameDescriptor:
    """Which game an author's data folder is a copy of: its ``game.yaml`` says."""
    files = CardFiles({MANIFEST: (Path(folder) / MANIFEST).read_bytes()} if (Path(folder) / MANIFEST).is_file()
                      else {}, display_path(Path(folder)))
    problems: list[Problem] = []
    text = files.text(MANIFEST, problems)
    if text is None:
        raise DataError(problems)
    which = parse_yaml(text, files.shown(MANIFEST), _Which)
    if which.game not in games:
        raise DataError([Problem(files.shown(MANIFEST), None, "game",
                                 f"expected one of {', '.join(games)}, found {which.game!r}", label="key")])
    return games[which.game]
