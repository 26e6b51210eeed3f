"""Starting the Game, rule by rule. Each test quotes the rulebook
(../shared/rules/organic-soup.md) or names a numbered reading of
docs/design/organicsoup.md."""

from __future__ import annotations

import pytest

from engine.organicsoup.setup import first_player


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(game, players):
    """Design reading 1: two to four players (four turn sequence cards, and a
    reaction may take from "one other player")."""
    with pytest.raises(ValueError, match="2 to 4 players"):
        game.setup(players, 1)


def test_spill_the_soup(game, cards):
    """Spill the soup: "Shuffle the atom cards. Draw and place twelve atom
    cards faceup in the middle of the playing surface to form the "soup."
    Leave the remaining atoms facedown in a draw deck beside the soup." """
    s = game.setup(3, 11)
    assert len(s.soup) == 12 and len(s.atoms) == 114 - 12
    assert sorted(s.soup + s.atoms) == sorted("C" * 27 + "H" * 42 + "N" * 18 + "O" * 27)
    assert game.setup(3, 12).atoms != s.atoms  # shuffled by the seed
    assert game.setup(3, 11).atoms == s.atoms


def test_basic_recipes_available_to_all_at_start(game):
    """Basic recipes available to all at start: "Place the four basic recipe
    cards faceup separately in the middle of the playing surface"."""
    s = game.setup(2, 1)
    assert s.middle == ["graphite", "hydrogen", "nitrogen", "oxygen"]
    assert all(not seat.recipes and not seat.molecules for seat in s.seats)


def test_start_with_one_of_each_type_of_recipe(game, cards):
    """Start with one of each type of recipe: "Each player takes his simple
    recipe into his hand ... Each player draws a complex recipe and an
    amino/nucleic recipe for a total hand of three recipes." The rest are
    three face-down draw decks."""
    for players in (2, 3, 4):
        s = game.setup(players, players)
        for i, seat in enumerate(s.seats):
            assert [cards.recipe(r).level for r in seat.hand] == ["simple", "complex", "amino"]
            assert seat.hand[0] == s.dealt[i]
        assert {level: len(deck) for level, deck in s.decks.items()} == {
            "simple": 20 - players, "complex": 20 - players, "amino": 20 - players}


def test_determine_a_starting_player(game, cards):
    """Determine a starting player: "deal one simple recipe card to each
    player faceup. The player with the recipe ranked first alphabetically
    goes first." (Design reading 16: the printed names, ignoring case.)"""
    for seed in range(20):
        s = game.setup(4, seed)
        names = [cards.recipe(r).name for r in s.dealt]
        assert s.first == s.turn == names.index(min(names, key=str.casefold))
    assert first_player(cards, ["water", "carbon-suboxide", "ozone"]) == 1


def test_the_first_player_is_public_and_so_is_the_deal(game):
    """The simple recipes are dealt "faceup": every seat sees them, and sees
    them in the others' hands until they leave (design reading 13)."""
    s = game.setup(3, 5)
    view = game.view(s, 1)
    assert view["dealt"] == s.dealt and view["first"] == s.first
    assert [seat["known"] for seat in view["seats"]] == s.dealt
    assert view["seats"][0]["hand"] is None and view["seats"][1]["hand"] == s.seats[1].hand
