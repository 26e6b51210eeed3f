"""A part whose inputs did not change is not drawn again (companion/reuse.py):
what a phone is served must still be, part for part, what drawing it afresh
from this version gives, for every seat, the host and a spectator."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import render_template

from companion import live, reuse
from companion.caller import Caller

GAMES = ["labnotes", "synthesis", "compounded", "organicsoup"]


def _play_and_compare(app: Any, game: str, moves: int) -> tuple[list[str], int, int]:
    """Random play; after each move every part of every phone, as served,
    beside a fresh render. (mismatches, parts served, parts drawn)."""
    referee = app.extensions["companion_referee"]
    drawn = 0
    served = 0
    wrong: list[str] = []
    real = live.render_template

    def counting(*args: Any, **kwargs: Any) -> str:
        nonlocal drawn
        drawn += 1
        return real(*args, **kwargs)

    live.render_template = counting
    try:
        with app.test_request_context("/"):
            table, _ = referee.create(game, {}, 7)
            code = table["code"]
            players = 2 if game == "organicsoup" else 4
            for n in range(players):
                referee.join(code, f"P{n + 1}")
            referee.start(code, referee.snapshot(code).version)
            rng = random.Random(11)
            for _ in range(moves):
                snap = referee.snapshot(code)
                if snap.over:
                    break
                seat = rng.choice(snap.to_move())
                after = referee.act(snap, seat, rng.choice(snap.actions(seat)), snap.version)
                for viewer, host in [*((s, s == 0) for s in range(players)), (None, False)]:
                    caller = Caller(after, viewer, host)
                    for part in live.parts_of(after, host):
                        got = live.render_part(caller, part)
                        served += 1
                        shown = caller if not part.shared else Caller(after, None, False)
                        fresh = live._wrap(part, render_template(part.template,
                                                                 **live.context(shown, board=part.board)))
                        if got != fresh:
                            wrong.append(f"{part.name} for seat {viewer} at version {after.version}")
    finally:
        live.render_template = real
    return wrong, served, drawn


@pytest.mark.parametrize("game", GAMES)
def test_every_part_served_is_what_drawing_it_now_gives(app: Any, game: str) -> None:
    wrong, served, drawn = _play_and_compare(app, game, 40)
    assert not wrong, f"parts served unchanged although their inputs changed: {wrong[:5]}"
    # (``drawn`` counts the fresh renders of the comparison too: one per part served)
    assert drawn - served < served * 0.8, "hardly any part was reused: the comparison proved little"


def test_a_part_kept_with_the_wrong_inputs_is_caught(app: Any, monkeypatch: Any) -> None:
    """The comparison above can fail: parts taken as unchanged whatever changed are found."""
    monkeypatch.setattr(reuse, "inputs", lambda env, reads, ctx: ())
    wrong, _, _ = _play_and_compare(app, "labnotes", 12)
    assert wrong


def test_what_cannot_be_known_is_drawn_every_time(app: Any) -> None:
    """A template that reads the request, or asks the snapshot something
    whose answer depends on its argument, is never taken as unchanged."""
    env = app.jinja_env
    reads = reuse.Reads(env)
    loader = env.loader
    sources = {"t/request.html": "{{ request.path }}", "t/view.html": "{{ snap.view(me) }}",
               "t/local.html": "{% set x = ln.dice %}{{ x }}", "t/include.html": "{% include 't/request.html' %}"}

    class Both:
        def get_source(self, environment: Any, name: str) -> Any:
            if name in sources:
                return sources[name], None, lambda: True
            return loader.get_source(environment, name)

    reads.env = type("E", (), {"loader": Both(), "parse": env.parse, "globals": env.globals})()
    with app.test_request_context("/"):
        referee = app.extensions["companion_referee"]
        table, _ = referee.create("labnotes", {}, 7)
        for n in range(2):
            referee.join(table["code"], f"P{n + 1}")
        referee.start(table["code"], referee.snapshot(table["code"]).version)
        snap = referee.snapshot(table["code"])
        ctx = live.context(Caller(snap, 0, False))
        assert reuse.inputs(env, reads.of("t/request.html"), ctx) is None
        assert reuse.inputs(env, reads.of("t/include.html"), ctx) is None
        assert reuse.inputs(env, reads.of("t/view.html"), ctx) == (("version", snap.version),)
        assert reuse.inputs(env, reads.of("t/local.html"), ctx) == (ctx["ln"]["dice"],)


def test_the_hosts_tools_are_drawn_again_only_when_they_change(app: Any) -> None:
    """The host's seat and link tools are a part of their own: a move leaves
    them as they were (not drawn again), a new handover link shows at once."""
    referee = app.extensions["companion_referee"]
    drawn: list[str] = []
    real = live.render_template

    def counting(name: str, **kwargs: Any) -> str:
        drawn.append(name)
        return real(name, **kwargs)

    live.render_template = counting
    try:
        with app.test_request_context("/"):
            table, _ = referee.create("labnotes", {}, 7)
            code = table["code"]
            for n in range(3):
                referee.join(code, f"P{n + 1}")
            referee.start(code, referee.snapshot(code).version)
            rng = random.Random(3)
            first = live.render_part(Caller(referee.snapshot(code), 0, True), live.HOST_TOOLS)
            for _ in range(6):
                snap = referee.snapshot(code)
                seat = rng.choice(snap.to_move())
                after = referee.act(snap, seat, rng.choice(snap.actions(seat)), snap.version)
                assert live.render_part(Caller(after, 0, True), live.HOST_TOOLS) is first
                assert f'value="{after.version}"' in live.render_part(Caller(after, 0, True), live.HOST)
            assert drawn.count("companion/_host_tools.html") == 1
            referee.handover(code, 1, 10)
            now = live.render_part(Caller(referee.snapshot(code), 0, True), live.HOST_TOOLS)
            assert 'data-handover-seat="1"' in now and 'data-handover-seat' not in first
            assert drawn.count("companion/_host_tools.html") == 2
    finally:
        live.render_template = real


def test_a_starting_worker_reads_every_part_before_any_phone_asks(app: Any) -> None:
    """The worker reads each part's template for its inputs as it starts
    (``companion.collector.serve_without_pauses``), not the first time it
    draws it: the first game to end no longer parses its score part while
    every phone of the worker waits."""
    from companion import plugins

    live.read_every_part(app)
    found = app.extensions["companion_reads"]._found
    for plugin in plugins.plugins().values():
        for part in [*plugin.parts, *([plugin.score] if plugin.score else [])]:
            assert part.template in found, part.template
    assert live.PLAYERS.template in found and live.REMATCH.template in found
