"""The engine alone: full random Lab Notes games per second (2 to 5 players),
actions per second, and paper sheets scored per second. Figures only; no
time is asserted."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

GAMES_PER_COUNT = 50
SHEET_ROUNDS = 20


def _playout(game, players: int, seed: int) -> tuple[object, int]:
    rng = random.Random(seed)
    state = game.setup(players, seed)
    steps = 0
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
        steps += 1
    return state, steps


def run(console: Console) -> None:
    from engine import find_game
    from engine.labnotes.sheet import score_sheet, sheet_to_dict

    game = find_game("labnotes")()
    table = Table(title="Lab Notes engine: random games to the end (uniform random legal actions)")
    for col in ("players", "games", "games/s", "actions/s", "actions/game", "rounds/game"):
        table.add_column(col, justify="right")
    finished = []
    total_games = total_steps = 0
    total_time = 0.0
    for players in range(2, 6):
        steps = rounds = 0
        start = time.perf_counter()
        for seed in range(GAMES_PER_COUNT):
            state, n = _playout(game, players, seed)
            steps += n
            rounds += state.round
            finished.append(state)
        took = time.perf_counter() - start
        total_games += GAMES_PER_COUNT
        total_steps += steps
        total_time += took
        table.add_row(str(players), str(GAMES_PER_COUNT), f"{GAMES_PER_COUNT / took:,.1f}", f"{steps / took:,.0f}",
                      f"{steps / GAMES_PER_COUNT:,.0f}", f"{rounds / GAMES_PER_COUNT:.1f}")
    table.add_row("all", str(total_games), f"{total_games / total_time:,.1f}", f"{total_steps / total_time:,.0f}",
                  f"{total_steps / total_games:,.0f}", "")
    console.print(table)

    sheets = [json.loads(json.dumps(sheet_to_dict(sh))) for state in finished for sh in state.seats]
    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "labnotes-sheet.json"
    if example.exists():
        sheets.append(json.loads(example.read_text(encoding="utf-8")))
    score_sheet(sheets[0])  # the card set is loaded once, outside the timing
    start = time.perf_counter()
    for _ in range(SHEET_ROUNDS):
        for sheet in sheets:
            score_sheet(sheet)
    took = time.perf_counter() - start
    scored = SHEET_ROUNDS * len(sheets)
    console.print(f"Paper sheets scored (checked and scored from JSON): {scored:,} in {took:.2f} s, "
                  f"[bold]{scored / took:,.0f} sheets/s[/bold]")
