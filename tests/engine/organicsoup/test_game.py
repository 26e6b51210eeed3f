"""The game contract (engine/core.py) for Organic Soup, before the shared
conformance suite runs over it: random playouts to the end, every offered
action legal, JSON round trips that validate, replay equals the live state,
and views that show no secret."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import IllegalAction, InvalidState
from tests.engine.organicsoup.conftest import at, climber, playout, uniform


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_end_with_a_consistent_result(game, players):
    for seed in range(3):
        state, log = playout(game, players, seed * 10 + players)
        game.check(state)
        assert game.is_over(state) and game.to_move(state) == []
        assert all(game.actions(state, s) == [] for s in range(players))
        result = game.result(state)
        best = max(s.total for s in result.scores)
        assert result.winners == tuple(s.seat for s in result.scores if s.total == best)
        assert all(s.total == sum(line.points for line in s.lines) for s in result.scores)
        json.dumps(result.to_dict())


def test_random_playouts_reach_reactions_and_life(game):
    """The offered reactions let a random player react; a player who climbs
    the levels can create life (design doc, Cards: the deck can be won)."""
    kinds = set()
    for seed in range(4):
        _, log = playout(game, 3, seed)
        kinds |= {a["type"] for _, a in log}
    assert {"build", "react", "swap", "keep"} <= kinds
    lives = [playout(game, 2 + seed % 3, seed, climber)[0].life for seed in range(12)]
    assert sum(life is not None for life in lives) >= 3


def test_every_offered_action_is_legal_and_others_are_refused_without_change(game):
    rng = random.Random(3)
    state = game.setup(3, 3)
    for _ in range(120):
        if game.is_over(state):
            break
        before = game.to_dict(state)
        seat = game.to_move(state)[0]
        actions = game.actions(state, seat)
        for action in actions:
            game.apply(state, seat, action)  # never raises
        for other in range(3):
            if other != seat:
                assert game.actions(state, other) == []
                with pytest.raises(IllegalAction, match="It is not your turn"):
                    game.apply(state, other, actions[0])
        for bad in ({"type": "no-such-action"}, {"type": 3}, {}, {"type": "keep", "extra": 1}):
            with pytest.raises(IllegalAction):
                game.apply(state, seat, bad)
        assert game.to_dict(state) == before
        state = game.apply(state, seat, rng.choice(actions))


def test_offered_reactions_are_few_and_concrete(game, cards):
    """A reaction cannot be listed in full: a bounded handful is offered."""
    from engine.organicsoup.offers import MAX_PROPOSALS
    state = at("water*3 hydrogen*4 oxygen*2 nitrogen*2 graphite*3 +water +hydrogen ?ammonia ?propane ?glycine | "
               "nitrogen*2 methane +methane")
    reacts = [a for a in game.actions(state, 0) if a["type"] == "react"]
    assert 1 <= len(reacts) <= MAX_PROPOSALS
    assert any("propane" in a["products"] for a in reacts)


def test_json_round_trips_along_the_way(game):
    def round_trip(state):
        data = game.to_dict(state)
        back = game.from_dict(json.loads(json.dumps(data)))
        assert game.to_dict(back) == data
        for seat in range(state.players):  # what is offered depends on the state's value alone
            assert game.actions(back, seat) == game.actions(state, seat)

    for players in (2, 3, 4):
        playout(game, players, 100 + players, each=round_trip)


def test_from_dict_names_the_field(game):
    data = game.to_dict(game.setup(2, 1))
    with pytest.raises(InvalidState, match="nonsense"):
        game.from_dict({"nonsense": True})
    with pytest.raises(InvalidState, match=r"^seats\.1\.molecules\.water: expected a number at least 1, found 0"):
        game.from_dict({**data, "seats": [data["seats"][0], {**data["seats"][1], "molecules": {"water": 0}}]})
    with pytest.raises(InvalidState, match=r"^phase: expected 'play', 'end' or 'over'"):
        game.from_dict({**data, "phase": "lunch"})
    with pytest.raises(InvalidState, match=r"^soup: expected its atoms sorted"):
        game.from_dict({**data, "soup": "".join(reversed(data["soup"]))})
    # The schema holds but the rules do not: an atom card invented, a recipe lost.
    with pytest.raises(InvalidState, match=r"atoms: expected 114 atom cards in all"):
        game.from_dict({**data, "atoms": data["atoms"] + "C"})
    with pytest.raises(InvalidState, match=r"recipes: .* in no place"):
        game.from_dict({**data, "decks": {**data["decks"], "simple": data["decks"]["simple"][1:]}})
    with pytest.raises(InvalidState, match=r"recipes: water in more than one place|in more than one place"):
        game.from_dict({**data, "middle": data["middle"] + [data["decks"]["simple"][0]]})


def test_replay_rebuilds_the_live_state(game):
    for players in (2, 3, 4):
        state, log = playout(game, players, 200 + players)
        assert game.to_dict(game.replay(players, 200 + players, None, log)) == game.to_dict(state)
        half = game.replay(players, 200 + players, None, log[: len(log) // 2])
        for seat, action in log[len(log) // 2:]:
            half = game.apply(half, seat, action)
        assert game.to_dict(half) == game.to_dict(state)


def test_rules_never_change_the_given_state(game):
    state = game.setup(3, 9)
    before = game.to_dict(state)
    for _ in range(40):
        seat = game.to_move(state)[0]
        snapshot = game.to_dict(state)
        nxt = game.apply(state, seat, game.actions(state, seat)[-1])
        assert game.to_dict(state) == snapshot
        state = nxt
    assert game.to_dict(game.setup(3, 9)) == before


def test_views_show_no_secrets(game):
    """view(state, seat) cannot tell state from a resampling of what seat
    cannot see; no view holds another seat's hidden hand (design reading 13)."""
    def same_view(state):
        for seat in [None, *range(state.players)]:
            view = game.view(state, seat)
            json.dumps(view)
            other = game.resample_hidden(state, seat, 12345)
            game.check(other)
            assert game.view(other, seat) == view
            text = json.dumps(view)
            for j, s in enumerate(state.seats):
                if j != seat:
                    hidden = [r for r in s.hand if not (s.shown and r == state.dealt[j]) and r not in state.dealt]
                    assert not any(f'"{r}"' in text for r in hidden)
            assert "rng" not in view

    for players in (2, 3, 4):
        playout(game, players, 300 + players, each=same_view)


def test_resampling_really_redraws_the_hidden_cards(game):
    state = game.setup(4, 8)
    other = game.resample_hidden(state, 0, 99)
    assert other.seats[0].hand == state.seats[0].hand
    assert other.atoms != state.atoms and sorted(other.atoms) == sorted(state.atoms)
    assert [s.hand[1:] for s in other.seats[1:]] != [s.hand[1:] for s in state.seats[1:]]
    assert [s.hand[0] for s in other.seats] == [s.hand[0] for s in state.seats]  # dealt face up: public


def test_the_view_offers_the_open_reaction_form(game):
    state = at("oxygen*2 +oxygen ?nitric-oxide | nitrogen*2 +nitrogen | nitrogen")
    form = game.view(state, 0)["reaction"]
    assert form == {"own": {"oxygen": 2}, "opponents": {"2": {"nitrogen": 1}},
                    "products": ["graphite", "hydrogen", "oxygen", "nitrogen", "nitric-oxide"]}
    assert "reaction" not in game.view(state, 1)


def test_setup_takes_no_options(game):
    with pytest.raises(ValueError, match="no setup options"):
        game.setup(2, 1, {"variant": "x"})
    assert game.to_dict(game.setup(2, 1, {})) == game.to_dict(game.setup(2, 1, None))


def test_a_player_with_no_molecules_is_offered_an_opponents(game):
    """Design reading 8: ingredients may all be one opponent's unguarded molecules."""
    state = at("+oxygen ?water | hydrogen*2 oxygen")
    reacts = [a for a in game.actions(state, 0) if a["type"] == "react"]
    assert {"type": "react", "ingredients": [{"seat": 1, "recipe": "hydrogen", "count": 2},
                                             {"seat": 1, "recipe": "oxygen", "count": 1}],
            "products": {"water": 2}} in reacts
