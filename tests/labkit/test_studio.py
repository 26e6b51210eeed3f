"""``labkit studio``: every face the print build makes, on one page; an edit
pushed as the faces it changed; a broken row's problem on its card; the
differences from the game's own set. The app is driven through Flask's test
client, the stream read as a browser reads it (the watcher is left out:
:meth:`Studio.refresh` is what it calls; the browser test watches for real)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from generator.printable import check, load
from labkit import registry
from labkit.sets import new_set, pack
from labkit.studio import Studio, create_app
from labkit.studio.app import tile_id
from labkit.studio.drawing import source_file
from tests.labkit.test_broken_sets import BREAKS
from tests.labkit.test_sets import EDITS


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    """A set of each game, opened in a studio (drawn once for the module)."""
    out = {}
    for game in sorted(EDITS):
        folder = tmp_path_factory.mktemp(game) / "my-set"
        new_set(registry.find(game), folder)
        out[game] = Studio(registry.find(game), folder)
    yield out
    for studio in out.values():
        studio.close()


def next_push(studio: Studio, since: int) -> str:
    """The first change event the stream sends a page that saw ``since``."""
    client = create_app(studio).test_client()
    response = client.get(f"/events?since={since}", buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: change" in text and text.endswith("\n\n"):
            break
    response.close()
    return "\n".join(line.removeprefix("data: ") for line in text.splitlines() if line.startswith("data: "))


def faces_on(html: str) -> dict[str, str]:
    """Face name -> its address, for every face image on a page."""
    return {m.group(2): m.group(1) for m in re.finditer(r'<img class="(?:front|back)" src="([^"]+)"[^>]*data-face="([^"]+)"', html)}


@pytest.mark.parametrize("game", sorted(EDITS))
def test_the_page_shows_every_face_the_print_build_draws(sets, game):
    studio = sets[game]
    client = create_app(studio).test_client()
    page = client.get("/").get_data(as_text=True)
    rendered, problems = check(load(studio.game, studio.path), layouts=("grid",))
    printed = {f.name: f.svg for pieces in rendered.values() for p in pieces for f in (p.front, p.back) if f}
    shown = faces_on(page)
    assert problems == [] and "No problems" in page
    assert set(shown) == set(printed) and len(shown) == len(printed)
    for name, address in shown.items():  # the same SVG, byte for byte
        assert client.get(address).get_data(as_text=True) == printed[name], name
    assert 'sse-connect="/events?since=0"' in page
    for vendored in ("htmx.min.js", "sse.min.js", "idiomorph-ext.min.js"):  # served here, no CDN
        assert f'src="/vendor/{vendored}"' in page and client.get(f"/vendor/{vendored}").status_code == 200


@pytest.mark.parametrize("game", sorted(EDITS))
def test_a_changed_row_is_pushed_as_that_card_alone(sets, game):
    studio = sets[game]
    name, old, new = EDITS[game]
    before = studio.drawing
    path = studio.path / name
    row = next(r for r in path.read_text(encoding="utf-8").splitlines() if old in r)
    decks = [c.id for c in before.printable.components() if source_file(c) == name]
    card = next(k for k in before.tiles if k in {f"{d}/{row.split(',')[0]}" for d in decks})
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    since = studio.version
    studio.refresh()
    push = next_push(studio, since)
    swapped = set(re.findall(r'<figure class="tile[^"]*" id="([^"]+)"[^>]*hx-swap-oob', push))
    assert swapped == {tile_id(card)}
    assert studio.drawing.tiles[card].front != before.tiles[card].front
    changed = {k for k, t in studio.drawing.tiles.items() if t != before.tiles.get(k)}
    assert changed == {card}
    assert f'data-version="{studio.version}"' in push
    # the differences listed on the page follow the edit
    assert re.search(rf"<td>{re.escape(name)}:\d+</td><td>[^<]+</td><td>changed</td><td>name</td>"
                     rf"<td>{re.escape(old.rstrip(','))}</td><td>{re.escape(new.rstrip(','))}</td>", push)


def test_a_broken_row_shows_its_problem_on_its_card_until_fixed(tmp_path):
    game = registry.find("labnotes")
    folder = tmp_path / "set"
    new_set(game, folder)
    studio = Studio(game, folder)
    client = create_app(studio).test_client()
    tools = folder / "tools.csv"
    good = tools.read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(good.splitlines(), 1) if row.startswith("centrifuge,"))
    tools.write_text(good.replace("first_game,copies", "first_game,copies", 1).replace(
        good.splitlines()[line - 1], good.splitlines()[line - 1].rsplit(",", 1)[0] + ",five"), encoding="utf-8")
    other = "notecards/methane"
    since = studio.version
    studio.refresh()
    push = unescape(next_push(studio, since))
    where = f"tools.csv:{line}: column 'copies' (J): expected a whole number, found 'five'"
    tile = re.search(rf'<figure class="tile broken" id="{tile_id("tool-cards/centrifuge")}".*?</figure>', push, re.S)
    assert tile and where in tile.group(0) and "Not drawn" in tile.group(0)
    page = unescape(client.get("/").get_data(as_text=True))
    assert where in page.split('id="problems"', 1)[1].split("</section>", 1)[0]  # and in the list of problems
    assert not studio.drawing.stale and studio.drawing.tiles[other].front is not None  # the rest still drawn

    tools.write_text(good, encoding="utf-8")
    since = studio.version
    studio.refresh()
    push = unescape(next_push(studio, since))
    assert where not in push and "No problems" in push
    assert re.search(rf'<figure class="tile" id="{tile_id("tool-cards/centrifuge")}"', push)
    studio.close()


def test_a_set_that_does_not_read_keeps_its_last_faces_marked_and_the_broken_card_shows_its_problem(tmp_path):
    # Organic Soup needs a count for every element: with the carbon row broken the set does not read at all
    game = registry.find("organicsoup")
    folder = tmp_path / "set"
    new_set(game, folder)
    studio = Studio(game, folder)
    atoms = folder / "atoms.csv"
    atoms.write_text(atoms.read_text(encoding="utf-8").replace("\nC,27,", "\nC,27X,", 1), encoding="utf-8")
    studio.refresh()
    page = unescape(create_app(studio).test_client().get("/").get_data(as_text=True))
    assert studio.drawing.stale and "from the last time it read" in page
    where = "atoms.csv:2: column 'count' (B): expected a whole number, found '27X'"
    carbon = re.search(rf'<figure class="tile broken" id="{tile_id("atoms/carbon")}".*?</figure>', page, re.S)
    assert carbon and where in carbon.group(0) and "<img" not in carbon.group(0)
    assert "Carbon missing" in page.split('id="g-atoms"', 1)[1].split('<div class="tiles">', 1)[0]
    assert studio.drawing.tiles["atoms/hydrogen"].front is not None  # the others: last faces, marked above
    studio.close()


def test_the_differences_list_added_removed_and_changed_cards(tmp_path):
    game = registry.find("labnotes")
    folder = tmp_path / "set"
    new_set(game, folder)
    notes = folder / "notecards.csv"
    rows = notes.read_text(encoding="utf-8").splitlines()
    methane = next(r for r in rows if r.startswith("methane,"))
    ammonia = next(r for r in rows if r.startswith("ammonia,"))
    rows.remove(ammonia)
    rows[rows.index(methane)] = methane.replace("The main part of natural gas.", "Marsh gas.")
    rows.append(methane.replace("methane,", "methane-two,", 1))
    notes.write_text("\n".join(rows) + "\n", encoding="utf-8")
    studio = Studio(game, folder)
    page = unescape(create_app(studio).test_client().get("/").get_data(as_text=True))
    table = page.split('id="differences"', 1)[1]
    assert re.search(r"<td>notecards\.csv:\d+</td><td>methane</td><td>changed</td><td>fact</td>"
                     r"<td>The main part of natural gas\.</td><td>Marsh gas\.</td>", table)
    assert "<td>notecards.csv</td><td>ammonia</td><td>removed</td>" in table
    assert re.search(r"<td>notecards\.csv:\d+</td><td>methane-two</td><td>added</td>", table)
    assert table.count("<tr class=") == 3
    studio.close()


def test_a_zip_is_shown_read_only(tmp_path):
    game = registry.find("labnotes")
    new_set(game, tmp_path / "set")
    zipped, _ = pack(tmp_path / "set")
    studio = Studio(game, zipped)
    page = create_app(studio).test_client().get("/").get_data(as_text=True)
    assert "read-only" in page and "sse-connect" not in page and len(faces_on(page)) == len(studio.drawing.faces())
    studio.watch()  # a zip is not watched
    assert studio._watcher is None
    studio.close()


def test_the_command_refuses_what_is_not_a_set_in_words(tmp_path, labkit):
    assert labkit("studio", tmp_path / "nothing", "--no-open").text.endswith("nothing: not a folder or a .zip")
    (tmp_path / "empty").mkdir()
    refused = labkit("studio", tmp_path / "empty", "--no-open")
    assert refused.code == 1 and "game.yaml" in refused.text and "file is missing" in refused.text


@pytest.mark.parametrize("game", sorted(BREAKS))
def test_a_broken_set_shows_every_error_validate_gives(game, tmp_path, labkit):
    """Issue 19: a structure that is not a molecule, a compound the rules
    cannot build, a missing column and a file that is not UTF-8 (the same
    breaks as tests/labkit/test_broken_sets.py) each show on the studio's
    page, in the words `labkit validate` prints."""
    folder = tmp_path / "broken"
    new_set(registry.find(game), folder)
    studio = Studio(registry.find(game), folder)
    expected = BREAKS[game](folder)
    studio.refresh()
    page = unescape(create_app(studio).test_client().get("/").get_data(as_text=True))
    problems = page.split('id="problems"', 1)[1].split("</section>", 1)[0]
    validated = labkit("validate", folder)
    assert validated.code == 1
    for message in expected:
        assert message in validated.text and message in problems, message
    studio.close()
