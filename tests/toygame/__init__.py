"""Toy Race: a small game from a package outside the core, registered
through its descriptor alone (``LABKIT_GAMES=tests.toygame:GAME``, or
``labkit.registry.register(GAME)`` in a test). It proves what
docs/design/adding-a-game.md says: a game is folders, and no core module
names it."""

from engine.descriptor import GameDescriptor
from tests.toygame.cards import FILES, parse
from tests.toygame.game import ToyRace


def _workloads(game):
    def one_rule_check() -> int:
        state = game.setup(2, 1)
        for seat in (0, 1):
            state = game.apply(state, seat, {"type": "bet", "guess": "high"})
        return 1

    return {"a round of bets, rounds": one_rule_check}


GAME = GameDescriptor(
    name="toyrace",
    game=ToyRace,
    card_files=FILES,
    parse_cards=parse,
    data="tests.toygame.data",
    templates="tests.toygame.templates",
    workloads=_workloads,
)
