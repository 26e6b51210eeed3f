"""What each column of Synthesis' card files does in play and in print
(``GameDescriptor.columns``; ``labkit validate`` reads it, docs/authoring.md
explains it). A goal card's rule is its data (``rule``, ``points``, ``group``,
``shape``); its ``text`` says that rule in words, which the rules do not
read: it must stay as the game's own while the columns it describes do."""

from engine.columns import LAYOUT, MANIFEST_COLUMNS, RULES, TEXT, WORDS, Column

PATTERN_RULE = ("rule", "points", "maximum", "group")

COLUMNS = {
    "patterns.csv": {"id": RULES, "name": TEXT, "rule": RULES, "points": RULES, "maximum": RULES, "green": RULES,
                     "yellow": RULES, "red": RULES, "group": RULES, "text": Column(WORDS, PATTERN_RULE),
                     "example": Column(WORDS, PATTERN_RULE)},
    "chains.yaml": {"cards[id].name": TEXT, "cards[id].points": RULES, "cards[id].maximum": RULES,
                    "cards[id].green": RULES, "cards[id].yellow": RULES, "cards[id].red": RULES,
                    "cards[id].shape": RULES, "cards[id].text": Column(WORDS, ("cards[id].shape",))},
    "projects.yaml": {"cards": RULES},
    "boards.yaml": {"layouts": RULES},
    "dice.yaml": {"bond_die[id].name": TEXT, "bond_die[id].lines": RULES, "mutation_die[id].name": TEXT,
                  "mutation_die[id].kind": RULES, "mutation_die[id].text": Column(WORDS)},
    "rules.yaml": {"turns": RULES, "colours[id].letter": RULES, "colours[id].ink": TEXT, "disc": RULES,
                   "chain_points": RULES, "elemental_points": RULES, "line_points": RULES,
                   "elemental_shapes": RULES, "score_boxes[key].label": TEXT},
    "game.yaml": MANIFEST_COLUMNS,
}
