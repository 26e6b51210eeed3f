"""The two simple levels, ``random`` and ``greedy``, and the budget every
level reads; the third, ``planner``, builds on them (:mod:`engine.bots.planner`),
and :mod:`engine.bots.bot` names all three.

A bot of a seat decides from what that seat may see: it reads the legal
actions (``game.actions(state, seat)``, which a phone is offered too) and,
before it weighs them, replaces everything hidden from the seat with a
sample of its own (``game.resample_hidden``). Whatever it then reads of the
state it reads of that sample, never of the true hidden parts, so its
choice is the same whatever they are (``tests/engine/bots``).

>>> from engine.bots.examples import Nim
>>> game = Nim()
>>> state = game.setup(2, 1)
>>> play_greedy(game, state, 0, Rng(5), Budget())      # 7 left: take 3, leaving 4 for the other
{'type': 'take', 'n': 3}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.core import Action, Game
from engine.rng import Rng

Clock = Callable[[], float]
"""A clock lent by the caller (``time.perf_counter``): the engine never reads one itself."""


@dataclass(frozen=True)
class Budget:
    """How hard a bot thinks. Plain data, so it travels to a worker process."""

    iterations: int = 24
    """Planner: determinised futures searched per decision. The budget that
    counts: the same iterations give the same move on any machine."""
    seconds: float | None = None
    """Planner: stop early after this long (only with a clock; a move then
    depends on the machine's speed, though its log still replays exactly)."""
    depth: int | None = None
    """Planner: actions of a rollout before the game's evaluation cuts it
    short; ``None``: the game's own :attr:`~engine.core.Game.rollout_depth`."""
    rollout: str = "greedy"
    """Planner: how every seat plays in a rollout, ``random`` or ``greedy``."""
    sample: int = 12
    """Planner, greedy rollouts: each step weighs this many of the mover's
    actions, drawn at random (all of them when there are fewer), so that a
    step costs the same in every game, however long its lists."""
    width: int = 6
    """Planner: when a decision offers more actions, only greedy's best this
    many are searched (the others are greedy's judgement too)."""
    select: str = "halving"
    """Planner: how iterations are shared among the actions: ``halving``
    (sequential halving, every action tried in the same worlds) or ``ucb``
    (UCB1, a world of its own per iteration)."""
    exploration: float = 0.7
    """Planner, ``ucb``: UCB1's constant, on values scaled to the range seen so far."""

    def __post_init__(self) -> None:
        if self.iterations < 1 or (self.depth or 0) < 0 or self.width < 1 or self.sample < 1:
            raise ValueError("a budget needs an iteration, a width and a sample of at least 1, and no negative depth")
        if self.rollout not in ("random", "greedy"):
            raise ValueError(f"a rollout is random or greedy, not {self.rollout!r}")
        if self.select not in ("halving", "ucb"):
            raise ValueError(f"the planner's selection is halving or ucb, not {self.select!r}")


def next_mover(game: Game, state, rng: Rng) -> int:
    """Which of the seats free to move moves next (in a simultaneous phase):
    drawn, as at a table where nobody waits for a particular one, among those
    whose bot does not wait for another's answer (:meth:`Game.waits`). The
    arena and the planner's rollouts both play by it."""
    movers = game.to_move(state)
    if len(movers) > 1:
        ready = [m for m in movers if not game.waits(state, m)] or movers
        return ready[rng.below(len(ready))] if len(ready) > 1 else ready[0]
    return movers[0]


def play_random(game: Game, state, seat: int, rng: Rng, budget: Budget, clock: Clock | None = None) -> Action:
    """A uniform choice among the actions a bot weighs (:meth:`Game.proposals`:
    every legal action unless the game offers fewer, always from what the
    seat sees), so it needs no determinisation."""
    return rng.choice(weighed(game, state, seat))


def weighed(game: Game, state, seat: int) -> list[Action]:
    """The seat's proposals; a bot asked while it waits (the arena asks no
    such seat when another may move) takes any legal action."""
    return game.proposals(state, seat) or game.actions(state, seat)


def ranked(game: Game, state, seat: int, options: list[Action]) -> list[float]:
    """Each option's value by the game's evaluation, one step ahead."""
    return [game.evaluate(game.apply(state, seat, a), seat) for a in options]


def best(values: list[float], rng: Rng) -> int:
    """The index of the best value; equal values are drawn between at random."""
    top = max(values)
    tied = [i for i, v in enumerate(values) if v >= top - 1e-9]
    return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]


def play_greedy(game: Game, state, seat: int, rng: Rng, budget: Budget, clock: Clock | None = None) -> Action:
    """The action that scores best one step ahead by ``game.evaluate``, on
    one determinisation of what the seat cannot see."""
    options = weighed(game, state, seat)
    if len(options) == 1:
        return options[0]
    sample = game.resample_hidden(state, seat, rng.next64())
    return options[best(ranked(game, sample, seat, options), rng)]
