"""Lab Notes' own figures for ``make bench``, beside the random games every
game gets: paper sheets checked and scored from JSON. Each workload returns
how many units it did; the bench times it."""

from __future__ import annotations

import json
from typing import Callable, Mapping

from engine.core import Game
from engine.labnotes.paper import score_sheet, sheet_to_dict
from engine.rng import Rng


def _finished_sheets(game: Game, games: int = 12) -> list[dict]:
    sheets = []
    for seed in range(games):
        rng = Rng(seed)
        state = game.setup(2 + seed % 4, seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_move(state))
            state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
        sheets.extend(json.loads(json.dumps(sheet_to_dict(sh))) for sh in state.seats)
    return sheets


def workloads(game: Game) -> Mapping[str, Callable[[], int]]:
    sheets = _finished_sheets(game)

    def score_all() -> int:
        for sheet in sheets:
            score_sheet(sheet, game.rules)  # type: ignore[attr-defined]
        return len(sheets)

    return {"paper sheets scored (checked and scored from JSON), sheets": score_all}
