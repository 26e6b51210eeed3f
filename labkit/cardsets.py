"""Card sets on disk: the thin layer that reads a game's data folder (the
rulebook's, or an author's copy, or a zip of one: :mod:`labkit.setfiles`)
and hands the bytes to the game's own parser, which does all the checking
without touching a file.

>>> from labkit import registry
>>> games = [new_game(g) for g in registry.games().values()]
>>> all(game.title == g.title for game, g in zip(games, registry.games().values()))
True
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from engine.core import Game
from pydantic import ConfigDict

from engine.data import CardFiles, DataError, Model, Problem, parse_yaml
from engine.descriptor import GameDescriptor
from labkit import registry, setfiles
from labkit.setfiles import SET_MANIFEST, SetInfo

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


def set_file_names(game: GameDescriptor) -> tuple[str, ...]:
    """The files a card set of ``game`` may hold: its card files and the two manifests."""
    return (*game.card_files, MANIFEST, SET_MANIFEST)


def read(game: GameDescriptor, folder: Path) -> CardFiles:
    """The raw card files of a card set, a folder or a zip (a missing one is
    reported by the parser; problems of the set itself by :func:`cardset`)."""
    files, _, _ = setfiles.collect(Path(folder), display_path(folder), game.card_files)
    return CardFiles(files, display_path(folder))


def manifest_bytes(folder: Path) -> bytes | None:
    """The ``game.yaml`` of a set (a folder or a zip), or ``None``."""
    files, _, _ = setfiles.collect(Path(folder), display_path(folder), (MANIFEST,))
    return files.get(MANIFEST)


@dataclass(frozen=True, eq=False)
class CardSet:
    """One card set of one game, read and checked: the typed cards, the raw
    files they came from (so a later check can name a card's line), and the
    rules bound to them."""

    game: GameDescriptor
    folder: Path
    """Where it was read from: a folder or a zip."""
    files: CardFiles
    cards: Any
    info: SetInfo | None = None
    """Its ``set.yaml``, if it has one (the rulebook's own sets do not)."""
    set_files: dict[str, bytes] = field(default_factory=dict)
    """Every file of the set, manifests included, by name: what is packed and hashed."""

    @cached_property
    def content_hash(self) -> str:
        """:func:`labkit.setfiles.content_hash` of its files: the same from a folder and from its zip."""
        return setfiles.content_hash(self.set_files)

    @cached_property
    def play(self) -> Game:
        """The game's rules bound to these cards."""
        return self.game.game(self.cards)

    def origin(self, model: Any) -> tuple[str, int] | None:
        """``(shown file, line)`` of a card row or data document."""
        found = self.files.origin(model)
        return None if found is None else (self.files.shown(found[0]), found[1])


@lru_cache(maxsize=16)
def _cardset(game: GameDescriptor, folder: Path, shown: str, stamp: tuple) -> CardSet:
    found, problems, refused = setfiles.collect(folder, shown, set_file_names(game), _what(game))
    return _checked(game, folder, shown, found, problems, refused)


def _what(game: GameDescriptor) -> str:
    return f"a {game.title}" if game.title else "a"


def _checked(game: GameDescriptor, folder: Path, shown: str, found: dict[str, bytes], problems: list[Problem],
             refused: set[str]) -> CardSet:
    """The set of ``found`` files, checked by the game's parser; every problem in one :class:`DataError`."""
    files = CardFiles({n: found[n] for n in game.card_files if n in found}, shown)
    info = _info(files, found, game, problems)
    try:
        cards = game.parse_cards(files)
    except DataError as exc:
        refused_shown = {files.shown(n) for n in refused}  # already said why it was not read
        problems.extend(p for p in files.numbered(exc.problems)
                        if not (p.path in refused_shown and p.message == "file is missing"))
        cards = None
    if problems:
        raise DataError(problems)
    return CardSet(game, folder, files, cards, info, dict(found))


def _info(files: CardFiles, found: dict[str, bytes], game: GameDescriptor, problems: list[Problem]) -> SetInfo | None:
    """The set's ``set.yaml``, read and checked against the game it is for."""
    if SET_MANIFEST not in found:
        return None
    manifest = CardFiles({SET_MANIFEST: found[SET_MANIFEST]}, files.folder)
    info = manifest.document(SET_MANIFEST, SetInfo, problems)
    if info is not None and info.game != game.name:
        problems.append(Problem(manifest.shown(SET_MANIFEST), 1, "game", f"expected {game.name!r} (the game "
                                f"game.yaml names), found {info.game!r}", label="key"))
    return info


def cardset(game: GameDescriptor, folder: Path | None = None) -> CardSet:
    """The card set in ``folder``, a folder or a zip (default: the
    rulebook's); raises :class:`DataError` with every problem, of the set's
    files and of its data. Read again only when a file changed."""
    folder = Path(folder) if folder is not None else data_dir(game)
    return _cardset(game, folder.resolve(), display_path(folder), setfiles.stamp(folder, set_file_names(game)))


def open_set(path: Path, game: GameDescriptor | None = None) -> CardSet:
    """A card set from a folder or a zip, whichever game its ``game.yaml``
    names (or ``game``): read, checked (every problem in one
    :class:`DataError`) and ready to play (``.play``), with its
    ``content_hash`` and ``info``. What the companion opens a shared set with."""
    return cardset(game or game_of_folder(path, registry.games()), path)


def open_zip(data: bytes, shown: str, game: GameDescriptor | None = None) -> CardSet:
    """:func:`open_set` of a zip held in memory (uploaded from a phone, or
    kept in the companion's database): read as untrusted, never unpacked,
    checked as a zip on disk is, its problems named under ``shown``."""
    if game is None:
        found, problems, _ = setfiles.collect_zip(data, shown, (MANIFEST,))
        game = game_of_files(found, problems, shown, registry.games())
    found, problems, refused = setfiles.collect_zip(data, shown, set_file_names(game), _what(game))
    return _checked(game, Path(shown), shown, found, problems, refused)


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
    """Which game an author's data folder (or zip) is a copy of: its ``game.yaml`` says."""
    found, problems, _ = setfiles.collect(Path(folder), display_path(Path(folder)), (MANIFEST,))
    return game_of_files(found, problems, display_path(Path(folder)), games)


def game_of_files(found: dict[str, bytes], problems: list[Problem], shown: str,
                  games: dict[str, GameDescriptor]) -> GameDescriptor:
    """Which game a set's files are for (``found`` holds its ``game.yaml``, if any)."""
    files = CardFiles(found, shown)
    text = files.text(MANIFEST, problems)
    if text is None:  # (a zip's other problems are the set's, reported when it is read)
        raise DataError(problems)
    which = parse_yaml(text, files.shown(MANIFEST), _Which)
    if which.game not in games:
        raise DataError([Problem(files.shown(MANIFEST), None, "game",
                                 f"expected one of {', '.join(games)}, found {which.game!r}", label="key")])
    return games[which.game]
