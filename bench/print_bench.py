"""Print pipeline figures for every registered game together, beside issue
20's goals: a cold build (A4 and Letter, grid and bleed, SVGs) on one core
and on every core, a rebuild with nothing changed, a rebuild after one card
of one game changed, and the exports (shop PNGs, 1-up PDFs, Tabletop
Simulator, contact sheets) with their time per card. Each build runs in a
fresh process, so cold means cold and memory is that build's own.
``LABKIT_BENCH_GAMES=a,b`` limits the games (the goals are for all four).

The machine may be shared: the figures say how busy it was (load average)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
GOAL_REBUILD_S = 0.3
GOAL_COLD_S = 5.0

CHILD = r"""
import json, os, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from generator.build import BuildOptions, build
from generator.exports import ExportOptions
args = json.loads(sys.argv[1])
exports = ExportOptions() if args["exports"] else ExportOptions(shops=(), one_up=False, tts=False, contact=False)
t1 = time.perf_counter()
c0 = os.times()
report = build(BuildOptions(out=Path(args["out"]), games=args["games"], workers=args["workers"], exports=exports))
elapsed = time.perf_counter() - t0
c1 = os.times()
done = [e for e in report.exports if not e.skipped]
print(json.dumps({"seconds": elapsed, "imports": t1 - t0, "build_seconds": report.seconds,
                  "cpu": c1.user - c0.user + c1.system - c0.system + c1.children_user - c0.children_user
                         + c1.children_system - c0.children_system, "phases": report.phases,
                  "written": len(report.written), "files": len(report.files), "pages": report.pages,
                  "export_seconds": sum(e.seconds for e in done), "export_cards": sum(e.pieces for e in done),
                  "export_faces": sum(e.faces for e in done), "export_components": len(done),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def _run(out: Path, games: list[str], workers: int | None, exports: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = json.dumps({"out": str(out), "games": games, "workers": workers, "exports": exports})
    r = subprocess.run([sys.executable, "-c", CHILD, args], capture_output=True, text=True, cwd=ROOT, check=True,
                       env=env)
    result = json.loads(r.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def _games() -> list[str]:
    from labkit import registry

    wanted = [g for g in os.environ.get("LABKIT_BENCH_GAMES", "").split(",") if g]
    return wanted or registry.names()


def _one_card_changed(out: Path, games: list[str]) -> dict | None:
    """A copy of the smallest game's data with its first card renamed, built
    after a build of the copy as it was: what one changed card costs."""
    import csv
    import io

    from labkit import cardsets, registry

    # the game with the least data: the figure is what one card costs, not what a game costs
    game = min((registry.find(g) for g in games),
               key=lambda d: sum(f.stat().st_size for f in cardsets.data_dir(d).rglob("*") if f.is_file()))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / game.name
        shutil.copytree(cardsets.data_dir(game), data, ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        base = [sys.executable, "-m", "labkit", "build", "--data", str(data), "--out", str(out), "--shop", "none",
                "--no-one-up", "--no-tts", "--no-contact"]
        subprocess.run(base, capture_output=True, check=True, cwd=ROOT, env=env)
        for name in game.card_files:
            path = data / name
            if not name.endswith(".csv") or not path.is_file():
                continue
            rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
            if len(rows) > 1 and "name" in rows[0]:
                rows[1][rows[0].index("name")] += " II"
                buf = io.StringIO()
                csv.writer(buf, lineterminator="\n").writerows(rows)
                path.write_text(buf.getvalue(), encoding="utf-8")
                break
        else:
            return None
        child = CHILD.replace('games=args["games"]', 'games=args["games"], data_dir=Path(args["data"])')
        args = json.dumps({"out": str(out), "games": [game.name], "workers": None, "exports": False,
                           "data": str(data)})
        r = subprocess.run([sys.executable, "-c", child, args], capture_output=True, text=True, cwd=ROOT,
                           check=True, env=env)
        result = json.loads(r.stdout.strip().splitlines()[-1])
        result["load"] = os.getloadavg()[0]
        result["game"] = game.name
        return result


def run(console) -> None:
    games = _games()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = [("cold, 1 process", _run(tmp / "one", games, 1), GOAL_COLD_S)]
        runs.append((f"cold, {cores} processes", _run(tmp / "all", games, None), GOAL_COLD_S))
        runs.append(("nothing changed", _run(tmp / "all", games, None), GOAL_REBUILD_S))
        changed = _one_card_changed(tmp / "changed", games)
        if changed:
            runs.append((f"one card changed ({changed['game']})", changed, None))
        exported = _run(tmp / "exports", games, None, exports=True)
        again = _run(tmp / "exports", games, None, exports=True)
    from labkit import registry

    titles = ", ".join(registry.find(g).title for g in games)
    table = Table(title=f"{titles} full build (A4 + Letter, grid + bleed, SVGs), {cores} cores")
    for col in ("run", "in build s", "goal s", "CPU s (all processes)", "check / write s", "wall s", "imports s",
                "files written", "pages written", "peak MB (parent/child)", "load avg"):
        table.add_column(col, justify="left" if col == "run" else "right")
    for name, r, goal in runs:
        met = "" if goal is None else (" met" if r["build_seconds"] <= goal else " missed")
        phases = r.get("phases") or {}
        split = f"{phases['check']:.1f} / {phases['write']:.1f}" if "check" in phases else "-"
        table.add_row(name, f"{r['build_seconds']:.2f}", f"<= {goal:g}{met}" if goal else "-", f"{r['cpu']:.1f}", split,
                      f"{r['seconds']:.2f}",
                      f"{r['imports']:.2f}", f"{r['written']}/{r['files']}", str(r["pages"]),
                      f"{r['peak_mb']:.0f}/{r['children_mb']:.0f}", f"{r['load']:.1f}")
    console.print(table)
    t = Table(title="Exports: shop PNGs (300 dpi), 1-up PDFs, Tabletop Simulator, contact sheets")
    for col in ("run", "in build s", "CPU s (all processes)", "components", "cards", "distinct faces",
                "export wall s (sum over tasks)", "CPU ms per card", "CPU ms per face", "load avg"):
        t.add_column(col, justify="left" if col == "run" else "right")
    sheets_cpu = runs[1][1]["cpu"]   # the same build without the exports
    for name, r in (("cold, with the sheets", exported), ("nothing changed", again)):
        cards, faces = r["export_cards"], r["export_faces"]
        extra = r["cpu"] - sheets_cpu   # what the exports added, in CPU seconds of every process
        t.add_row(name, f"{r['build_seconds']:.2f}", f"{r['cpu']:.1f}", str(r["export_components"]), str(cards),
                  str(faces), f"{r['export_seconds']:.1f}", f"{1000 * extra / cards:.0f}" if cards else "-",
                  f"{1000 * extra / faces:.0f}" if faces else "-", f"{r['load']:.1f}")
    console.print(t)
    console.print("The machine may be shared with other work: a load average above the core count means the "
                  "wall-clock figures are slower than on an idle machine; CPU seconds say how much work was done.")
