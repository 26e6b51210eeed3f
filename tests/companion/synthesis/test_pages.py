"""Synthesis at the table, without a browser: every phone offers exactly the
engine's choices for its seat, refusals come back next to the control, the
boards are drawn from the view, the host's setup choices reach the engine,
the game log says what happened in words, and a game ends with every
board's score formula line by line."""

from __future__ import annotations

import random
import re
from typing import Any

from companion.games.synthesis.narrate import narrate
from tests.companion.synthesis.conftest import drive, key, offered, page, section, table
from tests.companion.synthesis.scenes import NAMES, game, render, snapshot
from tests.engine.synthesis.conftest import builder


def test_each_phone_offers_exactly_the_engines_actions(app: Any) -> None:
    """A whole game of two (side B, a player who closes hexagons): at every
    step the phone of the seat to move offers exactly the engine's actions
    (the bond's placements, the elemental and active molecules' choices,
    free bonds in each colour on each line, finish) and nothing else."""
    g = game()
    rng = random.Random(3)
    s = g.setup(2, 3, {"side": "B"})
    kinds: set[str] = set()
    while not g.is_over(s):
        seat = rng.choice(g.to_move(s))
        actions = g.actions(s, seat)
        snap = snapshot(s)
        shown = offered(render(app, snap, seat, "synthesis/_decision.html")
                        + render(app, snap, seat, "synthesis/_mine.html"))
        assert {key(a) for a in shown} == {key(a) for a in actions}
        assert len(shown) == len(actions)                      # each once
        kinds |= {a["type"] for a in actions}
        other = 1 - seat
        if other not in g.to_move(s):
            assert not offered(render(app, snap, other, "synthesis/_decision.html"))
        s = g.apply(s, seat, builder(rng, g, s, seat, actions))
    assert {"roll", "bond", "elemental", "active_bond", "decline", "free_bond", "finish"} <= kinds


def test_the_loupe_makes_every_open_line_a_target(app: Any) -> None:
    """While a player draws, the loupe shows their formula with a tap target
    for every line still open (and only those); free bond lines are also the
    targets of the colour options."""
    g = game()
    s = g.apply(g.setup(2, 5), g.to_move(g.setup(2, 5))[0], {"type": "roll"})
    snap = snapshot(s)
    mine = render(app, snap, 0, "synthesis/_mine.html")
    loupe = re.search(r'<svg class="syn-formula syn-loupe".*?</svg>', mine, re.S).group(0)
    hits = re.findall(r'<polygon class="hit" points="[^"]+" data-line="([^"]+)"', loupe)
    open_lines = [e["line"] for e, ch in zip(g.geometry(s.seats[0].board, s.side)["lines"], s.seats[0].lines)
                  if ch == "." and not e["printed"] and not e["start"]]
    assert hits == open_lines
    decision = render(app, snap, 0, "synthesis/_decision.html")
    assert 'id="syn-placements"' in decision and 'data-act-from="#syn-placements"' in decision
    for a in g.actions(s, 0):
        assert all(f'data-line="{line}"' in loupe for line in a["lines"])
    # nobody sees another player's controls; a spectator sees every board and no loupe
    spectator = render(app, snap, None, "synthesis/_mine.html")
    assert "syn-loupe" not in spectator
    boards = "".join(render(app, snap, None, f"synthesis/_board_{k}.html") for k in range(1, 9))
    assert boards.count('class="card syn-board"') == 2 and "Ada's board" in boards and "Bo's board" in boards


def test_the_turn_shows_the_disc_the_dice_and_the_goal_cards(app: Any, api: Any) -> None:
    t = table(api, players=3, seed=5, options={"side": "B"})
    code, tokens = t["code"], t["tokens"]
    now = api.state(code)
    roller = now["to_move"][0]
    text = page(app, code, tokens[roller])
    turn = section(text, "syn-turn")
    assert "Turn 1 of 28" in turn and "side B" in turn and "holds yellow and rolls the dice" in turn
    view = now["view"]
    disc = re.search(r'aria-label="The Active Element disc: ([^"]+)"', turn).group(1)
    for seat in view["seats"]:
        assert f"{NAMES[view['seats'].index(seat)]} {seat['colour']}" in disc
    assert "Goal cards:" in turn                                        # not a first game: two goal cards
    chain = game().cards.chains[view["chain_card"]].row.name
    assert chain in turn
    assert "Roll the dice" in section(text, "syn-decision")
    api.act(code, tokens[roller], {"type": "roll"})
    rolled = api.state(code)["view"]["roll"]
    turn = section(page(app, code, tokens[0]), "syn-turn")
    assert f'data-bond="{rolled[0]}"' in turn and f'data-mutation="{rolled[1]}"' in turn
    assert game().cards.mutations[rolled[1]].text in turn


def test_a_refusal_is_shown_next_to_the_control(app: Any, api: Any, phones: Any) -> None:
    t = table(api, players=2, seed=5)
    code, tokens = t["code"], t["tokens"]
    roller = api.state(code)["to_move"][0]
    api.act(code, tokens[roller], {"type": "roll"})
    phone = phones()
    phone.client.set_cookie(f"labkit_seat_{code}", tokens[0])
    phone.get(f"/t/{code}")
    before = api.state(code)["version"]
    response = phone.act(code, {"type": "bond", "lines": ["A1:E"]}, version=before, origin="decision")
    decision = section(response.get_data(as_text=True), "syn-decision")
    error = re.search(r'id="decision-error">(.*?)</p>', decision, re.S)
    assert error and ("not the rolled" in error.group(1) or "must touch" in error.group(1)), decision
    assert api.state(code)["version"] == before                             # nothing changed


def test_the_hosts_setup_choices_reach_the_engine(app: Any, phones: Any) -> None:
    """The lobby offers the rulebook's choices (first game, side, the solo
    modes, their difficulty, a Project card); First Steps on medium gives
    the solo game the yellow thresholds."""
    host = phones()
    code = host.create("synthesis")
    lobby = host.get(f"/t/{code}").get_data(as_text=True)
    options = section(lobby, "control-options")
    for words in ("First game", "Board side", "Solo mode", "First Steps", "Unpredictable Consequences",
                  "Solo difficulty", "Project card", "Project 26 (difficulty 3)"):
        assert words in options, words
    host.join(code, "Ada")
    version = host.version(code)
    said = host.post(f"/t/{code}/options", {"version": str(version), "mode": "first_steps", "difficulty": "medium",
                                             "side": "B"})
    assert said.status_code == 200, said.get_data(as_text=True)
    refused = host.post(f"/t/{code}/options", {"version": str(host.version(code)), "first_game": "on", "side": "B"})
    assert "For the first game, choose side A." in refused.get_data(as_text=True)
    host.post(f"/t/{code}/start", {"version": str(host.version(code))})
    text = host.get(f"/t/{code}").get_data(as_text=True)
    turn = section(text, "syn-turn")
    assert "solo: First Steps" in turn and "side B" in turn and "solo, medium (yellow)" in turn


def test_unpredictable_consequences_offers_two_cards_of_each_deck(app: Any, api: Any) -> None:
    t = table(api, players=1, seed=2, options={"mode": "unpredictable", "difficulty": "medium"})
    code, (ada,) = t["code"], t["tokens"]
    mine = api.state(code, ada)
    assert {a["type"] for a in mine["actions"]} == {"choose_goals"} and len(mine["actions"]) == 4
    text = page(app, code, ada)
    decision = section(text, "syn-decision")
    assert {key(a) for a in offered(decision)} == {key(a) for a in mine["actions"]}
    assert decision.count('class="goal chain-card"') == 2 and decision.count('class="goal pattern-card"') == 2
    api.act(code, ada, mine["actions"][0])
    assert "Roll the dice" in section(page(app, code, ada), "syn-decision")


def test_the_game_log_tells_what_happened_in_words() -> None:
    g = game()
    rng = random.Random(3)
    s = g.setup(2, 3, {"side": "B"})
    said: list[str] = []
    while not g.is_over(s):
        seat = rng.choice(g.to_move(s))
        action = builder(rng, g, s, seat, g.actions(s, seat))
        after = g.apply(s, seat, action)
        said += narrate(g, s, seat, action, after, ["Ada", "Bo"])
        s = after
    text = "\n".join(said)
    for pattern in (r"rolled the dice: an? \w+, with [\w ]+ \((mandatory|optional)\)\.",
                    r"(Ada|Bo) drew an? \w+ in (red|yellow|green|blue): [A-Z]\d+:[A-Z]+",
                    r"created a (red|yellow|green|blue) molecule of volume \d in [A-Z]\d+ \(volume table: column \d, row \d\)",
                    r"closed [A-Z]\d+, a \w+ hexagon, all in \w+: an elemental molecule if shaded\.",
                    r"(shaded [A-Z]\d+ as a \w+ elemental molecule|kept [A-Z]\d+ as a normal molecule)",
                    r"is an active molecule: (Ada|Bo) may draw",
                    r"drew a free bond in \w+: [A-Z]\d+:[A-Z]+\.",
                    r"earned a free bond \(",
                    r"Turn 2: the ring turns \(Ada \w+, Bo \w+\); (Ada|Bo) rolls\.",
                    r"The game is over: (Ada|Bo|Ada and Bo) (wins|share the win) with \d+ points\."):
        assert re.search(pattern, text), pattern


def test_a_whole_game_ends_with_every_lines_points(app: Any, api: Any) -> None:
    """Through the server: a game of two to the end; the house's final table
    and every board's score formula, each line with its points and what made
    them (chains with their colour and length), summing to the total."""
    t = table(api, players=2, seed=7)
    code, tokens = t["code"], t["tokens"]
    rnd = random.Random(7)
    drive(api, code, tokens, lambda now: now["status"] == "over", rnd, limit=3000)
    text = page(app, code, tokens[0])
    score = api.call("GET", f"/api/tables/{code}/score").json
    final = section(text, "final-score")
    for s in score["scores"]:
        assert f">{s['total']}<" in final
    breakdown = section(text, "syn-breakdown")
    assert "How each board scored" in breakdown and "<details open>" in breakdown
    for s in score["scores"]:
        block = re.search(rf'data-breakdown-of="{s["seat"]}">(.*?)</table>', breakdown, re.S).group(1)
        points = [int(p) for p in re.findall(r"</th><td>(-?\d+)</td></tr>", block)]
        assert points == [line["points"] for line in s["lines"]] and sum(points) == s["total"]
        chains = s["details"]["chains"]
        assert len(re.findall(r"<li>(red|yellow|green|blue), \d+ molecules \(", block)) == len(chains)
    assert "The game is over:" in section(text, "syn-turn")
    assert 'id="syn-decision"' not in text                                  # nothing left to decide


def test_a_solo_game_ends_with_its_goals_met_or_not(app: Any) -> None:
    """Predictable Results: at the end the breakdown lists the Project's goals,
    each met or missed, and the verdict; a lost solo game has no winner."""
    g = game()
    rng = random.Random(4)
    s = g.setup(1, 4, {"mode": "predictable", "difficulty": "easy"})
    while not g.is_over(s):
        seat = rng.choice(g.to_move(s))
        s = g.apply(s, seat, builder(rng, g, s, seat, g.actions(s, seat)))
    snap = snapshot(s)
    result = g.result(s)
    won = result.scores[0].details["solo"]["won"]
    breakdown = render(app, snap, 0, "synthesis/_breakdown.html")
    project = g.cards.projects[s.project].row
    assert ("Won: every goal met." if won else "Lost: a goal is missed.") in breakdown
    assert f"{project.name}: its chains" in breakdown
    need = project.elemental
    assert f"{need} elemental molecule{'s' if need != 1 else ''}" in breakdown
    final = render(app, snap, 0, "companion/_score.html")
    assert ("Ada wins." if won else "Nobody wins this game.") in final
    turn = render(app, snap, 0, "synthesis/_turn.html")
    assert ("met every goal" if won else "missed a goal") in turn and "not rolled" not in turn
