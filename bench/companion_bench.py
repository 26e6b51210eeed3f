"""The companion under load as phone users feel it, beside boardgame.io.

The real server (``python -m companion`` under gunicorn) runs in its own
process group; the phones are a Node load generator (``bench/load/phones.mjs``)
that drives the real pages: the table page for its cookies and CSRF token,
the lobby's join form, one Server-Sent Events stream per phone, and every
move through the page's form, picked among the controls the phone's page
shows. It uses little CPU (reported) so the server keeps the cores.

Configurations: SQLite and PostgreSQL (127.0.0.1:5432, database ``test``, a
throwaway schema; skipped with the reason when unreachable), 1, 2 and 4
workers, each at a human pace (a move 0.5 to 2.5 s after the phone has
something to do) and at the highest rate (at once). Then a minimal
boardgame.io server (``bench/load/bgio-server.mjs``, a dice game) under the
same load shape (``bench/load/bgio-phones.mjs``), and the ratios.

Reported per run: action latency (p50/p95/p99: from sending a move to its
whole answer), applied actions per second, the time until the other phones
of the table see the change on their streams (from the mover's 200), errors
(5xx, failed connections, other 4xx), conflicts (409) and refusals (422),
the server's CPU per applied action (every process of its group, read from
/proc; PostgreSQL's own processes apart) and the generator's CPU. Goals are
reported against, not asserted.

Settings: ``LABKIT_BENCH_SECONDS`` per run (default 10), ``LABKIT_BENCH_TABLES``
(50), ``LABKIT_BENCH_PHONES`` (4), ``LABKIT_BENCH_GAMES`` (default: every registered game),
``LABKIT_BENCH_WORKERS`` (``1,2,4``), ``LABKIT_BENCH_PACES`` (``human,max``),
``LABKIT_BENCH_DATABASES`` (``sqlite,postgres``), ``LABKIT_BENCH_BGIO``
(``0`` leaves boardgame.io out). Every request goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load"
SECONDS = float(os.environ.get("LABKIT_BENCH_SECONDS", "10"))
TABLES = int(os.environ.get("LABKIT_BENCH_TABLES", "50"))
PHONES = int(os.environ.get("LABKIT_BENCH_PHONES", "4"))
WORKERS = [int(w) for w in os.environ.get("LABKIT_BENCH_WORKERS", "1,2,4").split(",") if w]
PACES = [p for p in os.environ.get("LABKIT_BENCH_PACES", "human,max").split(",") if p]
DATABASES = [d for d in os.environ.get("LABKIT_BENCH_DATABASES", "sqlite,postgres").split(",") if d]
BGIO = os.environ.get("LABKIT_BENCH_BGIO", "1") != "0"
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
CLK = os.sysconf("SC_CLK_TCK")

# Goals from the issue: reported against, never asserted.
GOAL_ACT_P95_MS = 50.0
GOAL_SEEN_P95_MS = 100.0
GOAL_RATE = 1000.0


def _free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not listen on {port} within {timeout:.0f} s")


# --- CPU from /proc ------------------------------------------------------------------------
def _stat(pid: str) -> tuple[str, list[str]] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    return comm, text[text.rindex(")") + 2:].split()


def cpu_seconds(match: Callable[[str, list[str]], bool]) -> float:
    """User + system CPU of every process that ``match``es (comm, stat fields
    from the state on), children already reaped included."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        found = _stat(pid)
        if found and match(*found):
            fields = found[1]
            total += sum(int(x) for x in fields[11:15])   # utime stime cutime cstime
    return total / CLK


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy (all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / CLK


def group_cpu(pgid: int) -> float:
    return cpu_seconds(lambda comm, f: int(f[2]) == pgid)


def group_rss_mb(pgid: int) -> float:
    """Resident memory of every process of the group, MB."""
    total = 0
    for pid in os.listdir("/proc"):
        found = _stat(pid) if pid.isdigit() else None
        if found and int(found[1][2]) == pgid:
            total += int(found[1][21]) * os.sysconf("SC_PAGE_SIZE")   # rss, in pages
    return total / 1e6


def postgres_cpu() -> float:
    return cpu_seconds(lambda comm, f: comm == "postgres" or comm.startswith("postgres:"))


# --- servers -------------------------------------------------------------------------------
class Process:
    """A server in a process group of its own, killed as a group."""

    def __init__(self, cmd: list[str], port: int, workdir: Path, env: dict[str, str]) -> None:
        self.port = port
        self.log_path = workdir / f"server-{port}.log"
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        try:
            _wait_port(port, self.proc, self.log_path)
        except Exception:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu(self) -> float:
        return group_cpu(self.proc.pid)

    def rss_mb(self) -> float:
        return group_rss_mb(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass
        self.log.close()

    def tail(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-1500:]
        except OSError:
            return ""


def companion_server(workers: int, database_url: str | None, workdir: Path,
                     settings: dict[str, str] | None = None, limits: bool = False) -> Process:
    """``limits``: the server's own rate limits on making and joining tables
    (off by default: every simulated phone sets up from 127.0.0.1)."""
    port = _free_port()
    cmd = [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port),
           "--instance-path", str(workdir / "instance"), "--no-qr", "--allow-chosen-seed", "--workers", str(workers)]
    if not limits:
        cmd += ["--rate-limit", "create=off", "--rate-limit", "join=off"]
    if database_url:
        cmd += ["--database-url", database_url]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    # every simulated phone comes from 127.0.0.1: let that one address hold
    # all their streams (a real room's phones have addresses of their own)
    env["LABKIT_STREAMS_PER_ADDRESS"] = "100000"
    env["LABKIT_CONNECTIONS_PER_ADDRESS"] = "0"     # ...and all their connections (0: no bound)
    env.update({f"LABKIT_{k}": v for k, v in (settings or {}).items()})
    return Process(cmd, port, workdir, env)


def bgio_server(workdir: Path) -> Process:
    port = _free_port()
    env = {**os.environ, "NODE_ENV": "production"}   # boardgame.io logs every move otherwise
    return Process(["node", str(LOAD / "bgio-server.mjs"), "--port", str(port)], port, workdir, env)


def _postgres_schema() -> tuple[str, Callable[[], None]] | str:
    """A throwaway schema on a reachable PostgreSQL, or why there is none."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    base = os.environ.get("DATABASE_URL", PG_DEFAULT)
    if not base.startswith(("postgresql://", "postgres://")):
        base = PG_DEFAULT
    try:
        admin = psycopg.connect(base, autocommit=True, connect_timeout=3)
    except Exception as exc:
        return f"PostgreSQL at {base} is not reachable ({str(exc).strip().splitlines()[0]})"
    schema = f"labkit_bench_{os.getpid()}_{int(time.time())}"
    admin.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    sep = "&" if "?" in base else "?"

    def drop() -> None:
        admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.close()

    return f"{base}{sep}options={quote(f'-csearch_path={schema}')}", drop


# --- runs ----------------------------------------------------------------------------------
@dataclass
class Run:
    system: str            # "companion" or "boardgame.io"
    database: str
    workers: int
    pace: str
    bots: int = 0
    """Bot seats per table (medium), after the phones."""
    result: dict[str, Any] = field(default_factory=dict)
    server_cpu_s: float = 0.0
    db_cpu_s: float = 0.0
    machine_cpu_s: float = 0.0
    server_rss_mb: float = 0.0
    error: str | None = None

    @property
    def applied(self) -> int:
        return int(self.result.get("applied", 0))

    @property
    def rate(self) -> float:
        return float(self.result.get("actions_per_s", 0.0))

    def act(self, q: str) -> float | None:
        return (self.result.get("act_ms") or {}).get(q)

    def seen(self, q: str) -> float | None:
        return (self.result.get("seen_ms") or {}).get(q)

    @property
    def errors(self) -> int:
        r = self.result
        return int(r.get("server_errors", 0) + r.get("failed", 0) + r.get("other_4xx", 0) + r.get("unanswered", 0))

    @property
    def cpu_ms_per_action(self) -> float | None:
        return self.server_cpu_s * 1000 / self.applied if self.applied else None

    @property
    def window(self) -> float:
        return float(self.result.get("window_seconds") or 0)

    @property
    def server_cores(self) -> float:
        return self.server_cpu_s / self.window if self.window else 0.0

    @property
    def other_cores(self) -> float:
        """CPU the rest of the machine used meanwhile (other work than this benchmark's): a busy
        machine leaves the server less than its cores."""
        if not self.window:
            return 0.0
        generator = float(self.result.get("generator_cpu_ms", 0)) / 1000
        return max(0.0, self.machine_cpu_s - self.server_cpu_s - self.db_cpu_s - generator) / self.window


def drive(run: Run, script: str, url: str, game: str, phones: int, server: Process,
          watch_postgres: bool = False) -> None:
    """Run a generator against ``url`` into ``run``: its figures, and the CPU
    of the server, PostgreSQL and the whole machine over its measured window."""
    cmd = ["node", str(LOAD / script), "--url", url, "--game", game, "--tables", str(TABLES),
           "--phones", str(phones), "--pace", run.pace, "--seconds", str(SECONDS)]
    if run.bots:
        cmd += ["--bots", str(run.bots)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def sample() -> tuple[float, float, float]:
        return server.cpu(), postgres_cpu() if watch_postgres else 0.0, machine_busy()

    start = (0.0, 0.0, 0.0)
    result: dict[str, Any] | None = None
    try:
        assert proc.stdout is not None
        for line in proc.stdout:   # the generator ends by itself: a bounded window, then a bounded drain
            msg = json.loads(line)
            if msg.get("phase") == "ready":
                start = sample()
            elif msg.get("phase") == "end":
                end = sample()
                run.server_cpu_s, run.db_cpu_s, run.machine_cpu_s = (b - a for a, b in zip(start, end))
                run.server_rss_mb = server.rss_mb()
            elif "result" in msg:
                result = msg["result"]
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0 or result is None:
        err = proc.stderr.read() if proc.stderr else ""
        raise RuntimeError(f"{script} failed ({proc.returncode}): {err[-1500:]}")
    run.result = result


def one_run(console: Console, run: Run, start: Callable[[Path], Process], script: str, game: str, phones: int,
            watch_postgres: bool = False) -> Run:
    """A fresh server for each run: a phone that left holds its stream's thread
    until the next heartbeat (15 s), so one run's phones would still be in the
    next run's server."""
    workdir = Path(tempfile.mkdtemp(prefix="labkit-bench-"))
    name = f"{run.database}, {run.workers} worker(s), {run.pace} pace" if run.system == "companion" \
        else f"boardgame.io, {run.pace} pace"
    try:
        try:
            server = start(workdir)
        except RuntimeError as exc:
            run.error = f"the server did not start: {exc}"
            console.print(f"[red]{name}: {run.error}[/]")
            return run
        try:
            drive(run, script, server.url, game, phones, server, watch_postgres=watch_postgres)
        except Exception as exc:   # a failed run is reported, the others still run
            run.error = str(exc)
            console.print(f"[red]{name}: {exc}[/]\n{server.tail()}")
        finally:
            server.stop()
        console.print(f"  {name}: {_brief(run)}")
        if run.result.get("server_errors"):
            console.print(f"[red]the server's log ends with:[/]\n{server.tail()}")
        return run
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def companion_runs(console: Console, game: str, phones: int) -> list[Run]:
    runs: list[Run] = []
    for db in DATABASES:
        database_url: str | None = None
        drop: Callable[[], None] | None = None
        if db == "postgres":
            found = _postgres_schema()
            if isinstance(found, str):
                console.print(f"[yellow]PostgreSQL runs skipped: {found}.[/]")
                continue
            database_url, drop = found
        label = "PostgreSQL" if db == "postgres" else "SQLite"
        try:
            for workers in WORKERS:
                for pace in PACES:
                    runs.append(one_run(console, Run("companion", label, workers, pace),
                                        lambda workdir: companion_server(workers, database_url, workdir),
                                        "phones.mjs", game, phones, watch_postgres=db == "postgres"))
        finally:
            if drop is not None:
                drop()
    return runs


def bgio_runs(console: Console, phones: int) -> list[Run] | str:
    if not (ROOT / "node_modules" / "boardgame.io").is_dir():
        return "boardgame.io is not installed (npm ci: `make assets`)"
    return [one_run(console, Run("boardgame.io", "memory", 1, pace), bgio_server, "bgio-phones.mjs", "dice", phones)
            for pace in PACES]


# --- printing ------------------------------------------------------------------------------
def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _brief(run: Run) -> str:
    if run.error:
        return "failed"
    r = run.result
    errors = ", ".join(f"{r[k]} {name}" for k, name in (("server_errors", "5xx"), ("failed", "failed connections"),
                                                          ("other_4xx", "other 4xx"), ("unanswered", "unanswered"))
                       if r.get(k))
    return (f"{run.rate:.0f} actions/s, act p95 {_ms(run.act('p95'))} ms, seen p95 {_ms(run.seen('p95'))} ms, "
            f"{errors or 'no errors'}; {r.get('games_finished', 0)} games finished; server "
            f"{run.server_cores:.2f} cores and {run.server_rss_mb:,.0f} MB at the end, the rest of the machine "
            f"{run.other_cores:.2f} cores")


def figures_table(title: str, runs: list[Run]) -> Table:
    table = Table(title=title)
    columns = ("run", "act/s", "act p50", "act p95", "act p99", "seen p50", "seen p95", "errors", "409", "422",
               "CPU/act", "cores", "db/act", "gen", "others")
    for name in columns:
        table.add_column(name, justify="left" if name == "run" else "right", no_wrap=True)
    for run in runs:
        label = (f"{run.database} x{run.workers} {run.pace}" if run.system == "companion"
                 else f"boardgame.io {run.pace}")
        if run.error:
            table.add_row(label, "failed", *["-"] * (len(columns) - 2))
            continue
        r = run.result
        cpa = run.cpu_ms_per_action
        table.add_row(
            label, f"{run.rate:,.0f}", _ms(run.act("p50")), _ms(run.act("p95")), _ms(run.act("p99")),
            _ms(run.seen("p50")), _ms(run.seen("p95")), str(run.errors), str(r.get("conflicts", 0)),
            str(r.get("refused", 0)), "-" if cpa is None else f"{cpa:.1f}", f"{run.server_cores:.2f}",
            f"{run.db_cpu_s * 1000 / run.applied:.1f}" if run.database == "PostgreSQL" and run.applied else "-",
            f"{r.get('generator_cpu_share', 0) * 100:.0f}%", f"{run.other_cores:.2f}",
        )
    return table


def _wide(console: Console, table: Table, width: int = 170) -> None:
    """A table too wide for a pipe's 80 columns, printed whole (a terminal wider than that keeps its width)."""
    narrow = console.width
    if narrow < width:
        console.width = width
    try:
        console.print(table)
    finally:
        console.width = narrow


def _find(runs: list[Run], database: str, workers: int, pace: str) -> Run | None:
    return next((r for r in runs if r.database == database and r.workers == workers and r.pace == pace
                 and not r.error), None)


def goals(console: Console, runs: list[Run], phones: int) -> None:
    def verdict(ok: bool) -> str:
        return "[green]met[/]" if ok else "[red]not met[/]"

    lines = []
    for pace in PACES:
        one = _find(runs, "SQLite", 1, pace)
        if one is not None and one.act("p95") is not None:
            act, seen = one.act("p95"), one.seen("p95")
            lines.append(f"p95 action <= {GOAL_ACT_P95_MS:.0f} ms ({TABLES} x {phones}, 1 worker, SQLite, {pace} pace): "
                         f"{_ms(act)} ms, {verdict(act <= GOAL_ACT_P95_MS)}")
            if seen is not None:
                lines.append(f"p95 seen by others <= {GOAL_SEEN_P95_MS:.0f} ms (same run): {_ms(seen)} ms, "
                             f"{verdict(seen <= GOAL_SEEN_P95_MS)}")
    fastest = max((r for r in runs if r.pace == "max" and not r.error), key=lambda r: r.rate, default=None)
    if fastest is not None:
        lines.append(f">= {GOAL_RATE:,.0f} actions/s at the highest rate: best {fastest.rate:,.0f} "
                     f"({fastest.database}, {fastest.workers} worker(s)), {verdict(fastest.rate >= GOAL_RATE)}")
    server_errors = sum(int(r.result.get("server_errors", 0)) for r in runs)
    lines.append(f"0 server errors (5xx): {server_errors} in all runs, {verdict(server_errors == 0)}")
    one, two = _find(runs, "PostgreSQL", 1, "max"), _find(runs, "PostgreSQL", 2, "max")
    if one is not None and two is not None:
        lines.append(f"throughput grows from 1 to 2 workers on PostgreSQL (max rate): {one.rate:,.0f} -> "
                     f"{two.rate:,.0f} actions/s (x{two.rate / one.rate if one.rate else float('nan'):.2f}), "
                     f"{verdict(two.rate > one.rate * 1.05)}")
    console.print("Goals (reported, not asserted):")
    for line in lines:
        console.print(f"  {line}")


def comparison(console: Console, runs: list[Run], peer: list[Run]) -> None:
    table = Table(title="companion beside boardgame.io (same tables x phones, same pace)")
    for name in ("pace", "companion", "act/s", "bgio", "ratio", "act p95", "bgio", "seen p95", "bgio", "CPU/act",
                 "bgio", "ratio"):
        table.add_column(name, justify="left" if name in ("pace", "companion run") else "right", no_wrap=True)

    def ratio(a: float | None, b: float | None) -> str:
        return "-" if a is None or b is None or b == 0 else f"{a / b:,.2f}"

    def cpu(run: Run) -> str:
        return "-" if run.cpu_ms_per_action is None else f"{run.cpu_ms_per_action:.2f}"

    for bg in peer:
        if bg.error:
            continue
        ours = [_find(runs, "SQLite", 1, bg.pace)]
        if bg.pace == "max":
            ours.append(max((r for r in runs if r.pace == "max" and not r.error), key=lambda r: r.rate, default=None))
        shown: set[int] = set()
        for run in ours:
            if run is None or id(run) in shown:
                continue
            shown.add(id(run))
            table.add_row(bg.pace, f"{run.database} x{run.workers}", f"{run.rate:,.0f}", f"{bg.rate:,.0f}",
                          ratio(run.rate, bg.rate), _ms(run.act("p95")), _ms(bg.act("p95")),
                          _ms(run.seen("p95")), _ms(bg.seen("p95")), cpu(run), cpu(bg),
                          ratio(run.cpu_ms_per_action, bg.cpu_ms_per_action))
    _wide(console, table)
    console.print("Times in ms; bgio: boardgame.io; ratio: the companion's figure over boardgame.io's (act/s: below 1 "
                  "it applies fewer; CPU/act: above 1 it spends more per action). boardgame.io's game is a die roll "
                  "with no pages to render.")


def run(console: Console) -> None:
    if shutil.which("node") is None:
        console.print("[yellow]companion bench skipped: `node` is not on PATH (the load generator is a Node "
                      "script; Debian: apt-get install nodejs npm).[/]")
        return
    from labkit import registry

    wanted = [g for g in os.environ.get("LABKIT_BENCH_GAMES", "").split(",") if g]
    descs = [registry.find(g) for g in wanted] if wanted else list(registry.games().values())
    peer: list[Run] | str | None = None
    started = time.monotonic()
    load = os.getloadavg()
    console.print(f"Machine: {os.cpu_count()} cores, load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} "
                  "before the runs (other work on it takes CPU from the server: see the 'others' column).")
    for desc in descs:
        phones = max(desc.min_players, min(PHONES, desc.max_players))
        console.print(f"{desc.title}: {TABLES} tables x {phones} phones through the real pages (streams, forms, "
                      f"cookies, CSRF), {SECONDS:.0f} s per run; human pace = a move 0.5-2.5 s after the page "
                      f"offers one; max = at once. Load from Node on 127.0.0.1.")
        runs = companion_runs(console, desc.name, phones)
        if BGIO and peer is None:
            console.print(f"boardgame.io 0.50.2, a dice game in memory: the same {TABLES} x {phones}, both paces.")
            peer = bgio_runs(console, phones)
        all_runs = runs + (peer if isinstance(peer, list) else [])
        _wide(console, figures_table(f"companion under load ({desc.title}, {TABLES} tables x {phones} phones)",
                                     all_runs))
        console.print("run: database x workers, pace. Times in ms. act: sending a move to its whole answer; seen: "
                      "the mover's 200 to another phone's event with that version; act/s: applied actions per "
                      "second; errors: 5xx, failed connections, other 4xx (and boardgame.io moves left unanswered); "
                      "409: conflicts; 422: refused; CPU/act: the server's CPU ms per applied action (all its "
                      "processes, over the measured window); cores: the server's CPU seconds per second; db/act: "
                      "PostgreSQL's own processes, CPU ms per action; gen: the load generator's share of one core; "
                      f"others: cores the rest of the machine ({os.cpu_count()} in all) used meanwhile, taken from "
                      "the server.")
        goals(console, runs, phones)
        if isinstance(peer, str):
            console.print(f"[yellow]boardgame.io comparison skipped: {peer}.[/]")
        elif peer:
            comparison(console, runs, peer)
    console.print(f"companion section: {time.monotonic() - started:.0f} s")
