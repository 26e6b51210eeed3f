"""Ending the Game: create life (tested with the reactions), or the atom
deck runs out and the most building blocks win."""

from __future__ import annotations

import pytest

from tests.engine.organicsoup.conftest import at, build


def deck_of(game, s, deck: str):
    """Leave exactly ``deck`` in the atom deck; every other deck atom goes in
    front of the last player as basic molecules."""
    rest = list(s.atoms)
    for a in deck:
        rest.remove(a)
    counts = {e: rest.count(e) for e in "CHNO"}
    assert all(counts[e] % 2 == 0 for e in "HNO"), "pick a deck that leaves pairs"
    s.atoms = deck
    s.seats[-1].molecules = {k: v for k, v in {"graphite": counts["C"], "hydrogen": counts["H"] // 2,
                                               "nitrogen": counts["N"] // 2, "oxygen": counts["O"] // 2}.items() if v}
    game.check(s)
    return s


def test_the_game_ends_as_soon_as_the_atom_deck_is_depleted(game):
    """Or, have the most building blocks: "As soon as the atom draw deck is
    depleted, the game ends." Design reading 14: at the refill that draws
    the last atom, even when it fills the soup, and before the end-of-turn draw."""
    s = deck_of(game, at("?water ?propane ?glycine | ; soup=CCHHHHNNOOOO"), "OHHC")
    after = game.apply(s, 0, build("hydrogen", 2))   # four atoms from the soup: the refill takes the last four
    assert after.atoms == "" and len(after.soup) == 12
    assert game.is_over(after) and after.phase == "over" and after.winner is None
    assert after.seats[0].hand == ["water", "propane", "glycine"]  # no end-of-turn draw or swap
    assert game.actions(after, 0) == [] and game.to_move(after) == []


def test_a_short_refill_also_ends_the_game(game):
    s = deck_of(game, at("| ; soup=CCHHHHNNOOOO"), "O")
    after = game.apply(s, 0, build("hydrogen", 2))
    assert game.is_over(after) and len(after.soup) == 9
    game.check(after)


@pytest.mark.parametrize("text,winners", [
    ("+propane +water | +ethanol +methane +oxygen", (1,)),           # a tie on complex and simple; basic decides
    ("+propane | +water +methane +ammonia +oxygen", (0,)),           # one complex beats any number of simple
    ("+propane +water +oxygen | +ethanol +methane +hydrogen", (0, 1)),  # a tie all the way: both win
    ("+water +methane | +ozone | +propane +graphite", (2,)),
])
def test_the_most_building_blocks_win(game, text, winners):
    """"The player with strictly the most complex recipes in front of him wins
    the game. If there is a tie for most complex recipes, the tying player
    with strictly the most simple recipes in front of him wins. If there is
    still a tie, the tying player with the most basic recipes in front of him
    wins." Design reading 12: a tie all the way is shared."""
    result = game.result(at(text))
    assert result.winners == winners
    for score in result.scores:
        assert score.total == sum(line.points for line in score.lines)
        assert set(score.details["recipes"]) == {"basic", "simple", "complex", "amino"}


def test_recipe_counts_behind_the_totals(game):
    score = game.result(at("+propane +ethanol +water +oxygen +hydrogen | ")).scores[0]
    assert score.details["recipes"] == {"basic": 2, "simple": 1, "complex": 2, "amino": 0}
    assert [(line.key, line.points) for line in score.lines] == [
        ("life", 0), ("complex", 20000), ("simple", 100), ("basic", 2)]
