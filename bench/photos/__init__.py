"""The photo set: printed sheets filled by hand from games the engine played
to the end, photographed as a phone does (:mod:`bench.photos.camera`), each
with the truth of every mark; and how a reading compares with it
(:func:`judge`). ``make bench`` (``bench/reader_bench.py``) and the reader's
tests use it; docs/design/reader.md says how it is made.

Two parts that never mix: the **tuning** part (seeds from
:data:`TUNING_SEED`, hands in the training fonts and stroke letters) is the
only one any threshold was set on; the **held-out** part (seeds from
:data:`HELD_OUT_SEED`, hands in the fonts the classifier never saw) is
only measured.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from bench.photos.camera import KINDS, Shot, photograph

TUNING_SEED = 1000
HELD_OUT_SEED = 900000
FACE_PX = 14.0
"""The filled sheet is drawn at this many pixels a mm before it is photographed."""


@dataclass
class Sample:
    game: str
    seed: int
    kind: str
    held_out: bool
    shot: Shot
    data: dict[str, Any]
    """The sheet as written, in the game's paper format: the truth."""
    truth: dict[tuple[str, str], Any]
    face: Any


def _parts(game: str):
    from labkit import cardsets, registry
    from reader.read import game_reader

    gr = game_reader(game)
    return cardsets.new_game(registry.find(game)), gr, importlib.import_module(gr.fill)


def sample(game: str, index: int, kind: str, held_out: bool, size: tuple[int, int] = (4000, 3000),
           face_px: float = FACE_PX) -> Sample:
    """Photo ``index`` of the tuning or held-out part, with much of ``kind``."""
    from reader import maps

    play, _, fill = _parts(game)
    seed = (HELD_OUT_SEED if held_out else TUNING_SEED) + index
    rng = np.random.default_rng([seed, KINDS.index(kind), int(held_out)])
    data = fill.finished(play, seed)
    component, piece, side = fill.sheet(data)
    face = maps.face(game, component, piece, side)
    page = maps.blank(face, face_px).astype(np.float32) / 255.0
    page = np.array(page)
    fill.draw(page, face, face_px, data, rng, held_out)
    shot = photograph(page, face_px, rng, kind, size, keep=[m.bounds for m in face.read])
    return Sample(game, seed, kind, held_out, shot, data, fill.truth(data, face), face)


@dataclass
class Judged:
    right: dict[str, list[int]]
    """Per figure (``elements``, ``bond orders`` ...): ``[read right, marks]``."""
    score_right: bool
    score_right_after: bool
    """Right once the marks the reader was unsure of are corrected (and only those)."""
    asked: int
    wrong: list[str]


def score(game: str, data: dict[str, Any]) -> int | None:
    from engine.core import InvalidState

    play, _, _ = _parts(game)
    from labkit import registry

    tool = registry.find(game).tool("score")
    try:
        return int(tool.run(play, data).data["total"])
    except InvalidState:
        return None


def judge(s: Sample, reading: Any) -> Judged:
    """A reading against the truth: each mark, the score as read, the score
    after the player fixed what they were asked about."""
    play, gr, fill = _parts(s.game)
    right: dict[str, list[int]] = {}
    wrong = []
    fixed = []
    for r in reading.marks:
        want = s.truth.get((r.kind, r.name))
        ok = r.value == want
        tally = right.setdefault(fill.category(r.kind, want), [0, 0])
        tally[0] += ok
        tally[1] += 1
        if not ok:
            wrong.append(f"{r.kind} {r.name}: read {r.value!r}, is {want!r}{' (asked)' if r.unsure else ''}")
        fixed.append(replace(r, value=want) if r.unsure else r)
    truth_score = score(s.game, s.data)
    read_score = score(s.game, reading.data)
    after = score(s.game, gr.data(reading, fixed, play))
    return Judged(right, read_score is not None and read_score == truth_score,
                  after is not None and after == truth_score, len(reading.unsure), wrong)
