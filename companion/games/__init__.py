"""What a game adds to the companion beyond the engine's contract: a little
Python to draw it (``board_context``), labels for its actions, and pages or
API routes of its own (a ``blueprint``). One module per game, named like the
game; a game without a module is served by the generic board.

A module may define:

* ``board_context(snapshot, seat) -> dict``: extra names for its board template;
* ``action_label(action) -> str``: words for a button;
* ``blueprint``: a Flask blueprint, registered with the app;
* ``openapi_paths() -> dict``: OpenAPI paths for the blueprint's ``/api`` routes;
* ``links``: ``[(label, endpoint)]`` shown on the home page.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from types import ModuleType
from typing import Any

from flask import Flask


@lru_cache(maxsize=None)
def plugin(game: str) -> ModuleType | None:
    if not game.isidentifier():
        return None
    if game not in {m.name for m in pkgutil.iter_modules(__path__)}:
        return None
    return importlib.import_module(f"{__name__}.{game}")


def plugins() -> list[ModuleType]:
    out = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = plugin(info.name)
        if module is not None:
            out.append(module)
    return out


def init_app(app: Flask) -> None:
    for module in plugins():
        bp = getattr(module, "blueprint", None)
        if bp is not None:
            app.register_blueprint(bp)


def board_context(game: str, snapshot: Any, seat: int | None) -> dict[str, Any]:
    module = plugin(game)
    if module is None or not hasattr(module, "board_context") or not snapshot.started:
        return {}
    return module.board_context(snapshot, seat)


def action_label(game: str, action: dict[str, Any]) -> str:
    module = plugin(game)
    if module is not None and hasattr(module, "action_label"):
        label = module.action_label(action)
        if label:
            return label
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
    words = str(action.get("type", "?")).replace("_", " ").capitalize()
    return f"{words} ({rest})" if rest else words


def openapi_paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for module in plugins():
        if hasattr(module, "openapi_paths"):
            paths.update(module.openapi_paths())
    return paths


def links() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for module in plugins():
        out.extend(getattr(module, "links", []))
    return out
