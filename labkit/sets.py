"""Card sets to share: ``labkit new-set`` starts one from a game's own data,
``labkit pack`` writes it as one zip. Reading either (and checking it) is
:func:`labkit.cardsets.open_set`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import yaml

from engine.descriptor import GameDescriptor
from labkit import cardsets, setfiles
from labkit.setfiles import SET_MANIFEST

SET_HEADER = """\
# About this card set, for whoever you share it with. labkit checks that
# `game` matches game.yaml; `based_on` records which game data it was copied
# from (leave it as it is). Edit the rest freely.
"""


class SetError(RuntimeError):
    """A set could not be made or packed; the message says why."""


def labkit_version() -> str:
    try:
        return version("labkit")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def new_set(game: GameDescriptor, target: Path, name: str | None = None, author: str = "",
            licence: str = "") -> list[str]:
    """Start a card set in ``target`` (new or empty) from the game's own data:
    a copy of every file a set may hold, and a ``set.yaml``. Returns the
    names written."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise SetError(f"{target}: is a file, not a folder: give the name of a new folder")
    if target.is_dir() and any(target.iterdir()):
        raise SetError(f"{target}: already holds files; give a new folder (or an empty one), "
                       "so that nothing of yours is overwritten")
    own = cardsets.cardset(game)  # the rulebook's set, read and checked: what the copy is based on
    info = {"name": name or target.resolve().name, "author": author, "version": "1", "licence": licence,
            "game": game.name, "based_on": {"labkit": labkit_version(), "content_hash": own.content_hash}}
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for file, data in sorted(own.set_files.items()):
        (target / file).write_bytes(data)
        written.append(file)
    (target / SET_MANIFEST).write_text(SET_HEADER + yaml.safe_dump(info, sort_keys=False, allow_unicode=True),
                                       encoding="utf-8")
    return sorted([*written, SET_MANIFEST])


def pack(folder: Path, out: Path | None = None) -> tuple[Path, cardsets.CardSet]:
    """Write the set in ``folder`` as one zip (default: beside it,
    ``<folder>.zip``), after every check ``labkit validate`` makes (its
    data, its rules in words, every face drawn): the same files always give
    the same bytes. Raises :class:`engine.data.DataError` listing every
    problem of its data, or :class:`SetError` (with every other problem)."""
    from labkit import checks

    folder = Path(folder)
    if not folder.is_dir():
        raise SetError(f"{folder}: not a folder (pack the folder of a card set, e.g. one made by labkit new-set)")
    opened = cardsets.open_set(folder)
    problems = checks.cardset_problems(opened)
    if problems:
        raise SetError(f"{folder} was not packed:\n" + "\n".join(problems))
    out = Path(out) if out is not None else folder.resolve().parent / f"{folder.resolve().name}.zip"
    data = setfiles.write_zip(opened.set_files)
    if len(data) > setfiles.MAX_ZIP_BYTES:
        raise SetError(f"{out}: would be {len(data):,} bytes, over the bound of {setfiles.MAX_ZIP_BYTES:,} for a zip")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(out)
    return out, opened

