"""Card sets at the table: the game's own, a set from the folder the server
was started with (``labkit serve --sets DIR``: set folders and set zips),
or a zip the host uploads when making the table.

Whichever it is, a table played with another set than the game's own is
made only once the set is stored in the database, whole, under its content
hash (:mod:`companion.store_sets`), and the table records that hash: every
worker, and a restarted server, then builds the same rules from the same
bytes, and the table's log replays with the cards it was played with even
if the folder's copy is edited or removed.

An uploaded zip is untrusted input: it is read in memory under the bounds
of :mod:`labkit.setfiles` and checked by the game's own parser, in a worker
process for a bounded time (:mod:`companion.set_check`), and every problem
found is a :class:`~companion.errors.BadSet` with the words ``labkit
validate`` prints, before anything is stored.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from engine.core import Game
from engine.data import DataError
from companion import set_check
from companion.errors import BadSet
from companion.store_sets import StoredSet
from labkit import cardsets, registry, setfiles

log = logging.getLogger(__name__)

HASH = re.compile(r"^[0-9a-f]{64}$")
"""A content hash as :func:`labkit.setfiles.content_hash` writes it."""
KEEP_GAMES = 16
"""Rules built from custom sets kept per process (a set's rules take a while
to build), the least recently used let go beyond it: drawings the games'
plugins keep are keyed by :func:`companion.kept.serial`, never ``id()``, so
no later set's rules are shown another set's drawings."""
OWN = "own"
"""The form's and the API's word for the game's own set."""


@dataclass(frozen=True)
class Offer:
    """A set the host may choose when making a table of its game."""

    hash: str
    name: str
    author: str
    version: str
    source: str
    """Its file or folder name in the server's sets folder."""


@dataclass(frozen=True)
class About:
    """What a table's page says of the set in play."""

    name: str
    author: str
    version: str


def _offer(opened: cardsets.CardSet, source: str) -> Offer:
    info = opened.info
    if info is None:   # a copy of a game's folder without a set.yaml: its folder's name names it
        return Offer(opened.content_hash, PurePath(source).stem, "", "", source)
    return Offer(opened.content_hash, info.name, info.author, info.version, source)


def _stored(opened: cardsets.CardSet, fallback_name: str) -> StoredSet:
    info = opened.info
    return StoredSet(opened.content_hash, opened.game.name, info.name if info else fallback_name,
                     info.author if info else "", info.version if info else "",
                     setfiles.write_zip(opened.set_files))


class TableSets:
    """The sets a server offers and the rules of the sets its tables play."""

    def __init__(self, store: Any, folder: Path | str | None = None,
                 check_seconds: float = set_check.CHECK_SECONDS) -> None:
        self.store = store
        self.check_seconds = check_seconds
        """An upload's check runs in a worker process for at most this (0: here, unbounded)."""
        self.folder = Path(folder) if folder else None
        if self.folder is not None and not self.folder.is_dir():
            raise ValueError(f"SETS_DIR: {self.folder} is not a folder (give the folder that holds the card sets)")
        self._lock = threading.Lock()
        self._games: "OrderedDict[str, Game]" = OrderedDict()
        self._about: dict[str, About] = {}
        self._zips: "OrderedDict[str, bytes]" = OrderedDict()
        self._listed: tuple[tuple, tuple[list, list[str]]] | None = None
        """The folder's sets as last read, and what their files looked like then."""

    # --- the server's folder ------------------------------------------------------
    def server_sets(self) -> tuple[list[tuple[cardsets.CardSet, str]], list[str]]:
        """Every set in the server's folder, read and checked (each is read
        again only when its files change), with the problems of those that
        are broken: they are not offered, and the log says why."""
        if self.folder is None:
            return [], []
        entries = [e for e in sorted(self.folder.iterdir()) if not e.name.startswith(".") and setfiles.is_set_path(e)]
        seen = tuple((e.name, _fingerprint(e)) for e in entries)
        with self._lock:
            if self._listed is not None and self._listed[0] == seen:
                return self._listed[1]
        found, problems = [], []
        from labkit import checks   # every check labkit validate makes, not only the data's

        for entry in entries:
            try:
                opened = cardsets.open_set(entry)
            except DataError as exc:
                problems.extend(str(p) for p in exc.problems)
                continue
            refused = checks.cardset_problems(opened)
            if refused:
                problems.extend(refused)
            else:
                found.append((opened, entry.name))
        if problems:
            log.warning("card sets in %s not offered:\n%s", self.folder, "\n".join(problems))
        with self._lock:
            self._listed = (seen, (found, problems))
        return found, problems

    def offered(self, game: str) -> list[Offer]:
        """The server's sets of ``game``, by name."""
        sets, _ = self.server_sets()
        return sorted((_offer(s, source) for s, source in sets if s.game.name == game),
                      key=lambda o: (o.name.casefold(), o.version, o.source))

    # --- choosing ---------------------------------------------------------------------
    def choose(self, game: str, choice: Any) -> str | None:
        """The hash a new table of ``game`` records for the host's ``choice``:
        ``None`` (or ``"own"``, or empty) for the game's own set; a server
        set by its hash, its file name or its set.yaml name; or the hash of
        a set already stored. A server set is stored first."""
        if choice is None or choice == "" or choice == OWN:
            return None
        if not isinstance(choice, str) or len(choice) > 200:
            raise BadSet("A card set is named by text: \"own\", a set's hash, or the name of one of the server's sets.")
        sets, _ = self.server_sets()
        mine = [(s, source) for s, source in sets if s.game.name == game]
        for by in (lambda s, source: s.content_hash == choice, lambda s, source: source == choice,
                   lambda s, source: s.info is not None and s.info.name == choice):
            hits = [(s, source) for s, source in mine if by(s, source)]
            if len(hits) == 1:
                opened, source = hits[0]
                self.store.put_card_set(_stored(opened, PurePath(source).stem))
                return opened.content_hash
            if len(hits) > 1:
                raise BadSet(f"{len(hits)} of the server's card sets are called {choice[:60]!r}: "
                             f"choose one by its file name ({', '.join(source for _, source in hits)}).")
        if HASH.match(choice):
            kept = self.store.card_set(choice)
            if kept is not None and kept.game == game:
                self.store.put_card_set(kept)   # marks it used: it is not forgotten under a new table
                return choice
        title = registry.find(game).title
        known = ", ".join(repr(o.name) for o in self.offered(game)) or "none"
        raise BadSet(f"There is no card set {choice[:64]!r} of {title} on this server "
                     f"(the server's sets of {title}: {known}; or give the hash of a stored set).")

    def upload(self, game: str, data: bytes, filename: str | None) -> str:
        """Check an uploaded zip as a set of ``game`` and store it: its hash.
        Raises :class:`BadSet` with every problem found; nothing is stored then."""
        shown = _shown_name(filename)
        descriptor = registry.find(game)
        try:
            found = set_check.checked(data, shown, descriptor, PurePath(shown).stem, self.check_seconds)
        except set_check.TooLong:
            raise BadSet(f"{shown} took longer than {self.check_seconds:g} s to check, so it was not accepted "
                         "(nothing was stored): check it with labkit validate, which says which cards "
                         "are hard to place.") from None
        except set_check.Busy:
            raise BadSet(f"{shown} was not checked: another card set took the checker all that time. Nothing was "
                         "stored: choose its zip again in a moment.") from None
        except set_check.Broke:
            raise BadSet(f"{shown}: its check stopped without an answer, so it was not accepted (nothing was "
                         "stored): check it with labkit validate, then choose its zip again.") from None
        if found.other:
            raise BadSet(f"{shown} is a card set of {found.other}, not of {descriptor.title}: "
                         f"choose it when making a {found.other} table.", list(found.problems))
        if found.problems:
            raise _refused(shown, list(found.problems))
        self.store.put_card_set(StoredSet(found.hash, game, found.name, found.author, found.version, found.zip))
        return found.hash

    # --- playing --------------------------------------------------------------------
    def game(self, game: str, digest: str) -> Game:
        """The rules of ``game`` bound to the stored set ``digest`` (built once per process)."""
        with self._lock:
            cached = self._games.get(digest)
            if cached is not None:
                self._games.move_to_end(digest)
                return cached
        kept = self._kept(digest)
        try:
            rules = cardsets.open_zip(kept.zip, f"{kept.name}.zip", registry.find(game)).play
        except DataError as exc:   # it was checked when stored: only a changed game could refuse it now
            raise RuntimeError(f"the stored card set {digest} ({kept.name}) no longer reads as a set of "
                               f"{game}: {exc}") from None
        with self._lock:
            self._games[digest] = rules
            while len(self._games) > KEEP_GAMES:
                self._games.popitem(last=False)
        return rules

    def about(self, digest: str) -> About:
        with self._lock:
            cached = self._about.get(digest)
        if cached is None:
            kept = self._kept(digest)
            cached = About(kept.name, kept.author, kept.version)
            with self._lock:
                self._about[digest] = cached
        return cached

    def zip_of(self, digest: str) -> bytes:
        """The stored set as one zip: what a bot's worker process builds the rules from."""
        with self._lock:
            cached = self._zips.get(digest)
        if cached is None:
            cached = self._kept(digest).zip
            with self._lock:
                self._zips[digest] = cached
                while len(self._zips) > KEEP_GAMES:
                    self._zips.popitem(last=False)
        return cached

    def _kept(self, digest: str) -> StoredSet:
        kept = self.store.card_set(digest)
        if kept is None:  # the store keeps every set a table records (companion.store_sets)
            raise RuntimeError(f"card set {digest} is not in the database")
        return kept


def _fingerprint(entry: Path) -> tuple:
    """What changes when a set in the server's folder is edited: the sizes and
    times of a zip, or of a folder's files (read again only then)."""
    if entry.is_file():
        st = entry.stat()
        return (st.st_size, st.st_mtime_ns)
    return tuple(sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in entry.iterdir() if f.is_file()))


def _shown_name(filename: str | None) -> str:
    """An uploaded file's name as problems name it: its last part, printable, short."""
    name = PurePath(str(filename or "").replace("\\", "/")).name
    name = "".join(ch for ch in name if ch.isprintable())[:80].strip()
    return name or "upload.zip"


def _refused(shown: str, problems: list[str]) -> BadSet:
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return BadSet(f"{shown} was not accepted as a card set ({count}; nothing was stored).", problems)
