"""What a game adds to the companion beyond the engine's contract, found
through its descriptor (``GameDescriptor.companion`` names the module; the
module defines ``PLUGIN``). A game without one is served by the generic
board: its view and a button per legal action.

A plugin lives in ``companion/games/<game>/`` with its own ``templates/``
(named ``<game>/...``) and ``static/`` (served under
``/static/games/<game>/``), loaded only on that game's pages.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from flask import Blueprint, Flask, current_app

from labkit import registry


@dataclass(frozen=True)
class Part:
    """One region of a game's board. The page shows the parts in order, each
    in ``<div id="part-<name>">``; a change re-renders the parts, and a part
    whose HTML did not change is left alone on the phone."""

    name: str
    template: str
    shared: bool = False
    """The same for every viewer (it may not use ``me``): rendered once per
    version and sent to every phone. Otherwise rendered once per seat."""
    board: bool = True
    """Its template reads the game's board context (``Plugin.board_context``).
    The house's own parts do not: a table with no spectator then never works
    out the spectator's board just for its notice and log."""
    beside: bool = False
    """The game's board itself: a wide screen (a landscape phone, a tablet)
    shows it on the left and the other parts beside it (companion.css)."""


HOUSE_PARTS = ("notice", "lobby", "players", "score", "log", "host")
"""Names the house's own parts take (``part-<name>`` ids): a plugin's parts take others."""
SCORE = Part("score", "companion/_score.html", shared=True, board=False)
"""The house's final score table: every seat's score lines."""


@dataclass(frozen=True)
class Plugin:
    parts: tuple[Part, ...]
    """Its board, region by region, e.g. ``Part("dice", "<game>/_dice.html")``."""
    board_context: Callable[[Any, int | None], dict[str, Any]] | None = None
    """``(snapshot, seat) -> names for the board template``: drawing only, no rule."""
    action_label: Callable[[dict[str, Any]], str] | None = None
    """Words for an action's button."""
    blueprint: Blueprint | None = None
    """Its pages, templates and static files."""
    styles: tuple[str, ...] = ()
    """Files of its blueprint's static folder, linked on its tables' pages."""
    scripts: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    """``(label, endpoint)`` shown on the home page."""
    openapi_paths: Callable[[], dict[str, Any]] | None = None
    narrate: Callable[..., list[str]] | None = None
    """``(game, before, seat, action, after, names) -> sentences`` for the game
    log ("Ada took the white die H", "Lab Fire: everyone burns 2"): drawn
    from the states, no rule decided."""
    score: Part | None = SCORE
    """The final score part: the house's table, the game's own, or none
    (when one of the game's parts already shows the standings)."""

    def __post_init__(self) -> None:
        names = [p.name for p in self.parts]
        clash = sorted({n for n in names if n in HOUSE_PARTS or names.count(n) > 1})
        if clash:
            raise ValueError(f"part names {clash} are taken (the house's: {', '.join(HOUSE_PARTS)}; "
                             "or named twice)")


GENERIC = Plugin(parts=(Part("board", "companion/generic/_board.html"),))
"""A game without a plugin: its view, and a button per legal action."""


@lru_cache(maxsize=None)
def _load(module_name: str) -> Plugin:
    module = importlib.import_module(module_name)
    found = getattr(module, "PLUGIN", None)
    if not isinstance(found, Plugin):
        raise RuntimeError(f"{module_name} defines no PLUGIN (a companion.plugins.Plugin)")
    return found


def plugin(game: str) -> Plugin:
    descriptor = registry.games().get(game)
    if descriptor is None or descriptor.companion is None:
        return GENERIC
    return _load(descriptor.companion)


def plugins() -> dict[str, Plugin]:
    return {name: plugin(name) for name in registry.names()}


def init_app(app: Flask) -> None:
    for p in plugins().values():
        if p.blueprint is not None and p.blueprint.name not in app.blueprints:
            app.register_blueprint(p.blueprint)


def action_label(game: str, action: dict[str, Any]) -> str:
    p = plugin(game)
    if p.action_label is not None:
        label = p.action_label(action)
        if label:
            return label
    rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
    words = str(action.get("type", "?")).replace("_", " ").capitalize()
    return f"{words} ({rest})" if rest else words


def openapi_paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for p in plugins().values():
        if p.openapi_paths is not None:
            paths.update(p.openapi_paths())
    return paths


def links() -> list[tuple[str, str]]:
    return [link for p in plugins().values() for link in p.links]


_made_lock = threading.Lock()


def macros(name: str) -> Any:
    """The template ``name`` as a module (its macros), made once per
    template. Jinja makes a template's module on first use without a lock:
    two threads drawing at once could both make one, and the one dropped
    stays in a reference cycle (its macros and their context) that only a
    full collection frees, which the worker never runs (companion/collector.py;
    tests/bench/test_no_cycles.py found it)."""
    template = current_app.jinja_env.get_template(name)
    made: dict[str, tuple[Any, Any]] = current_app.extensions.setdefault("companion_macros", {})
    found = made.get(name)
    if found is None or found[0] is not template:   # a template reloaded (debug) is made again
        with _made_lock:
            found = made.get(name)
            if found is None or found[0] is not template:
                found = made[name] = (template, template.module)
    return found[1]


def ascii_html(html: str) -> str:
    """``html`` with every character beyond ASCII written as a character
    reference (``&#8722;`` for a minus sign), which the browser reads as the
    character itself. Python keeps a string with only ASCII in it at one byte
    a character, and one with a single "−" in it at two for every character
    (four for an emoji): one minus sign on a game's sheet put every phone's
    sheets, most of what a worker held for such a table, at two bytes a
    character. Parts hold no ``<script>`` or ``<style>``, the only places
    where a reference would not be read as its character."""
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")
