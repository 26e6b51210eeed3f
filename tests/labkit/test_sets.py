"""A card set is a folder you can share: made from a game's own data with
``labkit new-set``, checked, printed, packed into one zip that is read back
as the same set (the same content hash), from a folder or a zip alike."""

from __future__ import annotations

import zipfile

import pytest

from labkit import registry
from labkit.cardsets import cardset, open_set
from labkit.setfiles import SET_MANIFEST, SetInfo, content_hash, write_zip

EDITS = {  # one card changed in each game: (file, old text, new text)
    "labnotes": ("notecards.csv", "Methane,", "Marsh Gas,"),
    "compounded": ("compounds.csv", "Hydrogen,", "Dihydrogen,"),
    "organicsoup": ("recipes.csv", "Hydrogen,", "Dihydrogen,"),
    "synthesis": ("patterns.csv", "Isomers,", "Isomer Sets,"),
}


def test_every_game_has_an_edit():
    assert set(EDITS) == {name for name in registry.names() if name != "toyrace"}


@pytest.mark.parametrize("game", sorted(EDITS))
def test_a_set_is_made_changed_validated_built_packed_and_read_back(game, tmp_path, labkit):
    folder = tmp_path / "my-set"
    made = labkit("new-set", game, folder, "--author", "Ann Author", "--licence", "CC-BY-4.0")
    assert made.code == 0, made
    desc = registry.find(game)
    own = cardset(desc)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*own.set_files, SET_MANIFEST])
    info = SetInfo.model_validate(__import__("yaml").safe_load((folder / SET_MANIFEST).read_text()))
    assert (info.name, info.author, info.licence, info.game) == ("my-set", "Ann Author", "CC-BY-4.0", game)
    assert info.based_on.content_hash == own.content_hash

    name, old, new = EDITS[game]
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    checked = labkit("validate", folder)
    assert checked.code == 0, checked

    packed = labkit("pack", folder)
    assert packed.code == 0, packed
    zipped = tmp_path / "my-set.zip"
    first = zipped.read_bytes()
    assert labkit("pack", folder).code == 0
    assert zipped.read_bytes() == first  # the same content, the same bytes
    with zipfile.ZipFile(zipped) as archive:
        names = archive.namelist()
        assert names == sorted(names) and SET_MANIFEST in names
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}

    from_folder, from_zip = open_set(folder), open_set(zipped)
    assert from_zip.content_hash == from_folder.content_hash == content_hash(from_folder.set_files)
    assert from_zip.content_hash != own.content_hash
    assert from_zip.info == from_folder.info == info
    assert new.rstrip(",") in from_zip.files.files[name].decode()
    assert from_zip.play.title == desc.title  # ready to play

    out = tmp_path / "out"
    built = labkit("build", "--data", zipped, "--paper", "a4", "--layout", "grid", "--no-svg", "--no-backs",
                   "--out", out)
    assert built.code == 0, built
    assert list((out / game / "a4").glob("*.pdf"))


def test_a_zipped_folder_reads_as_the_set_and_computer_litter_is_skipped(tmp_path, labkit):
    folder = tmp_path / "mine"
    assert labkit("new-set", "labnotes", folder).code == 0
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    by_hand = tmp_path / "by-hand.zip"
    with zipfile.ZipFile(by_hand, "w") as archive:  # as a file manager zips a folder
        archive.writestr("mine/", b"")
        for name, data in reversed(sorted(files.items())):
            archive.writestr(f"mine/{name}", data)
        archive.writestr("__MACOSX/mine/._notecards.csv", b"\x00\x05")
        archive.writestr("mine/.DS_Store", b"\x00\x00\x00\x01Bud1")
    assert open_set(by_hand).content_hash == open_set(folder).content_hash == content_hash(files)
    assert labkit("validate", by_hand).code == 0


def test_new_set_refuses_a_folder_that_holds_files(tmp_path, labkit):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    refused = labkit("new-set", "labnotes", folder)
    assert refused.code == 1
    assert "already holds files" in refused.text and "nothing of yours is overwritten" in refused.text
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert labkit("new-set", "labnotes", empty).code == 0


def test_the_content_hash_covers_names_and_bytes():
    base = {"a.csv": b"id\n1\n", "game.yaml": b"game: x\n"}
    assert content_hash(base) == content_hash(dict(reversed(list(base.items()))))
    assert content_hash(base) != content_hash({**base, "a.csv": b"id\n2\n"})
    assert content_hash(base) != content_hash({"b.csv": b"id\n1\n", "game.yaml": b"game: x\n"})
    assert content_hash({"ab": b"c"}) != content_hash({"a": b"bc"})
    assert write_zip(base) == write_zip(dict(reversed(list(base.items()))))


def test_pack_refuses_a_broken_set_and_names_the_problem(tmp_path, labkit):
    folder = tmp_path / "broken"
    assert labkit("new-set", "labnotes", folder).code == 0
    deck = folder / "notecards.csv"
    deck.write_text(deck.read_text().replace(",CH4,C,", ",CH5,C,", 1))
    refused = labkit("pack", folder)
    assert refused.code == 1
    assert "was not packed" in refused.text and "notecards.csv:3: column 'formula'" in refused.text and "CH5" in refused.text
    assert not (tmp_path / "broken.zip").exists()


def test_set_yaml_must_name_the_same_game(tmp_path, labkit):
    folder = tmp_path / "mixed"
    assert labkit("new-set", "labnotes", folder).code == 0
    manifest = folder / SET_MANIFEST
    manifest.write_text(manifest.read_text().replace("game: labnotes", "game: synthesis"))
    checked = labkit("validate", folder)
    assert checked.code == 1
    assert "set.yaml:1: key 'game': expected 'labnotes' (the game game.yaml names), found 'synthesis'" in checked.text
