"""``labkit read GAME PHOTO``: the marks to check, the sheet in its paper
format (``--out`` keeps it, for ``labkit score``) and its score; a photo it
cannot read ends in the reader's sentence and a non-zero exit."""

from __future__ import annotations

import json

from click.testing import CliRunner

from labkit.cli import main
from tests.reader.conftest import fonts_or_skip, held_out


def test_a_photo_is_read_and_kept_in_the_paper_format(tmp_path):
    fonts_or_skip()
    s = held_out("synthesis", 0, "white", size=(3000, 2250))   # the board's code read: a phone's resolution
    photo, out = tmp_path / "board.jpg", tmp_path / "board.json"
    photo.write_bytes(s.shot.jpeg)
    result = CliRunner().invoke(main, ["read", "synthesis", str(photo), "--out", str(out)])
    assert result.exit_code == 0, result.output
    sheet = json.loads(out.read_text())
    assert sheet["board"] == s.data["board"] and sheet["side"] == s.data["side"]
    assert "points" in result.output and "marks read" in result.output
    scored = CliRunner().invoke(main, ["score", "synthesis", str(out)])
    assert scored.exit_code == 0, scored.output


def test_a_photo_it_cannot_read_says_why(tmp_path):
    photo = tmp_path / "nothing.jpg"
    photo.write_bytes(b"\xff\xd8\xff not a jpeg")
    result = CliRunner().invoke(main, ["read", "labnotes", str(photo)])
    assert result.exit_code == 1
    assert "not a photo this reader can open" in result.output
