"""What one move costs the companion's CPU before any network: the referee
applies it, then every phone's view of the table is rendered, as the phones'
streams do (each seat and a spectator), for every registered game with its
own board. No HTTP, no threads: the figure the load benchmark's "server CPU
per action" is built on, and the one to watch when a board gets heavier.

``LABKIT_BENCH_RENDER_ACTIONS`` moves per game (default 150).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from labkit import registry

ACTIONS = int(os.environ.get("LABKIT_BENCH_RENDER_ACTIONS", "150"))


def phones(desc: Any) -> int:
    """Phones at the table the benchmark plays: four, or as near as the game allows."""
    return min(max(desc.min_players, 4), desc.max_players)


def cost(game_name: str, players: int, actions: int, folder: Path) -> tuple[int, float, float]:
    """(moves made, CPU ms per move for the referee alone, CPU ms per move with every view rendered)."""
    from companion import create_app, live
    from companion.caller import Caller

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
                      "RATE_LIMITS": {}, "ALLOW_CHOSEN_SEED": True}, instance_path=str(folder / "instance"))
    referee = app.extensions["companion_referee"]
    rng = random.Random(7)
    with app.test_request_context("/"):
        table, _ = referee.create(game_name, {}, 7)
        code = table["code"]
        for n in range(players):
            referee.join(code, f"Player {n + 1}")
        referee.start(code, referee.snapshot(code).version)
        # Drawn once untimed: the first drawing compiles the templates, which
        # a server does once in its life (it was a tenth of the time measured
        # over 150 moves).
        first = referee.snapshot(code)
        for viewer in [*range(players), None]:
            live.render(Caller(first, viewer, False))
        act_cpu = render_cpu = 0.0
        made = 0
        for _ in range(actions):
            snap = referee.snapshot(code)
            if snap.over:
                break
            seat = rng.choice(snap.to_move())
            t = time.process_time()
            after = referee.act(snap, seat, rng.choice(snap.actions(seat)), snap.version)
            act_cpu += time.process_time() - t
            t = time.process_time()
            for viewer in [*range(players), None]:
                live.render(Caller(after, viewer, False))
            render_cpu += time.process_time() - t
            made += 1
    app.extensions["companion_store"].db.close()
    return made, act_cpu / made * 1000, (act_cpu + render_cpu) / made * 1000


def run(console: Console) -> None:
    table = Table(title="companion: CPU per move, the referee and every phone's view rendered (no network)")
    for col in ("game", "phones", "moves", "referee ms/move", "with views ms/move", "moves/s on one core"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for desc in registry.games().values():
        players = phones(desc)
        with tempfile.TemporaryDirectory() as folder:
            made, act_ms, all_ms = cost(desc.name, players, ACTIONS, Path(folder))
        table.add_row(desc.title, f"{players} + 1 watching", str(made), f"{act_ms:.2f}", f"{all_ms:.1f}",
                      f"{1000 / all_ms:,.0f}")
    console.print(table)
