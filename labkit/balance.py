"""``labkit balance``'s work: bot games of a card set and of the set it is
compared with, played in this process, a process pool (every core by
default) or on a Dask cluster, added up into one report (JSON figures, and
one self-contained HTML page drawn from them: :mod:`labkit.balance_html`).
The games and the arithmetic are :mod:`engine.bots.balance`; nothing here
names a game.

A set travels to the workers as its files' bytes (:class:`SetSource`), not
as a path, so a cluster's machines need no copy of it; each worker process
builds the rules once per set.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine.bots.balance import differences, figures, match_of, play_for_report, summary_lines
from engine.core import Game
from engine.data import CardFiles
from labkit import registry
from labkit.cardsets import CardSet, display_path

FORMAT = 1
"""The report's JSON format; a change that reads differently bumps it."""

_BUILT: dict[str, Game] = {}
"""The rules of each set a worker process was handed, by content hash."""


@dataclass(frozen=True)
class SetSource:
    """A card set as its files' bytes: a picklable factory of its rules for
    a pool's or a cluster's workers (``engine.bots.balance.play_for_report``)."""

    game: str
    files: tuple[tuple[str, bytes], ...]
    content_hash: str
    shown: str

    @classmethod
    def of(cls, cardset: CardSet) -> "SetSource":
        names = cardset.game.card_files
        return cls(cardset.game.name, tuple((n, cardset.set_files[n]) for n in names if n in cardset.set_files),
                   cardset.content_hash, display_path(cardset.folder))

    def __call__(self) -> Game:
        game = _BUILT.get(self.content_hash)
        if game is None:
            desc = registry.find(self.game)
            game = _BUILT[self.content_hash] = desc.game(desc.parse_cards(CardFiles(dict(self.files), self.shown)))
        return game


_SOURCES: tuple[SetSource, ...] = ()
"""The sets a pool's worker process was handed once, when it started."""


def install_sets(sources: tuple[SetSource, ...]) -> None:
    global _SOURCES
    _SOURCES = sources


def play_job(job: tuple[int, SetSource | None, int, Any]) -> dict[str, Any]:
    """One game: the set comes with the job (a cluster's) or was installed in
    the worker (a pool's: its files are not pickled again for every game)."""
    which, source, index, match = job
    return {"set": which, **play_for_report(source or _SOURCES[which], match, index)}


def run(sources: Sequence[SetSource], games: int, levels: Sequence[str], players: Sequence[int], seed: int,
        workers: int | None = None, scheduler: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[list[dict[str, Any]]]:
    """``games`` games of each set, the same matches for each (match ``k``
    is :func:`engine.bots.balance.match_of` ``(k, ...)``), played here
    (``workers`` 1), in a process pool of ``workers`` (default: every core)
    or on the Dask scheduler at ``scheduler``. Returns each set's games in
    match order, whatever order they finished in; ``progress`` sees the
    count of games done."""
    jobs = [(i, src, k, match_of(k, players, levels, seed)) for i, src in enumerate(sources) for k in range(games)]
    done: list[dict[str, Any]] = []

    def note(result: dict[str, Any]) -> None:
        done.append(result)
        if progress:
            progress(len(done))

    if scheduler:
        _on_dask(scheduler, jobs, note)
    else:
        workers = workers or os.cpu_count() or 1
        if workers <= 1:
            for job in jobs:
                note(play_job(job))
        else:
            light = [(i, None, k, match) for i, _, k, match in jobs]
            with ProcessPoolExecutor(workers, initializer=install_sets, initargs=(tuple(sources),)) as pool:
                for result in pool.map(play_job, light, chunksize=max(1, min(8, len(jobs) // (workers * 8)))):
                    note(result)
    out = []
    for i in range(len(sources)):
        mine = sorted((g for g in done if g["set"] == i), key=lambda g: g["index"])
        out.append([{k: v for k, v in g.items() if k != "set"} for g in mine])
    return out


def _on_dask(address: str, jobs: list, note: Callable[[dict[str, Any]], None]) -> None:
    """The same jobs on a Dask cluster (``dask.distributed``): the results
    are the same as a pool's, since each game depends on its job only."""
    from distributed import Client, as_completed

    with Client(address) as client:
        futures = client.map(play_job, jobs, pure=False)
        for future in as_completed(futures):
            note(future.result())


def report(this: CardSet, other: CardSet, games: int, levels: Sequence[str], players: Sequence[int], seed: int,
           workers: int | None = None, scheduler: str | None = None,
           progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The whole report as plain data (what the JSON file holds): the set,
    the set compared with, how the games were played, each set's figures
    and their differences."""
    sources = [SetSource.of(this), SetSource.of(other)]
    played = run(sources, games, levels, players, seed, workers, scheduler, progress)
    names = [src().card_names() for src in sources]
    figs = [figures(g, n) for g, n in zip(played, names)]
    diffs = differences(figs[0], figs[1])
    return {
        "format": FORMAT,
        "game": this.game.name,
        "title": this.game.title,
        "sets": [_describe(cs) for cs in (this, other)],
        "games": games, "bots": list(levels), "players": list(players), "seed": seed,
        "method": {
            "interval": "Wilson's score interval, 95%; a shared win counts as a share",
            "rates": "two-proportion z-test (pooled), marked at |z| >= 1.96",
            "means": "Welch's z (normal approximation), marked at |z| >= 1.96",
            "matches": "both sets play the same matches (player count, seats, seed): seed + match index",
            "flags": "a card's rate at a robust z >= 3 from the cards' median (its interval leaving the median "
                     "out), or its users' win rate at z >= 3 from the other seats'",
        },
        "figures": figs,
        "differences": diffs,
        "marked": summary_lines(diffs),
    }


def _describe(cs: CardSet) -> dict[str, Any]:
    info = cs.info
    return {"name": info.name if info is not None else f"{cs.game.title} (the game's own)",
            "folder": display_path(cs.folder), "content_hash": cs.content_hash,
            "version": getattr(info, "version", None) if info is not None else None}


def default_players(game, wanted: Sequence[int] | None) -> list[int]:
    """The player counts asked for, or 2 to 4 as far as the game allows."""
    if wanted:
        return list(wanted)
    return [p for p in (2, 3, 4) if game.min_players <= p <= game.max_players] or [game.min_players]


