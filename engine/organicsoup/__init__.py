"""Organic Soup: build molecules from a soup of atoms, react them up from
basic to simple to complex recipes, and create life with an amino acid or a
nucleobase. The rulebook: ``../shared/rules/organic-soup.md``; the readings
of what it leaves open and why the cards are what they are:
``docs/design/organicsoup.md``; the action vocabulary:
:mod:`engine.organicsoup.game`.

The game's record for the house (docs/design/adding-a-game.md).
"""

from engine.descriptor import GameDescriptor
from engine.organicsoup.columns import COLUMNS
from engine.organicsoup.cards import FILES, parse
from engine.organicsoup.game import OrganicSoup
from engine.organicsoup.paper import CHECK_REACTION
from engine.organicsoup.workloads import workloads

GAME = GameDescriptor(
    name="organicsoup",
    game=OrganicSoup,
    card_files=FILES,
    columns=COLUMNS,
    parse_cards=parse,
    data="cardsdata.organicsoup",
    templates="templates.organicsoup",
    paper=(CHECK_REACTION,),
    companion="companion.games.organicsoup",
    workloads=workloads,
)

__all__ = ["GAME", "OrganicSoup"]
