"""The small Markdown of the rules booklets (docs/design/booklets.md), read
into blocks that remember their line: a booklet's mistake is reported as
``file:line:column`` like a card's.

Only the subset the format names is accepted; anything that looks like
other Markdown (a ``####`` heading, a ``* `` bullet, an unclosed ``**``) is
an error rather than text printed as typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PAGEBREAK = "---pagebreak---"
FIGURE_SCHEMES = ("face", "faces", "setup", "figure")

_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_BULLET = re.compile(r"^-\s+(.*)$")
_STEP = re.compile(r"^(\d+)\.\s+(.*)$")
_FIGURE = re.compile(r"^!\[([^\]]*)\]\(([a-z]+):([^)\s]+)\)\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


class BookletError(ValueError):
    """Problems of a booklet, one per line, each ``file:line:column: message``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class Block:
    kind: str  # title, heading, para, bullets, steps, table, figure, pagebreak
    line: int
    text: str = ""
    level: int = 0
    items: list[tuple[int, str]] = field(default_factory=list)   # (line, text) of list items
    children: list["Block | None"] = field(default_factory=list)  # each item's own list, if it has one
    rows: list[list[str]] = field(default_factory=list)          # a table: header first
    scheme: str = ""
    address: str = ""


@dataclass
class Document:
    path: str
    title: str
    blocks: list[Block]

    def sections(self) -> dict[str, "Section"]:
        """Every ``##``/``###`` heading's text -> its section (a ``##`` holds its ``###``s)."""
        out: dict[str, Section] = {}
        open_: list[Section] = []
        for b in self.blocks:
            if b.kind == "heading":
                open_ = [s for s in open_ if s.level < b.level]
                sec = Section(b.text, b.level, b.line)
                out.setdefault(b.text, sec)
                open_.append(sec)
            for s in open_:
                s.blocks.append(b)
        return out

    def tables_under(self, word: str) -> list[tuple[Block, Block]]:
        """``(heading, table)`` of every table in a section whose heading contains ``word``."""
        out = []
        heading: Block | None = None
        for b in self.blocks:
            if b.kind == "heading":
                heading = b
            elif b.kind == "table" and heading is not None and word.casefold() in heading.text.casefold():
                out.append((heading, b))
        return out


@dataclass
class Section:
    heading: str
    level: int
    line: int
    blocks: list[Block] = field(default_factory=list)

    def text(self) -> str:
        """The words of the section (with its subsections), marks removed."""
        parts = []
        def words(b: Block) -> None:
            parts.append(b.text)
            parts.extend(t for _, t in b.items)
            parts.extend(" ".join(r) for r in b.rows)
            for child in b.children:
                if child is not None:
                    words(child)

        for b in self.blocks:
            words(b)
        del words  # it calls itself by name: a cycle (it and its cell) refcounting cannot free
        return plain(" ".join(parts))


READING = re.compile(r"\{R(\d+)\}")
"""A reading's mark, ``{R12}``: what follows from reading 12 of the game's
design notes where the rulebook is unclear, printed as a small raised R12."""


SET_VALUE = re.compile(r"\{set:([a-z0-9.-]+)\}")
"""A number or name the card set decides, ``{set:tool-cards}``: filled in
from the game's ``set_values(book)`` before the booklet is read, so an
author's set prints its own counts (docs/design/booklets.md)."""


def plain(text: str) -> str:
    """Text without its emphasis marks and reading marks, spaces collapsed."""
    text = READING.sub("", text)
    return re.sub(r"\s+", " ", text.replace("**", "").replace("*", "")).strip()


def readings(text: str) -> list[int]:
    """The readings ``text`` marks, in order."""
    return [int(n) for n in READING.findall(text)]


def check_inline(text: str, where: str, problems: list[str]) -> None:
    """``**`` and ``*`` must pair up within one paragraph, item or cell;
    braces only make a reading's mark."""
    bold = text.count("**")
    if bold % 2:
        problems.append(f"{where}: a '**' is not closed")
    if text.replace("**", "").count("*") % 2:
        problems.append(f"{where}: a '*' is not closed (write '×' for a times sign)")
    rest = SET_VALUE.sub("", READING.sub("", text))
    if "{" in rest or "}" in rest:
        problems.append(f"{where}: braces make a reading's mark, '{{R12}}' (reading 12 of the game's design "
                        "notes), or a value of the card set, '{set:tool-cards}'")


def parse(text: str, path: str | Path) -> Document:
    """A booklet's blocks, or :class:`BookletError` listing every problem."""
    path = str(path)
    problems: list[str] = []
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    title: str | None = None

    def at(line: int, col: int = 1) -> str:
        return f"{path}:{line}:{col}"

    while i < len(lines):
        raw = lines[i]
        line_no = i + 1
        s = raw.strip()
        if not s:
            i += 1
            continue
        if raw[0] in " \t":
            problems.append(f"{at(line_no)}: indented text outside a list item")
            i += 1
            continue
        if s == PAGEBREAK:
            blocks.append(Block("pagebreak", line_no))
            i += 1
            continue
        m = _HEADING.match(raw)
        if m:
            level = len(m.group(1))
            if level == 1:
                if title is not None or blocks:
                    problems.append(f"{at(line_no)}: the title ('# ...') comes once, first")
                title = m.group(2)
                blocks.append(Block("title", line_no, text=title))
            elif level in (2, 3):
                blocks.append(Block("heading", line_no, text=m.group(2), level=level))
            else:
                problems.append(f"{at(line_no)}: only '#', '##' and '###' headings are allowed")
            check_inline(m.group(2), at(line_no), problems)
            i += 1
            continue
        if raw.startswith("#"):
            problems.append(f"{at(line_no)}: a heading needs a space after its '#'")
            i += 1
            continue
        m = _FIGURE.match(raw)
        if m:
            caption, scheme, address = m.groups()
            if scheme not in FIGURE_SCHEMES:
                problems.append(f"{at(line_no, raw.index('(') + 2)}: unknown figure scheme {scheme!r} "
                                f"(known: {', '.join(FIGURE_SCHEMES)})")
            check_inline(caption, at(line_no), problems)
            blocks.append(Block("figure", line_no, text=caption, scheme=scheme, address=address))
            i += 1
            continue
        if raw.startswith("!["):
            problems.append(f"{at(line_no)}: a figure is '![Caption](scheme:address)' alone on its line")
            i += 1
            continue
        if raw.startswith("|"):
            block, i = _table(lines, i, at, problems)
            if block is not None:
                blocks.append(block)
            continue
        if _BULLET.match(raw) or _STEP.match(raw):
            block, i = _list(lines, i, at, problems)
            blocks.append(block)
            continue
        if raw.startswith(("* ", "+ ")):
            problems.append(f"{at(line_no)}: bullets start with '- '")
            i += 1
            continue
        # a paragraph: until a blank line or the start of another block
        start, words = line_no, []
        while i < len(lines) and lines[i].strip() and not _starts_block(lines[i]):
            words.append(lines[i].strip())
            i += 1
        para = " ".join(words)
        check_inline(para, at(start), problems)
        blocks.append(Block("para", start, text=para))
    if title is None:
        problems.append(f"{path}:1:1: a booklet starts with its title, '# ...'")
    if problems:
        raise BookletError(problems)
    return Document(path, title or "", blocks)


def _starts_block(raw: str) -> bool:
    s = raw.strip()
    return (raw[0] not in " \t" and (raw.startswith(("#", "|", "![", "- ", "* ")) or bool(_STEP.match(raw))
                                     or s == PAGEBREAK))


def _list(lines: list[str], i: int, at, problems: list[str], depth: int = 0) -> tuple[Block, int]:
    """A list from line ``i``; an item's lines indented by 2 or more spaces
    continue it, or (starting ``- `` or ``1. ``) make its own list, one level deep."""
    first = lines[i]
    kind = "bullets" if _BULLET.match(first) else "steps"
    pattern = _BULLET if kind == "bullets" else _STEP
    block = Block(kind, i + 1)
    while i < len(lines):
        raw = lines[i]
        m = pattern.match(raw)
        if not m:
            break
        line_no = i + 1
        if kind == "steps":
            number, text = int(m.group(1)), m.group(2)
            if number != len(block.items) + 1:
                problems.append(f"{at(line_no)}: step {number} should be numbered {len(block.items) + 1}")
        else:
            text = m.group(1)
        i += 1
        child: Block | None = None
        while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
            inner = lines[i].strip()
            if _BULLET.match(inner) or _STEP.match(inner):
                if depth > 0 or child is not None:
                    problems.append(f"{at(i + 1)}: a list inside a list item goes one level deep, in one piece")
                    i += 1
                    continue
                indent = len(lines[i]) - len(lines[i].lstrip(" "))
                sub = []
                j = i
                while j < len(lines) and lines[j].startswith(" " * indent) and lines[j].strip():
                    sub.append(lines[j][indent:])
                    j += 1
                # parse the dedented lines with their real line numbers
                child, used = _list([""] * i + sub, i, at, problems, depth + 1)
                i = used
                continue
            text += " " + inner
            i += 1
        check_inline(text, at(line_no), problems)
        block.items.append((line_no, text.strip()))
        block.children.append(child)
    other = _STEP if kind == "bullets" else _BULLET
    if i < len(lines) and other.match(lines[i]):
        problems.append(f"{at(i + 1)}: bullets and numbered steps need a blank line between them")
    return block, i


def _cells(raw: str) -> list[str]:
    s = raw.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def _table(lines: list[str], i: int, at, problems: list[str]) -> tuple[Block | None, int]:
    start = i + 1
    rows: list[tuple[int, str]] = []
    while i < len(lines) and lines[i].startswith("|"):
        rows.append((i + 1, lines[i]))
        i += 1
    if len(rows) < 2 or not _TABLE_RULE.match(rows[1][1]):
        problems.append(f"{at(start)}: a table is a header row, a '|---|---|' rule, then its rows")
        return None, i
    header = _cells(rows[0][1])
    out = [header]
    for line_no, raw in rows[2:]:
        cells = _cells(raw)
        if len(cells) != len(header):
            problems.append(f"{at(line_no)}: this row has {len(cells)} cells, the header {len(header)}")
            continue
        for c in cells:
            check_inline(c, at(line_no), problems)
        out.append(cells)
    if len(out) < 2:
        problems.append(f"{at(start)}: a table needs at least one row under its header")
    return Block("table", start, rows=out), i
