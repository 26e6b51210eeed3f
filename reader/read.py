"""Read a photo of a game's printed sheet: ``read(game, photo)``, what
``labkit read GAME PHOTO`` and the companion's paper pages call.

The game is found through its descriptor's ``reader``: a module in
``reader/games/<game>/`` whose ``READER`` (:class:`GameReader`) reads the
rectified sheet into the game's paper format, marks the readings its rules
refuse as unsure, and names its pieces.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from reader import maps, page
from reader.page import Refused, Sheet
from reader.reading import Read, Reading
from reader.sheetcode import SheetCode

PICTURE_PX_PER_MM = 4.0
"""The picture the phone draws the reading over: enough to see a letter, small to send."""


@dataclass(frozen=True)
class GameReader:
    read: Callable[[Sheet, Any, dict[str, Any]], Reading]
    """``read(sheet, play, hint)``: the marks and the paper format; ``play`` the rules bound to the card set."""
    data: Callable[[Reading, list[Read], Any], dict[str, Any]]
    """``data(reading, reads, play)``: the paper format from marks' values (after a player fixed some)."""
    words: Callable[[Read, Any], str] = lambda read, value: "empty" if value is None else str(value)
    """A mark's value in a player's words (``red``, ``double bond``), for the phone."""
    fill: str | None = None
    """The module that fills the sheet by hand for the photo set (``bench/photos``): its
    ``finished(play, seed)`` plays a game to the end and gives a seat's sheet in the paper
    format, ``truth(data, face)`` that sheet's value of every mark, and ``draw(page, face,
    px, data, rng, held_out)`` writes it onto the blank face as players' pens do."""
    piece_matters: bool = False
    """Whether the sheet's piece (a board's letter) changes what is read: then an unreadable code
    needs a hint (``hint["piece"]``) or the photo is refused."""
    piece_words: str = "piece"
    """What a piece is called on the page (``board``)."""


def game_reader(game: str) -> GameReader:
    from labkit import registry

    descriptor = registry.find(game)
    if not getattr(descriptor, "reader", None):
        raise Refused("no-reader", f"{descriptor.title} has no sheet that can be read from a photo.")
    return importlib.import_module(descriptor.reader).READER


def read(game: str, photo: bytes | np.ndarray, *, cardset: Any = None, hint: dict[str, Any] | None = None
         ) -> Reading:
    """Read ``photo`` (a file's bytes, or BGR pixels) as a sheet of ``game``.
    ``cardset``: the table's card set (default: the rulebook's); ``hint``:
    what the page already knows (``piece``: the board's letter, used when the
    code cannot be read). Raises :class:`Refused` with the sentence to show."""
    from labkit import cardsets, registry

    started = time.process_time()
    gr = game_reader(game)
    hint = dict(hint or {})
    image = page.decode_photo(photo) if isinstance(photo, (bytes, bytearray)) else photo
    descriptor = registry.find(game)
    cs = cardset if cardset is not None else cardsets.cardset(descriptor)
    kinds = maps.sheet_kinds()

    def face_of(kind: maps.SheetKind, side: int, code: SheetCode | None, final: bool) -> maps.FaceMap:
        """The face's map: for the markers' places any piece will do; the
        last call names the piece (from the code, else the hint)."""
        piece = code.piece if code is not None else str(hint.get("piece") or "-").lower()
        if final and code is None and piece == "-" and gr.piece_matters:
            raise Refused("no-code", f"The code beside the sheet's title could not be read: choose the "
                          f"{gr.piece_words} on the page, then take the photo again.")
        try:
            return maps.face(kind.game, kind.component, piece, side, cs if kind.game == game else None)
        except KeyError:
            raise Refused("no-code", f"This sheet names a {gr.piece_words} ({piece.upper()}) that the card set "
                          f"in play does not have.") from None

    located = page.locate(image, game, kinds, face_of)
    reading = gr.read(located, cs.play, hint)
    reading.code = located.code.text if located.code else None
    reading.notes = located.notes + reading.notes
    if located.code is None:
        reading.notes.append(f"the sheet's code could not be read; read as {gr.piece_words} "
                             f"{str(hint.get('piece', '-')).upper()}")
    reading.picture, reading.picture_mm = picture(located)
    reading.places = {f"{m.kind} {m.name}": next((k, v) for k, v in (("box", m.box), ("circle", m.circle),
                                                                      ("line", m.line)) if v is not None)
                      for m in located.face.read}
    reading.seconds = time.process_time() - started
    return reading


def picture(sheet: Sheet) -> tuple[bytes, tuple[float, float, float, float]]:
    """The rectified sheet as a small JPEG, and where it lies on the face (mm)."""
    import cv2

    h, w = sheet.photo.shape[:2]
    scale = PICTURE_PX_PER_MM / sheet.px
    small = cv2.resize(np.clip(sheet.photo, 0, 1) * 255, (int(w * scale), int(h * scale)),
                       interpolation=cv2.INTER_AREA).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(small, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return (data.tobytes() if ok else b""), (sheet.origin[0], sheet.origin[1], w / sheet.px, h / sheet.px)
