"""Synthesis' figures for ``make bench``: the exact chain scoring at its
worst, and random games. Each workload returns how many units it did; the
bench times it. Caches are emptied first, so each run does the whole work."""

from __future__ import annotations

from typing import Callable, Mapping

from engine.core import Game
from engine.rng import Rng
from engine.synthesis.chains import component_best
from engine.synthesis.goals import optimize


def _clear() -> None:
    component_best.cache_clear()


def random_game(game: Game, players: int, seed: int) -> object:
    """One game to the end, every seat choosing uniformly among its actions."""
    rng = Rng(seed)
    state = game.setup(players, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
    return state


def workloads(game: Game) -> Mapping[str, Callable[[], int]]:
    cards = game.cards  # type: ignore[attr-defined]
    worst = cards.chains.get("staircase") or next(iter(cards.chains.values()))
    full = []
    for side in ("A", "B"):
        board = cards.boards(side)[0]
        table = cards.layouts[(board, side)].table
        full.append((table, table.colours(["g" * h for h in table.heights])))

    def one_colour() -> int:
        """A full table all of one colour, scored with the hardest Chain card:
        the search's worst case (every cell can link, every place fits)."""
        _clear()
        for table, colour in full:
            optimize(table, colour, cards.points, card=(worst.pattern, worst.row.points, worst.row.maximum))
        return len(full)

    def four_colours() -> int:
        """Full tables coloured at random, each with every Chain card."""
        _clear()
        rng = Rng(7)
        count = 0
        for table, _ in full:
            for card in cards.chains.values():
                colour = {cell: rng.choice("rygb") for cell in table.cells}
                optimize(table, colour, cards.points, card=(card.pattern, card.row.points, card.row.maximum))
                count += 1
        return count

    def four_players() -> int:
        random_game(game, 4, 11)
        return 1

    return {
        "optimal chains, full one-colour table with the Staircase card (worst case), tables": one_colour,
        "optimal chains, full four-colour tables with each Chain card, tables": four_colours,
        "random 28-turn games, 4 players, games": four_players,
    }
