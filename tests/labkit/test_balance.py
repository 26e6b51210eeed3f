"""``labkit balance``: a report of bot games of a card set beside the game's
own, one self-contained HTML page and its JSON figures; seeded, the same on a
process pool and on a Dask cluster; a card made stronger is seen."""

from __future__ import annotations

import json
import re

import pytest

from engine.bots.balance import _Lead, figures
from engine.bots.compare import compare
from engine.bots.stats import benjamini_hochberg
from labkit import registry
from labkit.balance import report
from labkit.cardsets import cardset, open_set
from labkit.sets import new_set

GAMES = ("compounded", "labnotes", "organicsoup", "synthesis")
VERBS = {  # what each game's rulebook does with its cards (engine/<game>/uses.py)
    "compounded": {"claimed", "completed"},
    "labnotes": {"claimed", "unlocked", "used"},
    "organicsoup": {"built", "by a reaction"},
    "synthesis": {"completed"},
}
FIGURES = {"games", "seat_advantage", "rounds", "actions", "lead_changes", "end_conditions", "seat_tests", "cards"}


def test_every_game_is_covered():
    assert set(GAMES) == {name for name in registry.names() if name != "toyrace"}


def _external(html: str) -> list[str]:
    """Every reference a browser would fetch from elsewhere."""
    refs = re.findall(r"""(?:src|href)\s*=\s*["']?\s*((?:https?:)?//[^"'\s>]*)""", html, flags=re.I)
    refs += re.findall(r"url\(\s*['\"]?(?:https?:)?//", html, flags=re.I)
    refs += re.findall(r"@import", html)
    return refs


@pytest.mark.parametrize("game", GAMES)
def test_a_small_report_is_one_self_contained_page_with_its_figures(game, tmp_path, labkit):
    folder = tmp_path / "my-set"
    new_set(registry.find(game), folder)
    out = tmp_path / "report" / "mine.html"
    run = labkit("balance", folder, "--games", "2", "--players", "2", "--workers", "1", "--out", out,
                 "--ladder-games", "1")
    assert run.code == 0, run
    assert "bot games: 4 of 4 (100%)" in run.text  # a progress line where no terminal redraws one
    assert "no card to look at" in run.text
    assert sorted(p.name for p in out.parent.iterdir()) == ["mine.html", "mine.json"]
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 4
    assert _external(page) == [] and "<script" not in page and "<link" not in page and "<img" not in page
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["game"] == game and data["games"] == 2 and len(data["figures"]) == 2
    mine, theirs = data["figures"]
    assert FIGURES <= set(mine)
    ranked = registry.find(game).game(cardset(registry.find(game)).cards).ranked
    assert data["ranked"] == ranked and ("ranks" in mine) == ranked and ("scores" in mine) != ranked
    seats = mine["seat_advantage"]["2"]
    assert len(seats) == 2 and all(0 <= s["low"] <= s["rate"] <= s["high"] <= 1 for s in seats)
    assert sum(s["hits"] for s in seats) == pytest.approx(2)  # a game's win shares add up to one
    assert mine["end_conditions"]["2"] and all(mine["rounds"]["2"][k] > 0 for k in ("min", "mean"))
    names = registry.find(game).game(cardset(registry.find(game)).cards).card_names()
    assert sorted(mine["cards"]) == sorted(names)  # every card listed
    used = {v for c in mine["cards"].values() for v, r in c["verbs"].items() if r["times"]}
    assert used and used <= VERBS[game], used  # the bots did something with cards, in the rulebook's words
    # an unchanged copy plays the very same games as the game's own set: nothing differs
    assert mine == theirs and data["marked"] == [] and not any(d["marked"] for d in data["differences"])
    assert data["look_at"] == [] and data["changed"] == {} and data["changed_files"] == []
    assert data["ran_on"]["where"] == "here"
    assert data["ladder"]["games"] == 1 and len(data["ladder"]["sets"]) == 2


def test_the_same_seed_gives_the_same_report_however_many_workers(tmp_path):
    this = cardset(registry.find("organicsoup"))
    one = report(this, this, 6, ["greedy"], [2, 3], seed=5, workers=1)
    two = report(this, this, 6, ["greedy"], [2, 3], seed=5, workers=2)
    assert (one.pop("ran_on")["where"], two.pop("ran_on")["said"]) == ("here", "in a pool of 2 processes on "
                                                                       + __import__("socket").gethostname())
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    other = report(this, this, 6, ["greedy"], [2, 3], seed=6, workers=1)
    assert other["figures"] != one["figures"]  # the seed does choose the games


def test_a_dask_cluster_gives_the_same_report_as_the_local_run():
    from distributed import LocalCluster

    this = cardset(registry.find("organicsoup"))
    local = report(this, this, 4, ["greedy"], [2], seed=3, workers=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = report(this, this, 4, ["greedy"], [2], seed=3, scheduler=cluster.scheduler_address)
    where = remote.pop("ran_on")
    local.pop("ran_on")
    assert where["where"] == "dask" and where["scheduler"] == cluster.scheduler_address and where["workers"] == 2
    assert where["hosts"] and where["said"].startswith(f"on the Dask scheduler at {cluster.scheduler_address}")
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


def _game(index: int, players: int, winners: list[int], uses: list, in_play: list[str]) -> dict:
    return {"index": index, "players": players, "levels": ["greedy"] * players, "seed": index,
            "scores": [0] * players, "winners": winners, "actions": 10, "rounds": 2, "end": "over",
            "uses": uses, "in_play": in_play}


def _noise(seed: int, lift: dict[str, float] | None = None, cards: int = 30, games: int = 200) -> list[dict]:
    """Synthetic games: every card in play, each claimed with chance 0.3 (or
    its ``lift``), the claimant winning half the time."""
    import random

    rng, lift = random.Random(seed), lift or {}
    out = []
    for k in range(games):
        uses = [[rng.randrange(2), f"c{i}", "claimed"] for i in range(cards)
                if rng.random() < lift.get(f"c{i}", 0.3)]
        out.append(_game(k, 2, [rng.randrange(2)], uses, [f"c{i}" for i in range(cards)]))
    return out


def test_pure_noise_marks_no_card_and_a_real_change_is_found_with_its_counts():
    """No flags column any more: a card is looked at only when its figures
    survive Benjamini-Hochberg. Old code flagged cards against the median of
    all cards; here 20 noise sets of 30 cards at 200 games list at most one
    card in all (5% false discovery rate under no change at all: about one
    set in twenty may show one)."""
    names = {f"c{i}": f"Card {i}" for i in range(30)}
    base = figures(_noise(0), names)
    false_looks = [len(compare(figures(_noise(seed), names), base)["look_at"]) for seed in range(1, 21)]
    assert sum(false_looks) <= 1, false_looks
    assert all(not t["advantage"] for t in base["seat_tests"])
    changed = {"c7": [{"file": "cards.csv", "field": "points", "this": "9", "other": "3", "rules": True}]}
    found = compare(figures(_noise(1, {"c7": 0.5}), names), base, changed)
    assert [c["card"] for c in found["look_at"]] == ["c7"]
    card = found["look_at"][0]
    assert card["name"] == "Card 7" and card["changed"] == changed["c7"]
    assert "points '3' -> '9'" in card["why"]
    mine, theirs = card["games"][0]["this"], card["games"][0]["other"]
    assert f"claimed in {mine['hits']:g} of 200 games here, against {theirs['hits']:g} of 200" in card["why"]
    claimed = card["games"][0]
    assert claimed["low"] > 0 and claimed["level"] > 0.95  # an interval widened for the figures tested
    assert found["power"]["changed_card_rate"] < found["power"]["card_rate"]


def test_benjamini_hochberg_keeps_the_steps_of_its_procedure():
    p = [0.01, 0.04, 0.03, 0.2]
    assert benjamini_hochberg(p) == [True, False, False, False]  # 0.01 <= 0.0125; 0.03 > 0.025, 0.04 > 0.0375
    assert benjamini_hochberg([0.01, 0.02, 0.03, 0.04]) == [True] * 4  # the largest k with p_(k) <= k q / m
    assert benjamini_hochberg([0.03, 0.5], weights=[1.8, 0.2]) == [True, False]  # a weighted bar
    assert benjamini_hochberg([0.03, 0.5]) == [False, False]


def test_a_seat_that_wins_too_often_is_named_and_an_even_one_is_not():
    games = [_game(k, 2, [1] if k % 100 < 63 else [0], [], []) for k in range(200)]
    seats = figures(games, {})["seat_tests"]
    assert [t["advantage"] for t in seats] == [True, True] and seats[1]["rate"] == pytest.approx(0.63, abs=0.01)
    even = figures([_game(k, 2, [k % 2], [], []) for k in range(200)], {})["seat_tests"]
    assert not any(t["advantage"] for t in even)


def test_lead_changes_count_a_new_leader_once_a_round():
    class Standings:
        def __init__(self, seq):
            self.seq = seq

        def standings(self, state):
            return self.seq[state]

    lead = _Lead(Standings([(0, 0), (1, 0), (1, 2), (3, 2), (3, 3), (2, 3), (5, 1)]))
    for state, round_now in enumerate([1, 1, 2, 3, 4, 5, None]):
        lead.note(state, round_now)
    # round 1 reads (0, 0): nobody; round 2 seat 2; round 3 seat 1; 4 a tie; 5 seat 2; the end seat 1
    assert lead.changes == 3


def test_organic_soup_play_gives_places_never_an_average_of_codes(labkit):
    run = labkit("play", "organicsoup", "--games", "2", "--players", "2")
    assert run.code == 0, run
    assert "mean place" in run.text and "1st" in run.text and "mean score" not in run.text
    run = labkit("play", "labnotes", "--games", "1", "--players", "2")
    assert "mean score" in run.text and "mean place" not in run.text


def test_what_cannot_be_played_is_refused_in_words(tmp_path, labkit):
    missing = labkit("balance", tmp_path / "nowhere", "--games", "1")
    assert missing.code == 1 and "nowhere/game.yaml: file is missing" in missing.text
    folder = tmp_path / "my-set"
    new_set(registry.find("organicsoup"), folder)
    crowded = labkit("balance", folder, "--games", "1", "--players", "9")
    assert crowded.code == 1 and "Organic Soup is for 2 to 4 players, not 9" in crowded.text


def test_leave_one_out_plays_the_same_matches_with_the_change_undone_or_says_why_not(tmp_path):
    """The leave-one-out of a card the author changed is the set with that
    card's row as in the other set, on the same matches; the measure is the
    paired difference of its users' win share. A card the game will not let
    stand in for another nor go (every recipe a new molecule, twenty complex
    recipes) is not measured, and the report says why."""
    from labkit.balance import Runner, SetSource
    from labkit.balance_effect import UNDONE, _paired, leave_one_out

    folder = tmp_path / "easy-urea"
    new_set(registry.find("organicsoup"), folder)
    recipes = folder / "recipes.csv"
    recipes.write_text(recipes.read_text(encoding="utf-8").replace(
        "\nurea,complex,Urea,NC(N)=O,CO(NH2)2,", "\nurea,complex,Urea,OCO,CH4O2,"), encoding="utf-8")
    this, own = open_set(folder), cardset(registry.find("organicsoup"))
    runner = Runner(workers=1)
    played, original = runner([SetSource.of(this), SetSource.of(own)], 16, ["greedy"], [2], 1)
    changed = [{"file": "recipes.csv", "field": "smiles", "this": "OCO", "other": "NC(N)=O", "rules": True}]
    look = [{"card": "urea", "name": "Urea", "changed": changed}, {"card": "ethanol", "name": "Ethanol", "changed": []}]
    urea, ethanol = leave_one_out(this, own, look, played, runner, SetSource.of_files, 16, ["greedy"], [2], 1)
    assert urea["stand_in"] == UNDONE and urea["games"] == 16 and "with its change undone" in urea["said"]
    # undone, the set is the game's own: the same seats in the same matches of the original's games
    assert urea == {**urea, **_paired("urea", played, original, UNDONE)}
    assert urea["used_in"] == sum(any(c == "urea" for _, c, _ in g["uses"]) for g in played)
    assert "stand_in" not in ethanol and ethanol["said"].startswith("not measured: ")
    assert "expected a new molecule" in ethanol["said"] and "expected 20 complex recipes" in ethanol["said"]


def test_the_paired_effect_is_the_users_win_share_with_and_without_the_card():
    from labkit.balance_effect import _paired

    with_it = [_game(k, 2, [0], [[0, "c1", "claimed"]] if k < 4 else [], []) for k in range(6)]
    without = [_game(k, 2, [0] if k < 1 else [1], [], []) for k in range(6)]
    out = _paired("c1", with_it, without, None)
    assert (out["used_in"], out["won"], out["won_without"]) == (4, 4.0, 1.0)
    assert out["effect"] == pytest.approx(0.75) and "without it" in out["said"]
