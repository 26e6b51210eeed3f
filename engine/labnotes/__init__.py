"""Lab Notes: draft element dice, notate compounds on a note sheet, claim notecards."""

from engine import register
from engine.labnotes.game import LabNotes

register(LabNotes)

__all__ = ["LabNotes"]
