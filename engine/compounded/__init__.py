"""Compounded: draw element gems, claim compounds, complete them, survive the Lab Fires."""

from engine.compounded.cards import FILES, parse
from engine.compounded.game import Compounded
from engine.compounded.workloads import workloads
from engine.descriptor import GameDescriptor
from engine.compounded.columns import COLUMNS

GAME = GameDescriptor(
    name="compounded",
    game=Compounded,
    card_files=FILES,
    columns=COLUMNS,
    parse_cards=parse,
    data="cardsdata.compounded",
    templates="templates.compounded",
    companion="companion.games.compounded",
    workloads=workloads,
)

__all__ = ["Compounded", "GAME"]
