"""``labkit play``: bot-only games from the command line, with their tables,
and refusals in plain words."""

from __future__ import annotations

from click.testing import CliRunner

from labkit.cli import main


def run(*args: str):
    return CliRunner().invoke(main, ["play", *args], catch_exceptions=False, env={"COLUMNS": "200"})


def test_it_prints_wins_by_level_and_seat_scores_and_lengths():
    out = run("labnotes", "--bots", "random,greedy", "--games", "2", "--seed", "4")
    assert out.exit_code == 0, out.output
    for words in ("Lab Notes: 2 bot games, 2 players", "Wins by seat", "Game length", "Time per decision",
                  "random", "greedy"):
        assert words in out.output


def test_players_default_to_the_bots_listed_and_levels_fill_a_larger_table():
    out = run("compounded", "--bots", "greedy", "--players", "3", "--games", "1")
    assert out.exit_code == 0, out.output
    assert "3 players" in out.output


def test_a_setup_option_and_a_budget_reach_the_games():
    out = run("synthesis", "--bots", "planner", "--games", "1", "--budget", "1", "--option", "mode=first_steps")
    assert out.exit_code == 0, out.output
    assert "1 player" in out.output and "planner" in out.output


def test_it_refuses_in_plain_words():
    assert "is none" in run("labnotes", "--bots", "greedy,genius").output
    refused = run("organicsoup", "--players", "9")
    assert refused.exit_code == 1 and "for 2 to 4 players, not 9" in refused.output
    refused = run("labnotes", "--option", "colour=red")
    assert refused.exit_code == 1 and "no setup option 'colour'" in refused.output
