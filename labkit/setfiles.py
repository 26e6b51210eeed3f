"""The files of a card set, read from a folder or from one zip of it: the
same bytes either way, so that a set shared as a zip is the set its author
validated, and one content hash names both.

A zip may come from anywhere (uploaded from a phone: companion.card_sets),
so it is read as untrusted: it is never unpacked to disk, only files a set
may hold are taken from it, and the bounds below cap what reading it can cost. Every
problem is a :class:`~engine.data.Problem`, all of them collected before
anything stops.

>>> content_hash({"b.csv": b"id\\n", "a.yaml": b"x: 1\\n"}) == content_hash({"a.yaml": b"x: 1\\n", "b.csv": b"id\\n"})
True
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import zipfile
import zlib
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Collection, Mapping

from engine.data import Model, Problem

SET_MANIFEST = "set.yaml"
"""Who made a set, under which licence, from which game data (:class:`SetInfo`)."""

# Bounds, not rules: the games' own sets are a few dozen kB (the largest file
# about 12 kB), so these leave room for sets ten times larger while keeping an
# uploaded zip from costing the server more than a few MB of memory.
MAX_ZIP_BYTES = 4 * 1024 * 1024
"""A zip larger than this (as stored, compressed) is not opened."""
MAX_FILE_BYTES = 1024 * 1024
"""One file of a set, uncompressed."""
MAX_TOTAL_BYTES = 4 * 1024 * 1024
"""All files of a set together, uncompressed (what a zip bomb would blow past)."""
MAX_FILES = 64
"""Entries in a zip, folders included."""

IGNORED = re.compile(r"(^|/)(__MACOSX/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)")
"""What a computer adds when it zips a folder (macOS Finder, Windows): skipped, not refused."""


class BasedOn(Model):
    labkit: str
    """The labkit version whose game data the set was started from."""
    content_hash: str
    """That game data's :func:`content_hash`: what the set was a copy of."""


class SetInfo(Model):
    """``set.yaml``: what a shared set says about itself."""

    name: str
    author: str = ""
    version: str = "1"
    licence: str = ""
    game: str
    based_on: BasedOn | None = None


def content_hash(files: Mapping[str, bytes]) -> str:
    """The sha256 of a set's files: each file's name and length, then its
    bytes, in name order. The same files give the same hash whether read
    from a folder or a zip; a table's log is kept with it."""
    h = hashlib.sha256()
    for name in sorted(files):
        data = files[name]
        h.update(name.encode("utf-8") + b"\0" + str(len(data)).encode() + b"\0")
        h.update(data)
    return h.hexdigest()


def is_set_path(path: Path) -> bool:
    """A folder, or a file named ``*.zip`` (whether it is one is for :func:`collect` to say)."""
    path = Path(path)
    return path.is_dir() or (path.is_file() and path.suffix.lower() == ".zip")


def stamp(path: Path, names: Collection[str]) -> tuple:
    """What changes when a set is edited: its files' sizes and times (a zip's own)."""
    path = Path(path)
    targets = [("", path)] if path.is_file() else [(n, path / n) for n in names]
    out = []
    for name, target in targets:
        try:
            st = os.stat(target)
            out.append((name, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((name, None, None))
    return tuple(out)


def collect(path: Path, shown: str, allowed: Collection[str],
            what: str | None = None) -> tuple[dict[str, bytes], list[Problem], set[str]]:
    """The files named ``allowed`` of the set at ``path`` (a folder or a zip),
    the problems found reading it, and the names present but refused (too
    large, a link), so that a parser's "missing" need not repeat them. A zip
    holding anything else is refused file by file; a folder may hold other
    files (it is the author's workspace: backups, notes), which are left out.
    ``what`` names the set in that refusal ("a <title>" set); without it,
    other entries are only left out (a look for one file, such as ``game.yaml``)."""
    path = Path(path)
    if path.is_file():
        return _allowed(read_zip(path, shown, *stamp(path, ())), shown, allowed, what)
    files, problems, refused, total = {}, [], set(), 0
    for name in allowed:
        target = path / name
        if target.is_symlink():
            problems.append(Problem(f"{shown}/{name}", None, None,
                                    "is a link to another file: a set holds its files themselves (copy it in)"))
            refused.add(name)
        elif target.is_file():
            size = target.stat().st_size
            if size > MAX_FILE_BYTES:
                problems.append(_too_large(f"{shown}/{name}", size))
                refused.add(name)
                continue
            files[name] = target.read_bytes()
            total += size
    if total > MAX_TOTAL_BYTES:
        problems.append(Problem(shown, None, None, f"holds {total:,} bytes of files, over the bound of "
                                                   f"{MAX_TOTAL_BYTES:,} for a whole set"))
    return files, problems, refused


def collect_zip(data: bytes, shown: str, allowed: Collection[str],
                what: str | None = None) -> tuple[dict[str, bytes], list[Problem], set[str]]:
    """:func:`collect` of a zip held in memory (an upload, or a set kept in a database)."""
    return _allowed(read_zip_bytes(data, shown), shown, allowed, what)


def _allowed(read: tuple[dict[str, bytes], tuple[Problem, ...], tuple[str, ...]], shown: str,
             allowed: Collection[str], what: str | None) -> tuple[dict[str, bytes], list[Problem], set[str]]:
    entries, problems, refused = read
    problems = list(problems)
    files = {}
    for name, data in entries.items():
        if name in allowed:
            files[name] = data
        elif what is not None:
            problems.append(Problem(f"{shown}/{name}", None, None,
                                    f"is not a file {what} set holds (it holds {', '.join(sorted(allowed))})"))
    return files, problems, set(refused)


def _too_large(where: str, size: int) -> Problem:
    return Problem(where, None, None, f"is {size:,} bytes, over the bound of {MAX_FILE_BYTES:,} for one file of a set")


def _unsafe(name: str) -> str | None:
    """Why an entry's name points outside the set, or ``None``."""
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return "is an absolute path: a set's files sit inside it"
    if "\\" in name:
        return "has a backslash (\\) in its path: zip paths use /"
    if ".." in PurePosixPath(name).parts:
        return "climbs out of the set (..): a set's files sit inside it"
    return None


@lru_cache(maxsize=8)
def read_zip(path: Path, shown: str,
             size_and_time: tuple) -> tuple[dict[str, bytes], tuple[Problem, ...], tuple[str, ...]]:
    """Every safe file entry of a zip, by its name in the set, the problems
    of the others, and the names refused for their size; a zip over a bound
    is not read at all. Entries under one top folder (a zipped folder) count
    as the set's own. ``size_and_time`` (:func:`stamp`) makes an edited zip
    read again; a few are kept (each at most :data:`MAX_TOTAL_BYTES`)."""
    size = path.stat().st_size
    if size > MAX_ZIP_BYTES:
        return {}, (_zip_too_large(shown, size),), ()
    return read_zip_bytes(path.read_bytes(), shown)


def _zip_too_large(shown: str, size: int) -> Problem:
    return Problem(shown, None, None, f"is {size:,} bytes, over the bound of {MAX_ZIP_BYTES:,} for a zip")


def read_zip_bytes(data: bytes, shown: str) -> tuple[dict[str, bytes], tuple[Problem, ...], tuple[str, ...]]:
    """:func:`read_zip` of a zip held in memory (an upload: never written to disk)."""
    problems: list[Problem] = []
    if len(data) > MAX_ZIP_BYTES:
        return {}, (_zip_too_large(shown, len(data)),), ()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return {}, (Problem(shown, None, None, f"is not a zip file that can be read ({exc})"),), ()
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_FILES:
            return {}, (Problem(shown, None, None, f"holds {len(infos)} entries, over the bound of {MAX_FILES}"),), ()
        safe = []
        for info in infos:
            name = info.filename
            if IGNORED.search(name):
                continue
            why = _unsafe(name)
            if why is None and stat.S_ISLNK(info.external_attr >> 16):
                why = "is a symbolic link: a set holds its files themselves"
            if why is None and info.flag_bits & 0x1:
                why = "is encrypted: pack the set without a password"
            if why is not None:
                problems.append(Problem(shown, None, None, f"{name!r} {why}"))
                continue
            if not info.is_dir():
                safe.append(info)
        tops = {PurePosixPath(i.filename).parts[0] for i in safe}
        strip = len(tops) == 1 and all(len(PurePosixPath(i.filename).parts) > 1 for i in safe)
        named = [("/".join(PurePosixPath(i.filename).parts[1 if strip else 0:]), i) for i in safe]
        refused = tuple(name for name, info in named if info.file_size > MAX_FILE_BYTES)
        problems.extend(_too_large(f"{shown}/{name}", info.file_size) for name, info in named if name in refused)
        named = [(name, info) for name, info in named if name not in refused]
        total = sum(info.file_size for _, info in named)
        if total > MAX_TOTAL_BYTES:
            problems.append(Problem(shown, None, None, f"holds {total:,} bytes once unpacked, over the bound "
                                                       f"of {MAX_TOTAL_BYTES:,} for a whole set"))
            return {}, tuple(problems), refused + tuple(name for name, _ in named)  # none read: none "missing"
        entries: dict[str, bytes] = {}
        for name, info in named:
            if name in entries:
                problems.append(Problem(f"{shown}/{name}", None, None, "is in the zip twice"))
                continue
            if info.compress_type not in READ_METHODS:
                problems.append(Problem(f"{shown}/{name}", None, None, "is compressed in a way sets are not "
                                        f"(method {info.compress_type}): zip the set with the usual 'deflate'"))
                continue
            try:
                entries[name] = _read_entry(archive, info)
            except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
                problems.append(Problem(f"{shown}/{name}", None, None, f"cannot be read from the zip ({exc})"))
    return entries, tuple(problems), refused


READ_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
"""How a set's entries may be compressed: what every zip tool writes by
default. bzip2 and LZMA are refused: zipfile inflates each of their blocks
whole, and a few kB of them can stand for gigabytes."""
READ_PIECE = 64 * 1024


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """An entry's bytes, inflated a piece at a time: never more than
    :data:`READ_PIECE` beyond what its header declares (at most
    :data:`MAX_FILE_BYTES`), whatever its compressed data holds.
    ``archive.read`` inflated all of it at once before cutting it to the
    declared size: a 1 MB upload whose entries said 100 bytes but held
    1 GiB each took 2.1 GB of memory and 7-20 s to check."""
    out = bytearray()
    with archive.open(info) as entry:   # stops at the declared size and checks the CRC there
        while len(out) <= info.file_size:
            piece = entry.read(READ_PIECE)
            if not piece:
                break
            out += piece
    return bytes(out)


def write_zip(files: Mapping[str, bytes]) -> bytes:
    """One zip of a set's files, the same bytes for the same files: entries
    in name order, a fixed time (1980-01-01) and mode, no extra fields."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, wherever it was packed
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, files[name], compresslevel=9)
    return out.getvalue()
