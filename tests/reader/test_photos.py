"""The reader on generated photos of every kind of distortion, from the
held-out part of the photo set (hands in fonts the classifier never saw,
never tuned on): a fixed seeded sample, one photo of each kind for each
game, read within the goals of issue 40 (``make bench`` measures the same
on more photos)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bench import photos
from bench.photos.camera import KINDS
from reader.read import read
from tests.reader.conftest import fonts_or_skip, held_out

GOALS = {"cells and boxes": 0.995, "elements": 0.98, "bond orders": 0.97, "other marks": 0.99}


@pytest.mark.parametrize("game", ["synthesis", "labnotes"])
def test_every_kind_of_photo_is_read_within_the_goals(game):
    fonts_or_skip()
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    after = asked = 0
    misses = []
    for kind in KINDS:
        s = held_out(game, 0, kind)
        reading = read(game, s.shot.jpeg, hint={"piece": s.data.get("board")})
        j = photos.judge(s, reading)
        for figure, (ok, n) in j.right.items():
            right[figure][0] += ok
            right[figure][1] += n
        after += j.score_right_after
        asked += j.asked
        misses += [f"{kind}: {w}" for w in j.wrong]
    for figure, (ok, n) in right.items():
        assert ok / n >= GOALS[figure], f"{figure}: {ok} of {n} read right; misses: {misses}"
    assert after >= len(KINDS) - 1, f"the score is right after the asked fixes on {after} of {len(KINDS)}: {misses}"
    assert asked / len(KINDS) <= 3, f"{asked} marks asked about on {len(KINDS)} sheets"
