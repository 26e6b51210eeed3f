"""How things look: SVG templates per game, HTML for the companion. Not code:
this file only lets the folder ship inside the installed package."""
