"""The ``planner`` level: flat Monte-Carlo search over determinised futures.

A future deals the hidden parts afresh (``resample_hidden`` from what the
seat sees, so it never plans over the true ones), plays one of the seat's
actions, lets every seat play on for :attr:`~engine.bots.levels.Budget.depth`
actions (by default the game's own ``rollout_depth``) by the rollout
policy (greedy, each step weighing a few of the mover's proposals), and
scores the state reached with the game's evaluation. The iterations are shared among the actions by sequential
halving: each round plays every action still in in the same new worlds
(the same deal, dice and tie-breaks: their difference is the actions', not
the luck's), and the better half goes on; the last one standing is played.
UCB1 with a world per iteration is kept as ``Budget(select="ucb")``: on
the same budget it did less against greedy (``docs/design/bots.md``).

This is the information-set idea of OpenSpiel's ISMCTS kept to one level
of tree: the seat's later choices and the other seats' are left to the
rollouts, which keeps a decision's cost a known multiple of its iterations
(the bench measures it) and needs nothing of a game but the contract.
When a decision offers more actions than the budget's ``width``, greedy's
best are searched and the rest left out: the iterations go where they can
change the choice.

>>> from engine.bots.examples import Nim
>>> from engine.bots.levels import Budget
>>> from engine.rng import Rng
>>> game = Nim()
>>> plan(game, game.setup(2, 1, {"heap": 6}), 0, Rng(1), Budget(iterations=60, depth=0))   # leave 4
{'type': 'take', 'n': 2}
"""

from __future__ import annotations

import math

from engine.bots.levels import Budget, Clock, weighed, best, next_mover, ranked
from engine.core import Action, Game
from engine.rng import Rng


def rollout(game: Game, state, seat: int, rng: Rng, budget: Budget):
    """Play on from ``state`` for ``budget.depth`` actions (the game's
    :attr:`~engine.core.Game.rollout_depth` unless the budget says); returns
    ``seat``'s evaluation of where it ends. The seat to act among several is
    drawn, as at a table where nobody waits for a particular one."""
    for _ in range(game.rollout_depth if budget.depth is None else budget.depth):
        if game.is_over(state):
            break
        mover = next_mover(game, state, rng)
        if budget.rollout == "greedy":
            options = weighed(game, state, mover)
            if len(options) > budget.sample:
                options = _some(options, budget.sample, rng)
            pick = options[best(ranked(game, state, mover, options), rng)] if len(options) > 1 else options[0]
        else:
            pick = rng.choice(game.actions(state, mover))
        state = game.apply(state, mover, pick)
    return game.evaluate(state, seat)


def _some(options: list[Action], k: int, rng: Rng) -> list[Action]:
    """``k`` of the options drawn at random (a partial shuffle), in their order."""
    index = list(range(len(options)))
    for i in range(k):
        j = i + rng.below(len(index) - i)
        index[i], index[j] = index[j], index[i]
    return [options[i] for i in sorted(index[:k])]


def candidates(game: Game, sample, seat: int, options: list[Action], rng: Rng, width: int) -> list[Action]:
    """The actions worth searching, best first by greedy's one step ahead
    (equal values in a random order): greedy's best ``width``. The order
    matters: a tie between futures goes to the one greedy prefers."""
    values = ranked(game, sample, seat, options)
    order = sorted(range(len(options)), key=lambda i: (-values[i], rng.next64()))
    return [options[i] for i in order[:width]]


def plan(game: Game, state, seat: int, rng: Rng, budget: Budget, clock: Clock | None = None) -> Action:
    """The planner's action for ``seat`` in ``state`` (see the module's words)."""
    options = weighed(game, state, seat)
    if len(options) == 1:
        return options[0]
    started = clock() if clock is not None and budget.seconds is not None else None

    def out_of_time() -> bool:
        return started is not None and clock() - started >= budget.seconds  # type: ignore[misc, operator]

    sample = game.resample_hidden(state, seat, rng.next64())
    options = candidates(game, sample, seat, options, rng, budget.width)
    if budget.select == "ucb":
        return options[_ucb(game, sample, seat, options, rng, budget, out_of_time)]
    return options[_halving(game, sample, seat, options, rng, budget, out_of_time)]


def _future(game: Game, sample, seat: int, action: Action, world: int, budget: Budget) -> float:
    """One determinised future of ``action``: the world ``world`` deals the
    hidden parts and drives the rollout, so two actions tried in the same
    world meet the same cards, dice and tie-breaks (common random numbers:
    their difference is the actions', not the luck's)."""
    worlds = Rng(world)
    here = game.resample_hidden(sample, seat, worlds.next64())
    return rollout(game, game.apply(here, seat, action), seat, worlds, budget)


def _halving(game: Game, sample, seat: int, options: list[Action], rng: Rng, budget: Budget, out_of_time) -> int:
    """Sequential halving: the budget split over rounds; in each round every
    action still in is tried in the same new worlds, and the better half
    goes on. Never more futures than the budget: with fewer iterations than
    actions, only greedy's best that many are tried (``options`` is in
    greedy's order), and a round the budget cannot give one future each
    is not played. Returns the index of the last one standing."""
    alive = list(range(min(len(options), budget.iterations)))
    totals = [0.0] * len(options)
    tries = [0] * len(options)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    left = budget.iterations
    for r in range(rounds):
        per = (left // (rounds - r)) // len(alive)
        if per == 0 or len(alive) == 1:
            break
        for _ in range(per):
            if out_of_time():
                break
            world = rng.next64()
            for i in alive:
                totals[i] += _future(game, sample, seat, options[i], world, budget)
                tries[i] += 1
            left -= len(alive)
        alive.sort(key=lambda i: (-totals[i] / max(tries[i], 1), i))
        alive = alive[:max(1, math.ceil(len(alive) / 2))]
        if out_of_time():
            break
    return alive[0]


def _ucb(game: Game, sample, seat: int, options: list[Action], rng: Rng, budget: Budget, out_of_time) -> int:
    """UCB1 over the actions, a new world each iteration; the best mean wins."""
    visits = [0] * len(options)
    totals = [0.0] * len(options)
    low, high = math.inf, -math.inf
    for it in range(budget.iterations):
        if out_of_time():
            break
        i = _select(visits, totals, it, low, high, budget.exploration, rng)
        value = _future(game, sample, seat, options[i], rng.next64(), budget)
        visits[i] += 1
        totals[i] += value
        low, high = min(low, value), max(high, value)
    means = [totals[i] / visits[i] if visits[i] else -math.inf for i in range(len(options))]
    top = max(means)
    tied = [i for i, m in enumerate(means) if m >= top - 1e-9]
    # equal means: the one searched most (its mean is the surest), then the first
    return max(tied, key=lambda i: (visits[i], -i))


def _select(visits: list[int], totals: list[float], it: int, low: float, high: float, c: float, rng: Rng) -> int:
    """UCB1 over the actions, each tried once first (in a random order, so
    a short budget does not always favour the first listed)."""
    untried = [i for i, n in enumerate(visits) if n == 0]
    if untried:
        return untried[rng.below(len(untried))]
    spread = (high - low) or 1.0
    log_n = math.log(it)
    scores = [(totals[i] / visits[i] - low) / spread + c * math.sqrt(log_n / visits[i]) for i in range(len(visits))]
    return max(range(len(scores)), key=scores.__getitem__)
