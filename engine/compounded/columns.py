"""What each column of Compounded's card files does in play and in print
(``GameDescriptor.columns``; ``labkit validate`` reads it, docs/authoring.md
explains it). A tool's or a reaction's effect is played by its id, so its
``text`` (and a tool's ``phase``) is the rule in words; so are the numbers
of pieces the setup puts where, which the rules take from the Study track."""

from engine.columns import LAYOUT, MANIFEST_COLUMNS, RULES, TEXT, WORDS, Column

COMPOUND = {"id": RULES, "kind": RULES, "name": TEXT, "smiles": RULES, "formula": TEXT, "melts_c": RULES,
            "boils_c": RULES, "nfpa_fire": RULES, "points": RULES, "reward": RULES, "fact": TEXT}

COLUMNS = {
    "compounds.csv": COMPOUND,
    "lab_partners.csv": COMPOUND,
    "tools.csv": {"id": RULES, "name": TEXT, "count": RULES, "phase": Column(WORDS), "text": Column(WORDS)},
    "reactions.csv": {"id": RULES, "name": TEXT, "text": Column(WORDS)},
    "workbench.yaml": {"evaporating_dish": Column(WORDS), "tracks[id].name": TEXT, "tracks[id].colour": TEXT,
                       "tracks[id].state": RULES, "tracks[id].unlocks": Column(WORDS, ("tracks[id].levels",)),
                       "tracks[id].levels": RULES, "tracks[id].top_points": RULES, "tracks[id].journal_at": RULES,
                       "tracks[id].advance_points": RULES, "distribution_reminder": LAYOUT},
    "table.yaml": {"elements[symbol].name": TEXT, "elements[symbol].gem": TEXT, "elements[symbol].count": RULES,
                   "scientists.colours": TEXT, "scientists.pieces": TEXT,
                   "scientists.track_pieces": Column(WORDS), "scientists.claim_tokens": Column(WORDS),
                   "scientists.score_markers": Column(WORDS), "scientists.claim_reserve": Column(WORDS),
                   "flame_tokens": RULES, "scoreboard.score_spaces": TEXT, "scoreboard.end_at": RULES,
                   "scoreboard.refresh_spaces": RULES, "scoreboard.claim_reserve_spaces": LAYOUT,
                   "scoreboard.flame_token_space": LAYOUT, "scoreboard.deck_space": LAYOUT,
                   "lead_tray.name": TEXT, "lead_tray.text": Column(WORDS), "trade_dish.name": TEXT,
                   "trade_dish.two_player": RULES, "trade_dish.no_trade_extra": RULES,
                   "trade_dish.three_of_a_kind": RULES, "grids": RULES, "lab_partners": RULES,
                   "reminder_cards.count": TEXT, "reminder_cards.title": TEXT, "reminder_cards.lines": Column(WORDS)},
    "game.yaml": MANIFEST_COLUMNS,
}
