"""Lab Notes: draft element dice, notate compounds on a note sheet, claim notecards.

The game's record for the house (docs/design/adding-a-game.md).
"""

from engine.descriptor import GameDescriptor
from engine.labnotes.columns import COLUMNS
from engine.labnotes.cards import FILES, parse
from engine.labnotes.game import LabNotes
from engine.labnotes.paper import SCORE_SHEET
from engine.labnotes.workloads import workloads

GAME = GameDescriptor(
    name="labnotes",
    game=LabNotes,
    card_files=FILES,
    columns=COLUMNS,
    parse_cards=parse,
    data="cardsdata.labnotes",
    templates="templates.labnotes",
    paper=(SCORE_SHEET,),
    companion="companion.games.labnotes",
    reader="reader.games.labnotes",
    workloads=workloads,
)

__all__ = ["GAME", "LabNotes"]
