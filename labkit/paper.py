"""Running a game's paper tools on a JSON file (``labkit score <game>
SHEET.json``, ``labkit check <game> REACTION.json``): the file is read here,
the game judges what it says."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core import InvalidState
from engine.descriptor import GameDescriptor, PaperReport
from labkit.cardsets import new_game


def read_json(path: Path) -> object:
    """A JSON file, or :class:`InvalidState` saying why not, with the file's name."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidState(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidState(f"{path}: cannot read it: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidState(f"{path}: not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def run_file(game: GameDescriptor, verb: str, path: Path, data_dir: Path | None = None) -> PaperReport:
    tool = game.tool(verb)
    if tool is None:
        raise InvalidState(f"{game.title} has no paper tool to {verb} "
                           f"(it has: {', '.join(t.verb for t in game.paper) or 'none'})")
    data = read_json(path)
    try:
        return tool.run(new_game(game, data_dir), data)
    except InvalidState as exc:
        raise InvalidState(f"{path}: {exc}") from None
