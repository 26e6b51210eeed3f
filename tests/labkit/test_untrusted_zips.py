"""A zip may come from anyone (later, uploaded from a phone): it is read as
untrusted. Only the files a set may hold, nothing outside the set, nothing
over the bounds; every problem in plain words, all at once, never a
traceback (``labkit/setfiles.py``)."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from engine.data import DataError
from labkit import setfiles
from labkit.cardsets import open_set


@pytest.fixture
def good(tmp_path, labkit) -> dict[str, bytes]:
    folder = tmp_path / "source"
    assert labkit("new-set", "labnotes", folder).code == 0
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def make_zip(path: Path, files: dict[str, bytes], extra=()) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        for info, data in extra:
            archive.writestr(info, data)
    return path


def refused(labkit, path: Path) -> str:
    checked = labkit("validate", path)
    assert checked.code == 1, checked
    with pytest.raises(DataError):
        open_set(path)
    return checked.text


def test_paths_outside_the_set_links_and_strangers_are_each_refused(good, tmp_path, labkit):
    link = zipfile.ZipInfo("notecards-link.csv")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    bad = make_zip(tmp_path / "bad.zip", {**good, "../tools.csv": b"x", "/etc/dice.yaml": b"x",
                                          "sub\\sheet.yaml": b"x", "notes.txt": b"hello"},
                   [(link, b"/etc/passwd")])
    text = refused(labkit, bad)
    assert "bad.zip: '../tools.csv' climbs out of the set (..)" in text
    assert "bad.zip: '/etc/dice.yaml' is an absolute path" in text
    assert "bad.zip: 'sub\\\\sheet.yaml' has a backslash" in text or "bad.zip: 'sub\\sheet.yaml' has a backslash" in text
    assert "bad.zip: 'notecards-link.csv' is a symbolic link" in text
    assert "bad.zip/notes.txt: is not a file a Lab Notes set holds (it holds dice.yaml, game.yaml," in text
    assert "5 problems" in text  # all at once


def test_a_file_that_is_not_utf8_is_named_with_its_line(good, tmp_path, labkit):
    deck = good["notecards.csv"].replace(b"Methane", b"M\xe9thane")
    line = deck[:deck.index(b"M\xe9")].count(b"\n") + 1
    text = refused(labkit, make_zip(tmp_path / "latin1.zip", {**good, "notecards.csv": deck}))
    assert f"latin1.zip/notecards.csv:{line}: is not UTF-8 text (byte 0xe9 at character" in text
    assert "save it as UTF-8" in text


def test_over_the_bounds(good, tmp_path, labkit, monkeypatch):
    many = make_zip(tmp_path / "many.zip", {**good, **{f"x{i}.csv": b"" for i in range(setfiles.MAX_FILES)}})
    assert f"holds {setfiles.MAX_FILES + len(good)} entries, over the bound of {setfiles.MAX_FILES}" \
        in labkit("validate", many).text
    big = good["notecards.csv"] + b"\n" * setfiles.MAX_FILE_BYTES  # blank lines: fine but for the size
    text = refused(labkit, make_zip(tmp_path / "big.zip", {**good, "notecards.csv": big}))
    assert f"big.zip/notecards.csv: is {len(big):,} bytes, over the bound of {setfiles.MAX_FILE_BYTES:,}" in text
    assert "file is missing" not in text  # it is there, and refused for its size
    monkeypatch.setattr(setfiles, "MAX_TOTAL_BYTES", sum(map(len, good.values())) - 1)
    text = refused(labkit, make_zip(tmp_path / "bomb.zip", good))
    assert "bomb.zip: holds" in text and "bytes once unpacked, over the bound" in text
    monkeypatch.setattr(setfiles, "MAX_ZIP_BYTES", 100)
    text = refused(labkit, make_zip(tmp_path / "large.zip", good))
    assert "large.zip: is" in text and "over the bound of 100 for a zip" in text


def test_not_a_zip_at_all(tmp_path, labkit):
    fake = tmp_path / "fake.zip"
    fake.write_bytes(b"id,name\nwater,Water\n")
    text = refused(labkit, fake)
    assert "fake.zip: is not a zip file that can be read" in text


def test_a_damaged_entry_is_named(good, tmp_path, labkit):
    path = make_zip(tmp_path / "damaged.zip", good)
    data = bytearray(path.read_bytes())
    at = data.index(good["tools.csv"][:40])  # stored uncompressed by default: flip one byte of it
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    assert "damaged.zip/tools.csv: cannot be read from the zip (Bad CRC-32" in refused(labkit, path)


def test_a_zip_builds_like_its_folder(good, tmp_path, labkit):
    shared = make_zip(tmp_path / "shared.zip", good)
    assert open_set(shared).content_hash == setfiles.content_hash(good)


def test_a_folder_set_holds_its_files_not_links_to_others(tmp_path, labkit):
    folder = tmp_path / "linked"
    assert labkit("new-set", "labnotes", folder).code == 0
    elsewhere = tmp_path / "elsewhere.csv"
    (folder / "tools.csv").rename(elsewhere)
    (folder / "tools.csv").symlink_to(elsewhere)
    text = refused(labkit, folder)
    assert "linked/tools.csv: is a link to another file: a set holds its files themselves" in text
    assert "tools.csv: file is missing" not in text
