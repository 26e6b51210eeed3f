"""A paper Synthesis board scored on a phone: Playwright driving Debian's
Chromium against the real server, on a 390 x 844 touch screen. The player
finds the page from the home page, picks the board, taps each cell of the
volume table and each shaded elemental box in its marker's colour (a tap
focuses the button, as on Android), picks the goal cards; the page's score
boxes must be the engine's own (engine.synthesis.scoring.score called here
on the same board), box by box, and its drawing must show the engine's
chains. Then the same board as a solo game, with its verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.synthesis.board import card_names
from companion.games.synthesis.words import solo as words_solo
from engine.synthesis import GAME
from engine.synthesis.scoring import Goals, score
from engine.synthesis.state import PROJECT_LEVELS
from labkit.cardsets import new_game
from tests.companion.conftest import need_htmx

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1,
         "bypass_csp": True}  # wait_for_function evaluates strings; the CSP itself is tested in test_csp_browser
BOARD, SIDE = "E", "B"
TABLE = ["bbgg", "bbgggg", "bbbgggy", "rbbbggy", "rrgg", "ry"]
"""Side B's columns are 4, 6, 7, 7, 4 and 2 tall: every cell filled."""
ELEMENTAL = {"triangle": "yy", "diamond": "r", "square": "b"}
CHAIN, PATTERN, PATTERN_POINTS, PROJECT = "horseshoe", "first-shell", 7, "project-05"
PAUSE_MS = 600
"""synthesis-paper.js asks for the finding this long after the last tap."""
SETTLED = """() => !document.getElementById('syn-paper-form').classList.contains('htmx-request')
  && document.querySelector('#syn-paper-result textarea') !== null"""
SIZES = """() => [...document.querySelectorAll('#syn-tapin button, #syn-tapin .brush')].map(el => {
  const b = el.getBoundingClientRect(); return [el.dataset.cell || el.dataset.box || el.textContent.trim(), b.width, b.height];
})"""


def engine_score(mode: str = "standard") -> Any:
    cards = new_game(GAME).cards
    project = cards.projects[PROJECT] if mode == "unpredictable" else None
    goals = Goals(cards.chains[CHAIN], cards.patterns[PATTERN], project,
                  PROJECT_LEVELS[project.row.difficulty] if project else None, solo=mode != "standard")
    return score(cards.rules, cards.points, cards.layouts[(BOARD, SIDE)], TABLE,
                 {shape: len(boxes) for shape, boxes in ELEMENTAL.items()}, goals, pattern_points=PATTERN_POINTS)


def shown_scores(page: Any) -> dict[str, tuple[str, str]]:
    """Each score box as the page draws it (the board's formula) and as its table says it."""
    out = {}
    for box in page.locator("#syn-paper-score svg.syn-paper-boxes g.score-box").all():
        key = box.get_attribute("data-score")
        row = page.locator(f'#syn-paper-score tr[data-line="{key}"] td')
        out[key] = (box.locator("text.value").text_content().strip(), row.text_content().strip())
    return out


def test_a_paper_board_is_scored_on_a_phone_as_the_engine_scores_it(browser: Any, server_factory: Any) -> None:
    need_htmx()
    server = server_factory(games=("engine.synthesis:GAME",)).start()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors, requests = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url + "/")
    page.get_by_role("link", name="Score a paper Synthesis board").tap()
    page.wait_for_url("**/synthesis/board")
    page.select_option("#syn-board", BOARD)
    page.select_option("#syn-side", SIDE)
    page.wait_for_selector('#syn-tapin[aria-label="Board EB"] [data-cell="3:7"]')   # side B's tall column, drawn

    # Thumb-sized: every cell, box and marker at least 44 px; nothing wider than the phone.
    for what, width, height in page.evaluate(SIZES):
        assert width >= 44 and height >= 44, (what, width, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The name and the goal cards first. Text is filled in after a tap, not typed key by key: in
    # Chromium's touch emulation, keys typed after a select_option (no user gesture) can miss the
    # field the tap focused.
    page.locator("#syn-player").tap()
    page.locator("#syn-player").fill("Paper Pat")
    page.select_option("#syn-chain", CHAIN)
    page.select_option("#syn-pattern", PATTERN)
    page.locator("#syn-pattern-points").tap()
    page.locator("#syn-pattern-points").fill(str(PATTERN_POINTS))
    page.locator(".syn-paper-goals h2").tap()                 # done with the field: a tap elsewhere

    def marker(letter: str) -> None:
        page.locator(f'.syn-brushes input[value="{letter}"]').tap()

    # A slip: a cell tapped in the wrong colour, then tapped again to clear it.
    marker("y")
    page.locator('[data-cell="1:1"]').tap()
    assert page.locator('[data-cell="1:1"]').text_content() == "Y"
    page.locator('[data-cell="1:1"]').tap()
    assert page.locator('[data-cell="1:1"]').text_content() == ""
    assert page.evaluate("document.activeElement.dataset.cell") == "1:1"   # the tap focused it, as Android does

    for letter in "rygb":                       # a marker, then every box and cell of its colour
        marker(letter)
        for shape, boxes in ELEMENTAL.items():
            for k, ch in enumerate(boxes, 1):
                if ch == letter:
                    page.locator(f'[data-box="{shape}:{k}"]').tap()
        for v, column in enumerate(TABLE, 1):
            for r, ch in enumerate(column, 1):
                if ch == letter:
                    last = f"{v}:{r}"
                    page.locator(f'[data-cell="{last}"]').tap()
    # The last cell tapped keeps the focus (htmx then sends it as the form's submitter): the player
    # just looks, and the finding comes once the taps pause.
    assert page.evaluate("document.activeElement.dataset.cell") == last
    page.wait_for_timeout(PAUSE_MS + 300)
    page.wait_for_function(SETTLED)

    sent = json.loads(page.input_value("#syn-paper-result textarea"))
    assert sent["table"] == TABLE and sent["board"] == BOARD and sent["side"] == SIDE
    assert {s: len(b) for s, b in sent["elemental"].items()} == {s: len(b) for s, b in ELEMENTAL.items()}
    expected = engine_score()
    shown = shown_scores(page)
    assert shown == {**{line.key: (str(line.points), str(line.points)) for line in expected.lines},
                     "total": (str(expected.total), str(expected.total))}
    assert f"Paper Pat: {expected.total} points" in page.inner_text("#syn-paper-score h2")
    assert f"{expected.total} points" in page.inner_text("#syn-paper-total")
    # The engine's best linking, drawn on the volume table: a group per chain, a bar per link.
    chains = page.locator("#syn-paper-score svg.syn-paper-chains g.chain")
    assert chains.count() == len(expected.details["chains"])
    assert page.locator("#syn-paper-score svg.syn-paper-chains g.chain line").count() == \
        sum(len(c) - 1 for c in expected.details["chains"])
    page.locator("#syn-paper-score svg.syn-paper-chains").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The same board played solo, Unpredictable Consequences: its verdict, the engine's.
    page.select_option("#syn-mode", "unpredictable")
    page.select_option("#syn-project", PROJECT)
    page.wait_for_function("() => { const t = document.querySelector('#syn-paper-result textarea');"
                           f" return t && JSON.parse(t.value).project === '{PROJECT}'"
                           " && !document.getElementById('syn-paper-form').classList.contains('htmx-request'); }")
    solo = engine_score("unpredictable")
    assert solo.won is not None
    verdict = page.inner_text("#syn-paper-verdict")
    assert verdict == ("Won: every goal met." if solo.won else "Lost: a goal is missed.")
    assert shown_scores(page)["total"] == (str(solo.total), str(solo.total))
    met = [g["met"] for g in words_solo(solo, card_names(new_game(GAME).cards))["goals"]]
    assert page.locator("#syn-paper-score .solo-goals li.met").count() == met.count(True)
    assert page.locator("#syn-paper-score .solo-goals li.missed").count() == met.count(False)

    # Nothing was fetched from anywhere but the table's own server.
    assert [u for u in requests if not u.startswith(server.url) and not u.startswith("data:")] == []
    assert not errors, errors
    ctx.close()
