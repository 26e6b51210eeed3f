"""What each column of Lab Notes' card files does in play and in print
(``GameDescriptor.columns``; ``labkit validate`` reads it, docs/authoring.md
explains it): the rules read a column, or it is printed only, or it is a
rule in words the rules do not read (a tool's ability is played by its id)."""

from engine.columns import LAYOUT, MANIFEST_COLUMNS, RULES, TEXT, WORDS, Column

COLUMNS = {
    "tools.csv": {"id": RULES, "name": TEXT, "state": RULES, "compound": TEXT, "formula": TEXT,
                  "structure": RULES, "icons": RULES, "ability": Column(WORDS), "first_game": RULES,
                  "copies": TEXT},
    "notecards.csv": {"id": RULES, "kind": RULES, "name": TEXT, "formula": TEXT, "structure": RULES, "fact": TEXT},
    "dice.yaml": {"dice": RULES, "per_players": RULES, "face_mm": LAYOUT},
    "sheet.yaml": {"field": RULES, "trash_cans": RULES, "tools_track": RULES, "notecard_boxes": RULES},
    "game.yaml": MANIFEST_COLUMNS,
}
