"""Bots for every game: one framework over the engine contract, knowing no game.

A bot fills a seat at a table, takes over from a player who left, or plays
against itself for a balance report. Three levels, the same for every game
(:mod:`engine.bots.bot`): ``random`` (a uniform legal action), ``greedy``
(the action that scores best one step ahead by the game's own
:meth:`~engine.core.Game.evaluate`) and ``planner`` (a search over
determinised futures, :mod:`engine.bots.planner`).

Like the rules, the bots are pure and seeded: every random choice comes from
a stream of (game seed, seat, decision number) (:mod:`engine.bots.stream`),
they never read the clock unless a caller lends one, and a bot game
(:mod:`engine.bots.arena`) replays exactly from its log. A bot sees what
its seat sees: it plans over ``resample_hidden`` samples of the state, never
over the true hidden parts.
"""

from engine.bots.bot import LEVELS, choose
from engine.bots.levels import Budget

__all__ = ["LEVELS", "Budget", "choose"]
