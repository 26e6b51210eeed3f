"""What an uploaded card set can cost the server: a zip that lies about its
entries' sizes is read a piece at a time (memory counted by tracemalloc,
not timed), and two uploads at once, on the real server's gevent worker,
neither freeze the other tables nor leave the checking process behind."""

from __future__ import annotations

import http.client
import io
import os
import signal
import struct
import threading
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path
from typing import Any

from labkit import registry
from labkit.setfiles import read_zip_bytes
from tests.companion.test_card_sets import make_set, zipped

DECLARED = 1000


def lying_zip(inflated: int) -> bytes:
    """A zip whose one entry says it is ``DECLARED`` bytes (CRC included)
    and holds ``inflated`` bytes of zeros, deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("recipes.csv", b"\0" * inflated)
    data = bytearray(out.getvalue())
    crc = zlib.crc32(b"\0" * DECLARED)
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, local + 14, crc)
    struct.pack_into("<I", data, local + 22, DECLARED)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 16, crc)
    struct.pack_into("<I", data, central + 24, DECLARED)
    return bytes(data)


def test_an_entry_that_lies_about_its_size_is_never_inflated_past_it() -> None:
    """Found: a 1 MB upload whose entries said a few bytes but held 1 GiB
    each made the checker take 2.1 GB. Here 64 MiB behind a 1,000-byte
    header (64 KB of zip): reading it takes well under a megabyte more
    than the zip itself, and the set gets its first 1,000 bytes only."""
    data = lying_zip(64 * 1024 * 1024)
    assert len(data) < 100_000
    tracemalloc.start()
    try:
        entries, problems, _ = read_zip_bytes(data, "bomb.zip")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024, f"{peak:,} bytes at the peak"
    assert entries.get("recipes.csv", b"") in (b"", b"\0" * DECLARED) and len(entries.get("recipes.csv", b"")) <= DECLARED
    assert not problems or all("recipes.csv" in str(p) for p in problems)


def test_entries_compressed_with_bzip2_or_lzma_are_refused_unread() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("recipes.csv", b"id\n", compress_type=zipfile.ZIP_BZIP2)
        archive.writestr("rules.yaml", b"x: 1\n", compress_type=zipfile.ZIP_LZMA)
        archive.writestr("set.yaml", b"name: x\n", compress_type=zipfile.ZIP_DEFLATED)
    entries, problems, _ = read_zip_bytes(out.getvalue(), "odd.zip")
    assert set(entries) == {"set.yaml"}
    said = " ".join(str(p) for p in problems)
    assert "odd.zip/recipes.csv" in said and "odd.zip/rules.yaml" in said and "deflate" in said


SLOW_CARDS = ("methane", "ammonia", "methanol", "formaldehyde", "hydrogen-cyanide", "hydrazine", "ethylene",
              "acetylene", "formic-acid", "methylamine", "formamide", "acetaldehyde")


def slow_set(folder: Path, cards: int) -> bytes:
    """A Lab Notes set whose check takes seconds: each card given a compound
    that fills the placement search's bound (0.4-1 s a card, by the machine)."""
    from tests.labkit.test_broken_sets import set_cell

    from labkit.sets import new_set

    new_set(registry.find("labnotes"), folder, name="Slow")
    for card in SLOW_CARDS[:cards]:
        set_cell(folder / "notecards.csv", card, "structure", "CC(C)(C)C(C)(C)C")
        set_cell(folder / "notecards.csv", card, "formula", "C8H18")
    return zipped(folder)


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            out.append(int(entry))
    return out


def checkers(worker: int) -> list[int]:
    """The worker's spawned helper processes (the set checker here: no table has bots)."""
    found = []
    for child in children(worker):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def wait_for(what: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    return what()


def test_two_uploads_at_once_freeze_nothing_and_no_checker_outlives_its_worker(server_factory: Any,
                                                                                 tmp_path: Path) -> None:
    """Found with the default gevent worker: two uploads at the same moment
    froze the server for about 36 s (the second waited on a lock of the
    operating system's while the first could not finish), gunicorn killed
    the worker, one uploader got 500, and the killed worker's checker
    outlived it. Now a request sent while both are being checked is
    answered before either, both uploads are answered in words, and a
    worker killed mid-check takes its checker with it."""
    from companion.client import call
    from tests.companion.test_one_client import upload

    server = server_factory(env={"LABKIT_SET_CHECK_SECONDS": "60"}).start()
    (worker,) = wait_for(lambda: children(server.proc.pid), 10)
    slow = slow_set(tmp_path / "slow", 3)
    good_folder = tmp_path / "good"
    make_set("organicsoup", good_folder, "Good")
    good = zipped(good_folder)
    answered: dict[str, tuple[int, float]] = {}

    def send(name: str, game: str, data: bytes) -> None:
        status, _ = upload(server, game, data, f"{name}.zip")
        answered[name] = (status, time.monotonic())

    uploads = [threading.Thread(target=send, args=("slow", "labnotes", slow)),
               threading.Thread(target=send, args=("good", "organicsoup", good))]
    for t in uploads:
        t.start()
    assert wait_for(lambda: checkers(worker), 30), "no checking process started"
    status, _ = call(server.url, "GET", "/api/games", timeout=60)     # while the checker starts and checks
    pinged = time.monotonic()
    for t in uploads:
        t.join(timeout=90)
    assert status == 200
    assert set(answered) == {"slow", "good"}, answered
    assert answered["good"][0] == 303 and answered["slow"][0] in (303, 422), answered
    assert pinged < min(at for _, at in answered.values()), "the other request waited for the checks"

    (checker,) = checkers(worker)
    slower = slow_set(tmp_path / "slower", 12)

    def check_slower() -> None:
        try:
            upload(server, "labnotes", slower, "slower.zip")
        except (OSError, http.client.HTTPException):   # its worker is killed under it
            pass

    busy = threading.Thread(target=check_slower)
    busy.start()
    time.sleep(1.0)                                  # the slower set is in the checker's hands: seconds of work
    os.kill(worker, signal.SIGKILL)
    gone = wait_for(lambda: not alive(checker), 3)
    busy.join(timeout=60)
    server.kill()                                    # the master and the worker it started again: nothing to keep
    assert gone, "the checker outlived its worker"
