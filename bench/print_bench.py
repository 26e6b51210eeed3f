"""Print pipeline figures, every registered game: cold build, rebuild with
nothing changed, rebuild after one card changed (the first deck's first
name), pages per second, peak memory. Each build runs in a fresh process so
that cold means cold (no warm imports or caches) and memory is that build's
own. ``LABKIT_BENCH_GAMES=a,b`` limits the games."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.table import Table

from bench.engine_bench import games
from labkit import cardsets

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from generator.build import BuildOptions, build
report = build(BuildOptions(out=Path(sys.argv[1]), data_dir=Path(sys.argv[2]), games=[sys.argv[3]]))
elapsed = time.perf_counter() - t0
print(json.dumps({"seconds": elapsed, "build_seconds": report.seconds, "written": len(report.written),
                  "files": len(report.files), "pages": report.pages,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _run(out: Path, data: Path, game: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", CHILD, str(out), str(data), game], capture_output=True, text=True,
                       cwd=ROOT, check=True, env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


def _change_one_card(data: Path, files: tuple[str, ...]) -> bool:
    """Rename the first card of the first deck with a name column."""
    for name in files:
        path = data / name
        if not name.endswith(".csv") or not path.is_file():
            continue
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        if len(rows) > 1 and "name" in rows[0]:
            rows[1][rows[0].index("name")] += " II"
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(rows)
            path.write_text(out.getvalue(), encoding="utf-8")
            return True
    return False


def run(console) -> None:
    for desc in games():
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / desc.name
            shutil.copytree(cardsets.data_dir(desc), data, ignore=shutil.ignore_patterns("__pycache__"))
            out = Path(tmp) / "out"
            runs = [("cold", _run(out, data, desc.name)), ("nothing changed", _run(out, data, desc.name))]
            if _change_one_card(data, desc.card_files):
                runs.append(("one card changed", _run(out, data, desc.name)))
        table = Table(title=f"{desc.title} full build (A4 + Letter, grid + bleed, SVGs)")
        for col in ("run", "wall s", "in build s", "files written", "pages written", "pages/s", "peak MB"):
            table.add_column(col, justify="right" if col != "run" else "left")
        for name, r in runs:
            pps = r["pages"] / r["build_seconds"] if r["pages"] else 0
            table.add_row(name, f"{r['seconds']:.2f}", f"{r['build_seconds']:.2f}", f"{r['written']}/{r['files']}",
                          str(r["pages"]), f"{pps:.0f}" if pps else "-", f"{r['peak_mb']:.0f}")
        console.print(table)
