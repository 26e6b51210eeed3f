"""Text that must fit its box: templates lay text out through :func:`textbox`
and :func:`fit_line`, which shrink it down to a smallest readable size and,
when even that is not enough, report the overflow instead of letting the
text run over the next thing on the card.

The generator collects the reports for each face it renders (with the card
the face shows), and turns them into data problems naming the file, the line
and the column, before anything is printed.

>>> with collecting() as found:
...     box = textbox("A short fact.", width=40, height=10, size=3.2, field="fact")
>>> len(box["lines"]), found
(1, [])
>>> with collecting() as found:
...     box = textbox("word " * 200, width=40, height=10, size=3.2, field="fact")
>>> found[0].field, "characters too long" in found[0].message
('fact', True)
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

from generator import fonts

PT_PER_MM = 72 / 25.4
MIN_SIZE_MM = 2.2
"""About 6.2 pt: the smallest type worth printing on a card."""


@dataclass(frozen=True)
class Overflow:
    field: str | None
    """The data column the text came from (``None``: the template's own text)."""
    message: str


_found: ContextVar[list[Overflow] | None] = ContextVar("labkit_overflows", default=None)


@contextmanager
def collecting() -> Iterator[list[Overflow]]:
    """Collect every overflow reported while rendering inside the block."""
    found: list[Overflow] = []
    token = _found.set(found)
    try:
        yield found
    finally:
        _found.reset(token)


def report(field: str | None, message: str) -> None:
    found = _found.get()
    if found is None:
        raise ValueError(f"text does not fit ({field or 'template text'}): {message}")
    found.append(Overflow(field, message))


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` at font ``size`` (same units)."""
    lines: list[str] = []
    line = ""
    for word in str(text).split():
        trial = f"{line} {word}" if line else word
        if line and fonts.text_width(trial, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _fits(text: str, width: float, height: float, size: float, bold: bool, leading: float) -> list[str] | None:
    lines = wrap(text, width, size, bold)
    if len(lines) * size * leading - (leading - 1) * size > height + 1e-9:
        return None
    if any(fonts.text_width(line, size, bold) > width + 1e-9 for line in lines):
        return None  # one word wider than the box
    return lines


def _pt(mm: float) -> str:
    return f"{mm * PT_PER_MM:.1f} pt"


def textbox(text: str, width: float, height: float, size: float, *, min_size: float | None = None,
            bold: bool = False, leading: float = 1.25, field: str | None = None) -> dict:
    """Lines of ``text`` wrapped into a ``width`` x ``height`` box (mm), at
    ``size`` or smaller down to ``min_size``: ``{"lines", "size", "step"}``.
    Too much text is reported (:func:`report`), with how many characters
    too long it is."""
    text = " ".join(str(text).split())
    smallest = min(size, min_size if min_size is not None else max(MIN_SIZE_MM, size * 0.75))
    s = size
    while True:
        lines = _fits(text, width, height, s, bold, leading)
        if lines is not None:
            return {"lines": lines, "size": s, "step": s * leading}
        if s <= smallest:
            break
        s = max(smallest, s * 0.94)
    # The longest prefix that fits at the smallest size says how much is too much.
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(text[:mid], width, height, smallest, bold, leading) is not None:
            lo = mid
        else:
            hi = mid - 1
    report(field, f"is {len(text) - lo} characters too long for its {width:g} x {height:g} mm box "
                  f"(about {lo} of {len(text)} fit, at the smallest type, {_pt(smallest)}): shorten it")
    lines = _fits(text[:lo], width, height, smallest, bold, leading) or []
    return {"lines": lines, "size": smallest, "step": smallest * leading}


def fit_line(text: str, width: float, size: float, bold: bool = False, *, min_size: float | None = None,
             field: str | None = None) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width`` on one
    line; below ``min_size`` it is reported as too long."""
    text = str(text)
    w = fonts.text_width(text, size, bold)
    if w <= width:
        return size
    smallest = min(size, min_size if min_size is not None else max(MIN_SIZE_MM, size * 0.6))
    fitted = size * width / w
    if fitted >= smallest:
        return fitted
    fit_chars = len(text)
    while fit_chars and fonts.text_width(text[:fit_chars], smallest, bold) > width:
        fit_chars -= 1
    report(field, f"is {len(text) - fit_chars} characters too long for its {width:g} mm line "
                  f"(about {fit_chars} of {len(text)} fit, at the smallest type, {_pt(smallest)}): shorten it")
    return smallest
