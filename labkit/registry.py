"""The one registry of games, used by every face.

A game is found one way: its :class:`~engine.descriptor.GameDescriptor`,
declared as an entry point of the group ``labkit.games`` in its package's
metadata (this repository's games in ``pyproject.toml``; a game from another
package in that package's own). For a game being tried out without
installing it, ``LABKIT_GAMES`` names descriptors as ``module:attribute``,
comma-separated; a test may :func:`register` one for its own duration.

>>> all(find(name).name == name for name in games())
True
"""

from __future__ import annotations

import importlib
import os
from functools import lru_cache
from importlib.metadata import entry_points

from engine.descriptor import GameDescriptor

GROUP = "labkit.games"
ENV = "LABKIT_GAMES"

_registered: dict[str, GameDescriptor] = {}


class UnknownGame(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; this one is a sentence
        return str(self.args[0])


def _load(target: str, where: str) -> GameDescriptor:
    module, _, attr = target.partition(":")
    try:
        found = getattr(importlib.import_module(module.strip()), (attr or "GAME").strip())
    except (ImportError, AttributeError) as exc:
        raise RuntimeError(f"{where}: cannot load the game {target!r}: {exc}") from exc
    if not isinstance(found, GameDescriptor):
        raise RuntimeError(f"{where}: {target!r} is a {type(found).__name__}, not a GameDescriptor")
    return found


@lru_cache(maxsize=None)
def _installed() -> tuple[GameDescriptor, ...]:
    return tuple(_load(ep.value, f"entry point {ep.name!r} of {GROUP}")
                 for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name))


@lru_cache(maxsize=8)
def _from_env(value: str) -> tuple[GameDescriptor, ...]:
    return tuple(_load(t, ENV) for t in value.split(",") if t.strip())


def origins() -> list[str]:
    """Where each game is declared (entry point, ``LABKIT_GAMES``, registered),
    without importing any: a build that recorded which game each came from
    can tell that nothing changed before loading a game."""
    out = [f"entry point {ep.name}={ep.value}" for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)]
    out += [f"{ENV}={t.strip()}" for t in os.environ.get(ENV, "").split(",") if t.strip()]
    out += [f"registered {d.name}:{d.data}:{d.templates}" for d in _registered.values()]
    return out


def origin(name: str) -> str:
    """The :func:`origins` entry of the game called ``name`` (it is loaded)."""
    found = games()[name]
    eps = sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
    for ep, d in zip(eps, _installed()):
        if d is found:
            return f"entry point {ep.name}={ep.value}"
    targets = [t.strip() for t in os.environ.get(ENV, "").split(",") if t.strip()]
    for t, d in zip(targets, _from_env(os.environ.get(ENV, ""))):
        if d is found:
            return f"{ENV}={t}"
    return f"registered {found.name}:{found.data}:{found.templates}"


def games() -> dict[str, GameDescriptor]:
    """Every game, by name: installed, named in ``LABKIT_GAMES``, registered."""
    return dict(_games(os.environ.get(ENV, ""), _generation[0]))


_generation = [0]
"""Counts registrations, so that a game registered or dropped is seen at once."""


@lru_cache(maxsize=8)
def _games(env: str, generation: int) -> dict[str, GameDescriptor]:
    # asked for on every page a phone is sent (its game's plugin): worked out once per set of games
    out: dict[str, GameDescriptor] = {}
    for d in (*_installed(), *_from_env(env), *_registered.values()):
        if d.name in out and out[d.name] is not d:
            raise RuntimeError(f"two games are called {d.name!r}")
        out[d.name] = d
    return dict(sorted(out.items()))


def names() -> list[str]:
    return list(games())


def find(name: str) -> GameDescriptor:
    found = games().get(name)
    if found is None:
        known = ", ".join(games()) or "none"
        raise UnknownGame(f"unknown game {name!r} (known: {known})")
    return found


def register(descriptor: GameDescriptor) -> GameDescriptor:
    """Add a game for this process (tests; a game tried out from a script)."""
    if descriptor.name in games() and games()[descriptor.name] is not descriptor:
        raise RuntimeError(f"two games are called {descriptor.name!r}")
    _registered[descriptor.name] = descriptor
    _generation[0] += 1
    return descriptor


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _generation[0] += 1

