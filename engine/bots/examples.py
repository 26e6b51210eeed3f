"""A game small enough to read in the bots' docstrings: Nim, one heap,
take 1 to 3 stones, whoever takes the last wins. It is a whole
:class:`~engine.core.Game` with an evaluation of its own, so the examples
show the levels on something a reader can check by hand.

>>> game = Nim()
>>> state = game.apply(game.setup(2, 1), 0, {"type": "take", "n": 2})
>>> state, game.to_move(state), game.evaluate(state, 0)
({'heap': 5, 'turn': 1}, [1], -1.0)
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import Action, Game, IllegalAction, InvalidState, Result, ScoreLine, SeatScore


class Nim(Game[dict]):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> dict:
        if players != 2:
            raise ValueError("Nim is for 2 players")
        return {"heap": int((options or {}).get("heap", 7)), "turn": 0}

    def actions(self, state: dict, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        return [{"type": "take", "n": n} for n in range(1, min(3, state["heap"]) + 1)]

    def apply(self, state: dict, seat: int, action: Action) -> dict:
        if action not in self.actions(state, seat):
            raise IllegalAction("Take 1, 2 or 3 stones, on your turn.")
        return {"heap": state["heap"] - action["n"], "turn": 1 - state["turn"]}

    def to_move(self, state: dict) -> list[int]:
        return [] if self.is_over(state) else [state["turn"]]

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def is_over(self, state: dict) -> bool:
        return state["heap"] == 0

    def result(self, state: dict) -> Result:
        winner = 1 - state["turn"]  # who took the last stone
        scores = tuple(SeatScore(s, self.seat_name(s), (ScoreLine("won", "Took the last stone", int(s == winner)),),
                                 int(s == winner)) for s in (0, 1))
        return Result(scores, (winner,) if self.is_over(state) else ())

    def evaluate(self, state: dict, seat: int) -> float:
        """The whole theory of Nim: a heap that is a multiple of 4 is lost for whoever must move."""
        mover_loses = state["heap"] % 4 == 0
        return 1.0 if mover_loses == (state["turn"] != seat) else -1.0

    def to_dict(self, state: dict) -> dict[str, Any]:
        return dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> dict:
        if not isinstance(data, Mapping) or set(data) != {"heap", "turn"}:
            raise InvalidState("a Nim state is a heap and a turn")
        return dict(data)

    def resample_hidden(self, state: dict, seat: int | None, seed: int) -> dict:
        return dict(state)  # nothing is hidden
