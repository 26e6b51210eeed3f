"""The chain search's bound on work (``chain_search.WORK``) holds for the
tables bots build: a four-player game of greedy bots that value the
Molecular Chain card (the balance report's match 224 of seed 1) reached a
volume table whose best linking took more than the old bound of 20,000
steps to prove, and the report stopped on ``SearchTooLong``."""

from engine.bots.balance import match_of, play_for_report
from labkit import registry
from labkit.balance import SetSource
from labkit.cardsets import cardset


def test_a_greedy_four_player_game_that_built_a_long_chain_search_is_scored():
    source = SetSource.of(cardset(registry.find("synthesis")))
    match = match_of(224, [2, 3, 4], ["greedy"], 1)
    assert match.players == 4
    game = play_for_report(source, match, 224)
    assert len(game["scores"]) == 4 and game["winners"]
