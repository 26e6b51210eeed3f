"""Several turns of Synthesis on two phones, through a mutation and a
closed molecule: Playwright driving Debian's Chromium against the real
server. Each phone picks its bond from the list of legal placements (the
engine's, mutation applied); a copy of the engine beside the test chooses
the placement that closes a hexagon when one does, so a molecule is made
and both phones show it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.client import call
from labkit import cardsets, registry
from tests.companion.conftest import need_htmx
from tests.companion.synthesis.test_browser import PHONE, to_json, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 4          # with this seed a molecule can be closed on turn 2 (found by playing the engine)
TURNS = 3
MANDATORY = {"twice", "add_line", "remove_line"}


def test_several_turns_with_a_mutation_and_a_closed_molecule(browser: Any, server_factory: Any) -> None:
    need_htmx()
    base = server_factory(games=("engine.synthesis:GAME",)).start().url
    status, made = call(base, "POST", "/api/tables", {"game": "synthesis", "seed": SEED})
    assert status == 201, made
    code = made["code"]
    tokens = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    call(base, "POST", f"/api/tables/{code}/start", {"version": call(base, "GET", f"/api/tables/{code}")[1]["version"]},
         made["host_token"])

    game = cardsets.new_game(registry.find("synthesis"))
    mirror = {"state": game.setup(2, SEED, {})}     # the same table, kept beside the test

    def table(seat: int | None = None) -> dict[str, Any]:
        return call(base, "GET", f"/api/tables/{code}", token=tokens[seat] if seat is not None else None)[1]

    def molecules(state: Any, seat: int) -> int:
        return len(game.view(state, seat)["seats"][seat]["molecules"])

    phones, contexts, errors = [], [], []
    for token in tokens:
        ctx = browser.new_context(**PHONE)
        ctx.add_cookies([{"name": f"labkit_seat_{code}", "value": token, "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/t/{code}")
        contexts.append(ctx)
        phones.append(page)

    def send(seat: int, action: dict[str, Any], click) -> None:
        before = table(seat)["version"]
        click()
        for page in phones:
            wait_version(page, before + 1)
        mirror["state"] = game.apply(mirror["state"], seat, action)
        assert game.view(mirror["state"], seat) == table(seat)["view"], "the copy beside the test went its own way"

    mutations = []
    for _ in range(TURNS):
        now = table()
        roller = now["to_move"][0]
        send(roller, {"type": "roll"},
             lambda: phones[roller].get_by_role("button", name="Roll the dice").click())
        rolled = table()["view"]["roll"]
        mutations.append(rolled[1])
        for page in phones:     # both phones show the Mutation die's face
            assert page.locator(f'#syn-dice [data-mutation="{rolled[1]}"]').count() == 1
        for seat, page in enumerate(phones):
            for _step in range(10):
                mine = table(seat)
                if not mine["actions"]:
                    break
                bonds = [a for a in mine["actions"] if a["type"] in ("bond", "active_bond")]
                if bonds:       # the placement closing the most hexagons, picked from the list
                    state = mirror["state"]
                    best = max(bonds, key=lambda a: molecules(game.apply(state, seat, a), seat))
                    send(seat, best, lambda: (page.select_option("#syn-placements", to_json(best)),
                                              page.locator("#syn-draw").click()))
                    continue
                pick = next(a for a in mine["actions"] if a["type"] in ("elemental", "decline", "finish", "pass"))
                send(seat, pick, lambda: page.locator(f"[data-act='{to_json(pick)}']").click())
            else:
                raise AssertionError("the turn did not end")

    assert MANDATORY & set(mutations), mutations      # a bond was drawn with a mandatory mutation applied
    final = table()
    assert final["view"]["turn"] == TURNS + 1
    closed = [s for s in (0, 1) if final["view"]["seats"][s]["molecules"]]
    assert closed, "no molecule was closed"
    for page in phones:        # each phone shows the molecule on its maker's board
        wait_version(page, final["version"])
        for s in closed:
            board = "#syn-mine" if page is phones[s] else f"#syn-board-{s}"
            assert page.locator(f"{board} polygon.hex.mol").count() >= 1, (s, board)
        assert f"Turn {TURNS + 1} of 28" in page.inner_text("#syn-turn")
    assert not errors, errors
    for ctx in contexts:
        ctx.close()
