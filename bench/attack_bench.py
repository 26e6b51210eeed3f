"""50 tables at a human pace while one client runs every attack of issue 37
at once (``bench/load/attacker.py``: slow bodies, 2,100 idle connections,
code guessing, unread streams, upload bombs two at a time, malformed
requests), against the same tables without it: the tables' act p95 with
the attack, beside their own figure without it, and the goal that it stay
within twice that. Reported, never asserted.

The server is ``labkit serve`` as it ships (one gevent worker, SQLite, its
default limits per address and rate limits); each phone comes from an address of its own
(``phones.mjs --spread 1``: 127.10.T.P), as phones on a Wi-Fi do, and each
attack from its own (127.66.A.n). Two runs, each on a fresh server.

Settings: ``LABKIT_BENCH_ATTACK_SECONDS`` (each run's measured window,
default 60), ``LABKIT_BENCH_ATTACK_GAME`` (the first game by name), ``LABKIT_BENCH_TABLES`` (50),
``LABKIT_BENCH_ATTACKS`` (some of them only, to see what each costs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.companion_bench import LOAD, ROOT, TABLES, companion_server, machine_busy

SECONDS = float(os.environ.get("LABKIT_BENCH_ATTACK_SECONDS", "60"))
GAME = os.environ.get("LABKIT_BENCH_ATTACK_GAME", "")
"""The game the tables play (default: the first registered, by name)."""
ATTACKS = os.environ.get("LABKIT_BENCH_ATTACKS", "")
"""Some of the attacks only (``slow,idle,guess,streams,bombs,malformed``), to see what each costs; default: all."""
GOAL_RATIO = 2.0


def _run(console: Console, attack: bool, game: str) -> dict[str, Any]:
    """One measured window of the phones, with or without the attacker; its figures."""
    workdir = Path(tempfile.mkdtemp(prefix="labkit-attack-"))
    # the server's own bounds per address (the other benches lift them: their phones share 127.0.0.1)
    from companion import DEFAULTS

    server = companion_server(1, None, workdir, {name: str(DEFAULTS[name]) for name in
                                                 ("STREAMS_PER_ADDRESS", "CONNECTIONS_PER_ADDRESS")}, limits=True)
    attacker: subprocess.Popen | None = None
    out: dict[str, Any] = {"attack": attack}
    try:
        phones = subprocess.Popen(
            ["node", str(LOAD / "phones.mjs"), "--url", server.url, "--game", game, "--tables", str(TABLES),
             "--phones", "4", "--pace", "human", "--seconds", str(SECONDS), "--spread", "1"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert phones.stdout is not None
        cpu0 = machine0 = 0.0
        for line in phones.stdout:
            msg = json.loads(line)
            if msg.get("phase") == "ready":
                if attack:
                    attacker = subprocess.Popen(
                        [sys.executable, str(LOAD / "attacker.py"), "--url", server.url, "--seconds",
                         str(SECONDS + 5), "--game", game] + (["--attacks", ATTACKS] if ATTACKS else []),
                        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    assert attacker.stdout is not None
                    attacker.stdout.readline()   # {"phase": "attacking"}: every attack under way
                cpu0, machine0 = server.cpu(), machine_busy()
            elif msg.get("phase") == "end":
                out["server_cores"] = (server.cpu() - cpu0) / SECONDS
                out["machine_cores"] = (machine_busy() - machine0) / SECONDS
            elif "result" in msg:
                out["phones"] = msg["result"]
        phones.wait(timeout=120)
        if "phones" not in out:
            raise RuntimeError(f"phones.mjs failed ({phones.returncode}): {phones.stderr.read()[-1500:] if phones.stderr else ''}")
        if attacker is not None:
            said, err = attacker.communicate(timeout=120)
            found = [json.loads(line) for line in said.splitlines() if line.startswith('{"result"')]
            out["attacker"] = found[0] if found else {"error": err[-800:]}
        out["rss_mb"] = server.rss_mb()
    finally:
        if attacker is not None and attacker.poll() is None:
            attacker.kill()
            attacker.wait()
        server.stop()
        log = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
        out["worker_timeouts"] = log.count("WORKER TIMEOUT")
        out["unexpected_errors"] = log.count("unexpected error")
        out["log_tail"] = log[-1200:]
        shutil.rmtree(workdir, ignore_errors=True)
    return out


def _p(result: dict[str, Any], what: str, q: str) -> float | None:
    return (result.get("phones", {}).get(what) or {}).get(q)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def run(console: Console) -> None:
    if shutil.which("node") is None:
        console.print("[yellow]attack bench skipped: `node` is not on PATH (the phones are a Node script).[/]")
        return
    from labkit import registry

    game = GAME or sorted(registry.names())[0]
    console.print(f"{TABLES} tables x 4 phones of {game} at a human pace, each phone from its own address, "
                  f"{SECONDS:.0f} s measured; then the same with one client running every attack of issue 37 "
                  "at once (bench/load/attacker.py). One gevent worker, SQLite, the default limits.")
    started = time.monotonic()
    calm = _run(console, attack=False, game=game)
    attacked = _run(console, attack=True, game=game)
    table = Table(title="act and seen, without and with the attack")
    for name in ("run", "act/s", "act p50", "act p95", "act p99", "seen p95", "5xx", "failed", "server cores",
                 "machine cores"):
        table.add_column(name, justify="left" if name == "run" else "right")
    for label, r in (("without the attack", calm), ("with every attack at once", attacked)):
        phones = r.get("phones", {})
        table.add_row(label, f"{phones.get('actions_per_s', 0):,.1f}", _ms(_p(r, "act_ms", "p50")),
                      _ms(_p(r, "act_ms", "p95")), _ms(_p(r, "act_ms", "p99")), _ms(_p(r, "seen_ms", "p95")),
                      str(phones.get("server_errors", "-")), str(phones.get("failed", "-")),
                      f"{r.get('server_cores', 0):.2f}", f"{r.get('machine_cores', 0):.2f}")
    console.print(table)
    calm_p95, attacked_p95 = _p(calm, "act_ms", "p95"), _p(attacked, "act_ms", "p95")
    if calm_p95 and attacked_p95:
        # p95 counts the moves answered: a server that froze answers few, quickly, before it froze,
        # so the tables' rate and their failed moves are part of the verdict
        ratio = attacked_p95 / calm_p95
        phones, calm_phones = attacked.get("phones", {}), calm.get("phones", {})
        failed = int(phones.get("failed", 0)) + int(phones.get("server_errors", 0))
        slower = phones.get("actions_per_s", 0) < 0.5 * calm_phones.get("actions_per_s", 0)
        why = [f"x{ratio:.2f} (goal within x{GOAL_RATIO:g})"]
        if failed:
            why.append(f"{failed} moves failed or answered 5xx")
        if slower:
            why.append(f"the tables applied {phones.get('actions_per_s', 0):,.1f} moves a second against "
                       f"{calm_phones.get('actions_per_s', 0):,.1f}: their moves waited")
        met = ratio <= GOAL_RATIO and not failed and not slower
        console.print(f"act p95 with the attack {attacked_p95:,.1f} ms against {calm_p95:,.1f} ms without: "
                      f"{'; '.join(why)}: {'met' if met else 'not met'}")
    seen = attacked.get("attacker", {})
    if "result" in seen:
        console.print(f"what the attacker got back (its CPU {seen.get('cpu_s', 0):.1f} s):")
        for attack, counts in seen["result"].items():
            console.print(f"  {attack}: " + ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())))
    elif seen:
        console.print(f"[red]the attacker failed: {seen.get('error')}[/]")
    for label, r in (("without", calm), ("with", attacked)):
        if r["worker_timeouts"] or r["unexpected_errors"]:
            console.print(f"[red]{label} the attack: {r['worker_timeouts']} worker timeouts, {r['unexpected_errors']} "
                          f"unexpected errors; the log ends:[/]\n{r['log_tail']}")
    console.print(f"worker memory at the end: {calm.get('rss_mb', 0):,.0f} MB without, "
                  f"{attacked.get('rss_mb', 0):,.0f} MB with the attack; section {time.monotonic() - started:.0f} s")
