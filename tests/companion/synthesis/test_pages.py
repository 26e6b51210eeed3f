"""Synthesis at the table, without a browser: every phone offers exactly the
engine's choices for its seat, refusals come back next to the control, the
boards are drawn from the view, the host's setup choices reach the engine,
the game log says what happened in words, and a game ends with every
board's score formula line by line."""

from __future__ import annotations

import random
import re
from typing import Any

from companion.games.synthesis.drawing import PHONE
from companion.games.synthesis.drawn import formula_html, panel_html
from companion.games.synthesis.narrate import narrate
from tests.companion.synthesis.conftest import drive, key, offered, page, section, table
from tests.companion.synthesis.scenes import NAMES, afresh, game, render, render_parts, snapshot
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
    decision = render(app, snap, 0, "synthesis/_decision.html")   # the loupe is with the buttons that draw
    loupe = re.search(r'<svg class="syn-formula syn-loupe".*?</svg>', decision, re.S).group(0)
    assert decision.index("syn-loupe") < decision.index('id="syn-draw"')
    hits = re.findall(r'<polygon class="hit" points="[^"]+" data-line="([^"]+)"', loupe)
    open_lines = [e["line"] for e, ch in zip(g.geometry(s.seats[0].board, s.side)["lines"], s.seats[0].lines)
                  if ch == "." and not e["printed"] and not e["start"]]
    assert hits == open_lines
    assert 'id="syn-placements"' in decision and 'data-act-from="#syn-placements"' in decision
    for a in g.actions(s, 0):
        assert all(f'data-line="{line}"' in loupe for line in a["lines"])
    # nobody sees another player's controls; a spectator sees every board and no loupe
    spectator = render(app, snap, None, "synthesis/_mine.html") + render(app, snap, None, "synthesis/_decision.html")
    assert "syn-loupe" not in spectator and "syn-loupe" not in render(app, snap, 0, "synthesis/_mine.html")
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


PARTS = ["synthesis/_turn.html", "synthesis/_decision.html", "synthesis/_mine.html",
         *(f"synthesis/_board_{k}.html" for k in range(1, 9)), "synthesis/_breakdown.html"]


def test_drawings_kept_and_shared_show_each_phone_what_it_would_see_afresh(app: Any) -> None:
    """Boards, loupes, panels and menus are drawn once and shared by every
    phone and later version (drawn.py). Through a game of three (its
    drawings kept all along, a seat sometimes declining an active bond),
    every phone's parts at every step are exactly those drawn afresh, and
    each seat's page offers its own actions and nobody else's."""
    g = game()
    rng = random.Random(8)
    s = g.setup(3, 8, {"side": "B"})
    for moves in range(90):
        if g.is_over(s):
            break
        snap = snapshot(s, moves=moves)
        shown = {seat: render_parts(app, snap, seat, PARTS) for seat in (0, 1, 2, None)}
        with afresh():
            fresh = snapshot(s, moves=moves)
            assert shown == {seat: render_parts(app, fresh, seat, PARTS) for seat in shown}, moves
        for seat, parts in shown.items():
            mine = g.actions(s, seat) if seat is not None else []
            assert sorted(key(a) for a in offered("".join(parts))) == sorted(key(a) for a in mine), (moves, seat)
        seat = rng.choice(g.to_move(s))
        actions = g.actions(s, seat)
        declines = [a for a in actions if a["type"] == "decline"]
        s = g.apply(s, seat, declines[0] if declines and rng.random() < .5 else builder(rng, g, s, seat, actions))
    assert moves == 89


def test_a_kept_drawing_is_drawn_from_exactly_its_key(app: Any) -> None:
    """A board drawn again with any one of its inputs changed (a line, a
    molecule, a pending choice, the name, the mode, the loupe's targets,
    the turn, the score) is what it is drawn afresh, never a drawing kept
    for another board or moment."""
    g = game()
    rng = random.Random(8)
    s = g.setup(3, 8, {"side": "B"})
    while not any(seat.pending for seat in s.seats):
        seat = rng.choice(g.to_move(s))
        s = g.apply(s, seat, builder(rng, g, s, seat, g.actions(s, seat)))
    view = g.view(s, None)
    shown = next(seat for seat in view["seats"] if seat["pending"])
    first_open = shown["lines"].index(".")
    molecule = shown["molecules"][0]
    variants = [shown, {**shown, "pending": []},
                {**shown, "lines": shown["lines"][:first_open] + "r" + shown["lines"][first_open + 1:]},
                {**shown, "molecules": [[*molecule[:3], None, *molecule[4:]]] + shown["molecules"][1:]},
                {**shown, "turn_track": shown["turn_track"][:-1]},
                {**shown, "free_bonds": {"earned": ["row 1"], "used": 0, "left": 1}}]
    scores = g.result(s).scores
    open_lines = [e["line"] for e, ch in zip(g.geometry(shown["board"], "B")["lines"], shown["lines"])
                  if ch == "." and not e["printed"] and not e["start"]]
    with app.test_request_context("/"):
        for variant in variants:
            for name in ("Ada", "Bo"):
                for mode, free in (("other", None), ("mine", None), ("loupe", []), ("loupe", open_lines[:2])):
                    kept = formula_html(g, variant, "B", name, mode, free)
                    with afresh():
                        assert kept == formula_html(g, variant, "B", name, mode, free), (variant, name, mode, free)
                for turn, score in ((view["turn"], scores[0]), (view["turn"] + 1, scores[0]), (view["turn"], None)):
                    kept = panel_html(g, variant, "B", turn, score, name)
                    with afresh():
                        assert kept == panel_html(g, variant, "B", turn, score, name), (variant, name, turn, score)


def test_every_seat_sees_the_spectators_table() -> None:
    """The boards, the turn and the scores are drawn once from the
    spectator's view and sent to every phone: that is safe only while a
    seat's view shows nothing more (the engine hides the dice's generator
    alone, from everyone; the goal cards offered in a solo game are the one
    player's). Should the engine ever hide something from some seats, this
    fails first."""
    g = game()
    for players, options in ((4, {}), (1, {"mode": "unpredictable"}), (2, {"side": "B"})):
        rng = random.Random(players)
        s = g.setup(players, 3, options)
        for _ in range(60):
            spectator = {k: v for k, v in g.view(s, None).items() if k != "viewer"}
            for seat in range(players):
                assert {k: v for k, v in g.view(s, seat).items() if k != "viewer"} == spectator
            if g.is_over(s):
                break
            seat = rng.choice(g.to_move(s))
            s = g.apply(s, seat, builder(rng, g, s, seat, g.actions(s, seat)))


def test_the_volume_table_shows_the_engines_best_linking(app: Any) -> None:
    """Each chain the engine kept is drawn over the volume table as one line
    through its cells from one end to the other, and a board drawn for a
    different linking with the same points is drawn again, not kept."""
    g = game()
    rng = random.Random(5)
    s = g.setup(2, 5, {"side": "A"})
    while not g.is_over(s):
        seat = rng.choice(g.to_move(s))
        s = g.apply(s, seat, builder(rng, g, s, seat, g.actions(s, seat)))
    view = g.view(s, None)
    scores = g.result(s).scores
    assert any(score.details["chains"] for score in scores)
    with app.test_request_context("/"):
        for seat, score in enumerate(scores):
            shown = view["seats"][seat]
            drawn = str(panel_html(g, shown, "A", view["turn"], score, NAMES[seat]))
            groups = re.findall(r'<g class="chain"><title>A chain of (\d+) molecules</title>(.*?)</g>', drawn)
            chains = score.details["chains"]
            assert [int(n) for n, _ in groups] == [len(c) for c in chains]
            for (_, bars), chain in zip(groups, chains):
                ends = [tuple(map(float, b)) for b in re.findall(
                    r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"/>', bars)]
                assert len(ends) == len(chain) - 1           # a bar for each link
                for (x1, y1, x2, y2), (v1, r1), (v2, r2) in zip(ends, chain, chain[1:]):
                    # neighbouring cells of the table; the bar crosses their shared edge
                    assert abs(v1 - v2) + abs(r1 - r2) == 1
                    cell, left = PHONE.cell, PHONE.table_x     # a table at the table is drawn for a phone
                    assert round((x2 - x1) / (0.4 * cell), 6) == v2 - v1 and round((y1 - y2) / (0.4 * cell), 6) == r2 - r1
                    assert abs((x1 + x2) / 2 - (left + cell * ((v1 + v2) / 2 - 0.5))) < 0.01
            if chains:
                other = type(score)(score.seat, score.name, score.lines, score.total,
                                    {**score.details, "chains": [list(reversed(chains[0]))] + chains[1:]})
                again = str(panel_html(g, shown, "A", view["turn"], other, NAMES[seat]))
                assert again != drawn


def test_done_with_free_bonds_asks_first_when_some_are_not_drawn():
    """After the last turn a free bond not drawn is lost: the button asks once; a turn's finish does not."""
    from companion.games.synthesis.controls import controls
    from engine.synthesis.examples import example_cards
    from engine.synthesis.game import Synthesis

    game = Synthesis(example_cards())
    finish, free = {"type": "finish"}, {"type": "free_bond", "colour": "red", "line": "1-2"}
    final = controls(game, {"phase": "final"}, [free, finish])
    (done,) = [b for b in final["buttons"] if b["text"] == "Done with my free bonds"]
    assert done["confirm"] == "Done? The free bonds you have not drawn are lost."
    assert not controls(game, {"phase": "final"}, [finish])["buttons"][0]["confirm"]
    assert not controls(game, {"phase": "synthesis"}, [free, finish])["buttons"][0]["confirm"]


def test_the_roller_is_told_the_colour_they_hold() -> None:
    """Rule: "The player whose name is aligned with yellow rolls the two dice";
    with fewer names than colours nobody may face yellow, and the first name
    after it rolls (docs/design/synthesis.md, reading 3). The phone then does
    not say "You hold yellow" beside a seat that holds another colour."""
    from companion.games.synthesis.board import Table

    g = game()
    rng = random.Random(4)
    s, told = g.setup(2, 5), {}
    while not g.is_over(s) and len(told) < 2:
        seat = g.to_move(s)[0]
        actions = g.actions(s, seat)
        if actions == [{"type": "roll"}]:
            colour = g.view(s, seat)["seats"][seat]["colour"]
            shown = Table(snapshot(s))
            said = shown.prompt(seat, {"kind": "roll", "buttons": [], "free": False})
            told[colour == "yellow"] = said
            assert ("You hold yellow" in said) == (colour == "yellow"), (colour, said)
            assert ("nobody holds yellow" in shown.status()) == (colour != "yellow"), (colour, shown.status())
        s = g.apply(s, seat, builder(rng, g, s, seat, actions))
    assert set(told) == {True, False}, told      # both kinds of turn were met
