"""Lab Notes scoring: End Game and Final Score, box by box."""

from __future__ import annotations

from engine.labnotes.scoring import compounds, seat_score
from engine.labnotes.state import sheet_from_text
from tests.engine.conftest import notating


def score(text: str, notecards=(), burned=None):
    spaces, bonds = sheet_from_text(text)
    return seat_score(0, "P1", spaces, bonds, list(notecards),
                      spaces.count("x") if burned is None else burned)


def test_example_c_double_n_single_h_scores_2():
    """End Game: "If you have a compound with C=N-H, that compound would be worth
    4 points minus 2 points for the missing 2 bonds in Carbon (requires 4
    bonds), and score a total of 2 points." """
    (c,) = compounds(*sheet_from_text("A1:C A2:N A3:H A1=A2 A2-A3"))
    assert (c.bond_points, c.missing, c.score) == (4, 2, 2)
    assert score("A1:C A2:N A3:H A1=A2 A2-A3").lines[0].points == 2


def test_bond_points_single_1_double_3_triple_6():
    """Score & Claim Notecards: "SINGLE BONDS * 1PT, DOUBLE BONDS * 3PTS, TRIPLE BONDS * 6PTS"."""
    s = score("A1:H A2:H A1-A2 C1:O C2:O C1=C2 E1:N E2:N E1#E2")
    assert s.lines[0].points == 1 + 3 + 6
    assert (s.details["single_bonds"], s.details["double_bonds"], s.details["triple_bonds"]) == (1, 1, 1)


def test_complete_compound_has_no_penalty():
    """Earning & Using Tool Cards: a completed compound (water) scores its bonds.
    Design rule 7: complete means every element has all its bonds."""
    (c,) = compounds(*sheet_from_text("A1:H A2:O A3:H A1-A2 A2-A3"))
    assert c.complete and c.score == 2


def test_missing_bond_penalty_is_per_compound():
    """End Game: "subtract 1 from that compound's total for each missing bond"."""
    s = score("A1:C A2:H A1-A2 D1:O D2:H D1-D2 F5:H F6:H F5-F6")
    per = [(c["formula"], c["missing_bonds"], c["score"]) for c in s.details["compounds"]]
    assert per == [("CH", 3, -2), ("HO", 1, 0), ("H2", 0, 1)]
    assert s.lines[0].points == -1 and s.details["missing_bonds"] == 4


def test_compound_score_may_be_negative():
    """Design rule 14: "A compound's score may be negative: the rulebook subtracts without a floor." """
    assert score("A1:C A2:C A1-A2").lines[0].points == 1 - 6


def test_burned_space_costs_2_points():
    """Final Score 3: "Players each lose 2 points for each burned space"."""
    s = score("A1:x A2:x F6:x")
    assert s.lines[2].points == -6


def test_final_score_is_compounds_plus_notecards_minus_burns():
    """Final Score 1-4: compounds in the first box, notecards in the second,
    burned spaces in the third, "Add the first two scoring boxes together, then
    subtract the value shown in the third box." Design rule 15."""
    s = score("A1:H A2:O A3:H A1-A2 A2-A3 F6:x", notecards=[6, 1])
    assert [(l.key, l.label, l.points) for l in s.lines] == [
        ("compounds", "Compounds", 2), ("notecards", "Notecards", 7), ("burned", "Burned spaces", -2)]
    assert s.total == 7 == sum(l.points for l in s.lines)


def test_highest_total_wins_and_ties_share_the_win(game):
    """Final Score 4: "Whoever has the highest grade is the winner." Design rule
    15: equal totals share the win."""
    s = notating(game, ["H", "O", "O"], "O", {0: "A1:H A2:H A1-A2", 1: "A1:O A2:O A1=A2", 2: "A1:O A2:O A1=A2"})
    result = game.result(s)
    assert [x.total for x in result.scores] == [1, 3, 3] and result.winners == (1, 2)
    assert result.to_dict()["winners"] == [1, 2]
