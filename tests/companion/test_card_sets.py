"""Custom card sets at the table (issue 19): the host chooses the game's own
set, one of the server's (``SETS_DIR``, what ``labkit serve --sets DIR``
sets) or a zip uploaded with the create form; the set is stored in the
database under its content hash, so a restarted server replays the table
with the cards it was played with. An upload is untrusted: a broken set is
refused with the words ``labkit validate`` prints, nothing is stored, no
table is made, nothing answers 500."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from companion.card_sets import HASH
from labkit import registry
from labkit.cli import main as labkit_cli
from labkit.sets import new_set
from labkit.setfiles import MAX_ZIP_BYTES, SET_MANIFEST, write_zip
from tests.companion.conftest import Phone, make_app
from tests.companion.test_api import check
from tests.labkit.test_broken_sets import BREAKS

# One card changed in each game where every table shows it from the start
# (with the options given): (file, old text, new text, lobby options).
AT_THE_TABLE = {
    "labnotes": ("tools.csv", ",Centrifuge,", ",Spin Doctor,", {"first_game": "on"}),  # a first-game tool
    "compounded": ("tools.csv", ",Pipette,", ",Dropper Pen,", {}),                    # every tool is out
    "organicsoup": ("recipes.csv", ",Hydrogen,", ",Diatomic Hydrogen,", {}),           # a basic recipe
    "synthesis": ("rules.yaml", "label: Elemental molecules", "label: Element pair molecules", {}),  # a score line
}


def test_every_game_has_a_change_at_the_table():
    assert set(AT_THE_TABLE) == {name for name in registry.names() if name != "toyrace"}


def make_set(game: str, folder: Path, name: str, version: str = "2") -> str:
    """A set from the game's own data, one card changed, named ``name``: its new text."""
    new_set(registry.find(game), folder, name=name, author="Ann Author")
    manifest = yaml.safe_load((folder / SET_MANIFEST).read_text(encoding="utf-8"))
    manifest["version"] = version
    (folder / SET_MANIFEST).write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")
    file, old, new, _ = AT_THE_TABLE[game]
    text = (folder / file).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return new.split(":")[-1].strip(" ,")


def zipped(folder: Path) -> bytes:
    return write_zip({p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()})


def create(host: Phone, game: str, **fields: Any) -> Any:
    host.get("/")
    return host.post(f"/tables?game={game}", {"game": game, **fields}, htmx=False,
                     content_type="multipart/form-data")


def seat_and_start(app: Any, host: Phone, code: str, options: dict[str, str]) -> Phone:
    """The host sits as Ada, Bo joins on another phone, the host starts; Bo's phone."""
    assert host.join(code, "Ada").status_code in (200, 204)
    other = Phone(app)
    assert other.join(code, "Bo").status_code in (200, 204)
    if options:
        assert host.post(f"/t/{code}/options", {"version": str(host.version(code)), **options}).status_code == 200
    assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
    return other


def play_until_seen(app: Any, phones: list[Phone], code: str, text: str, most: int = 80) -> tuple[str, Phone]:
    """Moves from the seats' phones (seeded choices among the legal ones), at
    least one, until ``text`` is on a phone's page: that page and phone."""
    import random

    referee, rng = app.extensions["companion_referee"], random.Random(5)
    for _ in range(most):
        snap = referee.snapshot(code)
        if snap.over:
            break
        seat = snap.to_move()[0]
        response = phones[seat].act(code, rng.choice(snap.actions(seat)))
        assert response.status_code == 200, response.data[:300]
        for phone in phones:
            page = phone.get(f"/t/{code}").get_data(as_text=True)
            if text in page:
                return page, phone
    raise AssertionError(f"{text!r} not seen on a page in {most} moves")


def state_of(app: Any, code: str) -> dict[str, Any]:
    snap = app.extensions["companion_referee"].snapshot(code)
    return snap.game.to_dict(snap.state)


@pytest.mark.parametrize("game", sorted(AT_THE_TABLE))
def test_a_server_set_and_an_uploaded_set_are_played_and_replayed_after_a_restart(game: str, tmp_path: Path) -> None:
    sets = tmp_path / "sets"
    folder_set = sets / f"folder-{game}"
    changed = make_set(game, folder_set, "Folder Set")
    (sets / "not-a-set.txt").write_text("notes", encoding="utf-8")   # beside the sets: left alone
    upload = tmp_path / "upload"
    make_set(game, upload, "Uploaded Set", version="7")
    options = AT_THE_TABLE[game][3]

    app = make_app(tmp_path, SETS_DIR=str(sets), BOTS=False)
    host = Phone(app)
    home = host.get("/").get_data(as_text=True)
    form = home[home.index(f'id="host-{game}"'):]
    form = form[:form.index("</form>")]
    offered = re.findall(r'name="card_set" value="([0-9a-f]{64})"', form)
    assert len(offered) == 1 and "Folder Set" in form and "Ann Author" in form and "version 2" in form
    assert home.count("Folder Set") == 1   # offered for its own game only

    # the server's set, chosen on the create form
    made = create(host, game, card_set=offered[0])
    assert made.status_code == 303, made.data[:500]
    code = made.headers["Location"].rsplit("/", 1)[-1]
    lobby = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Folder Set" in lobby and "Ann Author" in lobby
    other = seat_and_start(app, host, code, options)
    for phone in (host, other):
        page = phone.get(f"/t/{code}").get_data(as_text=True)
        assert re.search(r"Card set:\s*<strong>Folder Set</strong> by Ann Author, version 2", page)
    page, seen_by = play_until_seen(app, [host, other], code, changed)
    assert changed in page

    # a zip uploaded with the create form
    second = Phone(app)
    made = create(second, game, card_set="upload", card_set_zip=(io.BytesIO(zipped(upload)), "my set.zip"))
    assert made.status_code == 303, made.data[:2000]
    uploaded = made.headers["Location"].rsplit("/", 1)[-1]
    third = seat_and_start(app, second, uploaded, options)
    page, _ = play_until_seen(app, [second, third], uploaded, changed)
    assert "Uploaded Set" in page and "version 7" in page

    # the game's own set, for comparison: the change is the set's, not the page's
    own_host = Phone(app)
    made = create(own_host, game)
    own = made.headers["Location"].rsplit("/", 1)[-1]
    seat_and_start(app, own_host, own, options)
    own_page = own_host.get(f"/t/{own}").get_data(as_text=True)
    assert changed not in own_page and "Card set:" in own_page and f"{registry.find(game).title}'s own" in own_page

    store = app.extensions["companion_store"]
    digests = {store.table(c)["card_set"] for c in (code, uploaded)}
    assert all(HASH.match(d) for d in digests) and len(digests) == 2 and store.table(own)["card_set"] is None
    before = state_of(app, code)
    store.db.close()

    # a restarted server, without the sets folder: the database holds the set
    shutil.rmtree(sets)
    again = make_app(tmp_path, BOTS=False)
    assert state_of(again, code) == before
    same_phone = Phone(again)   # the phone that saw the change, its cookies kept across the restart
    for cookie in seen_by.client._cookies.values():
        same_phone.client.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    page = same_phone.get(f"/t/{code}").get_data(as_text=True)
    assert changed in page and "Folder Set" in page
    assert again.extensions["companion_referee"].snapshot(code).moves >= 1
    again.extensions["companion_store"].db.close()


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_on_postgresql_a_server_set_chosen_through_the_api_replays_after_a_restart(tmp_path: Path,
                                                                                   database_url: str) -> None:
    sets = tmp_path / "sets"
    changed = make_set("compounded", sets / "pg-set", "Postgres Set")
    app = make_app(tmp_path, database_url, SETS_DIR=str(sets), BOTS=False)
    client = app.test_client()
    listed = next(g for g in client.get("/api/games").json["games"] if g["name"] == "compounded")
    assert [s["name"] for s in listed["card_sets"]] == ["Postgres Set"]
    check(app, "GET", "/api/games", client.get("/api/games"))   # shaped as the OpenAPI document says
    made = check(app, "POST", "/api/tables", client.post("/api/tables", json={"game": "compounded",
                                                                           "card_set": "Postgres Set", "seed": 11}))
    assert made.status_code == 201, made.json
    code, host = made.json["code"], made.json["host_token"]
    assert made.json["table"]["card_set"]["name"] == "Postgres Set"
    tokens = [client.post(f"/api/tables/{code}/seats", json={"name": n}).json["token"] for n in ("Ada", "Bo")]
    version = client.get(f"/api/tables/{code}").json["version"]
    assert client.post(f"/api/tables/{code}/start", json={"version": version},
                       headers={"Authorization": f"Bearer {host}"}).status_code == 200
    seen = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {tokens[0]}"}).json
    seat = seen["to_move"][0]
    mine = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
    moved = client.post(f"/api/tables/{code}/actions", json={"version": mine["version"], "action": mine["actions"][0]},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert moved.status_code == 200, moved.json
    digest = moved.json["card_set"]["hash"]
    # the stored hash chooses the same set for another table
    again_made = client.post("/api/tables", json={"game": "compounded", "card_set": digest})
    assert again_made.status_code == 201 and again_made.json["table"]["card_set"]["hash"] == digest
    before = state_of(app, code)
    app.extensions["companion_store"].db.close()

    shutil.rmtree(sets)
    again = make_app(tmp_path, database_url, BOTS=False)
    assert state_of(again, code) == before
    assert changed in Phone(again).get(f"/t/{code}").get_data(as_text=True)
    assert again.test_client().get(f"/api/tables/{code}").json["card_set"]["name"] == "Postgres Set"
    again.extensions["companion_store"].db.close()


# --- refused uploads --------------------------------------------------------------------

def refused_upload(app: Any, game: str, data: bytes, name: str = "broken.zip") -> tuple[int, str]:
    host = Phone(app)
    before = app.extensions["companion_store"].count_tables()
    response = create(host, game, card_set="upload", card_set_zip=(io.BytesIO(data), name))
    page = response.get_data(as_text=True)
    assert app.extensions["companion_store"].count_tables() == before, "a table was made"
    assert response.status_code < 500
    form = page[page.index(f'id="host-{game}"'):]
    form = form[:form.index("</form>")]
    # the form keeps what the host chose, open, with the problems beside it
    assert re.search(r'<details class="card-set" open>', form), form[:400]
    assert re.search(r'value="upload" checked', form)
    return response.status_code, form


def problems_on(form: str) -> list[str]:
    import html

    return [html.unescape(p) for p in re.findall(r"<li><code>(.*?)</code></li>", form, re.S)]


@pytest.mark.parametrize("game", sorted(BREAKS))
def test_a_broken_set_is_refused_at_upload_with_the_words_validate_prints(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    new_set(registry.find(game), folder, name="Broken")
    expected = BREAKS[game](folder)
    data = zipped(folder)
    (tmp_path / "broken.zip").write_bytes(data)
    checked = CliRunner().invoke(labkit_cli, ["validate", str(tmp_path / "broken.zip")])
    assert checked.exit_code == 1
    printed = [" ".join(line.split()) for line in checked.output.splitlines() if "broken.zip/" in line]

    app = make_app(tmp_path, BOTS=False)
    status, form = refused_upload(app, game, data)
    assert status == 422
    shown = [" ".join(p.split()) for p in problems_on(form)]
    assert "broken.zip was not accepted as a card set" in form
    missing = [e for e in expected if not any(e in p for p in shown)]
    assert not missing, f"{missing} not in {shown}"
    # every problem validate prints, with its file, line and column, the same words
    assert sorted(p[p.index("broken.zip/"):] for p in printed) == sorted(shown)


def test_unsafe_oversized_and_mismatched_zips_are_refused(tmp_path: Path) -> None:
    app = make_app(tmp_path, BOTS=False)
    good = tmp_path / "good"
    new_set(registry.find("organicsoup"), good, name="Good")
    files = {p.name: p.read_bytes() for p in good.iterdir()}

    # a path outside the set
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("../escape.csv", "id\n")
    status, form = refused_upload(app, "organicsoup", out.getvalue(), "escape.zip")
    assert status == 422 and "escape.zip: &#39;../escape.csv&#39; climbs out of the set (..)" in form

    # over the zip bound, within what the form may carry: the set's own sentence
    big = io.BytesIO()
    with zipfile.ZipFile(big, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("padding.csv", b"x" * (MAX_ZIP_BYTES + 10))
    status, form = refused_upload(app, "organicsoup", big.getvalue(), "big.zip")
    assert status == 422 and f"over the bound of {MAX_ZIP_BYTES:,} for a zip" in form

    # a body larger than any set's zip may be: refused before it is read
    host = Phone(app)
    host.get("/")
    response = host.post("/tables?game=organicsoup", {"game": "organicsoup", "card_set": "upload",
                                                      "card_set_zip": (io.BytesIO(b"z" * (2 * MAX_ZIP_BYTES)), "huge.zip")},
                         htmx=False, content_type="multipart/form-data")
    assert response.status_code == 413
    assert f"may be at most {MAX_ZIP_BYTES:,} bytes" in response.get_data(as_text=True)

    # a set of another game, and a file that is no zip
    labnotes = tmp_path / "labnotes"
    new_set(registry.find("labnotes"), labnotes, name="Other")
    status, form = refused_upload(app, "organicsoup", zipped(labnotes), "other.zip")
    assert status == 422 and "other.zip is a card set of Lab Notes, not of Organic Soup" in form
    status, form = refused_upload(app, "organicsoup", b"PK\x03\x04 not really", "fake.zip")
    assert status == 422 and "is not a zip file that can be read" in form
    assert app.extensions["companion_store"].count_tables() == 0


def test_a_set_choice_that_names_nothing_is_refused_by_the_form_and_the_api(tmp_path: Path) -> None:
    app = make_app(tmp_path, BOTS=False)
    host = Phone(app)
    response = create(host, "compounded", card_set="f" * 64)
    assert response.status_code == 422 and "There is no card set" in response.get_data(as_text=True)
    response = create(host, "compounded", card_set="upload")
    assert response.status_code == 422 and "Choose the zip" in response.get_data(as_text=True)
    api = check(app, "POST", "/api/tables",
                app.test_client().post("/api/tables", json={"game": "compounded", "card_set": "Nobody's Set"}))
    assert api.status_code == 422 and "There is no card set \"Nobody's Set\" of Compounded" in api.json["error"]
    assert api.json["problems"] == []
    assert app.extensions["companion_store"].count_tables() == 0


def test_a_bots_worker_builds_the_rules_of_the_tables_set(tmp_path: Path) -> None:
    from companion import bot_worker
    from engine.bots import Budget
    from labkit.cardsets import open_set

    folder = tmp_path / "bot-set"
    changed = make_set("compounded", folder, "Bot Set")
    opened = open_set(folder)
    game = opened.play
    state = game.setup(2, 3, {})
    seat = game.to_move(state)[0]
    action = bot_worker.think(registry.find("compounded"), game.to_dict(state), seat, "greedy", 1,
                              Budget(iterations=2), (opened.content_hash, write_zip(opened.set_files)))
    assert action in game.actions(state, seat)
    worker_rules = bot_worker._games[("compounded", opened.content_hash)]
    assert changed in {tool.name for tool in worker_rules.cards.tools.values()}


def test_a_stored_set_is_forgotten_only_when_no_table_plays_it_and_a_rematch_keeps_it(tmp_path: Path) -> None:
    from companion.store_sets import StoredSet

    app = make_app(tmp_path, BOTS=False)
    store = app.extensions["companion_store"]
    kept, loose = (StoredSet(c * 64, "compounded", "S", "", "1", b"zip") for c in "ab")
    store.put_card_set(kept)
    store.put_card_set(loose)
    table = store.create_table(code="KEEPS", game="compounded", seed=1, options={}, host_token="x",
                               card_set=kept.hash)
    assert store.forget_card_sets(-1) == 1     # everything counts as long unused
    assert store.card_set(kept.hash) == kept and store.card_set(loose.hash) is None
    assert store.rematch(table, "AGAIN", 2, "x", [])["card_set"] == kept.hash   # a rematch keeps the set
    store.db.close()


def test_drawings_are_kept_under_a_number_no_later_rules_take_over() -> None:
    """The rules of a custom set are let go when unused; a drawing kept under
    ``id(rules)`` would be shown for the next rules that get the same id."""
    from companion.kept import serial

    class Rules:
        pass

    first = Rules()
    number, at = serial(first), id(first)
    del first   # freed at once (no cycle): CPython hands its memory to the next object of its size
    later = []
    for _ in range(20_000):
        later.append(Rules())
        if id(later[-1]) == at:
            break
    numbers = [serial(r) for r in later]
    # No later object gets the freed object's number, whether or not it got its id
    # (under a loaded run the allocator may give that memory to something else first:
    # then the check is that numbers are never handed out twice).
    assert number not in numbers and len(set(numbers)) == len(numbers)
    assert all(n > number for n in numbers)   # numbers count up, ids do not
    assert [serial(r) for r in later] == numbers   # and each object keeps its own


def test_the_servers_folder_is_read_again_when_a_set_changes_and_a_broken_set_is_not_offered(tmp_path: Path) -> None:
    sets = tmp_path / "sets"
    make_set("organicsoup", sets / "soup", "Soup Set")
    app = make_app(tmp_path, SETS_DIR=str(sets), BOTS=False)
    offered = app.extensions["companion_referee"].table_sets().offered
    first = offered("organicsoup")
    assert [(o.name, o.version, o.source) for o in first] == [("Soup Set", "2", "soup")]
    assert offered("organicsoup") == first and offered("labnotes") == []
    client = app.test_client()   # the API chooses it by its file name, and says so, as described
    made = check(app, "POST", "/api/tables", client.post("/api/tables", json={"game": "organicsoup", "card_set": "soup"}))
    assert made.status_code == 201 and made.json["table"]["card_set"]["hash"] == first[0].hash

    manifest = sets / "soup" / SET_MANIFEST
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("version: '2'", "version: '3'"), encoding="utf-8")
    broken = sets / "broken"
    new_set(registry.find("organicsoup"), broken, name="Broken Soup")
    expected = BREAKS["organicsoup"](broken)
    now = offered("organicsoup")
    assert [(o.name, o.version) for o in now] == [("Soup Set", "3")] and now[0].hash != first[0].hash
    _, problems = app.extensions["companion_referee"].table_sets().server_sets()
    assert all(any(e in p for p in problems) for e in expected), problems
    app.extensions["companion_store"].db.close()


def test_a_set_that_takes_too_long_to_check_is_refused_and_its_check_stopped(tmp_path: Path) -> None:
    from tests.labkit.test_broken_sets import set_cell

    folder = tmp_path / "slow"
    new_set(registry.find("labnotes"), folder, name="Slow")
    # Each card fills the placement search's bound (0.4-1 s, by the machine):
    # twelve make 5 s of checking at the least, well past the 2 s allowed
    # (five were about 2 s on a fast machine, and the check sometimes ended in time).
    for card in ("methane", "ammonia", "methanol", "formaldehyde", "hydrogen-cyanide", "hydrazine", "ethylene",
                 "acetylene", "formic-acid", "methylamine", "formamide", "acetaldehyde"):
        set_cell(folder / "notecards.csv", card, "structure", "CC(C)(C)C(C)(C)C")
        set_cell(folder / "notecards.csv", card, "formula", "C8H18")
    app = make_app(tmp_path, BOTS=False, SET_CHECK_SECONDS=2)
    status, form = refused_upload(app, "labnotes", zipped(folder), "slow.zip")
    assert status == 422 and "slow.zip took longer than 2 s to check" in form

    good = tmp_path / "good"   # the next upload gets a new worker
    make_set("labnotes", good, "Good")
    # a good set's check draws every face, as labkit validate does: more than 2 s on a busy machine
    app.extensions["companion_referee"].table_sets().check_seconds = 60
    made = create(Phone(app), "labnotes", card_set="upload", card_set_zip=(io.BytesIO(zipped(good)), "good.zip"))
    assert made.status_code == 303


def test_a_check_whose_process_dies_refuses_the_set_in_words(tmp_path: Path) -> None:
    """The checking process ended mid-check (killed from outside, or out of
    memory): the upload is refused with a reason, never a 500, and the next
    upload gets a new process."""
    import threading

    from companion import set_check
    from tests.labkit.test_broken_sets import set_cell

    folder = tmp_path / "slow"
    new_set(registry.find("labnotes"), folder, name="Slow")
    for card in ("methane", "ammonia", "methanol", "formaldehyde", "hydrogen-cyanide", "hydrazine"):
        set_cell(folder / "notecards.csv", card, "structure", "CC(C)(C)C(C)(C)C")   # seconds of checking
        set_cell(folder / "notecards.csv", card, "formula", "C8H18")
    app = make_app(tmp_path, BOTS=False, SET_CHECK_SECONDS=60)
    good = tmp_path / "good"
    make_set("labnotes", good, "Good")
    assert create(Phone(app), "labnotes", card_set="upload",
                  card_set_zip=(io.BytesIO(zipped(good)), "good.zip")).status_code == 303   # the process is up
    checker = set_check._checker
    assert checker is not None
    killer = threading.Timer(1.0, checker.process.kill)   # mid-check
    killer.start()
    status, form = refused_upload(app, "labnotes", zipped(folder), "slow.zip")
    killer.join()
    assert status == 422 and "slow.zip: its check stopped without an answer" in form
    assert set_check._checker is None
    made = create(Phone(app), "labnotes", card_set="upload", card_set_zip=(io.BytesIO(zipped(good)), "good.zip"))
    assert made.status_code == 303


def test_bots_at_a_table_play_with_its_set(tmp_path: Path) -> None:
    """A card the game's own set does not have (a recipe under a new id): a
    bot's worker that built the game's own rules could not even read the state."""
    from tests.companion.test_bots import _check_moves, _wait

    sets = tmp_path / "sets"
    new_set(registry.find("organicsoup"), sets / "renamed", name="Renamed")
    recipes = sets / "renamed" / "recipes.csv"
    recipes.write_text(recipes.read_text(encoding="utf-8").replace("\nethanol,", "\ngrain-alcohol,"), encoding="utf-8")
    app = make_app(tmp_path, SETS_DIR=str(sets), BOT_PACE_S=0, BOT_POLL_S=0.05)
    try:
        host = Phone(app)
        made = create(host, "organicsoup", card_set="Renamed")
        assert made.status_code == 303, made.data[:500]
        code = made.headers["Location"].rsplit("/", 1)[-1]
        for _ in range(2):
            assert host.post(f"/t/{code}/bots", {"level": "easy"}).status_code == 200
        assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
        referee = app.extensions["companion_referee"]
        snap = referee.snapshot(code)
        assert "grain-alcohol" in repr(snap.game.to_dict(snap.state))   # the new card is in play
        _wait(lambda: referee.snapshot(code).moves >= 6, 60)
        _check_moves(referee, code)
    finally:
        app.extensions["companion_bots"].stop()
        app.extensions["companion_store"].db.close()


def test_a_database_of_schema_4_gets_card_sets_in_place(tmp_path: Path) -> None:
    from companion.db import SCHEMA_VERSION, Database
    from companion.store import Store

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Database(url)
    old.init_schema()
    with old.connect() as c:                       # as schema version 4 left it, with a table in it
        c.execute("DROP TABLE card_sets")
        c.execute("ALTER TABLE game_tables DROP COLUMN card_set")
        c.execute("UPDATE companion_meta SET value = '4' WHERE key = 'schema_version'")
        c.execute("INSERT INTO game_tables (code, game, seed, options, host_token, status, created_at, updated_at) "
                  "VALUES ('OLDER', 'compounded', 1, '{}', 'x', 'lobby', 't', 't')")
    old.close()
    database = Database(url)
    database.init_schema()
    store = Store(database)
    assert store.table("OLDER")["card_set"] is None      # the game's own set, as it was played
    with database.connect() as c:
        assert c.one("SELECT value FROM companion_meta WHERE key = 'schema_version'")["value"] == str(SCHEMA_VERSION)
    database.close()
