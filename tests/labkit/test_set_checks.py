"""A change the rules cannot follow is refused, and every way a set reaches
a table checks what ``labkit validate`` checks (issue 39): a tool's ability
changed in its CSV would print while the table plays the original, so it is
refused with its file, line and column; ``validate`` says which columns the
rules read and which are text only; and a name with an emoji, or too long to
print, is refused by ``pack``, by the server's set folder and by an upload,
not only by ``validate``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine.columns import RULES, TEXT, WORDS
from labkit import columns, registry
from labkit.cardsets import cardset
from labkit.sets import new_set
from labkit.setfiles import write_zip

ABILITY = "reroll any number of available dice up to 2 times."
EMOJI = "Methane \U0001F525"                                   # a flame the printed font cannot draw
LONG = "Methane, " + "the simplest hydrocarbon of all, " * 4   # wider than a notecard's name box


def edit(folder: Path, file: str, old: str, new: str) -> None:
    text = (folder / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (folder / file).write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """A Lab Notes set whose notecards have a name with an emoji and one too long to print."""
    folder = tmp_path_factory.mktemp("sets") / "loud-lab"
    new_set(registry.find("labnotes"), folder, name="Loud Lab")
    edit(folder, "notecards.csv", "methane,compound,Methane,", f"methane,compound,{EMOJI},")
    edit(folder, "notecards.csv", "ammonia,compound,Ammonia,", f'ammonia,compound,"{LONG}",')
    return folder


def refused_for_both(problems: list[str]) -> None:
    text = "\n".join(problems)
    assert "notecards.csv:3: column 'name' (C): has characters the printed font cannot draw" in text, text
    assert "notecards.csv:2: column 'name'" in text and "too long" in text, text


def test_validate_refuses_a_changed_ability_by_file_line_and_column(tmp_path, labkit):
    folder = tmp_path / "my-lab"
    assert labkit("new-set", "labnotes", folder).code == 0
    edit(folder, "tools.csv", ABILITY, "reroll any number of available dice up to 3 times.")
    refused = labkit("validate", folder)
    assert refused.code == 1
    assert ("my-lab/tools.csv:2: column 'ability' (H): is the rule in words, which the rules do not read: the "
            "table plays 'centrifuge' as the game's own card says, so this must stay as it is") in refused.text
    edit(folder, "tools.csv", "up to 3 times.", "up to 2 times.")
    edit(folder, "tools.csv", "fume-hood,Fume Hood,gas,Carbon Dioxide,CO2,O=C=O,1,",
         "fume-hood,Extractor Fan,gas,Carbon Dioxide,CO2,O=C=O,2,")
    ok = labkit("validate", folder)
    assert ok.code == 0, ok
    assert "tools.csv: changed icons (the rules read it: a change changes play); name (printed" in ok.text
    listed = labkit("validate", "--columns", "labnotes")
    assert "ability" in listed.text and "tools.csv" in listed.text and "the rules read it" in listed.text


def test_every_games_columns_are_declared_and_the_own_sets_words_are_its_own():
    """Every column of every game's own files has a role (so validate can say what it does), and the
    game's own set passes its own words check."""
    for name, desc in registry.games().items():
        own = cardset(desc)
        if not desc.columns:
            continue   # a game from outside (tests/toygame) need not say
        for file, data in own.set_files.items():
            if file == "set.yaml":
                continue
            declared = set(desc.columns.get(file, {}))
            if file.endswith(".csv"):
                found = set(data.decode("utf-8-sig").split("\n", 1)[0].strip().split(","))
            else:
                found = set(yaml.safe_load(data) or {})
                declared = {re.split(r"[.\[]", c)[0] for c in declared}
            assert declared >= found, (name, file, found - declared)
        assert columns.words_problems(desc.columns, own.set_files, own.set_files, "x") == []


def test_words_are_kept_unless_the_rule_they_say_changes():
    """A Synthesis Pattern card's text says its rule (rule, points, group): changed alone it is refused
    (at its line), changed with its points it is the author's new words. A mutation's text in YAML is
    refused at its own line."""
    desc = registry.find("synthesis")
    own = cardset(desc).set_files
    patterns = own["patterns.csv"].decode()
    line = next(row for row in patterns.splitlines() if row.startswith("first-shell,"))
    words_only = patterns.replace(line, line.replace("3 points for each", "5 points for each"))
    mine = {**own, "patterns.csv": words_only.encode()}
    [problem] = columns.words_problems(desc.columns, mine, own, "mine")
    assert str(problem).startswith(f"mine/patterns.csv:{patterns.splitlines().index(line) + 1}: column 'text' (J)")
    with_points = words_only.replace("first-shell,First Shell,colour_at_start,3,", "first-shell,First Shell,colour_at_start,5,")
    assert with_points != words_only
    assert columns.words_problems(desc.columns, {**own, "patterns.csv": with_points.encode()}, own, "mine") == []
    dice = own["dice.yaml"].decode()
    changed = dice.replace("text: Add one line to the bond, touching it.", "text: Add two lines to the bond.")
    [problem] = columns.words_problems(desc.columns, {**own, "dice.yaml": changed.encode()}, own, "mine")
    at = dice.splitlines().index("    text: Add one line to the bond, touching it.") + 1
    assert str(problem).startswith(f"mine/dice.yaml:{at}: key 'mutation_die.1.text'") and "add_line" in str(problem)
    roles = {c.column: c.role for c in columns.changes(desc.columns, {**own, "patterns.csv": with_points.encode()},
                                                        own)}
    assert roles == {"points": RULES, "text": WORDS}
    assert columns.ROLE_WORDS[TEXT].startswith("printed")


def test_pack_refuses_an_emoji_and_a_name_too_long(broken, labkit):
    refused = labkit("pack", broken)
    assert refused.code == 1 and "was not packed" in refused.text
    refused_for_both(refused.text.splitlines())
    assert not broken.with_suffix(".zip").exists()


def test_the_servers_set_folder_and_an_upload_refuse_them_too(broken):
    from companion.card_sets import TableSets
    from companion.set_check import check

    offered, problems = TableSets(store=None, folder=broken.parent).server_sets()
    assert offered == []
    refused_for_both(problems)
    data = write_zip({p.name: p.read_bytes() for p in broken.iterdir() if p.is_file()})
    answer = check(data, "loud-lab.zip", registry.find("labnotes"), "loud-lab")
    assert answer.hash == "" and answer.zip == b""
    refused_for_both(list(answer.problems))


KINDS = {"Rules": RULES, "Print only": TEXT, "Rule in words": WORDS, "Layout": "layout"}


def test_the_authors_guide_names_every_column_of_every_game_with_what_it_does():
    """docs/authoring.md: under each game, each file, a table row for each declared column, of its kind."""
    from engine.columns import MANIFEST_COLUMNS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "authoring.md").read_text(encoding="utf-8")
    sections = re.split(r"(?m)^## ", doc)
    checked = 0
    for name, desc in registry.games().items():
        if not desc.columns:
            continue
        [game] = [s for s in sections if s.split("\n", 1)[0].endswith(f"(`{name}`)")]
        for file, cols in desc.columns.items():
            if cols is MANIFEST_COLUMNS:
                [text] = [s for s in sections if s.startswith("Every game: `game.yaml`")]
            else:
                parts = re.split(r"(?m)^### ", game)
                [text] = [p for p in parts if f"`{file}`" in p.split("\n", 1)[0]]
            found = {}
            for row in re.findall(r"(?m)^\| (`.*?) \| (.*?) \|", text):
                names = re.findall(r"`([^`]+)`", row[0])
                prefix = names[0].rsplit(".", 1)[0] + "." if "." in names[0] else ""
                kind = next(k for k in KINDS if row[1].startswith(k))
                for n in names:
                    found[prefix + n[1:] if n.startswith(".") else n] = KINDS[kind]
            for column_name, spec in cols.items():
                assert found.get(column_name) == columns.column(spec).role, (name, file, column_name)
                checked += 1
    assert checked >= 100
