"""Synthesis: The Molecular Journey. Draw the rolled bond on a honeycomb
formula, close hexagons into molecules, chain them in the volume table.

The game's record for the house (docs/design/adding-a-game.md).
"""

from engine.descriptor import GameDescriptor
from engine.synthesis.columns import COLUMNS
from engine.synthesis.cards import FILES, parse
from engine.synthesis.game import Synthesis
from engine.synthesis.paper import SCORE_TABLE
from engine.synthesis.workloads import workloads

GAME = GameDescriptor(
    name="synthesis",
    game=Synthesis,
    card_files=FILES,
    columns=COLUMNS,
    parse_cards=parse,
    data="cardsdata.synthesis",
    templates="templates.synthesis",
    paper=(SCORE_TABLE,),
    companion="companion.games.synthesis",
    reader="reader.games.synthesis",
    workloads=workloads,
)

__all__ = ["GAME", "Synthesis"]
