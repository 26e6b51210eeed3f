"""From card data to print: load, validate, lay out, render, write.

    data (cardsdata/<game>)  ->  pieces (one SVG per face, templates/)
                             ->  sheets (imposition on A4 / Letter)
                             ->  PDF (reportlab) and loose SVG files

Each game is described by its ``game.yaml`` (what the box holds); the core
here knows kinds of component (deck, sheet, dice, token, ...), never games.
"""
