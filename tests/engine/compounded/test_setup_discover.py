"""Setup and the Discover phase, each test citing the rulebook."""

from __future__ import annotations

import pytest

from engine.compounded.discover import MAX_OFFERS
from engine.core import IllegalAction
from tests.engine.compounded.helpers import CARDS, GAME, RULES, at, bench, fresh, play


def test_setup_gives_each_scientist_three_elements_in_turn_order():
    """Setup 8: "The lead scientist then draws 3 elements ... until all scientists have 3 elements." """
    s = fresh(4, seed=3)
    assert [sum(sc.bench.values()) for sc in s.scientists] == [3, 3, 3, 3]
    assert sum(s.bag.values()) == 90 - 12


def test_setup_grid_sizes_and_extinguishers():
    """Setup 6-7: a 4x4 grid (3x4 for 2 or 3 scientists); everyone takes a Fire Extinguisher."""
    assert len(fresh(4).grid) == 16 and len(fresh(3).grid) == 12
    s = fresh(5)
    assert all(sc.tools == {"fire_extinguisher": True} for sc in s.scientists)
    assert s.tool_supply["fire_extinguisher"] == 0


@pytest.mark.parametrize("seed", range(30))
def test_no_lab_fire_is_dealt_into_the_setup_grid(seed):
    """Setup 7: "If any Lab Fire cards are drawn during setup, set them aside and keep drawing ...
    then shuffle all Lab Fire cards back into the deck." """
    s = fresh(4, seed=seed)
    assert not any(RULES.is_lab_fire(c.card) for c in s.grid)
    assert CARDS.lab_fires <= set(s.deck)


def test_lab_partners_sit_in_the_middle():
    """Lab Partners: "ensure the middle cards are Lab Partner cards"."""
    s = fresh(4, lab_partners=True)
    assert [i for i, c in enumerate(s.grid) if RULES.compound(c.card).lab_partner] == [5, 6, 9, 10]
    s = fresh(3, lab_partners=True)
    assert [i for i, c in enumerate(s.grid) if RULES.compound(c.card).lab_partner] == [5, 6]


@pytest.mark.parametrize("players,options,message", [
    (2, {"lab_partners": True}, "Lab Partners is for 3 to 5"),
    (3, {"two_player_dish": True}, "for 2 players"),
    (2, {"two_player_dish": True, "no_trade": True}, "not both"),
    (3, {"colour": "red"}, "Unknown option"),
    (3, {"no_trade": "yes"}, "true or false"),
    (3, {"lead": 3}, "seat from 0 to 2"),
    (6, None, "2 to 5"),
])
def test_setup_options_are_checked(players, options, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.setup(players, 1, options)


def test_the_dish_holds_four_in_a_two_player_game_and_players_plus_one_without_trades():
    """2 Player Games: "Draw 4 random elements"; No Player Trades: "equal to the number of players, plus 1"."""
    assert sum(fresh(2).dish.values()) == 4 and fresh(2).options["trading"] == "dish"
    assert sum(fresh(4, no_trade=True).dish.values()) == 5
    assert fresh(2, two_player_dish=False).options["trading"] == "free" and not fresh(3).dish


def test_discover_is_skipped_in_round_one():
    """"Note: The Discover phase is ALWAYS skipped the first round of play." """
    s = fresh(3)
    assert s.phase == "study" and s.round == 1


def test_discover_draws_the_discover_number_then_discards_to_the_lab_number():
    """Discover 1 and 3: draw "the unlocked number on the Discover experiment"; discard excess
    "to the lead scientist tray ... The number of elements you can keep ... is indicated on the Lab"."""
    s = fresh(3, seed=2)
    s.round = 2
    s.scientists[1].tracks[0] = 2  # Discover level 2: draws 4
    s = at(s, {"do": "discover"}, {"do": "study"})
    assert [sum(sc.bench.values()) for sc in s.scientists] == [6, 7, 6]
    s = play(s, *[(seat, {"type": "done_trading"}) for seat in range(3)])
    assert GAME.to_move(s) == [0, 1, 2]  # everyone over 3 discards, at once
    for seat, extra in ((0, 3), (1, 4), (2, 3)):
        for _ in range(extra):
            s = GAME.apply(s, seat, GAME.actions(s, seat)[0])
    assert [sum(sc.bench.values()) for sc in s.scientists] == [3, 3, 3]
    assert sum(s.tray.values()) == 10 and s.phase == "study"


def _trading(players=3, seed=5):
    s = fresh(players, seed=seed)
    s.round = 2
    s = at(s, {"do": "discover"}, {"do": "study"})
    return s


def test_free_trade_offer_and_accept():
    """Discover 2: "After drawing elements, scientists may trade elements between each other." """
    s = _trading()
    s = bench(s, 0, {"H": 3, "O": 1})
    s = bench(s, 1, {"S": 1, "C": 2})
    s = play(s, (0, {"type": "trade_with", "seat": 1}), (0, {"type": "offer_give", "element": "H"}),
             (0, {"type": "offer_give", "element": "H"}), (0, {"type": "offer_ask", "element": "S"}),
             (0, {"type": "propose"}))
    assert {"type": "accept", "seat": 0} in GAME.actions(s, 1)
    s = GAME.apply(s, 1, {"type": "accept", "seat": 0})
    assert s.scientists[0].bench == {"H": 1, "O": 1, "S": 1} and s.scientists[1].bench == {"H": 2, "C": 2}


def test_free_trade_refusals_in_words():
    s = _trading()
    s = bench(s, 0, {"H": 1})
    with pytest.raises(IllegalAction, match="Open an offer first"):
        GAME.apply(s, 0, {"type": "offer_give", "element": "H"})
    s = play(s, (0, {"type": "trade_with", "seat": 2}), (0, {"type": "offer_give", "element": "H"}))
    with pytest.raises(IllegalAction, match="no more Hydrogen"):
        GAME.apply(s, 0, {"type": "offer_give", "element": "H"})
    with pytest.raises(IllegalAction, match="at least one"):
        GAME.apply(s, 0, {"type": "propose"})


def test_an_offer_that_went_stale_cannot_be_accepted():
    s = _trading()
    s = bench(s, 0, {"H": 1, "O": 1})
    s = bench(s, 1, {"N": 1})
    s = bench(s, 2, {"C": 1})
    s = play(s, (0, {"type": "trade_with", "seat": 1}), (0, {"type": "offer_give", "element": "H"}),
             (0, {"type": "offer_ask", "element": "N"}), (0, {"type": "propose"}),
             (1, {"type": "trade_with", "seat": 2}), (1, {"type": "offer_give", "element": "N"}),
             (1, {"type": "offer_ask", "element": "C"}), (1, {"type": "propose"}),
             (2, {"type": "accept", "seat": 1}))
    assert {"type": "accept", "seat": 0} not in GAME.actions(s, 1)
    with pytest.raises(IllegalAction, match="no longer has"):
        GAME.apply(s, 1, {"type": "accept", "seat": 0})


def test_trading_ends_when_everyone_is_done_and_offers_are_bounded():
    s = _trading()
    for _ in range(MAX_OFFERS):
        s = play(s, (0, {"type": "trade_with", "seat": 1}), (0, {"type": "cancel_offer"}))
    assert not any(a["type"] == "trade_with" for a in GAME.actions(s, 0))
    s = play(s, (0, {"type": "done_trading"}), (1, {"type": "done_trading"}))
    assert GAME.to_move(s) == [2] and not any(a.get("seat") in (0, 1) for a in GAME.actions(s, 2))


def test_dish_trades_one_for_one_in_turn_order_until_all_pass():
    """2 Player Games: "starting with the lead scientist, scientists [may] trade 1 for 1 for elements
    on the trade dish ... until both pass." """
    s = fresh(2, seed=4)
    s.round = 2
    s = at(s, {"do": "discover"}, {"do": "study"})
    assert GAME.to_move(s) == [0]
    a = next(x for x in GAME.actions(s, 0) if x["type"] == "dish_trade")
    before = dict(s.scientists[0].bench)
    s = GAME.apply(s, 0, a)
    assert s.scientists[0].bench != before and GAME.to_move(s) == [1]
    s = play(s, (1, {"type": "pass"}))
    assert GAME.to_move(s) == [0]  # a pass is for the rest of the phase; 0 goes on alone
    s = play(s, (0, {"type": "pass"}))
    assert s.agenda[0]["do"] != "dish"


def test_three_of_a_kind_on_the_dish_evaporates():
    """"If at any time the Evaporating dish shows 3 of the same element, the elements are all
    discarded and 4 new elements are drawn to replace them." """
    s = fresh(2, seed=4)
    s.round = 2
    s = at(s, {"do": "discover"}, {"do": "study"})
    for e, n in s.dish.items():
        s.bag[e] = s.bag.get(e, 0) + n
    s.bag["H"] -= 2
    s.bag["O"] -= 2
    s.dish = {"H": 2, "O": 2}
    s = bench(s, 0, {"H": 1})
    s = GAME.apply(s, 0, {"type": "dish_trade", "give": "H", "take": "O"})
    assert s.tray == {"H": 3, "O": 1} and sum(s.dish.values()) == 4
    assert max(s.dish.values()) < 3
    GAME.check(s)
