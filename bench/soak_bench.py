"""The soak: one worker on SQLite, every game at once, 50 tables x 4 phones
at a human pace for ten minutes, through the real pages (``bench/load/phones.mjs``,
one generator per game, the tables shared out between them).

It prints the worker's memory after the first minute and at the end, the
longest pause (the slowest answer to a tiny request sent every 20 ms beside
the load: a garbage collection or a stall holding the interpreter shows as
one), and act p95/p99 and seen-by-others p95 per game, each beside its goal:
act p95 <= 50 ms, seen p95 <= 100 ms, memory growth under 10% after the
first minute, no pause over 50 ms. Beside them, what limits them: the
worker's own times for each move (wall and CPU, ``companion.timings``), its
garbage collections, its memory every 30 s, what it left in reference cycles,
and the CPU time the host took from this machine.

Settings: ``LABKIT_BENCH_SOAK_SECONDS`` (default 600), ``LABKIT_BENCH_TABLES``,
``LABKIT_BENCH_SOAK_KEEP=1`` (keep the worker's timings and log).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.companion_bench import LOAD, ROOT, TABLES, companion_server
from companion import timings
from labkit import registry

SECONDS = float(os.environ.get("LABKIT_BENCH_SOAK_SECONDS", "600"))
KEEP = os.environ.get("LABKIT_BENCH_SOAK_KEEP", "") not in ("", "0")
"""Keep the worker's timings file and log (their folder is printed) to look into them."""
PING_S = 0.02
GOALS = {"act_p95": 50.0, "seen_p95": 100.0, "growth": 10.0, "pause": 50.0}


class Pinger(threading.Thread):
    """A tiny request every 20 ms: the slowest answer is the longest pause a
    phone could have met."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url + "/manifest.webmanifest"
        self.slowest = 0.0
        self.answers = 0
        self.failures = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=10) as response:
                    response.read()
                self.answers += 1
                self.slowest = max(self.slowest, time.perf_counter() - started)
            except OSError:
                self.failures += 1
            self.stop.wait(PING_S)


class MemoryWatch(threading.Thread):
    """The worker's memory every ``every_s`` seconds: whether it levels off
    (caches filling to their bounds) or keeps climbing (a leak)."""

    def __init__(self, rss_mb: Any, every_s: float = 30.0) -> None:
        super().__init__(daemon=True)
        self.rss_mb, self.every_s = rss_mb, every_s
        self.samples: list[tuple[float, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        started = time.monotonic()
        while not self.stop.wait(self.every_s):
            self.samples.append((time.monotonic() - started, self.rss_mb()))


def settled_growth(samples: list[tuple[float, float]], rss_end: float, from_s: float = 180.0) -> str:
    """Growth from the 4th minute to the end, beside the goal's (from the
    first minute): the first minute holds only young games, which grow as they
    age, so a leak shows here as a climb where games getting older level off.

    >>> settled_growth([(30, 300), (180, 400), (210, 410)], 420)
    'from 3.0 min to the end: 400 MB to 420 MB, +5.0%'
    >>> settled_growth([(30, 300)], 320)
    ''
    """
    later = [(t, mb) for t, mb in samples if t >= from_s]
    if not later:
        return ""
    t, mb = later[0]
    return f"from {t / 60:.1f} min to the end: {mb:,.0f} MB to {rss_end:,.0f} MB, {100.0 * (rss_end - mb) / mb:+.1f}%"


def _speed(game: str) -> float:
    """The machine's speed now: CPU ms a move of ``bench render`` (the
    referee and every view drawn, no network) for 150 moves of ``game``.
    Taken before and after the soak with the same code, a difference is
    the machine's: its speed varies by half from one run to the next."""
    from bench.render_bench import cost, phones

    with tempfile.TemporaryDirectory() as folder:
        return cost(game, phones(registry.find(game)), 150, Path(folder))[2]


def _generators(url: str, games: list[str]) -> list[tuple[str, subprocess.Popen]]:
    share = [TABLES // len(games) + (1 if i < TABLES % len(games) else 0) for i in range(len(games))]
    out = []
    for game, tables in zip(games, share):
        cmd = ["node", str(LOAD / "phones.mjs"), "--url", url, "--game", game, "--tables", str(tables),
               "--phones", "4" if registry.find(game).max_players >= 4 else str(registry.find(game).max_players),
               "--pace", "human", "--seconds", str(SECONDS), "--seed", str(len(out) + 1)]
        out.append((game, subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)))
    return out


def run(console: Console) -> None:
    games = sorted(registry.names())
    worker = os.environ.get("LABKIT_WORKER_CLASS") or "gevent"   # read by the server's command (labkit serve)
    console.print(f"Soak: 1 worker ({worker}), SQLite, {TABLES} tables x 4 phones of {', '.join(games)} at once, "
                  "human pace, "
                  f"{SECONDS / 60:.0f} min; a request every {PING_S * 1000:.0f} ms beside the load times pauses.")
    speed_before = _speed(games[0])
    workdir = Path(tempfile.mkdtemp(prefix="labkit-soak-"))
    timings_file = workdir / "timings.jsonl"
    server = companion_server(1, None, workdir, {"TIMINGS_FILE": str(timings_file)})
    pinger = Pinger(server.url)
    memory = MemoryWatch(server.rss_mb)
    try:
        cpu_start, wall_start, stolen_start = server.cpu(), time.monotonic(), _stolen()
        generators = _generators(server.url, games)
        pinger.start()
        memory.start()
        time.sleep(min(60.0, SECONDS / 5))
        rss_first = server.rss_mb()
        pause_first, pinger.slowest = pinger.slowest, 0.0     # the first minute holds the set-up
        results: dict[str, dict[str, Any]] = {}
        for game, proc in generators:
            out, err = proc.communicate(timeout=SECONDS + 300)
            lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            found = [m["result"] for m in lines if "result" in m]
            if proc.returncode != 0 or not found:
                console.print(f"[red]{game}: the generator failed ({proc.returncode}): {err[-800:]}[/]")
                continue
            results[game] = found[0]
        rss_end = server.rss_mb()
        cpu = (server.cpu() - cpu_start, time.monotonic() - wall_start)
        stolen = _stolen_share(stolen_start, _stolen())
    finally:
        pinger.stop.set()
        memory.stop.set()
        server.stop()
        inside = timings.summary(str(timings_file)) if timings_file.exists() else None
        server_log = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
        if KEEP:
            console.print(f"kept the worker's timings and log in {workdir} (LABKIT_BENCH_SOAK_KEEP)")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    speed_after = _speed(games[0])
    _report(console, results, rss_first, rss_end, pinger, pause_first, cpu)
    console.print(f"the machine's speed (bench render, 150 moves of {games[0]}, no network): "
                  f"{speed_before:.1f} ms a move before the soak, {speed_after:.1f} after")
    if memory.samples:
        allocator = re.search(r"memory from (.+)", server_log)
        console.print("worker memory over time: " + ", ".join(f"{t / 60:.1f} min {mb:,.0f} MB"
                                                             for t, mb in memory.samples)
                      + f"; C's memory from {allocator.group(1) if allocator else 'an allocator not named'}")
        settled = settled_growth(memory.samples, rss_end)
        if settled:
            console.print(f"worker memory once the games are under way (not the goal's measure), {settled}")
    _limits(console, inside, stolen)
    _errors(console, results, server_log)


def _errors(console: Console, results: dict[str, dict[str, Any]], server_log: str) -> None:
    """Why any answer was a 5xx: the moves' status counts per game, and what
    the worker logged (a 503 "busy" is a request that waited for a database
    connection; a 500 is a bug, logged with its traceback)."""
    if not any(r["server_errors"] for r in results.values()):
        return
    for game, r in results.items():
        if r["server_errors"]:
            console.print(f"[red]{game}: {r['server_errors']} answers were 5xx; moves' statuses "
                          f"{r.get('statuses')}[/]")
    lines = server_log.splitlines()
    busy = sum("connections stayed busy" in line for line in lines)
    bugs = [i for i, line in enumerate(lines) if "unexpected error" in line]
    console.print(f"the worker logged {busy} busy answers (503) and {len(bugs)} unexpected errors (500)")
    if bugs:
        console.print("\n".join(lines[bugs[0]:bugs[0] + 40]), markup=False, highlight=False)


def _stolen() -> tuple[int, int] | None:
    """(time the host's hypervisor took from this machine, all CPU time), in
    clock ticks since boot (Linux /proc/stat), or None elsewhere."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except (OSError, IndexError):
        return None
    ticks = [int(f) for f in fields[:8]]
    return ticks[7], sum(ticks)


def _stolen_share(start: tuple[int, int] | None, end: tuple[int, int] | None) -> float | None:
    if start is None or end is None or end[1] <= start[1]:
        return None
    return 100.0 * (end[0] - start[0]) / (end[1] - start[1])


def _limits(console: Console, inside: dict[str, Any] | None, stolen: float | None) -> None:
    """What the worker itself saw, to tell a slow move from a saturated worker."""
    if inside and inside["moves"]:
        wall, cpu = inside["wall_ms"], inside["cpu_ms"]
        console.print(f"moves inside the worker ({inside['moves']:,}): wall p50 {wall['p50']:,.1f} ms, "
                      f"p95 {wall['p95']:,.1f} ms; the move's own CPU p50 {cpu['p50']:,.1f} ms, "
                      f"p95 {cpu['p95']:,.1f} ms (the rest of the wall time is waiting while other "
                      "requests run)")
    if inside:
        for kind, figures in (("full", inside["full_gc"]), ("young", inside["young_gc"])):
            if not figures["n"]:
                console.print(f"{kind} garbage collections: none")
                continue
            console.print(f"{kind} garbage collections: {figures['n']:,}; their own CPU time (every "
                          f"request waiting) the longest {figures['longest_cpu_ms'] or 0:,.1f} ms, "
                          f"{figures['total_cpu_ms'] or 0:,.0f} ms in all; from start to end the longest "
                          f"{figures['longest_ms']:,.1f} ms (with the wait for the lock that the collection's "
                          "Python callback may give up)")
        if inside.get("spent"):
            spent = inside["spent"]
            chunks = spent.pop("stream chunks", [0, 0.0])[0]
            console.print("the worker's CPU by kind of request (the app's own, from the first byte it sees to "
                          "its last): " + "; ".join(
                              f"{kind} {ms / 1000:,.1f} s over {n:,} ({ms / n:,.2f} ms each)"
                              for kind, (n, ms) in sorted(spent.items(), key=lambda kv: -kv[1][1]) if n)
                          + (f"; the streams sent {chunks:,} events and heartbeats" if chunks else ""))
        if inside["blocks"]:
            console.print("Python's small blocks in use over time (objects kept): " + ", ".join(
                f"{t / 60:.1f} min {n / 1e6:.2f} M" for t, n in inside["blocks"][1::2]))
        if inside.get("sqlite"):
            console.print("SQLite's own memory over time (its connections' page caches): " + ", ".join(
                f"{t / 60:.1f} min {n / 1e6:.1f} MB" for t, n in inside["sqlite"][1::2]))
        if inside.get("heap"):
            console.print("jemalloc's memory over time, in use / resident (the difference is freed pages it has "
                          "not given back, and fragmentation): " + ", ".join(
                              f"{t / 60:.1f} min {used / 1e6:,.0f} / {resident / 1e6:,.0f} MB"
                              for t, used, resident in inside["heap"][1::2]))
        if inside["left_in_cycles"] is not None:
            console.print(f"objects the worker left in reference cycles when it stopped: {inside['left_in_cycles']:,} "
                          "(with its collector out of the way, companion/collector.py, what it leaked); "
                          f"the cycles, by what made them: {inside['cycles_left'] or '-'}")
    if stolen is not None:
        console.print(f"CPU time the host took from this machine during the soak (steal): {stolen:.1f}%")


def _mark(value: float | None, goal: float) -> str:
    if value is None:
        return "-"
    return f"{value:,.1f}" + (" (met)" if value <= goal else " (not met)")


def _report(console: Console, results: dict[str, dict[str, Any]], rss_first: float, rss_end: float,
            pinger: Pinger, pause_first: float, cpu: tuple[float, float]) -> None:
    table = Table(title="Soak: per game")
    for col in ("game", "tables", "act/s", "act p95 ms", "act p99 ms", "seen p95 ms", "server errors"):
        table.add_column(col, justify="right")
    for game, r in results.items():
        table.add_row(game, str(r["tables"]), f"{r['actions_per_s']:,.1f}",
                      _mark(r["act_ms"]["p95"], GOALS["act_p95"]), f"{r['act_ms']['p99'] or 0:,.1f}",
                      _mark(r["seen_ms"]["p95"], GOALS["seen_p95"]), str(r["server_errors"]))
    console.print(table)
    applied = sum(r["applied"] for r in results.values())
    used, wall = cpu
    # A worker that uses about one core is saturated (the interpreter lock): its figures are then mostly queueing.
    console.print(f"server CPU: {used:,.0f} s over {wall:,.0f} s ({used / wall:.2f} cores); "
                  f"{1000 * used / applied if applied else 0:,.1f} ms per applied action ({applied:,} applied, "
                  "set-up included)")
    growth = 100.0 * (rss_end - rss_first) / rss_first if rss_first else 0.0
    console.print(f"worker memory: {rss_first:,.0f} MB after the first minute, {rss_end:,.0f} MB at the end: "
                  f"{growth:+.1f}% ({'met' if growth < GOALS['growth'] else 'not met'}: goal under "
                  f"{GOALS['growth']:.0f}%)")
    pause = pinger.slowest * 1000
    console.print(f"longest pause after the first minute: {pause:,.1f} ms over {pinger.answers:,} pings "
                  f"({'met' if pause <= GOALS['pause'] else 'not met'}: goal {GOALS['pause']:.0f} ms); "
                  f"in the first minute {pause_first * 1000:,.0f} ms; {pinger.failures} pings failed")
