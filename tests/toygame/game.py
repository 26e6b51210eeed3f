"""Toy Race's rules: a tiny game that exercises everything the house relies
on, without waiting for a real engine: a seeded die, a hidden card per
seat, a simultaneous phase, a turn-based phase and an illegal move.

Dice race, 2-3 players. Each round everyone secretly bets "high" or "low"
(all at once), then the lead rolls one die: a right bet scores the die. The
lead passes on. First to ``target`` points ends the game; each player's
secret bonus card (dealt at setup from the card set, seen only by its owner
until the end) is added.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from engine.core import Action, Game, IllegalAction, InvalidState, Result, ScoreLine, SeatScore, SetupOption
from engine.rng import Rng


class ToyRace(Game[dict]):
    name = "toyrace"
    title = "Toy Race"
    min_players = 2
    max_players = 3
    setup_options = (
        SetupOption("target", "Race to", kind="choice", choices=((6, "6 points"), (12, "12 points"), (20, "20 points"))),
        SetupOption("lead", "First to roll", kind="seat"),
    )

    def __init__(self, cards) -> None:
        self.cards = cards
        self.bonuses = [b.points for b in cards.bonuses]

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> dict:
        options = dict(options or {})
        unknown = set(options) - {"target", "lead"}
        if unknown:
            raise InvalidState(f"unknown option {sorted(unknown)[0]!r}")
        target = options.get("target", 12)
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 100:
            raise InvalidState("target is a whole number from 1 to 100")
        if not self.min_players <= players <= self.max_players:
            raise InvalidState(f"Toy Race is for 2 or 3 players, not {players}")
        lead = options.get("lead", 0)
        if isinstance(lead, bool) or not isinstance(lead, int) or not 0 <= lead < players:
            raise InvalidState(f"the first to roll is a seat from 0 to {players - 1}")
        rng = Rng(seed)
        secrets = [rng.choice(self.bonuses) for _ in range(players)]
        return {"players": players, "round": 1, "phase": "bet", "lead": lead, "bets": [None] * players,
                "last_die": None, "scores": [0] * players, "secret": secrets, "target": target,
                "rng": rng.state}

    def to_move(self, state: dict) -> list[int]:
        if self.is_over(state):
            return []
        if state["phase"] == "bet":
            return [s for s, b in enumerate(state["bets"]) if b is None]
        return [state["lead"]]

    def actions(self, state: dict, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        if state["phase"] == "bet":
            return [{"type": "bet", "guess": "high"}, {"type": "bet", "guess": "low"}]
        return [{"type": "roll"}]

    def apply(self, state: dict, seat: int, action: Action) -> dict:
        if self.is_over(state):
            raise IllegalAction("The race is over.")
        if not isinstance(action, dict):
            raise IllegalAction("An action is a JSON object with a type.")
        kind = action.get("type")
        new = copy.deepcopy(state)
        if kind == "bet":
            if state["phase"] != "bet":
                raise IllegalAction("Bets are closed: the lead is rolling.")
            if state["bets"][seat] is not None:
                raise IllegalAction("You have already bet this round.")
            if not isinstance(action.get("guess"), str) or action["guess"] not in ("high", "low"):
                raise IllegalAction("Bet high or low.")
            new["bets"][seat] = action["guess"]
            if all(b is not None for b in new["bets"]):
                new["phase"] = "roll"
            return new
        if kind == "roll":
            if state["phase"] != "roll":
                raise IllegalAction("Everyone bets before the lead rolls.")
            if seat != state["lead"]:
                raise IllegalAction(f"Only the lead rolls: it is {self.seat_name(state['lead'])}'s roll.")
            rng = Rng(state["rng"])
            die = rng.below(6) + 1
            new["rng"] = rng.state
            new["last_die"] = die
            for s, bet in enumerate(state["bets"]):
                if (bet == "high") == (die >= 4):
                    new["scores"][s] += die
            new["bets"] = [None] * state["players"]
            new["phase"] = "bet"
            new["lead"] = (state["lead"] + 1) % state["players"]
            new["round"] += 1
            return new
        raise IllegalAction(f"Toy Race has no action {kind!r}.")

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        over = self.is_over(state)
        return {
            "round": state["round"], "phase": state["phase"], "lead": state["lead"],
            "last_die": state["last_die"], "scores": list(state["scores"]), "target": state["target"],
            "bets_placed": [b is not None for b in state["bets"]],
            "my_bet": state["bets"][seat] if seat is not None else None,
            "my_secret": state["secret"][seat] if seat is not None else None,
            "secrets": list(state["secret"]) if over else None,
        }

    def is_over(self, state: dict) -> bool:
        return max(state["scores"]) >= state["target"]

    def result(self, state: dict) -> Result:
        scores = []
        for s in range(state["players"]):
            lines = (ScoreLine("race", "Race points", state["scores"][s]),
                     ScoreLine("secret", "Secret bonus", state["secret"][s]))
            scores.append(SeatScore(s, self.seat_name(s), lines, sum(l.points for l in lines)))
        best = max(s.total for s in scores)
        return Result(tuple(scores), tuple(s.seat for s in scores if s.total == best))

    def to_dict(self, state: dict) -> dict[str, Any]:
        return copy.deepcopy(state)

    def from_dict(self, data: Mapping[str, Any]) -> dict:
        if not isinstance(data, Mapping) or "scores" not in data:
            raise InvalidState("not a Toy Race state")
        return copy.deepcopy(dict(data))

    def resample_hidden(self, state: dict, seat: int | None, seed: int) -> dict:
        rng = Rng(seed)
        new = copy.deepcopy(state)
        for s in range(state["players"]):
            if s != seat and not self.is_over(state):
                new["secret"][s] = rng.choice(self.bonuses)
        new["rng"] = rng.state
        return new
