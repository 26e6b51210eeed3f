"""The companion under load, on loopback: many tables, several players each
acting, and a spectator phone per table polling like the pages do.

The real server (``python -m companion`` under gunicorn) runs in its own
process; the phones are threads of this one, each with its own keep-alive
connection. A run is bounded in time (``LABKIT_BENCH_SECONDS``, default 20
per database) and every request goes to 127.0.0.1.

Reported: actions per second, the latency of an action (p50/p95/p99), of a
state read and of an idle poll, conflicts (409, when two phones act on one
version), and the time from a phone's action until another phone's poll
sees the new version. A benchmark: it prints figures and asserts nothing.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.engine_bench import games

ROOT = Path(__file__).resolve().parent.parent
SECONDS = float(os.environ.get("LABKIT_BENCH_SECONDS", "20"))
TABLES = int(os.environ.get("LABKIT_BENCH_TABLES", "10"))
PLAYERS = int(os.environ.get("LABKIT_BENCH_PLAYERS", "4"))
POLL_S = 0.5          # what the pages do (POLL_MS)
IDLE_S = 0.05         # a phone that is not to move looks again this often
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def _free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


class Client:
    """One phone: one keep-alive HTTP connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        h = {"Content-Type": "application/json"}
        if token:
            h["Authorization"] = f"Bearer {token}"
        h.update(headers or {})
        data = json.dumps(body).encode() if body is not None else None
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=h)
                response = self.conn.getresponse()
                return response.status, dict(response.getheaders()), response.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        status, _, data = self.request(method, path, body, token)
        return status, json.loads(data)


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.act: list[float] = []
        self.read: list[float] = []
        self.poll_idle: list[float] = []
        self.poll_changed: list[float] = []
        self.statuses: dict[int, int] = {}
        self.games = 0
        self.acked: dict[tuple[str, int], float] = {}        # (table, version) -> when the actor got its answer
        self.seen: dict[str, list[tuple[float, int]]] = {}   # table -> [(when, version)] seen by the spectator

    def status(self, code: int) -> None:
        with self.lock:
            self.statuses[code] = self.statuses.get(code, 0) + 1


class TableRun:
    """One table: a host, players acting for themselves, one spectator polling."""

    def __init__(self, port: int, game: str, players: int, stats: Stats, stop: threading.Event,
                 seed: int) -> None:
        self.port, self.game, self.players, self.stats, self.stop = port, game, players, stats, stop
        self.rnd = random.Random(seed)
        self.lock = threading.Lock()
        self.code = ""
        self.tokens: list[str] = []
        self.generation = 0
        self.new_table(Client(port))

    def new_table(self, client: Client) -> None:
        status, created = client.json("POST", "/api/tables", {"game": self.game, "seed": self.rnd.randrange(2 ** 62)})
        assert status == 201, created
        code = created["code"]
        tokens = [client.json("POST", f"/api/tables/{code}/seats", {"name": f"P{i}"})[1]["token"]
                  for i in range(self.players)]
        version = client.json("GET", f"/api/tables/{code}")[1]["version"]
        status, body = client.json("POST", f"/api/tables/{code}/start", {"version": version}, created["host_token"])
        assert status == 200, body
        self.code, self.tokens = code, tokens
        self.generation += 1

    def player(self, seat: int) -> None:
        client = Client(self.port)
        rnd = random.Random(self.rnd.random())
        while not self.stop.is_set():
            code, token, generation = self.code, self.tokens[seat], self.generation
            t0 = time.perf_counter()
            status, state = client.json("GET", f"/api/tables/{code}", token=token)
            self.stats.read.append(time.perf_counter() - t0)
            if state.get("status") == "over":
                with self.lock:
                    if self.generation == generation:
                        self.stats.games += 1
                        self.new_table(client)
                continue
            if not state.get("actions"):
                time.sleep(IDLE_S)
                continue
            action = rnd.choice(state["actions"])
            t0 = time.perf_counter()
            status, body = client.json("POST", f"/api/tables/{code}/actions",
                                       {"version": state["version"], "action": action}, token)
            done = time.perf_counter()
            self.stats.act.append(done - t0)
            self.stats.status(status)
            if status == 200:
                with self.stats.lock:
                    self.stats.acked[(code, body["version"])] = done

    def spectator(self) -> None:
        client = Client(self.port)
        since = -1
        code = ""
        while not self.stop.is_set():
            if code != self.code:
                code, since = self.code, -1
            t0 = time.perf_counter()
            status, headers, _ = client.request("GET", f"/t/{code}/live?since={since}",
                                                headers={"HX-Request": "true"})
            now = time.perf_counter()
            if status == 204:
                self.stats.poll_idle.append(now - t0)
            elif status == 200:
                self.stats.poll_changed.append(now - t0)
                since = int(headers.get("X-Table-Version", since))
                with self.stats.lock:
                    self.stats.seen.setdefault(code, []).append((now, since))
            time.sleep(max(0.0, POLL_S - (time.perf_counter() - t0)))


def _start_server(database_url: str | None, instance: Path) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    cmd = [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port), "--instance-path",
           str(instance), "--no-qr", "--allow-chosen-seed", "--rate-limit", "create=off", "--rate-limit", "join=off"]
    if database_url:
        cmd += ["--database-url", database_url]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    log = open(instance.parent / "server.log", "ab")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((instance.parent / "server.log").read_text()[-2000:])
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the companion did not start")


def _postgres_schema() -> tuple[str, Any] | None:
    """A throwaway schema on a reachable PostgreSQL, or None."""
    try:
        import psycopg
    except ImportError:
        return None
    base = os.environ.get("DATABASE_URL", PG_DEFAULT)
    if not base.startswith(("postgresql://", "postgres://")):
        base = PG_DEFAULT
    try:
        admin = psycopg.connect(base, autocommit=True, connect_timeout=3)
    except Exception:
        return None
    schema = f"labkit_bench_{os.getpid()}"
    admin.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    sep = "&" if "?" in base else "?"
    from urllib.parse import quote

    def drop() -> None:
        admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.close()

    return f"{base}{sep}options={quote(f'-csearch_path={schema}')}", drop


def run_once(label: str, database_url: str | None, console: Console, game: str, players: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="labkit-bench-"))
    proc, port = _start_server(database_url, work / "instance")
    stats = Stats()
    stop = threading.Event()
    try:
        tables = [TableRun(port, game, players, stats, stop, seed=i) for i in range(TABLES)]
        threads = []
        for t in tables:
            threads += [threading.Thread(target=t.player, args=(s,), daemon=True) for s in range(players)]
            threads.append(threading.Thread(target=t.spectator, daemon=True))
        quiet = TableRun(port, game, players, stats, stop, seed=TABLES)  # a table where no one moves
        threads += [threading.Thread(target=quiet.spectator, daemon=True) for _ in range(players)]
        started = time.perf_counter()
        for th in threads:
            th.start()
        time.sleep(SECONDS)
        stop.set()
        for th in threads:
            th.join(timeout=30)
        elapsed = time.perf_counter() - started
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)

    # Time until another phone saw each acknowledged version.
    seen_after: list[float] = []
    for (code, version), acked in stats.acked.items():
        first = next((t for t, v in stats.seen.get(code, []) if v >= version), None)
        if first is not None:
            seen_after.append(max(0.0, first - acked))
    applied = stats.statuses.get(200, 0)
    return {"label": label, "game": game, "elapsed": elapsed, "applied": applied,
            "rate": applied / elapsed, "conflicts": stats.statuses.get(409, 0),
            "illegal": stats.statuses.get(422, 0),
            "errors": sum(n for s, n in stats.statuses.items() if s >= 500), "games": stats.games,
            "act": stats.act, "read": stats.read, "idle": stats.poll_idle, "changed": stats.poll_changed,
            "seen": seen_after}


def run(console: Console) -> None:
    for desc in games():
        run_game(console, desc.name, min(PLAYERS, desc.max_players), desc.title)


def run_game(console: Console, game: str, players: int, title: str) -> None:
    console.print(f"{title}: {TABLES} tables x {players} players acting as fast as the server answers, plus one "
                  f"spectator phone per table polling every {POLL_S * 1000:.0f} ms, and {players} phones polling a "
                  f"quiet table; {SECONDS:.0f} s per database, all on 127.0.0.1.")
    results = [run_once("SQLite (WAL)", None, console, game, players)]
    pg = _postgres_schema()
    if pg is None:
        console.print("[yellow]PostgreSQL not reachable: its run is skipped.[/]")
    else:
        url, drop = pg
        try:
            results.append(run_once("PostgreSQL", url, console, game, players))
        finally:
            drop()

    table = Table(title=f"companion under load ({results[0]['game']})")
    table.add_column("figure")
    for r in results:
        table.add_column(r["label"], justify="right")

    def ms(values: list[float], q: float) -> str:
        return f"{_percentile(values, q) * 1000:.1f} ms" if values else "-"

    rows = [
        ("actions applied", lambda r: f"{r['applied']}"),
        ("actions / s", lambda r: f"{r['rate']:.0f}"),
        ("games finished", lambda r: f"{r['games']}"),
        ("conflicts (409)", lambda r: f"{r['conflicts']}"),
        ("illegal (422)", lambda r: f"{r['illegal']}"),
        ("server errors (5xx)", lambda r: f"{r['errors']}"),
        ("act p50", lambda r: ms(r["act"], 50)),
        ("act p95", lambda r: ms(r["act"], 95)),
        ("act p99", lambda r: ms(r["act"], 99)),
        ("state read p50 / p95", lambda r: f"{ms(r['read'], 50)} / {ms(r['read'], 95)}"),
        ("idle poll (204) p50 / p95", lambda r: f"{ms(r['idle'], 50)} / {ms(r['idle'], 95)}"),
        ("changed poll (200) p50 / p95", lambda r: f"{ms(r['changed'], 50)} / {ms(r['changed'], 95)}"),
        ("another phone sees it p50", lambda r: ms(r["seen"], 50)),
        ("another phone sees it p95", lambda r: ms(r["seen"], 95)),
        ("another phone sees it max", lambda r: ms(r["seen"], 100)),
    ]
    for name, fmt in rows:
        table.add_row(name, *(fmt(r) for r in results))
    console.print(table)
