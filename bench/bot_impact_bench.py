"""What a bot seat costs the people at the table (issue 18's server impact):
the human-pace load of the companion benchmark, one worker on SQLite, run
twice per game in the same session: four phones a table, then three phones
and one bot (medium) a table. The bot thinks in the server's worker pool
(a process of its own) and plays at its pace (``BOT_PACE_S``, 1 s), so it
competes with the server and the phones for this machine's cores.

Goal: the humans' act p95 with a bot seat stays within the table's goal
(50 ms). Both runs are printed, so a miss that is there without the bot is
told apart from one the bot causes.

``LABKIT_BENCH_SECONDS`` (default 10) and ``LABKIT_BENCH_TABLES`` (50) as
for the companion benchmark; ``LABKIT_BENCH_GAMES=a,b`` limits the games.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from bench.companion_bench import PHONES, Run, _ms, companion_server, one_run
from bench.engine_bench import games

ACT_GOAL = 50.0


def run(console: Console) -> None:
    table = Table(title="A bot seat at every table: the humans' figures (1 worker, SQLite, human pace)")
    for col in ("game", "seats", "actions/s", "act p50", "act p95", "act p99", "seen p95", "server cores",
                "server CPU ms/action", "games finished", "act p95 goal"):
        table.add_column(col, justify="left" if col in ("game", "seats", "act p95 goal") else "right")
    for desc in games():
        for phones, bots in ((PHONES, 0), (PHONES - 1, 1)):
            done = one_run(console, Run("companion", "SQLite", 1, "human", bots=bots),
                           lambda workdir: companion_server(1, None, workdir), "phones.mjs", desc.name, phones)
            seats = f"{phones} phones" + (f" + {bots} bot" if bots else "")
            if done.error:
                table.add_row(desc.title, seats, "failed", "", "", "", "", "", "", "", done.error[:40])
                continue
            p95 = done.act("p95")
            met = "met" if p95 is not None and p95 <= ACT_GOAL else f"missed (goal {ACT_GOAL:.0f} ms)"
            cpu = done.cpu_ms_per_action
            table.add_row(desc.title, seats, f"{done.rate:.1f}", _ms(done.act("p50")), _ms(p95), _ms(done.act("p99")),
                          _ms(done.seen("p95")), f"{done.server_cores:.2f}", f"{cpu:.1f}" if cpu else "-",
                          str(done.result.get("games_finished", 0)), met)
    console.print(table)
    console.print("Server CPU is the serving worker's only: a bot's thinking is in its pool's process, and shows "
                  "as the machine's other cores in each run's line above.")
