"""Parts kept across versions (companion.reads): for every game, every
part every phone is sent during whole random games is the HTML a fresh
render of that version gives, and most of them come from what was kept."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import render_template

from labkit import registry


def _play(app: Any, game: str, seed: int, moves: int) -> tuple[int, int]:
    """(parts compared, parts that came from the store kept across versions)."""
    from companion import live
    from companion.caller import Caller

    referee = app.extensions["companion_referee"]
    desc = registry.games()[game]
    players = min(max(desc.min_players, 3), desc.max_players)
    rng = random.Random(seed)
    compared = 0
    asked, made = live.ACROSS.asked, live.ACROSS.made
    with app.test_request_context("/"):
        table, _ = referee.create(game, {}, seed)
        for n in range(players):
            referee.join(table["code"], f"Player {n + 1}")
        snap = referee.start(table["code"], referee.snapshot(table["code"]).version)
        for _ in range(moves):
            for viewer in [*range(players), None]:
                caller = Caller(snap, viewer, viewer == 0)
                for part in live.parts_of(snap, caller.host):
                    sent = live.render_part(caller, part)
                    seen = caller if not part.shared else Caller(snap, None, False)
                    fresh = live._wrap(part, render_template(part.template, **live.context(seen, board=part.board)))
                    assert sent == fresh, f"{game} part {part.name} for seat {viewer} at version {snap.version}"
                    compared += 1
            if snap.over:
                break
            seat = rng.choice(snap.to_move())
            snap = referee.act(snap, seat, rng.choice(snap.actions(seat)), snap.version)
    return compared, (live.ACROSS.asked - asked) - (live.ACROSS.made - made)


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_every_part_kept_across_versions_is_the_part_a_fresh_render_gives(app: Any, game: str) -> None:
    compared, kept = _play(app, game, seed=3, moves=120)
    assert compared > 200
    print(f"{game}: {kept} of {compared} parts came from the store")
    assert kept > compared // 10, f"{game}: only {kept} of {compared} parts came from the store"
