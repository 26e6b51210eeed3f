"""What each column of Organic Soup's card files does in play and in print
(``GameDescriptor.columns``; ``labkit validate`` reads it, docs/authoring.md
explains it). A recipe's printed name is read by the rules too: the first
player is the one whose recipe comes first in the alphabet."""

from engine.columns import MANIFEST_COLUMNS, RULES, TEXT, WORDS, Column

COLUMNS = {
    "atoms.csv": {"element": RULES, "count": RULES, "fact": TEXT},
    "recipes.csv": {"id": RULES, "level": RULES, "name": RULES, "smiles": RULES, "formula": TEXT, "fact": TEXT},
    "turn-sequence.yaml": {"title": TEXT, "copies": TEXT, "intro": Column(WORDS), "sections": Column(WORDS)},
    "game.yaml": MANIFEST_COLUMNS,
}
