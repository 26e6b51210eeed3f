"""Print pipeline figures for the full Lab Notes build (issue 2):
cold time, rebuild with nothing changed, rebuild after one card changed,
pages per second, peak memory. Each build runs in a fresh process so that
cold means cold (no warm imports or caches) and memory is that build's own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from generator.build import BuildOptions, build
report = build(BuildOptions(out=Path(sys.argv[1]), data_dir=Path(sys.argv[2])))
elapsed = time.perf_counter() - t0
print(json.dumps({"seconds": elapsed, "build_seconds": report.seconds, "written": len(report.written),
                  "files": len(report.files), "pages": report.pages,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _run(out: Path, data: Path) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, str(out), str(data)], capture_output=True, text=True,
                       cwd=ROOT, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def run(console) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "labnotes"
        shutil.copytree(ROOT / "cardsdata" / "labnotes", data)
        out = tmp / "out"
        cold = _run(out, data)
        warm = _run(out, data)
        csv = data / "notecards.csv"
        csv.write_text(csv.read_text().replace("The main part of natural gas.", "Most of natural gas."))
        one = _run(out, data)
    table = Table(title="Lab Notes full build (A4 + Letter, grid + bleed, SVGs)")
    for col in ("run", "wall s", "in build s", "files written", "pages written", "pages/s", "peak MB"):
        table.add_column(col, justify="right" if col != "run" else "left")
    for name, r in (("cold", cold), ("nothing changed", warm), ("one card changed", one)):
        pps = r["pages"] / r["build_seconds"] if r["pages"] else 0
        table.add_row(name, f"{r['seconds']:.2f}", f"{r['build_seconds']:.2f}", f"{r['written']}/{r['files']}",
                      str(r["pages"]), f"{pps:.0f}" if pps else "-", f"{r['peak_mb']:.0f}")
    console.print(table)
