"""The games' card data as shipped: one folder per game (decks as CSV, sheets,
boards and dice as YAML). Not code: this file only lets the folder ship
inside the installed package so that ``labkit`` finds it anywhere."""
