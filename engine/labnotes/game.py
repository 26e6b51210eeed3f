"""Lab Notes as an :class:`engine.core.Game`: the contract's methods over
:mod:`.rules`, :mod:`.state` and :mod:`.scoring`, bound to one card set.

>>> from labkit.cardsets import new_game
>>> from labkit.registry import find
>>> game = new_game(find("labnotes"))
>>> state = game.setup(3, seed=7, options={"first_game": True})
>>> state.tools
('centrifuge', 'retort-flask', 'fire-suppressant')
>>> game.to_move(state), game.actions(state, 0)
([0], [{'type': 'roll'}])
>>> state = game.apply(state, 0, {"type": "roll"})
>>> state.phase, len([d for d in state.dice if d.place == "pool"])
('select', 4)
>>> game.apply(state, 1, {"type": "take_die", "die": 0})
Traceback (most recent call last):
...
engine.core.IllegalAction: It is not your pick yet: dice are taken in turn order from the lead player.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import Action, Game, InvalidState, Result, SetupOption
from engine.labnotes import evaluate, invariants, proposals, uses
from engine.labnotes.cards import LabNotesData
from engine.labnotes.rules import Rules
from engine.labnotes.scoring import seat_score
from engine.labnotes.state import BURNED, State, state_from_dict, state_to_dict
from engine.rng import Rng


SCORES_KEPT = 4096
"""Sheets' score boxes kept (:meth:`LabNotes.result`): a game's worth, and more."""


class LabNotes(Game[State]):
    """Lab Notes: draft element dice, notate compounds, claim notecards."""

    name = "labnotes"
    title = "Lab Notes"
    min_players = 2
    max_players = 5
    rollout_depth = 32
    """The planner's rollouts play two to three rounds at two players: a die
    taken now pays off in the bonds of the notating after it (measured: 95%
    of 20 games against greedy at 32 actions, 82% at 24, 67% at 16)."""
    setup_options = (
        SetupOption("first_game", "First game: the recommended tools",
                    help="The card set's first-game tools instead of three at random."),
        SetupOption("lead", "Lead player", kind="seat", help="Who rolls first (unset: the first seated)."),
    )

    def __init__(self, data: LabNotesData) -> None:
        self.data = data
        self.rules = Rules(data)
        self._scores: dict[tuple, Any] = {}

    # --- the contract -------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return self.rules.setup(players, seed, options)

    def actions(self, state: State, seat: int) -> list[Action]:
        return self.rules.actions(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> State:
        return self.rules.apply(state, seat, action)

    def to_move(self, state: State) -> list[int]:
        return self.rules.to_move(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table: only the deck's order and the generator are hidden."""
        out = state_to_dict(state, self.rules.cols)
        del out["rng"]
        out["deck"] = len(state.deck)
        out["viewer"] = seat
        out["to_move"] = self.to_move(state)
        for sheet, shown in zip(state.seats, out["seats"]):
            shown["tools_open"] = self.rules.open_track(sheet)
            shown["empty_spaces"] = sheet.spaces.count(".")
        return out

    def result(self, state: State) -> Result:
        """Each sheet's score boxes. Before the end this is the score so far
        (unconnected elements burn only when the game ends)."""
        final = self.is_over(state)
        scores = tuple(self._seat_score(i, sh, final) for i, sh in enumerate(state.seats))
        best = max(s.total for s in scores)
        return Result(scores=scores, winners=tuple(s.seat for s in scores if s.total == best))

    def _seat_score(self, i: int, sh, final: bool):
        """One sheet's score boxes, kept by what they are made of: a bot game
        asks for the result after every action (the arena watches the
        totals), and an action changes one sheet at most."""
        key = (i, final, sh.spaces, tuple(sh.bonds.items()), sh.claims, sh.burned, sh.tools)
        score = self._scores.get(key)
        if score is None:
            if len(self._scores) >= SCORES_KEPT:
                self._scores.clear()
            score = self._scores[key] = seat_score(
                i, self.seat_name(i), sh.spaces, sh.bonds, [c.points for c in sh.claims],
                sh.spaces.count(BURNED), self.rules.cols,
                {"final": final,
                 "claims": [{"notecard": c.notecard, "points": c.points} for c in sh.claims],
                 "burns": [{"space": self.rules.label(b.space), "cause": b.cause, "round": b.round}
                           for b in sh.burned],
                 "tools": list(sh.tools)})
        return score

    def to_dict(self, state: State) -> dict[str, Any]:
        return state_to_dict(state, self.rules.cols)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        state = state_from_dict(data, self.rules.cols)
        self.check(state)
        return state

    def resample_hidden(self, state: State, seat: int | None, seed: int) -> State:
        rng = Rng(seed)
        out = state.copy()
        out.deck = sorted(out.deck)  # from a fixed order: the result tells nothing of the true one
        rng.shuffle(out.deck)
        out.rng = rng.next64()
        return out

    def evaluate(self, state: State, seat: int) -> float:
        """The sheet's score boxes now plus what is in reach, against the best
        other sheet (:mod:`engine.labnotes.evaluate`)."""
        final = [s.total for s in self.result(state).scores] if self.is_over(state) else None
        return evaluate.evaluate(self.rules, state, seat, final)

    def proposals(self, state: State, seat: int) -> list[Action]:
        """The spaces worth weighing for a notate or a burn, and every other action."""
        return proposals.proposals(self.rules, state, seat)

    def card_names(self) -> dict[str, str]:
        return uses.card_names(self.rules)

    def card_uses(self, before: State, after: State, seat: int, action: Action) -> tuple[tuple[int, str, str], ...]:
        """Notecards claimed, tool cards unlocked and used (:mod:`engine.labnotes.uses`)."""
        return uses.card_uses(before, after)

    def cards_in_play(self, state: State) -> list[str]:
        """The notecards face up in the line, and the game's three tool cards."""
        return [c for c in state.line if c not in self.rules.lab_fires] + list(state.tools)

    def end_condition(self, state: State) -> str | None:
        return uses.END if self.is_over(state) else None

    def round_of(self, state: State) -> int | None:
        return state.round

    def check(self, state: State) -> None:
        if not isinstance(state, State):
            raise InvalidState(f"expected a Lab Notes state, found {type(state).__name__}")
        invariants.check(self.rules, state)
