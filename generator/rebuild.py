"""What a build remembers (``output/.labkit-cache.json``) and how it tells
that nothing changed: a digest per file written, and per game the digest of
everything its build reads, with where the game is declared and which
folders it read, so that an unchanged game is known without loading it."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from generator import fonts
from generator.files import atomic_write
from generator.svg import TEMPLATE_DIR
from labkit import cardsets, registry

if TYPE_CHECKING:
    from engine.descriptor import GameDescriptor
    from generator.build import BuildOptions

CACHE_NAME = ".labkit-cache.json"


class Cache:
    """What the last builds wrote: a digest per file, and per game the
    digest of its inputs with the files it made."""

    def __init__(self, out: Path) -> None:
        self.path = out / CACHE_NAME
        try:
            self.text = self.path.read_text()
            loaded = json.loads(self.text)
        except (OSError, ValueError):
            self.text, loaded = "", {}
        if not isinstance(loaded, dict) or "files" not in loaded:
            loaded = {"files": {}, "games": {}}
        self.data: dict[str, str] = loaded["files"]
        self.games: dict[str, dict] = loaded["games"]

    def exports_of(self, game: str) -> list[dict]:
        return self.games.get(game, {}).get("exports", [])

    def fresh(self, target: Path, key: str) -> bool:
        return target.exists() and self.data.get(str(target)) == key

    def record(self, target: Path, key: str) -> None:
        self.data[str(target)] = key

    def save(self) -> None:
        text = json.dumps({"files": self.data, "games": self.games}, indent=1, sort_keys=True)
        if text != self.text:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, text.encode())
            self.text = text


def all_fresh(options: BuildOptions, cache: Cache) -> list[str] | None:
    """The games to build, when every one of them is unchanged since the
    build that recorded it: told from where each game is declared and the
    files it was read from, without importing a game. None: look closer."""
    if options.force:
        return None
    by_origin = {rec.get("origin"): name for name, rec in cache.games.items()}
    declared = registry.origins()
    if options.games:
        names = list(options.games)
    elif all(o in by_origin for o in declared):
        names = [by_origin[o] for o in declared]
    else:
        return None
    if options.data_dir is not None and len(names) != 1:
        return None
    for name in names:
        rec = cache.games.get(name)
        if rec is None or rec.get("origin") not in declared:
            return None
        where = rec["where"]
        if options.data_dir is not None and where["data"] != str(Path(options.data_dir).resolve()):
            return None
        if options.data_dir is None and not where["own_data"]:
            return None
        if not game_fresh(cache, Path(options.out), name, inputs_digest(where, options)):
            return None
    return names


def where_read(game: GameDescriptor, folder: Path | None) -> dict:
    """The folders a game's build reads, recorded so that the next build can
    tell that they did not change without loading the game."""
    tdir = cardsets.template_dir(game)
    data = Path(folder) if folder is not None else cardsets.data_dir(game)
    return {"data": str(data.resolve()), "templates": str(tdir.resolve()) if tdir else None,
            "own_data": folder is None}


def game_fresh(cache: Cache, out: Path, game: str, digest: str) -> bool:
    rec = cache.games.get(game)
    if rec is None or rec.get("inputs") != digest:
        return False
    base = os.path.join(out, game)
    exists = os.path.exists
    return all(exists(f[0]) for f in rec["files"]) and all(exists(os.path.join(base, f)) for f in rec["extra"])


def files_digest(h, root: Path) -> None:
    """Every file under ``root`` (names and bytes), caches and hidden files aside."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        rel = os.path.relpath(folder, root)
        found += [(os.path.join(rel, f), os.path.join(folder, f)) for f in files if not f.startswith(".")]
    for rel, full in sorted(found):
        h.update(rel.encode() + b"\0")
        with open(full, "rb") as f:
            h.update(f.read())


_TREE: list[str] = []


def code_tree_digest() -> str:
    """Everything of ours that decides what a face looks like: the
    generator, the engine (layouts, formulas), labkit (the card sets),
    and the versions of the packages that draw."""
    if not _TREE:
        import importlib.metadata as md
        import importlib.util

        h = hashlib.sha256()
        for pkg in ("generator", "engine", "labkit"):
            spec = importlib.util.find_spec(pkg)
            for folder in spec.submodule_search_locations or []:
                files_digest(h, Path(folder))
        for dist in ("reportlab", "svglib", "rdkit", "jinja2", "pypdfium2", "pillow"):
            try:
                h.update(f"{dist}={md.version(dist)}".encode())
            except md.PackageNotFoundError:
                h.update(dist.encode())
        _TREE.append(h.hexdigest())
    return _TREE[0]


def inputs_digest(where: dict, options: BuildOptions) -> str:
    h = hashlib.sha256(code_tree_digest().encode())
    data = Path(where["data"])
    if data.is_file():
        h.update(data.read_bytes())
    elif data.is_dir():
        files_digest(h, data)
    else:
        h.update(b"missing")
    tdir = Path(where["templates"]) if where["templates"] else None
    for root in ([tdir] if tdir else []) + [TEMPLATE_DIR / "common"]:
        h.update(b"--templates--")
        files_digest(h, root)
    for f in fonts.font_files():
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    opts = {k: v for k, v in asdict(options).items() if k not in ("force", "workers", "games")}
    opts["out"] = str(Path(options.out).resolve())
    h.update(json.dumps(opts, sort_keys=True, default=str).encode())
    return h.hexdigest()
