"""Bot-only games: :func:`play` one, :func:`play_many` for a report.

Everything that goes in or comes out is plain data (a :class:`Match`, a
:class:`GameRecord`), and a game is named by a picklable factory (a
function, or ``labkit.cardsets.NamedGame``), so the same call runs in this
process, in a process pool (``map=pool.imap``) or on a Dask cluster
(``map=lambda f, xs: client.gather(client.map(f, xs))``).

A bot game is a function of its match: the arena's own choices (which of
several free seats acts next) come from the seed's stream, the bots' from
their decisions' streams, so :meth:`engine.core.Game.replay` of the record's
log rebuilds its final state exactly.

>>> from engine.bots.examples import Nim
>>> record = play(Nim(), Match(2, ("random", "greedy"), seed=1))
>>> record.winners, record.length, record.stopped
((1,), 4, None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, Mapping

from engine.bots.bot import LEVELS, choose
from engine.bots.levels import Budget, Clock, next_mover
from engine.bots.stream import arena_rng, decision_rng
from engine.core import Action, Game

MAX_ACTIONS = 20_000
"""A bound of the arena, not a rule of any game: no bot game goes longer
(:data:`QUIET_ACTIONS` stops the ones that stall long before)."""
QUIET_ACTIONS = 600
"""A bound of the arena, not a rule of any game. The rules of some games
let them go on for ever: players who may pass round after round, or who
may turn the same pieces back and forth, taking a card from each other
turn after turn, while the deck whose end would end the game is never
drawn from (bots found such loops). So when
for this many actions in a row no seat's score reached a value it had
never had in the game, the arena stops it, as a table would: by agreement
(:meth:`~engine.core.Game.end_by_agreement`) where the game offers one,
else left unfinished and ranked as it stands (:meth:`~engine.core.Game.result`
before the end). The record says so (:attr:`GameRecord.stopped`) and keeps
the longest quiet run it saw (:attr:`GameRecord.quiet`), which ``make
bench`` prints: bot games that end by their rules stay well below it."""


@dataclass(frozen=True)
class Match:
    """One bot game to play: the level of each seat, the seed, the options."""

    players: int
    levels: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] | None = None
    budget: Budget = field(default_factory=Budget)

    def __post_init__(self) -> None:
        if len(self.levels) != self.players:
            raise ValueError(f"{self.players} players need {self.players} bot levels, not {len(self.levels)}")
        unknown = [lv for lv in self.levels if lv not in LEVELS]
        if unknown:
            raise ValueError(f"unknown bot level {unknown[0]!r} (known: {', '.join(LEVELS)})")


@dataclass(frozen=True)
class GameRecord:
    """What a bot game did and how it ended, as plain data."""

    match: Match
    log: tuple[tuple[int, Action], ...]
    """``(seat, action)`` in order: ``game.replay`` rebuilds the game from it."""
    result: dict[str, Any]
    """:meth:`engine.core.Result.to_dict` of the final state."""
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    """Each seat's total."""
    final: dict[str, Any]
    """``game.to_dict`` of the final state."""
    times: tuple[tuple[int, float], ...] = ()
    """``(seat, seconds)`` of each decision that had a choice (more than one
    action to weigh); empty when no clock was lent."""
    stopped: str | None = None
    """Why the arena stopped the game (``None``: its rules ended it)."""
    quiet: int = 0
    """The longest run of actions in which no score reached a new value."""
    over: bool = True
    """Whether the game ended (by its rules or by agreement); ``False``: the
    arena stopped one that offers no end by agreement, unfinished."""

    @property
    def length(self) -> int:
        return len(self.log)


class _Quiet:
    """The arena's watch for a game that stalls (:data:`QUIET_ACTIONS`)."""

    def __init__(self, game: Game, state) -> None:
        self.game = game
        self.seen = [{t} for t in self.totals(state)]
        self.run = self.longest = 0

    def totals(self, state) -> list[int]:
        return [s.total for s in self.game.result(state).scores]

    def stalled(self, state) -> bool:
        """Note the state after an action: whether the game has stalled."""
        fresh = False
        for seen, total in zip(self.seen, self.totals(state)):
            fresh = fresh or total not in seen
            seen.add(total)
        self.run = 0 if fresh else self.run + 1
        self.longest = max(self.longest, self.run)
        return self.run >= QUIET_ACTIONS


def play(game: Game, match: Match, clock: Clock | None = None,
         watch: Callable[[Any], None] | None = None,
         step: Callable[[Any, Any, int, Action], None] | None = None) -> GameRecord:
    """Play ``match`` to its end (or the arena's bound). ``clock`` (e.g.
    ``time.perf_counter``) times each decision; ``watch`` sees every state,
    the first included (a test's ``game.check``); ``step`` sees every
    action applied, as ``(before, after, seat, action)`` (a balance
    report's :meth:`~engine.core.Game.card_uses`)."""
    state = game.setup(match.players, match.seed, match.options)
    order = arena_rng(match.seed)
    decisions = [0] * match.players
    log: list[tuple[int, Action]] = []
    times: list[tuple[int, float]] = []
    quiet = _Quiet(game, state)
    stopped = None
    if watch:
        watch(state)
    while not game.is_over(state):
        seat = next_mover(game, state, order)
        rng = decision_rng(match.seed, seat, decisions[seat])
        decisions[seat] += 1
        start = clock() if clock is not None else 0.0
        action = choose(game, state, seat, match.levels[seat], rng, match.budget, clock)
        if clock is not None and len(game.actions(state, seat)) > 1:  # asked only when timing, outside the time
            times.append((seat, clock() - start))
        before, state = state, game.apply(state, seat, action)
        if step:
            step(before, state, seat, action)
        log.append((seat, action))
        if watch:
            watch(state)
        if not game.is_over(state) and (quiet.stalled(state) or len(log) >= MAX_ACTIONS):
            stopped = (f"stopped by the arena after {len(log)} actions, {quiet.run} in a row with no score "
                       "reaching a new value (a bound of the arena, not a rule): ")
            if not game.ends_by_agreement:
                stopped += "the game offers no end by agreement, so it is ranked as it stands, unfinished"
                break
            stopped += "the bots agreed to end it"
            state = game.end_by_agreement(state)
            if watch:
                watch(state)
    result = game.result(state)
    return GameRecord(match=match, log=tuple(log), result=result.to_dict(), winners=tuple(result.winners),
                      scores=tuple(s.total for s in result.scores), final=game.to_dict(state), times=tuple(times),
                      stopped=stopped, quiet=quiet.longest, over=game.is_over(state))


def run_match(make_game: Callable[[], Game], match: Match, clock: Clock | None = None) -> GameRecord:
    """One match with the game built by ``make_game`` in this process: the
    unit of work a pool or a cluster is handed (everything in it pickles)."""
    return play(make_game(), match, clock)


def play_many(make_game: Callable[[], Game], matches: Iterable[Match], clock: Clock | None = None,
              map: Callable = map, progress: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Every match, through ``map`` (the built-in one, ``pool.imap``,
    ``executor.map``...), in the order given; ``progress`` sees each record
    as it comes back."""
    out = []
    for record in map(partial(run_match, make_game, clock=clock), list(matches)):
        out.append(record)
        if progress:
            progress(record)
    return out


def rotations(players: int, levels: Iterable[str], games: int, seed: int, options: Mapping[str, Any] | None = None,
              budget: Budget | None = None) -> list[Match]:
    """``games`` matches in which the listed levels (repeated round the
    table to fill it) move one seat on each game, so that every level sits
    in every seat as often: a report then tells a level's strength from the
    first player's advantage. Seeds are ``seed``, ``seed + 1``...

    >>> [m.levels for m in rotations(3, ["planner", "greedy"], 3, seed=1)]
    [('planner', 'greedy', 'planner'), ('planner', 'planner', 'greedy'), ('greedy', 'planner', 'planner')]
    """
    return [rotation(players, levels, k, seed, options, budget) for k in range(games)]


def rotation(players: int, levels: Iterable[str], k: int, seed: int, options: Mapping[str, Any] | None = None,
             budget: Budget | None = None) -> Match:
    """The ``k``-th match of :func:`rotations` (seed ``seed + k``), alone:
    for a caller that plays until it has seen enough."""
    listed = list(levels)
    if not listed:
        raise ValueError("name at least one bot level")
    seated = [listed[i % len(listed)] for i in range(players)]
    return Match(players, tuple(seated[(s - k) % players] for s in range(players)), seed + k, options,
                 budget or Budget())
