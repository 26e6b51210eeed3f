"""``labkit balance``'s work: bot games of a card set and of the set it is
compared with, played in this process, a process pool (every core by
default) or on a Dask cluster, added up into one report (JSON figures, and
one self-contained HTML page drawn from them: :mod:`labkit.balance_html`).
The games and the arithmetic are :mod:`engine.bots.balance` and
:mod:`engine.bots.compare`; the leave-one-out and the skill ladder
:mod:`labkit.balance_effect`; nothing here names a game.

A set travels to the workers as its files' bytes (:class:`SetSource`), not
as a path, so a cluster's machines need no copy of it; each worker process
builds the rules once per set.
"""

from __future__ import annotations

import os
import socket
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from engine.bots.balance import figures, match_of, play_for_report
from engine.bots.compare import compare
from engine.core import Game
from engine.data import CardFiles
from labkit import balance_effect, balance_rows, registry, setfiles
from labkit.cardsets import CardSet, display_path

FORMAT = 2
"""The report's JSON format; a change that reads differently bumps it (2:
``look_at``, corrected differences, seat tests, ranks, lead changes, the
leave-one-out, the ladder, where the games ran; no more ``flags``)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: the games of a stage done so far."""

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

    @classmethod
    def of_files(cls, game: str, files: Mapping[str, bytes], shown: str) -> "SetSource":
        return cls(game, tuple(sorted(files.items())), setfiles.content_hash(files), shown)

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


@dataclass
class Runner:
    """Where the games are played: here (``workers`` 1), a process pool of
    ``workers`` (default every core) or the Dask scheduler at ``scheduler``;
    it notes where they ran, for the report."""

    workers: int | None = None
    scheduler: str | None = None
    progress: Progress | None = None
    ran_on: dict[str, Any] | None = None
    cache: dict | None = None
    """Games already played, by set (content hash) and matches: a caller
    comparing many sets with one (a test's faulted sets with the game's
    own) plays that one's games once."""

    def __call__(self, sources: Sequence[SetSource], games: int, levels: Sequence[str], players: Sequence[int],
                 seed: int, stage: str = "bot games") -> list[list[dict[str, Any]]]:
        """``games`` games of each set, the same matches for each (match ``k``
        is :func:`engine.bots.balance.match_of` ``(k, ...)``). Returns each
        set's games in match order, whatever order they finished in."""
        keys = [(src.content_hash, games, tuple(levels), tuple(players), seed) for src in sources]
        if self.cache is not None and all(k in self.cache for k in keys):
            return [self.cache[k] for k in keys]
        jobs = [(i, src, k, match_of(k, players, levels, seed)) for i, src in enumerate(sources)
                for k in range(games) if self.cache is None or keys[i] not in self.cache]
        done: list[dict[str, Any]] = []

        def note(result: dict[str, Any]) -> None:
            done.append(result)
            if self.progress:
                self.progress(stage, len(done), len(jobs))

        if self.scheduler:
            self._on_dask(jobs, note)
        else:
            workers = self.workers or os.cpu_count() or 1
            if workers <= 1:
                self.ran_on = {"where": "here", "processes": 1, "host": socket.gethostname(),
                               "said": f"in one process on {socket.gethostname()}"}
                for job in jobs:
                    note(play_job(job))
            else:
                self.ran_on = {"where": "pool", "processes": workers, "host": socket.gethostname(),
                               "said": f"in a pool of {workers} processes on {socket.gethostname()}"}
                light = [(i, None, k, match) for i, _, k, match in jobs]
                with ProcessPoolExecutor(workers, initializer=install_sets, initargs=(tuple(sources),)) as pool:
                    for result in pool.map(play_job, light, chunksize=max(1, min(8, len(jobs) // (workers * 8)))):
                        note(result)
        out = []
        for i, key in enumerate(keys):
            if self.cache is not None and key in self.cache:
                out.append(self.cache[key])
                continue
            mine = sorted((g for g in done if g["set"] == i), key=lambda g: g["index"])
            out.append([{k: v for k, v in g.items() if k != "set"} for g in mine])
            if self.cache is not None:
                self.cache[key] = out[-1]
        return out

    def _on_dask(self, jobs: list, note: Callable[[dict[str, Any]], None]) -> None:
        """The same jobs on a Dask cluster (``dask.distributed``): the results
        are the same as a pool's, since each game depends on its job only."""
        from distributed import Client, as_completed

        with Client(self.scheduler) as client:
            workers = client.scheduler_info().get("workers", {})
            hosts = sorted({w.get("host", "?") for w in workers.values()})
            self.ran_on = {"where": "dask", "scheduler": self.scheduler, "workers": len(workers), "hosts": hosts,
                           "said": f"on the Dask scheduler at {self.scheduler}: {len(workers)} workers on "
                                   f"{', '.join(hosts) or 'no host'}"}
            futures = client.map(play_job, jobs, pure=False)
            for future in as_completed(futures):
                note(future.result())


def run(sources: Sequence[SetSource], games: int, levels: Sequence[str], players: Sequence[int], seed: int,
        workers: int | None = None, scheduler: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[list[dict[str, Any]]]:
    """:class:`Runner` in one call (``progress`` sees the count of games done)."""
    note = (lambda stage, done, total: progress(done)) if progress else None
    return Runner(workers, scheduler, note)(sources, games, levels, players, seed)


def report(this: CardSet, other: CardSet, games: int, levels: Sequence[str], players: Sequence[int], seed: int,
           workers: int | None = None, scheduler: str | None = None, progress: Progress | None = None,
           effect_games: int = 0, ladder_games: int = 0, ladder_bot: str = "greedy", cache: dict | None = None
           ) -> dict[str, Any]:
    """The whole report as plain data (what the JSON file holds): the set,
    the set compared with, how the games were played, the cards to look at
    first, each set's figures and their corrected differences; with
    ``effect_games``, the leave-one-out of the first cards to look at; with
    ``ladder_games``, how much ``ladder_bot`` beats random in each set."""
    runner = Runner(workers, scheduler, progress, cache=cache)
    sources = [SetSource.of(this), SetSource.of(other)]
    played = runner(sources, games, levels, players, seed)
    games_of = [src() for src in sources]
    ranked = games_of[0].ranked
    figs = [figures(g, game.card_names(), ranked) for g, game in zip(played, games_of)]
    cards = list(dict.fromkeys([*figs[0]["cards"], *figs[1]["cards"]]))
    changed = balance_rows.changes(this.set_files, other.set_files, cards, this.game.columns)
    found = compare(figs[0], figs[1], changed)
    effects = balance_effect.leave_one_out(this, other, found["look_at"], played[0], runner, SetSource.of_files,
                                           effect_games, levels, players, seed) if effect_games else None
    ladder = balance_effect.ladder(sources, runner, ladder_games, ladder_bot, this.game, seed) if ladder_games else None
    return {
        "format": FORMAT,
        "game": this.game.name,
        "title": this.game.title,
        "ranked": ranked,
        "sets": [_describe(cs) for cs in (this, other)],
        "games": games, "bots": list(levels), "players": list(players), "seed": seed,
        "ran_on": runner.ran_on,
        "method": METHOD,
        "look_at": found["look_at"],
        "leave_one_out": effects,
        "ladder": ladder,
        "changed": changed,
        "changed_files": sorted(n for n in this.game.card_files
                                if this.set_files.get(n) != other.set_files.get(n)),
        "power": found["power"],
        "figures": figs,
        "differences": found["differences"],
        "marked": found["marked"],
    }


METHOD = {
    "interval": "Wilson's score interval, 95%; a shared win counts as a share",
    "rates": "two-proportion z-test (pooled), two-sided",
    "means": "Welch's z (normal approximation), two-sided",
    "correction": "Benjamini-Hochberg at a 5% false discovery rate over every figure tested, weighted "
                  "(Genovese, Roeder & Wasserman 2006): the figures of the cards whose rules changed in the data "
                  "share half the weight; figures that could not reach 5% even alone are not counted (Tarone's "
                  "screen)",
    "marked_intervals": "at the false coverage rate level 1 - R q w / m (Benjamini & Yekutieli 2005): Newcombe's "
                        "hybrid score interval for a difference of rates, Welch's for means",
    "look_at": "a card is listed when at least one of its figures (a use's rate in the games it was in play, its "
               "users' win rate) survives the correction",
    "seats": "each seat's win share against an even share, one-sample z-test, Benjamini-Hochberg at 5% over the "
             "seats of every player count",
    "power": "the smallest difference of two rates of 50% found with chance 80% at the procedure's first bar "
             "(q w / m), normal approximation",
    "leave_one_out": "the set again with the card's change undone (its row as in the other set), or, for a card "
                     "not changed, its fields replaced by those of a typical card of its kind (the same file and "
                     "kind, the median use; or, where the game refuses every stand-in, the set without it), "
                     "played on the same matches; the paired difference in the win share of the seats that used "
                     "the card, normal 95% interval",
    "ladder": "the ladder bot against random at 2 players (seats alternating), its win share with Wilson's "
              "interval, each set on the same matches",
    "matches": "both sets play the same matches (player count, seats, seed): seed + match index",
    "ranks": "a game whose totals are ranking codes gets places (1 the best, a tie sharing the better place) "
             "and win shares, never averages of its codes",
    "lead_changes": "the leader (one seat strictly ahead by the game's standings) read as each round begins and "
                    "at the end; a new leader where another led is a change",
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
