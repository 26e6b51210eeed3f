"""A small card set for the ``>>>`` examples in these modules.

The engine reads no files, so its examples cannot open
``cardsdata/organicsoup``; they use this set instead: the rulebook's atom
deck and a dozen of its recipes, the ones its examples name, with the same
ids, SMILES and formulas (a test checks each against the rulebook's set). It goes
through :func:`~engine.organicsoup.cards.parse` like any other card set,
with smaller decks.

>>> cards = example_cards()
>>> [r.name for r in cards.level("complex")]
['Propane', 'Propionitrile', 'Ethanol']
>>> cards.recipe("glutamic-acid").formula
'C5H9NO4'
"""

from __future__ import annotations

from functools import lru_cache

from engine.data import CardFiles
from engine.organicsoup.cards import OrganicSoupCards, parse

ATOMS = """element,count
C,27
H,42
N,18
O,27
"""

RECIPES = """id,level,name,smiles,formula
graphite,basic,Graphite,[C],C
hydrogen,basic,Hydrogen,[H][H],H2
nitrogen,basic,Nitrogen,N#N,N2
oxygen,basic,Oxygen,O=O,O2
water,simple,Water,O,H2O
carbon-suboxide,simple,Carbon Suboxide,O=C=C=C=O,C3O2
nitric-oxide,simple,Nitric Oxide,[N]=O,NO
ammonia,simple,Ammonia,N,NH3
methane,simple,Methane,C,CH4
carbon-dioxide,simple,Carbon Dioxide,O=C=O,CO2
propane,complex,Propane,CCC,C3H8
propionitrile,complex,Propionitrile,CCC#N,CH3CH2CN
ethanol,complex,Ethanol,CCO,C2H5OH
glutamic-acid,amino,Glutamic Acid,NC(CCC(=O)O)C(=O)O,C5H9NO4
glycine,amino,Glycine,NCC(=O)O,C2H5NO2
alanine,amino,Alanine,CC(N)C(=O)O,C3H7NO2
"""

TURN_SEQUENCE = """title: Turn Sequence
sections:
  - heading: Build molecules
    steps: [Build from one face-up recipe.]
  - heading: Trigger a reaction
    steps: [Use every atom of the ingredients.]
"""

SIZES = {"basic": 4, "simple": 6, "complex": 3, "amino": 3}


@lru_cache(maxsize=1)
def example_cards() -> OrganicSoupCards:
    files = CardFiles({"atoms.csv": ATOMS, "recipes.csv": RECIPES, "turn-sequence.yaml": TURN_SEQUENCE},
                      "examples")
    return parse(files, SIZES)
