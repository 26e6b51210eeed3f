"""Figures for ``make bench``: one random game played to the end, and the
random-game driver the property tests use too.

>>> from tests.engine.compounded.helpers import GAME
>>> sorted(workloads(GAME))
['random game, 2 scientists, games', 'random game, 4 scientists, Lab Partners, games']
>>> GAME.is_over(random_game(GAME, 3, seed=1))
True
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.rng import Rng

MAX_ACTIONS = 50_000
"""A bound, not a rule: a random game that has not ended by then is a bug."""

QUIET_ROUNDS = 10
"""A bound of this driver, not a rule of Compounded. Random players can
freeze the lab for good (every element the grid still needs lies on other
compounds, the bag and the tray empty), and nothing in the rulebook ends
such a game: at a table its players would agree to stop (the host's "End
the game" control, :meth:`Compounded.end_by_agreement`). So after this
many rounds in a row in which nobody placed an element, the driver stops
the playout and ends it by agreement, and says so (:attr:`Quiet.stopped`).
Random games that end by the rules have never had more than 2 such rounds
in a row (200 games, every variant)."""


class Quiet:
    """The driver's count of rounds in a row in which no element was placed."""

    def __init__(self, limit: int = QUIET_ROUNDS) -> None:
        self.limit = limit
        self.round = 1
        self.placed = False
        self.rounds = 0
        self.stopped: str | None = None
        """Why the driver stopped the playout (``None``: the rules ended it)."""

    def saw(self, state: Any, action: Mapping[str, Any]) -> None:
        """Note ``action``, about to be taken in ``state``."""
        if state.round != self.round:
            self.rounds = 0 if self.placed else self.rounds + 1
            self.round, self.placed = state.round, False
        self.placed = self.placed or action.get("type") == "place"

    def stop(self, game, state):
        """``state`` ended by agreement if the bound is reached (and ``stopped`` says so), else ``None``."""
        if self.rounds < self.limit or game.is_over(state):
            return None
        self.stopped = (f"stopped by the random-game driver after {self.rounds} rounds in a row with no element "
                        "placed (a bound of the driver, not a rule)")
        return game.end_by_agreement(state)


def random_game(game, players: int, seed: int, options: Mapping[str, Any] | None = None, quiet: Quiet | None = None):
    """A game of uniformly random legal choices, to the end (or stopped by the driver's bound, :data:`QUIET_ROUNDS`)."""
    rng = Rng(seed)
    quiet = quiet or Quiet()
    s = game.setup(players, seed, options)
    for _ in range(MAX_ACTIONS):
        if game.is_over(s):
            return s
        seat = rng.choice(game.to_move(s))
        action = rng.choice(game.actions(s, seat))
        quiet.saw(s, action)
        s = game.apply(s, seat, action)
        s = quiet.stop(game, s) or s
    raise RuntimeError(f"no end after {MAX_ACTIONS} actions")


def workloads(game) -> dict[str, Callable[[], int]]:
    """Each returns how many units it did (one game), as the bench counts them."""
    counter = iter(range(1, 1 << 30))

    def games(players: int, options: Mapping[str, Any] | None = None) -> Callable[[], int]:
        def one() -> int:
            random_game(game, players, next(counter), options)
            return 1
        return one

    return {
        "random game, 2 scientists, games": games(2),
        "random game, 4 scientists, Lab Partners, games": games(4, {"lab_partners": True}),
    }
