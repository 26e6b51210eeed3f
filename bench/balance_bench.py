"""The balance report (``labkit balance``), every registered game: greedy
bot games per second as a report plays them (card uses, lead changes and
all), on one core and on two, and the time of a whole greedy report of
``LABKIT_BENCH_BALANCE_GAMES`` games (default 1,000) of a set and of the
original (the game's own set against itself: 2,000 games), at 2 to 4
players in turn, pool, statistics and page included, without leave-one-out
or ladder (the goal: at most 2 minutes on a 2-core machine). Figures only; no time is
asserted. A machine shared with other work gives slower figures: say so
beside them.

``LABKIT_BENCH_GAMES=a,b`` limits the games; ``LABKIT_BENCH_BALANCE_RATE_SECONDS``
the time spent on each games-per-second figure (default 10);
``LABKIT_BENCH_BALANCE_GAMES=0`` skips the whole reports.
``python -m bench balance`` runs this section alone."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from bench.engine_bench import games
from engine.bots.balance import match_of, play_for_report
from labkit import balance
from labkit.balance_html import render
from labkit.cardsets import cardset

RATE_SECONDS = float(os.environ.get("LABKIT_BENCH_BALANCE_RATE_SECONDS", "10"))
REPORT_GAMES = int(os.environ.get("LABKIT_BENCH_BALANCE_GAMES", "1000"))
GOAL_SECONDS = 120.0
CORES = 2
"""The cores of the goal's machine: the pool figure and the report use two."""


def _one_core(source, players: list[int]) -> tuple[float, float]:
    """Games per second of the clock, and per second of this process's CPU
    (what a machine to itself would give, whatever else shares the cores)."""
    start, cpu, n = time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - start < RATE_SECONDS or n == 0:
        play_for_report(source, match_of(n, players, ["greedy"], 1), n)
        n += 1
    return n / (time.perf_counter() - start), n / max(time.process_time() - cpu, 1e-9)


def _all_cores(source, players: list[int], per_core: float) -> float:
    n = max(CORES, int(per_core * RATE_SECONDS * CORES))
    with ProcessPoolExecutor(CORES, initializer=balance.install_sets, initargs=((source,),)) as pool:
        list(pool.map(_play, [(k, players) for k in range(CORES)]))  # started, rules built: not timed
        start = time.perf_counter()
        list(pool.map(_play, [(k, players) for k in range(n)], chunksize=max(1, min(8, n // (CORES * 8)))))
        return n / (time.perf_counter() - start)


def _play(job) -> None:
    k, players = job
    balance.play_job((0, None, k, match_of(k, players, ["greedy"], 1)))


def run(console: Console) -> None:
    table = Table(title=f"Balance report: greedy bot games per second; a {REPORT_GAMES:,}-game report, set and "
                        f"original ({CORES} processes, {os.cpu_count()} cores here)",
                  caption=f"Load average when it started: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
                          "(other work on the machine makes every figure but games per CPU-second slower).")
    for col in ("game", "players", "games/s, 1 core", "games per CPU-s", f"games/s, {CORES} cores", "report", "goal"):
        table.add_column(col, justify="left" if col in ("game", "goal") else "right")
    for desc in games():
        own = cardset(desc)
        source = balance.SetSource.of(own)
        players = balance.default_players(desc, None)
        one, per_cpu = _one_core(source, players)
        many = _all_cores(source, players, one)
        took, verdict = "-", "skipped"
        if REPORT_GAMES:
            start = time.perf_counter()
            data = balance.report(own, own, REPORT_GAMES, ["greedy"], players, 1, workers=CORES)
            render(data)
            seconds = time.perf_counter() - start
            took = f"{seconds:,.0f} s"
            per_1000 = seconds * 1000 / REPORT_GAMES
            verdict = "met" if per_1000 <= GOAL_SECONDS else f"missed, {per_1000 / GOAL_SECONDS:.1f} x"
            if REPORT_GAMES != 1000:
                verdict += f" ({per_1000:,.0f} s per 1,000, scaled)"
        table.add_row(desc.name, ",".join(map(str, players)), f"{one:,.1f}", f"{per_cpu:,.1f}", f"{many:,.1f}", took,
                      verdict)
        console.print(f"{desc.name}: {one:,.1f} games/s on 1 core ({per_cpu:,.1f} per CPU-second), {many:,.1f} on "
                      f"{CORES}; report {took}")
    console.print(table)
