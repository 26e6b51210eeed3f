"""The rules of the games: pure Python, no I/O, no Flask, no drawing.

Shared here: the contract every game implements (:mod:`engine.core`), the
record a game gives the house about itself (:mod:`engine.descriptor`), card
data reading (:mod:`engine.data`), the seeded generator (:mod:`engine.rng`),
chemistry and molecule layouts (:mod:`engine.chem`, :mod:`engine.molecules`)
and hexagonal lattices (:mod:`engine.hexgrid`). Each game is a package of its
own, ``engine/<game>/``; the registry of games lives outside the engine, in
:mod:`labkit.registry`, because finding them reads packaging metadata.
"""
