"""The engines alone, every registered game: random games to the end per
second (each player count), actions per second, and each game's own
workloads (its descriptor's ``workloads``: paper sheets scored, reactions
found...). Figures only; no time is asserted.

``LABKIT_BENCH_GAMES=a,b`` limits the games, ``LABKIT_BENCH_PLAYOUTS`` the
random games per player count (default 30)."""

from __future__ import annotations

import os
import random
import time

from rich.console import Console
from rich.table import Table

from labkit import cardsets, registry

PLAYOUTS = int(os.environ.get("LABKIT_BENCH_PLAYOUTS", "30"))
WORKLOAD_SECONDS = 1.0
MAX_ACTIONS = 20_000
"""A bound of this driver, not a rule of any game: random players can leave
a game that nothing in its rules ends (a table whose players pass for ever
would agree to stop). A playout that long is stopped, and the table says
how many were."""


def games() -> list:
    wanted = [g for g in os.environ.get("LABKIT_BENCH_GAMES", "").split(",") if g]
    return [registry.find(g) for g in wanted] if wanted else list(registry.games().values())


def playout(game, players: int, seed: int) -> tuple[int, bool]:
    """A random game: (actions, whether the driver's bound stopped it before its end)."""
    rng = random.Random(seed)
    state = game.setup(players, seed)
    steps = 0
    while not game.is_over(state):
        if steps >= MAX_ACTIONS:
            return steps, True
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
        steps += 1
    return steps, False


def time_workload(fn) -> tuple[int, float, int]:
    """Run ``fn`` repeatedly for about a second: (units, seconds, calls)."""
    units = calls = 0
    start = time.perf_counter()
    while True:
        done = fn()
        if done is not None and (isinstance(done, bool) or not isinstance(done, int)):
            raise TypeError(f"a workload returns how many units it did (an int), not {type(done).__name__}")
        units += 1 if done is None else done
        calls += 1
        took = time.perf_counter() - start
        if took >= WORKLOAD_SECONDS:
            return units, took, calls


def run(console: Console) -> None:
    for desc in games():
        game = cardsets.new_game(desc)
        table = Table(title=f"{desc.title} engine: random games to the end (uniform random legal actions)")
        for col in ("players", "games", "games/s", "actions/s", "actions/game", f"stopped at {MAX_ACTIONS:,}"):
            table.add_column(col, justify="right")
        total_games = total_steps = total_stopped = 0
        total_time = 0.0
        for players in range(desc.min_players, desc.max_players + 1):
            start = time.perf_counter()
            played = [playout(game, players, seed) for seed in range(PLAYOUTS)]
            took = time.perf_counter() - start
            steps, stopped = sum(n for n, _ in played), sum(s for _, s in played)
            total_games, total_steps, total_time = total_games + PLAYOUTS, total_steps + steps, total_time + took
            total_stopped += stopped
            table.add_row(str(players), str(PLAYOUTS), f"{PLAYOUTS / took:,.1f}", f"{steps / took:,.0f}",
                          f"{steps / PLAYOUTS:,.0f}", str(stopped))
        table.add_row("all", str(total_games), f"{total_games / total_time:,.1f}",
                      f"{total_steps / total_time:,.0f}", f"{total_steps / total_games:,.0f}", str(total_stopped))
        console.print(table)
        if desc.workloads is not None:
            work = Table(title=f"{desc.title}: its own workloads")
            for col in ("workload", "calls", "per call", "units/s"):
                work.add_column(col, justify="right" if col != "workload" else "left")
            for name, fn in desc.workloads(game).items():
                units, took, calls = time_workload(fn)
                work.add_row(name, str(calls), f"{took / calls * 1000:,.2f} ms", f"{units / took:,.0f}")
            console.print(work)
