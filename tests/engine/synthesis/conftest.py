"""Synthesis test helpers: the rulebook's card set, the small example set,
one-line scenarios (lines already drawn, a roll forced) and playouts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.data import CardFiles
from engine.synthesis.cards import FILES, parse
from engine.synthesis.examples import example_cards
from engine.synthesis.game import Synthesis
from engine.synthesis.state import State

DATA = Path(__file__).resolve().parents[3] / "cardsdata" / "synthesis"


def data_files(folder: Path = DATA) -> dict[str, bytes]:
    return {n: (folder / n).read_bytes() for n in FILES}


def real_cards():
    return parse(CardFiles(data_files(), "cardsdata/synthesis"))


_REAL = Synthesis(real_cards())
_EXAMPLE = Synthesis(example_cards())


@pytest.fixture(scope="session")
def game() -> Synthesis:
    """The rulebook's card set."""
    return _REAL


@pytest.fixture(scope="session")
def small() -> Synthesis:
    """The example card set: one small board (engine/synthesis/examples.py)."""
    return _EXAMPLE


# --- scenarios ------------------------------------------------------------------------
def painted(game: Synthesis, state: State, seat: int, lines: str, colour: str) -> State:
    """``state`` with ``lines`` (``"C4:E C4:NE"``) already drawn in ``colour``
    on ``seat``'s formula, closing what they close, as if drawn on turn 1.
    For setting a scene only: no legality is checked."""
    s = state.copy()
    f = game.rules.formula(s, seat)
    mask = 0
    for text in lines.split():
        mask |= 1 << f.lattice.parse_edge(text)
    f.draw(s.seats[seat], mask, colour, "line", 1)
    return s


def rolled(game: Synthesis, state: State, shape: str, mutation: str, turn: int | None = None) -> State:
    """``state`` in the Synthesis phase with the dice showing ``shape`` and
    ``mutation`` (as if the player on yellow had rolled them)."""
    s = state.copy()
    if turn is not None:
        s.turn = turn
    s.phase = "synthesis"
    s.roll = (shape, mutation)
    for seat in s.seats:
        seat.todo = 2 if mutation == "twice" else 1
        seat.done = False
    return s


def lines_of(action: dict) -> set[str]:
    return set(action["lines"])


def bond(*labels: str) -> dict:
    return {"type": "bond", "lines": list(labels)}


def hex_lines(game: Synthesis, state: State, seat: int, hexagon: str) -> list[str]:
    """The names of a hexagon's six lines, E NE NW W SW SE."""
    f = game.rules.formula(state, seat)
    lat = f.lattice
    return [lat.edge_labels[e] for e in lat.hex_edges[lat.hex_index(hexagon)]]


# --- playouts ----------------------------------------------------------------------------
def playout(game: Synthesis, players: int, seed: int, options=None, policy=None, each=None):
    """A game to the end with random legal actions; returns (state, log)."""
    rng = random.Random(seed)
    s = game.setup(players, seed, options)
    log = []
    while not game.is_over(s):
        seat = rng.choice(game.to_move(s))
        actions = game.actions(s, seat)
        action = policy(rng, game, s, seat, actions) if policy else rng.choice(actions)
        s = game.apply(s, seat, action)
        log.append((seat, action))
        if each:
            each(s)
        assert len(log) < 5000
    return s, log


def builder(rng: random.Random, game: Synthesis, s: State, seat: int, actions: list[dict]) -> dict:
    """A player who closes hexagons: takes the drawing that completes the most
    lines of nearby hexagons, shades elementals, takes active bonds, spends
    free bonds; so that the rarer rules get played."""
    kinds: dict[str, list[dict]] = {}
    for a in actions:
        kinds.setdefault(a["type"], []).append(a)
    if "elemental" in kinds:
        return kinds["elemental"][0 if rng.random() < .8 else 1]
    drawings = kinds.get("bond") or kinds.get("active_bond")
    if drawings:
        f = game.rules.formula(s, seat)
        lat = f.lattice
        occupied = f.occupied(s.seats[seat].lines)

        def value(a: dict) -> float:
            mask = 0
            for t in a["lines"]:
                mask |= 1 << lat.parse_edge(t)
            after = occupied | mask
            hexes = {h for e in lat.edges_of_mask(mask) for h in lat.edge_hexes[e]}
            return sum(10 if lat.hex_mask[h] & after == lat.hex_mask[h] else bin(lat.hex_mask[h] & after).count("1")
                       for h in hexes) + rng.random()
        return max(drawings, key=value)
    if "free_bond" in kinds and rng.random() < .7:
        return rng.choice(kinds["free_bond"])
    return rng.choice(actions)
