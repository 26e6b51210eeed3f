"""Studio figures, every registered game: the time from a saved file to
the changed face on the page, for a one-card change (goal: at most 1 s).

Each game's own set is copied with ``labkit new-set``; the studio serves it
on 127.0.0.1 and watches it; a client reads the page's stream (Server-Sent
Events) as a browser does. One round: one card's name is edited in its CSV
file and saved; the clock runs from just before the save until the push
naming that card's tile has arrived and its new face (the SVG the push
points to) has been fetched. The next round starts when the studio has
finished reading (the whole set is drawn again after the quick push).
``LABKIT_BENCH_GAMES=a,b`` limits the games; ``LABKIT_BENCH_STUDIO_ROUNDS``
sets the rounds (default 12)."""

from __future__ import annotations

import csv
import http.client
import io
import os
import re
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from rich.table import Table

from bench.engine_bench import games
from labkit.sets import new_set
from labkit.studio import running
from labkit.studio.app import tile_id
from labkit.studio.drawing import source_file

GOAL_S = 1.0
TIMEOUT_S = 20.0


def _card_to_edit(studio) -> tuple[Path, int, str, str] | None:
    """(file, name column, row index, tile key) of a deck card in the middle of a CSV deck with names."""
    for component in studio.drawing.printable.components():
        name = source_file(component)
        if component.kind != "deck" or not name or not name.endswith(".csv"):
            continue
        rows = list(csv.reader(io.StringIO((studio.path / name).read_text(encoding="utf-8"))))
        if "name" not in rows[0] or "id" not in rows[0]:
            continue
        keys = set(studio.drawing.tiles)
        found = [i for i, r in enumerate(rows[1:], 1) if r and f"{component.id}/{r[rows[0].index('id')]}" in keys]
        if found:
            i = found[len(found) // 2]
            return studio.path / name, rows[0].index("name"), i, f"{component.id}/{rows[i][rows[0].index('id')]}"
    return None


def _rename(path: Path, column: int, row: int, round_: int) -> None:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    name = rows[row][column].rstrip(" 0123456789")
    rows[row][column] = f"{name} {round_ % 9 + 1}"  # the same length each round: it still fits
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


class _Stream:
    """A page's stream, read line by line."""

    def __init__(self, url: str, since: int) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT_S)
        self.conn.request("GET", f"/events?since={since}", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()

    def next_change(self) -> str:
        data: list[str] = []
        event = ""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            if time.monotonic() > deadline:  # heartbeats keep the socket busy: a clock of its own
                raise RuntimeError(f"no change pushed within {TIMEOUT_S:.0f} s")
            line = self.response.fp.readline().decode()
            if not line:
                raise RuntimeError("the studio's stream ended")
            line = line.rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if event == "change":
                    return "\n".join(data)
                data, event = [], ""

    def face(self, address: str) -> bytes:
        conn = http.client.HTTPConnection(self.conn.host, self.conn.port, timeout=TIMEOUT_S)
        conn.request("GET", address)
        body = conn.getresponse().read()
        conn.close()
        return body

    def close(self) -> None:
        self.conn.close()


def measure(game, rounds: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        new_set(game, folder)
        with running(game, folder) as (studio, url):
            target = _card_to_edit(studio)
            if target is None:
                return {"game": game.title, "note": "no deck from a CSV file with names"}
            path, column, row, key = target
            stream = _Stream(url, studio.version)
            times, drawn = [], []
            try:
                for r in range(rounds):
                    studio.idle.wait(TIMEOUT_S)
                    saved = time.perf_counter()
                    _rename(path, column, row, r)
                    while True:
                        push = stream.next_change()
                        tile = re.search(rf'<figure[^>]*id="{tile_id(key)}".*?</figure>', push, re.S)
                        if tile:
                            break
                    address = re.search(r'<img class="front" src="([^"]+)"', tile.group(0)).group(1)
                    face = stream.face(address)
                    times.append(time.perf_counter() - saved)
                    drawn.append(b"<svg" in face[:200])
                    studio.idle.wait(TIMEOUT_S)
                    time.sleep(0.1)
            finally:
                stream.close()
    return {"game": game.title, "card": key, "times": times, "ok": all(drawn)}


def run(console) -> None:
    rounds = int(os.environ.get("LABKIT_BENCH_STUDIO_ROUNDS", "12"))
    table = Table(title=f"Studio: a saved one-card change to its face on the page ({rounds} rounds a game)")
    for col in ("game", "card", "p50", "max", f"goal <= {GOAL_S:.0f} s"):
        table.add_column(col, overflow="fold")
    for game in games():
        result = measure(game, rounds)
        if "times" not in result:
            table.add_row(result["game"], result["note"], "-", "-", "-")
            continue
        times = result["times"]
        p50, worst = statistics.median(times), max(times)
        verdict = "met" if worst <= GOAL_S else ("p50 met, max missed" if p50 <= GOAL_S else "missed")
        if not result["ok"]:
            verdict += " (a fetched face was not SVG)"
        table.add_row(result["game"], result["card"], f"{p50 * 1000:.0f} ms", f"{worst * 1000:.0f} ms", verdict)
    console.print(table)
