"""The classifier's training command runs, on a tiny sample (the committed
weights come from the full one, ``make reader-model``), and what it writes
is what the reader loads."""

from __future__ import annotations

import numpy as np

from reader import letters, train
from tests.reader.conftest import fonts_or_skip


def test_the_training_command_writes_weights_the_reader_runs(tmp_path, monkeypatch):
    fonts_or_skip()
    out = tmp_path / "letters.npz"
    assert train.main(["--per-class", "12", "--out", str(out)]) == 0
    monkeypatch.setattr(letters, "WEIGHTS", out)
    letters._weights.cache_clear()
    try:
        rng = np.random.default_rng(5)
        x = letters.features(train.sample("O", train.pen.random_hand(rng, held_out=False, fonts=False), rng))
        probs = letters.classify(x[None, :])
        assert probs.shape == (1, len(letters.CLASSES)) and abs(float(probs.sum()) - 1) < 1e-5
    finally:
        letters._weights.cache_clear()


def test_the_committed_weights_read_letters_built_from_strokes():
    """The shipped weights, on letters from strokes (no font needed): nearly all read right."""
    assert letters.WEIGHTS.exists(), "reader/letters.npz is committed: make reader-model writes it"
    rng = np.random.default_rng(11)
    right = total = 0
    idx = [letters.CLASSES.index(c) for c in "HONC"]
    for _ in range(25):
        hand = train.pen.random_hand(rng, held_out=False, fonts=False)
        for ch in "HONC":
            x = letters.features(train.sample(ch, hand, rng))
            probs = letters.classify(x[None, :])[0]
            right += "HONC"[int(np.argmax(probs[idx]))] == ch
            total += 1
    assert right / total >= 0.95, f"{right} of {total}"
