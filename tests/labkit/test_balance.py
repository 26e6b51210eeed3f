"""``labkit balance``: a report of bot games of a card set beside the game's
own, one self-contained HTML page and its JSON figures; seeded, the same on a
process pool and on a Dask cluster; a card made stronger is seen."""

from __future__ import annotations

import json
import re

import pytest

from engine.bots.balance import figures, two_proportions
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
FIGURES = {"games", "seat_advantage", "scores", "rounds", "actions", "end_conditions", "cards"}


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
    run = labkit("balance", folder, "--games", "2", "--players", "2", "--workers", "1", "--out", out)
    assert run.code == 0, run
    assert sorted(p.name for p in out.parent.iterdir()) == ["mine.html", "mine.json"]
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 4
    assert _external(page) == [] and "<script" not in page and "<link" not in page and "<img" not in page
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["game"] == game and data["games"] == 2 and len(data["figures"]) == 2
    mine, theirs = data["figures"]
    assert FIGURES <= set(mine)
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


def test_the_same_seed_gives_the_same_report_however_many_workers(tmp_path):
    this = cardset(registry.find("organicsoup"))
    one = report(this, this, 6, ["greedy"], [2, 3], seed=5, workers=1)
    two = report(this, this, 6, ["greedy"], [2, 3], seed=5, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    other = report(this, this, 6, ["greedy"], [2, 3], seed=6, workers=1)
    assert other["figures"] != one["figures"]  # the seed does choose the games


def test_a_dask_cluster_gives_the_same_report_as_the_local_run():
    from distributed import LocalCluster

    this = cardset(registry.find("organicsoup"))
    local = report(this, this, 4, ["greedy"], [2], seed=3, workers=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = report(this, this, 4, ["greedy"], [2], seed=3, scheduler=cluster.scheduler_address)
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


def _game(index: int, players: int, winners: list[int], uses: list, in_play: list[str]) -> dict:
    return {"index": index, "players": players, "levels": ["greedy"] * players, "seed": index,
            "scores": [0] * players, "winners": winners, "actions": 10, "rounds": 2, "end": "over",
            "uses": uses, "in_play": in_play}


def test_a_card_far_outside_the_rest_is_flagged_and_its_users_win_rate_measured():
    names = {f"c{i}": f"Card {i}" for i in range(12)}
    games = []
    for k in range(60):
        # every card is in play; card c0 is claimed in every game by the winner, the others in one game in six
        uses = [[k % 2, "c0", "claimed"]] + [[1 - k % 2, f"c{1 + k % 11}", "claimed"]] * (k % 6 == 0)
        games.append(_game(k, 2, [k % 2], uses, sorted(names)))
    cards = figures(games, names)["cards"]
    assert cards["c0"]["verbs"]["claimed"]["rate"] == 1.0 and cards["c0"]["win_used"]["rate"] == 1.0
    assert any("claimed more often" in f for f in cards["c0"]["flags"])
    assert any("won more often" in f for f in cards["c0"]["flags"])
    assert not any(c.get("flags") for cid, c in cards.items() if cid != "c0")
    assert two_proportions(30, 50, 20, 50) == pytest.approx(2.0, abs=0.01)


def test_a_notecard_made_easier_is_claimed_more_often_and_the_report_marks_it(tmp_path):
    """Lab Notes' Urea notecard made clearly easier (its compound now water,
    H2O: three atoms on the sheet instead of urea's eight): greedy bots claim
    it when it is in the line, and never claim the real one. Measured over
    six seeds at 60 games of each set (2 players): in play in 8-22% of
    games, claimed 29-80% of those against 0%, marked at five seeds of six
    (|z| 2.0-3.7); this seed gives z 2.1."""
    from labkit.balance_html import render

    folder = tmp_path / "easy-urea"
    new_set(registry.find("labnotes"), folder)
    cards = folder / "notecards.csv"
    text = cards.read_text(encoding="utf-8")
    assert "\nurea,compound,Urea,CO(NH2)2,NC(N)=O," in text
    cards.write_text(text.replace("\nurea,compound,Urea,CO(NH2)2,NC(N)=O,", "\nurea,compound,Urea,H2O,O,"),
                     encoding="utf-8")
    this = open_set(folder)
    data = report(this, cardset(this.game), 60, ["greedy"], [2], seed=1, workers=2)
    mine, theirs = (f["cards"]["urea"]["verbs"]["claimed"] for f in data["figures"])
    assert mine["times"] > 0 and theirs["times"] == 0 and mine["rate"] > theirs["rate"]
    claimed = next(d for d in data["differences"] if d["where"] == "urea: claimed")
    assert claimed["marked"] and claimed["z"] >= 1.96
    assert any(line.startswith("cards, urea: claimed:") for line in data["marked"])
    # the page says so too: in the list of what changed, and on the card's row
    page = render(data)
    changed = page[page.index("What changed"):page.index("Seat advantage")]
    assert "urea: claimed" in changed
    row = next(r for r in page.split("<tr>") if "<small>(urea)</small>" in r)
    assert "class='marked'" in row


def test_what_cannot_be_played_is_refused_in_words(tmp_path, labkit):
    missing = labkit("balance", tmp_path / "nowhere", "--games", "1")
    assert missing.code == 1 and "nowhere/game.yaml: file is missing" in missing.text
    folder = tmp_path / "my-set"
    new_set(registry.find("organicsoup"), folder)
    crowded = labkit("balance", folder, "--games", "1", "--players", "9")
    assert crowded.code == 1 and "Organic Soup is for 2 to 4 players, not 9" in crowded.text
