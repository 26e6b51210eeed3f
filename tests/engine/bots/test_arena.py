"""Bot-only games at every level play to the end in every game, every state
keeps the game's invariants, and the log replays to the same final state."""

from __future__ import annotations

import pytest

from engine.bots import LEVELS
from engine.bots.arena import GameRecord, Match, play
from tests.engine.bots.conftest import SMALL, table_size


def checked_game(game, match: Match) -> tuple[GameRecord, object]:
    seen = []

    def watch(state):
        game.check(state)
        seen.append(state)

    record = play(game, match, watch=watch)
    return record, seen[-1]


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_bot_game_plays_to_the_end_and_replays_from_its_log(game, level):
    players = table_size(game)
    match = Match(players, (level,) * players, seed=11, budget=SMALL)
    record, final = checked_game(game, match)
    assert game.is_over(final) and record.over
    assert record.final == game.to_dict(final)
    replayed = game.replay(players, match.seed, match.options, record.log)
    if record.stopped and game.ends_by_agreement:  # the arena's bound ended it by agreement: so does the replay
        replayed = game.end_by_agreement(replayed)
    assert game.to_dict(replayed) == record.final
    result = game.result(final)
    assert record.winners == result.winners and record.scores == tuple(s.total for s in result.scores)
    assert record.length == len(record.log) > 0


def test_the_levels_meet_at_one_table(game):
    """Every level at the same table, each in a seat of its own."""
    players = min(game.max_players, 3)
    levels = tuple(list(LEVELS)[i % len(LEVELS)] for i in range(players))
    record, final = checked_game(game, Match(players, levels, seed=5, budget=SMALL))
    assert game.is_over(final) and set(record.match.levels) == set(levels)


def test_a_bot_game_is_a_function_of_its_match(game):
    players = table_size(game)
    match = Match(players, ("greedy",) * players, seed=3)
    first, again = play(game, match), play(game, match)
    assert first.log == again.log and first.final == again.final


def test_a_game_that_stalls_is_stopped_by_the_arena_and_says_so(game, monkeypatch):
    """The arena's bound (a bound, not a rule): no score reaching a new
    value for QUIET_ACTIONS actions stops the game, by agreement where the
    game offers one, else unfinished; the log still replays."""
    import engine.bots.arena as arena

    monkeypatch.setattr(arena, "QUIET_ACTIONS", 3)
    players = table_size(game)
    record, final = checked_game(game, Match(players, ("random",) * players, seed=1))
    if record.stopped is None:  # every action of this game moved a score: nothing to stop
        assert game.is_over(final) and record.quiet < 3
        return
    assert "a bound of the arena, not a rule" in record.stopped and record.quiet == 3
    assert record.over == game.ends_by_agreement == game.is_over(final)
    replayed = game.replay(players, 1, None, record.log)
    if game.ends_by_agreement:
        replayed = game.end_by_agreement(replayed)
    assert game.to_dict(replayed) == record.final


def test_a_solo_game_is_played_where_the_box_allows(game):
    if game.min_players > 1:
        pytest.skip(f"{game.title} is for {game.min_players} or more")
    for level in LEVELS:
        record, final = checked_game(game, Match(1, (level,), seed=2, budget=SMALL))
        assert game.is_over(final) and len(record.scores) == 1
