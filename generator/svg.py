"""Templates to SVG, and SVG to reportlab drawings, strictly.

Templates are jinja2 with ``StrictUndefined`` (a missing field is an error,
not a blank on a printed card). Converting to a drawing parses the XML
strictly, turns every svglib warning into an error, and checks that every
piece of text uses a font from :mod:`generator.fonts`.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree
from reportlab.graphics.shapes import Drawing, Group, String

from generator import fonts

import templates as _templates_pkg

TEMPLATE_DIR = Path(_templates_pkg.__file__).parent
"""The shared templates (``common/...``); each game's own are found through
its descriptor and named ``<game>/...``."""


class RenderError(RuntimeError):
    """A component could not be drawn; the message names it."""


# --- templates --------------------------------------------------------------------
def _game_dirs() -> tuple[tuple[str, str], ...]:
    from labkit import cardsets, registry

    return tuple((g.name, str(cardsets.template_dir(g))) for g in registry.games().values() if g.templates)


def make_env(extra_globals: dict[str, Any] | None = None,
             game_dirs: tuple[tuple[str, str], ...] | None = None) -> jinja2.Environment:
    dirs = _game_dirs() if game_dirs is None else game_dirs
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([
            jinja2.PrefixLoader({name: jinja2.FileSystemLoader(folder) for name, folder in dirs}),
            jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        ]),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # XML text: & and < in card data must not break the file
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.do"],
    )
    from generator import drawing_helpers

    env.globals.update(drawing_helpers.GLOBALS)
    env.filters.update(drawing_helpers.FILTERS)
    if extra_globals:
        env.globals.update(extra_globals)
    return env


def default_env() -> jinja2.Environment:
    """The environment for the games registered now (a game registered later
    gets a new one)."""
    return _env(_game_dirs())


@lru_cache(maxsize=8)
def _env(game_dirs: tuple[tuple[str, str], ...]) -> jinja2.Environment:
    return make_env(game_dirs=game_dirs)


def template_source(name: str) -> str:
    """A template's text with everything it includes or imports, for cache keys."""
    env = default_env()
    seen: dict[str, str] = {}

    def walk(n: str) -> None:
        if n in seen:
            return
        source, _, _ = env.loader.get_source(env, n)  # type: ignore[union-attr]
        seen[n] = source
        ast = env.parse(source)
        from jinja2 import meta

        for ref in meta.find_referenced_templates(ast):
            if ref:
                walk(ref)

    walk(name)
    del walk  # it calls itself by name: a cycle (it and its cell) refcounting cannot free
    return "\n".join(f"--{k}--\n{v}" for k, v in sorted(seen.items()))


def render(template: str, context: dict[str, Any], where: str) -> str:
    try:
        return default_env().get_template(template).render(**context)
    except jinja2.TemplateNotFound as exc:
        game, _, rest = str(exc.name).partition("/")
        folder = dict(_game_dirs()).get(game, str(TEMPLATE_DIR / game))
        raise RenderError(f"{where}: template not found: {exc.name} (looked for {rest or exc.name} in {folder})") from None
    except jinja2.UndefinedError as exc:
        raise RenderError(f"{where}: template {template}: {exc.message}") from None
    except jinja2.TemplateError as exc:
        line = getattr(exc, "lineno", None)
        raise RenderError(f"{where}: template {template}{f':{line}' if line else ''}: {exc}") from None


# --- SVG to drawing ---------------------------------------------------------------
class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def to_drawing(svg_text: str, where: str) -> Drawing:
    """Parse and convert; any warning, unknown font or broken XML is an error."""
    from svglib.svglib import SvgRenderer

    fonts.register()
    try:
        root = etree.fromstring(svg_text.encode("utf-8"), parser=etree.XMLParser(remove_comments=True))
    except etree.XMLSyntaxError as exc:
        raise RenderError(f"{where}: the SVG is not well-formed: {exc}") from None
    collect = _Collect()
    log = logging.getLogger("svglib")
    log.addHandler(collect)
    try:
        drawing = SvgRenderer(where).render(root)
    finally:
        log.removeHandler(collect)
    if collect.messages:
        raise RenderError(f"{where}: SVG conversion: " + "; ".join(sorted(set(collect.messages))))
    allowed = fonts.registered_names()
    for s in _strings(drawing):
        if s.fontName not in allowed:
            raise RenderError(f"{where}: text {s.text!r} would print in {s.fontName}, "
                              f"not an embedded font ({', '.join(sorted(allowed))})")
    return drawing


def _strings(node: Any):
    if isinstance(node, String):
        yield node
    elif isinstance(node, (Group, Drawing)):
        for child in node.contents:
            yield from _strings(child)


def text_of(drawing: Drawing) -> list[str]:
    return [s.text for s in _strings(drawing)]
