"""Synthesis' bots value the Molecular Chain card before the end
(``engine/synthesis/evaluate.py``, ``chain_card``): evaluation, not a rule.
The old evaluation left the card to the end, so a greedy bot never played
for it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.synthesis.evaluate import NEAR_FIND, chain_card
from engine.synthesis.game import Synthesis
from engine.synthesis.table import TableShape
from labkit.cardsets import NamedGame

TABLE = TableShape((3, 3, 3, 3))


@pytest.fixture(scope="module")
def game():
    return NamedGame("synthesis")()


def test_a_chain_card_counts_finds_and_places_a_molecule_short(game):
    """Triplet (three in a row, 5 points a find): a red row of three is a
    find; two reds and an empty cell most of the way to one; two colours none."""
    per = game.cards.chains["triplet"].row.points
    assert chain_card(game, TABLE, TABLE.colours(["r", "r", "r", ""]), "triplet") == per
    assert chain_card(game, TABLE, TABLE.colours(["r", "r", "", ""]), "triplet") == pytest.approx(NEAR_FIND * per)
    assert chain_card(game, TABLE, TABLE.colours(["r", "y", "r", "y"]), "triplet") == 0.0
    # finds keep to their own molecules: two rows of three reds are two finds, not the four places in them
    assert chain_card(game, TABLE, TABLE.colours(["rr", "rr", "rr", ""]), "triplet") == 2 * per


def test_the_cards_data_decide_the_worth(game):
    """The card's own points and maximum, read from the set: a Triplet worth
    9 a find up to 9 counts one find of two."""
    row = game.cards.chains["triplet"].row.model_copy(update={"points": 9, "maximum": 9})
    chains = dict(game.cards.chains, triplet=replace(game.cards.chains["triplet"], row=row))
    changed = Synthesis(replace(game.cards, chains=chains))
    assert chain_card(changed, TABLE, TABLE.colours(["rr", "rr", "rr", ""]), "triplet") == 9
