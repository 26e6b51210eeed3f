"""Synthesis' figures for ``make bench``: the exact chain scoring at its
worst, and random games. Each workload returns how many units it did; the
bench times it (``bench/engine_bench.py``). :func:`hardest_boards` lists the
paper boards ``bench/synthesis_bench.py`` scores one by one for the worst
time: no clock here."""

from __future__ import annotations

from typing import Callable, Iterator, Mapping

from engine.core import Game
from engine.rng import Rng
from engine.synthesis.goals import optimize


def random_game(game: Game, players: int, seed: int) -> object:
    """One game to the end, every seat choosing uniformly among its actions."""
    rng = Rng(seed)
    state = game.setup(players, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
    return state


def hard_tables(cards) -> list[tuple[str, str, str, list[str]]]:
    """The hardest volume tables found for the search, as ``(what, board,
    side, columns)``: every cell of one colour (every link possible, every
    place of every card fits), and one colour but for one cell, which spoils
    the perfect linkings and leaves the most to prove. No game makes them: a
    player's marker changes colour every turn."""
    out = []
    for side, odd in (("A", (3, 0)), ("B", (5, 1))):
        board = cards.boards(side)[0]
        heights = cards.layouts[(board, side)].table.heights
        full = ["g" * h for h in heights]
        out.append((f"side {side}, all green", board, side, full))
        col, row = odd
        spoilt = list(full)
        spoilt[col] = full[col][:row] + "r" + full[col][row + 1:]
        out.append((f"side {side}, all green but a red at volume {col + 1} row {row + 1}", board, side, spoilt))
    return out


def hardest_boards(cards) -> Iterator[tuple[str, dict]]:
    """Paper boards (``docs/synthesis-table-format.md``) on :func:`hard_tables`
    with every card the rulebook's modes deal: each Chain card alone and in
    First Steps at each difficulty, each Project in Predictable Results, and
    each Chain card with each Project in Unpredictable Consequences (the
    Pattern card, which the search never reads, taken in turn so that every
    one is in play). Yields ``(what, board)``."""
    chains, patterns, projects = sorted(cards.chains), sorted(cards.patterns), sorted(cards.projects)
    turn = 0

    def pattern() -> dict:
        nonlocal turn
        turn += 1
        return {"pattern_card": patterns[turn % len(patterns)], "pattern_points": 6}

    for what, board, side, columns in hard_tables(cards):
        base = {"board": board, "side": side, "table": columns, "elemental": {cards.layouts[(board, side)].pairs[0]: 2}}
        for chain in chains:
            yield f"{what}: {chain}", {**base, "chain_card": chain, **pattern()}
            for level in ("easy", "medium", "hard"):
                yield f"{what}: First Steps {level}, {chain}", {**base, "mode": "first_steps", "difficulty": level,
                                                                 "chain_card": chain, **pattern()}
        for project in projects:
            yield f"{what}: Predictable Results, {project}", {**base, "mode": "predictable", "project": project}
            for chain in chains:
                yield f"{what}: Unpredictable Consequences, {project}, {chain}", {
                    **base, "mode": "unpredictable", "project": project, "chain_card": chain, **pattern()}


def workloads(game: Game) -> Mapping[str, Callable[[], int]]:
    cards = game.cards  # type: ignore[attr-defined]
    staircase = cards.chains.get("staircase") or next(iter(cards.chains.values()))
    full = []
    for side in ("A", "B"):
        board = cards.boards(side)[0]
        table = cards.layouts[(board, side)].table
        full.append((table, table.colours(["g" * h for h in table.heights])))

    def one_colour() -> int:
        """A full table all of one colour, scored with the Staircase card
        (every cell can link, every place fits)."""
        for table, colour in full:
            optimize(table, colour, cards.points,
                     card=(staircase.pattern, staircase.row.points, staircase.row.maximum))
        return len(full)

    def four_colours() -> int:
        """Full tables coloured at random, each with every Chain card."""
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
        "optimal chains, full one-colour table with the Staircase card, tables": one_colour,
        "optimal chains, full four-colour tables with each Chain card, tables": four_colours,
        "random 28-turn games, 4 players, games": four_players,
    }
