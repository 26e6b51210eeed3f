"""A progress line on stderr for long runs (``labkit balance``, ``labkit
play``): on a terminal one line rewritten in place; elsewhere (a log, a CI
job) a line at most every :data:`EVERY` seconds and at each tenth of the
work, so a long run is never silent and never floods.

>>> import io
>>> out = io.StringIO()
>>> line = ProgressLine(out, clock=iter([0, 1, 2, 3]).__next__)
>>> line("bot games", 5, 10); line("bot games", 10, 10)
>>> print(out.getvalue().strip())
bot games: 5 of 10 (50%), 1 s, about 1 s left
bot games: 10 of 10 (100%), 2 s
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

EVERY = 10.0
"""Seconds between lines where the line cannot be rewritten."""


class ProgressLine:
    def __init__(self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream or sys.stderr
        self.clock = clock
        self.start = clock()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.last = (None, -1, -EVERY)  # stage, tenth, time

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = self.clock() - self.start
        tenth = 10 * done // max(total, 1)
        left = ""
        if 0 < done < total:
            left = f", about {now * (total - done) / done:,.0f} s left"
        text = f"{stage}: {done:,} of {total:,} ({done / max(total, 1):.0%}), {now:,.0f} s{left}"
        if self.tty:
            self.stream.write("\r" + text.ljust(78)[:120] + ("\n" if done >= total else ""))
            self.stream.flush()
            return
        stage_was, tenth_was, when = self.last
        if stage != stage_was or tenth != tenth_was or now - when >= EVERY or done >= total:
            self.stream.write(text + "\n")
            self.stream.flush()
            self.last = (stage, tenth, now)
