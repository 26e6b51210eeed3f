"""The studio's one card set as it is now, by version: each read of the set
is a new version, with what changed since the one before (the tiles whose
faces or problems differ, the components whose pieces came or went), so a
page that saw version 7 is sent only what changed after it.

A folder is watched (:mod:`watchfiles`, a thread that stops with the
studio): a save redraws first the cards whose rows differ, and sends them,
then the whole set (a face may read more than its own row), and sends
whatever else differs. A zip is read once: it is not watched.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from engine.data import CardFiles
from engine.descriptor import GameDescriptor
from labkit import cardsets, setfiles
from labkit.studio.differences import Difference, differences
from labkit.studio.drawing import Drawing, changed, draw, read, read_and_draw, stale

KEEP_VERSIONS = 64
"""Versions whose changes are remembered; a page further behind is sent everything."""


@dataclass(frozen=True)
class Change:
    version: int
    tiles: frozenset[str]
    groups: frozenset[str]
    seen_at: float | None = None
    """When the watcher saw the save that caused it (``time.time()``)."""


class Studio:
    def __init__(self, game: GameDescriptor, path: Path) -> None:
        self.game = game
        self.path = Path(path)
        self.shown = cardsets.display_path(self.path)
        self.read_only = self.path.is_file()
        self.version = 0
        self.drawing: Drawing = read_and_draw(game, self.path)
        self.good: Drawing | None = None if self.drawing.stale else self.drawing
        """The last drawing of a set that read: an edit is compared with it (a save
        seen half-written reads as broken; the next one still redraws only its card first)."""
        self.svgs: dict[str, str] = _svgs(self.drawing)
        """Face SVG by digest, of this drawing and the one before (a page may still ask for one)."""
        self.differences: list[Difference] = self._differences()
        self.read_at = time.time()
        self.changes: deque[Change] = deque(maxlen=KEEP_VERSIONS)
        self.changed = threading.Condition()
        self.closing = threading.Event()
        self.idle = threading.Event()
        """Set while no read is under way (the bench waits for it between edits)."""
        self.idle.set()
        self.watching = threading.Event()
        """Set once the folder is watched: a save before it would go unseen."""
        self._watcher: threading.Thread | None = None

    # --- reading ----------------------------------------------------------------------
    def _differences(self) -> list[Difference]:
        own = cardsets.cardset(self.game).set_files
        mine, _, _ = setfiles.collect(self.path, self.shown, cardsets.set_file_names(self.game))
        return differences(own, mine)

    def refresh(self, seen_at: float | None = None) -> None:
        """Read the set again: the changed cards first, then everything."""
        self.idle.clear()
        try:
            self._refresh(seen_at)
        finally:
            self.idle.set()

    def _refresh(self, seen_at: float | None) -> None:
        printable, problems, blanked = read(self.game, self.path)
        if printable is None:  # the faces of the last set that read, marked
            found, _, _ = setfiles.collect(self.path, self.shown, cardsets.set_file_names(self.game))
            self._publish(stale(self.good or self.drawing, problems, CardFiles(found, self.shown)), seen_at)
            return
        good = self.good
        if good is not None and good.printable is not None:
            only = changed(good.printable, printable)
            if only is not None:
                self._publish(draw(printable, problems, blanked, good, only), seen_at)
        self._publish(draw(printable, problems, blanked, self.drawing), seen_at)

    def _publish(self, drawing: Drawing, seen_at: float | None) -> None:
        old = self.drawing
        tiles = frozenset(k for k, t in drawing.tiles.items() if old.tiles.get(k) != t)
        old_groups = {g.id: g for g in old.groups}
        groups = frozenset(g.id for g in drawing.groups
                           if g.id not in old_groups or (old_groups[g.id].keys, old_groups[g.id].problems)
                           != (g.keys, g.problems))
        differences = self._differences()
        same = (not tiles and not groups and drawing.problems == old.problems and drawing.stale == old.stale
                and differences == self.differences)
        with self.changed:
            self.svgs = {**_svgs(self.drawing), **_svgs(drawing)}
            self.drawing, self.differences, self.read_at = drawing, differences, time.time()
            if not drawing.stale:
                self.good = drawing
            if same:
                return
            self.version += 1
            self.changes.append(Change(self.version, tiles, groups, seen_at))
            self.changed.notify_all()

    def since(self, version: int) -> tuple[Change, Drawing, list[Difference]]:
        """What changed after ``version`` (everything, if it is too old or from
        another run), with the drawing and differences it leads to."""
        with self.changed:
            later = [c for c in self.changes if c.version > version]
            if version == self.version:
                change = Change(version, frozenset(), frozenset())
            elif version > self.version or not later or later[0].version != version + 1:
                change = Change(self.version, frozenset(self.drawing.tiles),
                                frozenset(g.id for g in self.drawing.groups))
            else:
                change = Change(self.version, frozenset().union(*(c.tiles for c in later)),
                                frozenset().union(*(c.groups for c in later)), later[-1].seen_at)
            return change, self.drawing, self.differences

    def wait(self, version: int, timeout: float) -> int:
        """Sleep until there is a version after ``version`` (or the timeout); the version now."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closing.is_set(), timeout)
            return self.version

    # --- watching ---------------------------------------------------------------------
    def watch(self) -> None:
        """Watch the folder in a thread of its own until :meth:`close`."""
        if self.read_only or self._watcher is not None:
            return
        self._watcher = threading.Thread(target=self._watch, name="studio-watch", daemon=True)
        self._watcher.start()
        self.watching.wait(5)

    def _watch(self) -> None:
        from watchfiles import watch

        wanted = set(cardsets.set_file_names(self.game))
        # step: a save is seen once the folder is quiet for this many ms (an
        # editor's save is a few writes and a rename within a few ms)
        for batch in watch(self.path, stop_event=self.closing, step=30, debounce=400, rust_timeout=100,
                           yield_on_timeout=True, recursive=False):
            self.watching.set()  # the first (empty) batch comes once the watch is set up
            if any(Path(p).name in wanted for _, p in batch):
                self.refresh(seen_at=time.time())

    def close(self) -> None:
        self.closing.set()
        with self.changed:
            self.changed.notify_all()
        if self._watcher is not None:
            self._watcher.join(timeout=5)


def _svgs(drawing: Drawing) -> dict[str, str]:
    return {f.digest: f.svg for t in drawing.tiles.values() for f in (t.front, t.back) if f is not None}
