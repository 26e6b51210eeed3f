"""The photo reader on the held-out part of the photo set (``bench/photos``):
for each game whose sheet can be read and each kind of distortion, the share
of marks read right (by the game's figures: cells and boxes; elements, bond
orders, other marks), the share of sheets whose score comes out exactly
right with no correction and after correcting only the marks the reader
asked about, how many it asks about per sheet, and the CPU time per photo
on one core at 12 MP. Nothing here was tuned on: the tuning part of the set
is another (docs/design/reader.md).

``READER_PHOTOS`` (default 6) photos of each kind and game; the accuracy
photos are 3200 x 2400 (7.7 MP: fewer pixels than a phone's, so no
kinder), the timing ones 4000 x 3000.
"""

from __future__ import annotations

import os
import statistics
import time
from collections import defaultdict

from rich.console import Console
from rich.table import Table

from bench import photos
from bench.photos.camera import KINDS

GOALS = {"cells and boxes": 0.995, "elements": 0.98, "bond orders": 0.97, "other marks": 0.99}
FIRST = 2000
"""The bench's photos are the held-out part's from this index on: the tests read its first few,
and indexes 0-4 and 1000-1004 were measured before the last changes to the reader."""


def _games() -> list[str]:
    from labkit import registry

    return [g.name for g in registry.games().values() if getattr(g, "reader", None)]


def measure(game: str, per_kind: int, size=(3200, 2400)) -> dict:
    from reader.page import Refused
    from reader.read import read

    rows = {}
    for kind in KINDS:
        right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        exact = after = refused = 0
        asked, seconds, wrong = [], [], []
        for i in range(per_kind):
            s = photos.sample(game, FIRST + i, kind, held_out=True, size=size, face_px=12.0)
            t0 = time.process_time()
            try:
                reading = read(game, s.shot.jpeg, hint={"piece": s.data.get("board")})
            except Refused as exc:
                refused += 1
                wrong.append(f"{kind} {i}: refused: {exc}")
                continue
            seconds.append(time.process_time() - t0)
            j = photos.judge(s, reading)
            for k, (ok, n) in j.right.items():
                right[k][0] += ok
                right[k][1] += n
            exact += j.score_right
            after += j.score_right_after
            asked.append(j.asked)
            wrong += [f"{kind} {i}: {w}" for w in j.wrong[:3]]
        rows[kind] = {"right": dict(right), "exact": exact, "after": after, "sheets": per_kind, "refused": refused,
                      "asked": asked, "seconds": seconds, "wrong": wrong}
    return rows


def timing(game: str, photos_n: int = 3) -> list[float]:
    """CPU seconds to read a 12 MP photo, one core (OpenCV's threads off)."""
    import cv2

    from reader.read import read

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        s0 = photos.sample(game, FIRST - 1, "perspective", held_out=True, size=(4000, 3000))
        read(game, s0.shot.jpeg, hint={"piece": s0.data.get("board")})   # the face drawn once per process
        out = []
        for i in range(photos_n):
            s = photos.sample(game, FIRST + 500 + i, KINDS[i % len(KINDS)], held_out=True, size=(4000, 3000))
            t0 = time.process_time()
            read(game, s.shot.jpeg, hint={"piece": s.data.get("board")})
            out.append(time.process_time() - t0)
        return out
    finally:
        cv2.setNumThreads(threads)


def _pct(ok: int, n: int) -> str:
    return f"{ok / n:.1%}" if n else "-"


def run(console: Console) -> None:
    per_kind = int(os.environ.get("READER_PHOTOS", "6"))
    console.print(f"photo reader, held-out photos: {per_kind} per kind of distortion and game, "
                  "measured on a shared 2-core machine (CPU seconds, one core)")
    for game in _games():
        rows = measure(game, per_kind)
        figures = sorted({k for r in rows.values() for k in r["right"]})
        console.print(f"{game}: marks read right ({', '.join(f'{f} goal {GOALS.get(f, 0):.1%}' for f in figures)}); "
                      "sheets scored exactly right with no fix (goal 90%) and after fixing the marks asked about "
                      "(goal 99%); marks asked about per sheet (goal 3); photos refused; CPU s a photo", highlight=False)
        table = Table(title=f"{game}: held-out photos")
        table.add_column("kind")
        for f in figures:
            table.add_column(f, justify="right")
        for col in ("exact", "after fix", "asked", "refused", "CPU s"):
            table.add_column(col, justify="right")
        total: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        sums = {"exact": 0, "after": 0, "sheets": 0, "refused": 0, "asked": [], "seconds": []}
        for kind, r in rows.items():
            for f in figures:
                ok, n = r["right"].get(f, [0, 0])
                total[f][0] += ok
                total[f][1] += n
            for k in ("exact", "after", "sheets", "refused"):
                sums[k] += r[k]
            sums["asked"] += r["asked"]
            sums["seconds"] += r["seconds"]
            table.add_row(kind, *(_pct(*r["right"].get(f, [0, 0])) for f in figures),
                          _pct(r["exact"], r["sheets"]), _pct(r["after"], r["sheets"]),
                          f"{statistics.mean(r['asked']):.1f}" if r["asked"] else "-", str(r["refused"]),
                          f"{statistics.median(r['seconds']):.2f}" if r["seconds"] else "-")
        table.add_row("all", *(_pct(*total[f]) for f in figures), _pct(sums["exact"], sums["sheets"]),
                      _pct(sums["after"], sums["sheets"]),
                      f"{statistics.mean(sums['asked']):.1f} (max {max(sums['asked'], default=0)})",
                      str(sums["refused"]), f"{statistics.median(sums['seconds']):.2f}" if sums["seconds"] else "-")
        console.print(table)
        twelve = timing(game)
        console.print(f"{game}: 12 MP photo, one core: median {statistics.median(twelve):.2f} s, "
                      f"max {max(twelve):.2f} s CPU over {len(twelve)} photos (goal <= 1 s)")
        misses = [w for r in rows.values() for w in r["wrong"]]
        if misses:
            console.print(f"{game}: first misses: " + "; ".join(misses[:8]), highlight=False)
