"""Compounded as an :class:`engine.core.Game`: the contract over the phase
modules (:mod:`.discover`, :mod:`.study`, :mod:`.research`, :mod:`.lab`,
:mod:`.fires`, :mod:`.tools`, :mod:`.reactions`).

>>> from tests.engine.compounded.helpers import GAME
>>> s = GAME.setup(3, seed=7)
>>> s.phase, GAME.to_move(s), GAME.actions(s, 1)
('study', [0], [])
>>> GAME.apply(s, 1, {"type": "keep"})
Traceback (most recent call last):
...
engine.core.IllegalAction: It is not your turn: waiting for Scientist 1.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.compounded import discover, fires, lab, reactions, research, study, tools, uses  # noqa: F401  (they register their steps)
from engine.compounded import bot_trades
from engine.compounded.cards import CompoundedCards
from engine.compounded.flow import Rules
from engine.compounded.evaluate import evaluate
from engine.compounded.invariants import check
from engine.compounded.schema import state_from_dict
from engine.compounded.scoring import LINES
from engine.compounded.setup import setup
from engine.compounded.state import State
from engine.core import Action, Game, IllegalAction, InvalidState, Result, ScoreLine, SeatScore, SetupOption
from engine.rng import Rng


class Compounded(Game[State]):
    """Compounded: draw elements, claim compounds, complete them, survive the Lab Fires."""

    name = "compounded"
    title = "Compounded"
    min_players = 2
    max_players = 5
    rollout_depth = 12
    """The planner's rollouts play about half a round: a Compounded action
    costs several times a Lab Notes one, and longer rollouts did no better
    (measured at two players against greedy: 28 of 30 games at 12 actions,
    10 of 13 at 24, in half the time; against the greedy of issue 38, which
    plays toward a compound's points, 32 of 44 at 12, 73%, 95% interval
    58-84%)."""
    setup_options = (
        SetupOption("no_trade", "No Player Trades",
                    help="Trade only with the Evaporating Trade Dish (players + 1 elements)."),
        SetupOption("lab_partners", "Lab Partners", help="Lab Partner cards join the grid."),
        SetupOption("lead", "Lead scientist", kind="seat",
                    help="Whoever most recently mixed two liquids together (unset: the first seated)."),
    )

    def __init__(self, cards: CompoundedCards) -> None:
        self.cards = cards
        self.rules = Rules(cards)

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return setup(self.rules, players, seed, options)

    def actions(self, state: State, seat: int) -> list[Action]:
        return self.rules.actions(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> State:
        return self.rules.apply(state, seat, action)

    def to_move(self, state: State) -> list[int]:
        return self.rules.to_move(state)

    def is_over(self, state: State) -> bool:
        return state.over is not None

    def end_by_agreement(self, state: State) -> State:
        """The table agrees to stop: the game ends now with the rulebook's end
        scoring as things stand (leftover elements, claimed unfinished
        compounds). Not a rule of Compounded (design reading 14).

        >>> from tests.engine.compounded.helpers import GAME
        >>> over = GAME.end_by_agreement(GAME.setup(2, seed=1))
        >>> GAME.is_over(over), over.over, over.scientists[0].lines
        (True, 'the scientists agreed to end it here', {'elements': 1})
        """
        if state.over is not None:
            raise IllegalAction("The game is over.")
        out = state.copy()
        lab.end_by_agreement(self.rules, out)
        return out

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table; hidden are only the order of the two decks and the generator
        (the bag is counted, and its counts are public: the Workbench prints the distribution)."""
        out = state.to_dict()
        del out["rng"]
        out["deck"] = len(state.deck)
        out["lab_partner_deck"] = len(state.lab_partner_deck)
        out["viewer"] = seat
        out["to_move"] = self.to_move(state)
        out["deciding"] = state.agenda[0] if state.agenda and out["to_move"] else None
        return out

    def result(self, state: State) -> Result:
        scores = []
        for seat, sc in enumerate(state.scientists):
            lines = tuple(ScoreLine(k, label, sc.lines.get(k, 0)) for k, label in LINES.items())
            scores.append(SeatScore(seat, self.seat_name(seat), lines, sum(l.points for l in lines),
                                    {"final": self.is_over(state), "tracks": sc.to_dict()["tracks"]}))
        best = max(s.total for s in scores)
        return Result(tuple(scores), tuple(s.seat for s in scores if s.total == best))

    def to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> State:
        state = state_from_dict(data)
        self.check(state)
        return state

    def resample_hidden(self, state: State, seat: int | None, seed: int) -> State:
        rng = Rng(seed)
        out = state.copy()
        out.deck, out.lab_partner_deck = sorted(out.deck), sorted(out.lab_partner_deck)  # from a fixed order
        rng.shuffle(out.deck)
        rng.shuffle(out.lab_partner_deck)
        out.rng = rng.next64()
        return out

    def evaluate(self, state: State, seat: int) -> float:
        """The score track plus what is in reach, against the best other
        scientist (:mod:`engine.compounded.evaluate`)."""
        return evaluate(self.rules, state, seat)

    def proposals(self, state: State, seat: int) -> list[Action]:
        """Every action, but in the free trades only the steps of one
        exchange worth offering, and none while the bot's offer waits for its
        answer (:mod:`engine.compounded.bot_trades`)."""
        return bot_trades.proposals(self.rules, state, seat, self.rules.actions(state, seat))

    def waits(self, state: State, seat: int) -> bool:
        return bot_trades.waits(state, seat)

    def card_names(self) -> dict[str, str]:
        return uses.card_names(self.cards)

    def card_uses(self, before: State, after: State, seat: int, action: Action) -> tuple[tuple[int, str, str], ...]:
        """Compounds and Lab Partners claimed and completed (:mod:`engine.compounded.uses`)."""
        return uses.card_uses(before, after)

    def cards_in_play(self, state: State) -> list[str]:
        """The compounds and Lab Partners in the grid."""
        return [c.card for c in state.grid if c.card in self.cards.compounds]

    def end_condition(self, state: State) -> str | None:
        return uses.end_condition(state)

    def round_of(self, state: State) -> int | None:
        return state.round

    def check(self, state: State) -> None:
        if not isinstance(state, State):
            raise InvalidState(f"expected a Compounded state, found {type(state).__name__}")
        check(self.rules, state)

    def seat_name(self, seat: int) -> str:
        return f"Scientist {seat + 1}"
