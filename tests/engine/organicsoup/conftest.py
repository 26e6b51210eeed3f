"""Organic Soup test helpers: the rulebook's card set read from its folder,
the game bound to it, one-line tables, and random playouts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.data import CardFiles
from engine.organicsoup.cards import FILES, OrganicSoupCards, parse
from engine.organicsoup.game import OrganicSoup
from engine.organicsoup.scenario import table
from engine.organicsoup.state import State

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "cardsdata" / "organicsoup"
RULEBOOK = ROOT.parent / "shared" / "rules" / "organic-soup.md"


def rulebook_files() -> CardFiles:
    return CardFiles({n: (FOLDER / n).read_bytes() for n in FILES}, "cardsdata/organicsoup")


_CARDS = parse(rulebook_files())
_GAME = OrganicSoup(_CARDS)


@pytest.fixture(scope="session")
def cards() -> OrganicSoupCards:
    return _CARDS


@pytest.fixture(scope="session")
def game() -> OrganicSoup:
    """The game bound to the rulebook's cards (here it replaces Lab Notes' fixture of that name)."""
    return _GAME


def at(text: str, seed: int = 0) -> State:
    """A table from one line (engine.organicsoup.scenario), rulebook cards."""
    state = table(_CARDS, text, seed)
    _GAME.check(state)
    return state


def ingredient(seat: int, recipe: str, count: int = 1) -> dict:
    return {"seat": seat, "recipe": recipe, "count": count}


def react(ingredients: list[dict], products: dict[str, int]) -> dict:
    return {"type": "react", "ingredients": ingredients, "products": products}


def build(recipe: str, count: int = 1) -> dict:
    return {"type": "build", "recipe": recipe, "count": count}


def uniform(rng: random.Random, game: OrganicSoup, state: State, seat: int, actions: list[dict]) -> dict:
    return rng.choice(actions)


def climber(rng: random.Random, game: OrganicSoup, state: State, seat: int, actions: list[dict]) -> dict:
    """A player who reacts up the levels whenever an offered reaction forms a
    recipe from his hand, and otherwise mostly builds big."""
    hand = set(state.seats[seat].hand)
    best, level = None, -1
    for a in actions:
        if a["type"] == "react":
            rank = max((game.cards.recipe(p).rank for p in a["products"] if p in hand), default=-1)
            if rank > level:
                best, level = a, rank
    if best is not None:
        return best
    builds = [a for a in actions if a["type"] == "build"]
    if builds and rng.random() < 0.9:
        return max(builds, key=lambda a: (a["count"] * game.cards.recipe(a["recipe"]).size, rng.random()))
    return rng.choice(actions)


def playout(game: OrganicSoup, players: int, seed: int, policy=uniform, each=None):
    """A game to the end; returns the final state and the action log."""
    rng = random.Random(seed)
    state = game.setup(players, seed)
    log = []
    while not game.is_over(state):
        seat = game.to_move(state)[0]
        action = policy(rng, game, state, seat, game.actions(state, seat))
        state = game.apply(state, seat, action)
        log.append((seat, action))
        if each:
            each(state)
        assert len(log) < 5000, "no end in 5000 actions"
    return state, log
