"""A table's snapshot, once nothing uses it, is freed at once by reference
counting, with everything rendered from it: nothing it keeps refers back to
it. A cycle would leave every rendered page of every version to the full
garbage collections, which the workers make rare (companion.server): in a
soak a worker grew to 887 MB and one collection held the interpreter 1.14 s."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest

from companion import live
from companion.caller import Caller
from tests.companion.conftest import Api

GAMES = ["labnotes", "synthesis", "compounded", "organicsoup", "toyrace"]


def _played(api: Api, game: str, moves: int) -> tuple[str, dict[str, Any]]:
    table = api.table(game=game, players=["Ada", "Bo", "Cy"] if game != "organicsoup" else ["Ada", "Bo"],
                      seed=7)
    rng = random.Random(7)
    for _ in range(moves):
        state = api.state(table["code"], table["host"])
        if not state["to_move"]:
            break
        seat = rng.choice(state["to_move"])
        mine = api.state(table["code"], table["tokens"][seat])
        if not mine["actions"]:
            break
        api.act(table["code"], table["tokens"][seat], rng.choice(mine["actions"]), mine["version"])
    return table["code"], table


@pytest.mark.parametrize("game", GAMES)
def test_a_snapshot_and_its_pages_are_freed_without_the_garbage_collector(app: Any, api: Api, game: str) -> None:
    code, table = _played(api, game, 12)
    referee = app.extensions["companion_referee"]
    with app.test_request_context(f"/t/{code}"):
        # The collector is off from before the snapshot is made to after it is
        # let go: a collection in between would free a cycle that rendering
        # made (and the snapshot with it) and hide it.
        referee.forget()
        gc.collect()
        gc.disable()
        try:
            snap = referee.snapshot(code)
            seats = len(table["tokens"])
            for seat, host in [(s, s == 0) for s in range(seats)] + [(None, False)]:
                live.render(Caller(snap, seat, host), live.Response())
            assert len(snap._memo) > seats, "nothing was rendered and kept"
            freed = weakref.ref(snap)
            referee.forget()
            del snap
            alive = freed() is not None
            if alive:      # say what holds it, to find the cycle
                holders = [type(r).__name__ for r in gc.get_referrers(freed()) if r is not globals()]
        finally:
            gc.enable()
    assert not alive, f"the snapshot outlived its last use (held by {holders}): a reference cycle"


def test_no_part_template_defines_a_macro_that_calls_anything(app: Any) -> None:
    """The cycle the test above found in Organic Soup's reaction part: a
    macro defined in the template being rendered, whose body calls anything
    (another macro, a filter function, a global), is compiled to call
    through the render's context and so holds it, while the context holds
    the macro and the snapshot. Such macros go in a file of their own,
    imported (without context), as organicsoup/_steppers.html does."""
    from jinja2 import nodes

    from companion import plugins

    env = app.jinja_env
    offenders = []
    templates = {p.template for plugin in plugins.plugins().values() for p in plugin.parts}
    templates |= {p.template for p in (live.NOTICE, live.LOBBY, live.PLAYERS, live.LOG, live.HOST, live.REMATCH)}
    for template in sorted(templates):
        source = env.loader.get_source(env, template)[0]
        for macro in env.parse(source).find_all(nodes.Macro):
            if any(True for _ in macro.find_all(nodes.Call)):
                offenders.append(f"{template}: macro {macro.name}")
    assert len(templates) > 20 and not offenders, offenders


def test_the_caches_hold_the_watched_tables_and_a_few_more(app: Any, api: Api) -> None:
    """Games end and new tables start: the referee's caches keep every table
    a phone is watching and ``spare_tables`` others, not every table since
    the server started (a soak's memory grew until they reached their caps)."""
    referee = app.extensions["companion_referee"]
    hub = app.extensions["companion_hub"]
    referee.spare_tables = 2
    codes = []
    with app.test_request_context("/"):
        for n in range(7):
            code, _ = _played(api, "toyrace", 3)
            codes.append(code)
            referee.snapshot(code)
            if n in (0, 1, 2):
                hub.watching(code, +1)   # a phone's stream holds the first three
        kept = set(referee._snaps)
        ids = {code: referee._ids[code] for code in codes if code in referee._ids}
        watched = {ids[c] for c in codes[:3]}
        assert watched <= kept and watched <= set(referee._cache), "a watched table was let go"
        assert len(kept) == 3 + 2 and len(referee._cache) == 3 + 2, (len(kept), len(referee._cache))
        assert {ids[c] for c in codes[-2:]} <= kept, "the spare room goes to the tables used last"
        # a table let go is read again from the database when asked for
        assert referee.snapshot(codes[3]).moves == 3
        for code in codes[:3]:
            hub.watching(code, -1)


def test_a_spare_table_nobody_asked_for_lately_is_let_go(app: Any, api: Api) -> None:
    """A finished game's table, its phones gone to the next one, goes when
    the next new table comes, though there is room for spares; a table a
    phone still polls (without a stream) stays, and so does a watched one."""
    referee = app.extensions["companion_referee"]
    hub = app.extensions["companion_hub"]
    referee.spare_tables = 8
    now = [1000.0]
    referee.clock = lambda: now[0]
    with app.test_request_context("/"):
        codes = []
        for _ in range(4):
            code, _ = _played(api, "toyrace", 2)
            codes.append(code)
            referee.snapshot(code)
        hub.watching(codes[0], +1)
        ids = {code: referee._ids[code] for code in codes}
        now[0] += referee.spare_unused_s / 2
        referee.version(codes[1])           # a phone polling it
        now[0] += referee.spare_unused_s / 2 + 0.5
        code, _ = _played(api, "toyrace", 1)   # the next new table
        referee.snapshot(code)
        for kept in (referee._snaps, referee._cache):
            assert {ids[codes[0]], ids[codes[1]], referee._ids[code]} <= set(kept), "a table in use was let go"
            assert not {ids[codes[2]], ids[codes[3]]} & set(kept), "a table nobody asked for was kept"
        assert referee.snapshot(codes[2]).moves == 2      # read again from the database when asked for
        hub.watching(codes[0], -1)


def test_each_table_keeps_its_newest_snapshot_only(app: Any, api: Api) -> None:
    """The referee holds one snapshot per table, the newest: the one before
    it (with every page it drew) was a third of what a busy worker held. A
    stream woken for an older version is given the newest; a request still
    drawing an older one keeps it alive itself, and it is freed after."""
    code, table = _played(api, "toyrace", 2)
    referee = app.extensions["companion_referee"]
    with app.test_request_context(f"/t/{code}"):
        older = referee.snapshot(code)
        live.render(Caller(older, 0, True), live.Response())
        freed = weakref.ref(older)
        mine = api.state(code, table["tokens"][0])
        api.act(code, table["tokens"][0], mine["actions"][0], mine["version"])
        newest = referee.snapshot(code)
        assert newest.version > older.version
        assert newest.drawn is older.drawn, "the table's drawings go on to its next version"
        assert referee._snaps[newest.table["id"]] is newest, "the table's one snapshot is its newest"
        assert referee.snapshot_at(code, older.version) is newest, "a late stream is given the newest"
        assert referee._keep(older) is older and referee.snapshot(code) is newest, "an older one never replaces it"
        del older
    # the request that drew it (its context holds its caller) is over
    assert freed() is None, "the older snapshot outlived its last user"


def test_parts_are_kept_in_ascii(app: Any, api: Api) -> None:
    """Every part a table keeps is ASCII, a character beyond it written as a
    reference: one "−" on a Lab Notes sheet otherwise keeps the whole part
    at two bytes a character. A reference is read as its character
    everywhere but in ``<script>`` and ``<style>``, which no part has."""
    from jinja2 import nodes

    from companion import plugins

    code, _ = _played(api, "labnotes", 6)
    referee = app.extensions["companion_referee"]
    with app.test_request_context(f"/t/{code}"):
        snap = referee.snapshot(code)
        drawn = [live.render_part(Caller(snap, seat, False), part)
                 for seat in (0, 1, 2, None) for part in live.parts_of(snap, False)]
    assert all(html.isascii() for html in drawn)
    assert any("&#8722;" in html for html in drawn), "the sheets' minus signs, as references"
    env = app.jinja_env
    templates = {p.template for plugin in plugins.plugins().values() for p in (*plugin.parts, plugin.score) if p}
    for template in sorted(templates):
        source = env.loader.get_source(env, template)[0]
        text = " ".join(n.data for n in env.parse(source).find_all(nodes.TemplateData)).lower()
        assert "<script" not in text and "<style" not in text, template
