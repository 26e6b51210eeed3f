"""Card data files read into typed models, with errors that say where.

Decks are CSV (one row per card, edited in a spreadsheet); structured parts
(sheets, boards, dice) are YAML. A bad file gives every problem at once, each
naming the file, the line, the column, what was expected and what was found:

    my-set/cards.csv:7: column 'points': expected a whole number, found 'six'

No I/O here: :class:`CardFiles` holds the bytes someone else read.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

M = TypeVar("M", bound=BaseModel)


class Model(BaseModel):
    """Base of card data models: unknown fields are errors (a typo in a column
    name must not silently drop a value from a printed card)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int | None
    column: str | None
    message: str
    label: str = "column"  # "key" in YAML files
    number: int | None = None
    """A CSV column's place in its file's header, counted from 1, shown as
    a spreadsheet names it (A, B, ... Z, AA; see :meth:`CardFiles.numbered`)."""

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.column and self.number:
            return f"{where}: {self.label} '{self.column}' ({spreadsheet_column(self.number)}): {self.message}"
        if self.column:
            return f"{where}: {self.label} '{self.column}': {self.message}"
        return f"{where}: {self.message}"


def spreadsheet_column(number: int) -> str:
    """A column's number as a spreadsheet heads it: 1 is A, 26 Z, 27 AA.

    >>> [spreadsheet_column(n) for n in (1, 4, 26, 27, 53)]
    ['A', 'D', 'Z', 'AA', 'BA']
    """
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class DataError(ValueError):
    """One or more problems in card data; ``str()`` lists them all."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems), key=lambda p: (p.path, p.line or 0, p.column or ""))
        super().__init__("\n".join(str(p) for p in self.problems))


# --- turning pydantic's errors into sentences -----------------------------------
_EXPECTED = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "bool_parsing": "yes or no",
    "string_type": "text",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "int_type": "a whole number",
}


def _found(value: Any) -> str:
    if value is None or value == "":
        return "nothing"
    return repr(value) if isinstance(value, str) else repr(value)


def describe(error: dict[str, Any]) -> str:
    """One pydantic error as 'expected X, found Y'."""
    kind = error["type"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "expected a value, found nothing"
    if kind == "extra_forbidden":
        return "is not a known field (check the spelling)"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, found {_found(value)}"
    if kind in ("literal_error", "enum"):
        return f"expected {ctx.get('expected', 'one of the listed values')}, found {_found(value)}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        words = {"greater_than_equal": "at least", "greater_than": "more than",
                 "less_than_equal": "at most", "less_than": "less than"}[kind]
        bound = next(iter(ctx.values()))
        return f"expected a number {words} {bound}, found {_found(value)}"
    if kind in ("string_too_short", "too_short"):
        return f"expected {'text' if kind == 'string_too_short' else 'more entries'}, found {_found(value)}"
    if kind == "string_pattern_mismatch":
        return f"expected text matching {ctx.get('pattern')}, found {_found(value)}"
    if kind == "value_error":
        msg = str(ctx.get("error", error.get("msg", "")))
        return msg
    return f"{error.get('msg', kind)}, found {_found(value)}"


# --- card files ------------------------------------------------------------------
UTF8_HINT = "save it as UTF-8 (in LibreOffice: File > Save As, tick 'Edit filter settings', Character set: Unicode (UTF-8))"


class CardFiles:
    """The raw files of one card set, by file name, as a game's loader reads
    them: bytes in, typed models or problems out. Reading the files from a
    folder happens outside the engine (:mod:`labkit.cardsets`); a test can
    hand text straight in.

    >>> files = CardFiles({"deck.csv": b"id,points\\nwater,three\\n"}, "my-set")
    >>> class Card(Model):
    ...     id: str
    ...     points: int
    >>> problems = []
    >>> files.table("deck.csv", Card, problems)
    []
    >>> print(problems[0])
    my-set/deck.csv:2: column 'points': expected a whole number, found 'three'
    """

    def __init__(self, files: Mapping[str, bytes | str], folder: str = ".") -> None:
        self.files = dict(files)
        self.folder = folder.rstrip("/") or "."
        self.read: dict[str, list[tuple[int, Any]]] = {}
        """Every row and document read, by file, as ``(line, model)``: where a
        card came from, for checks made after parsing (text that will not fit)."""

    def numbered(self, problems: Iterable[Problem]) -> list[Problem]:
        """``problems`` with each CSV column's number beside its name, read
        from that file's header (an author finds a column by its number in a
        spreadsheet; the checks that find a problem know only its name)."""
        headers = {}
        for name, raw in self.files.items():
            if name.endswith(".csv"):
                text = raw if isinstance(raw, str) else raw.decode("utf-8-sig", "replace")
                first = next(csv.reader(io.StringIO(text.removeprefix("\ufeff").split("\n", 1)[0])), [])
                headers[self.shown(name)] = [h.strip() for h in first]
        out = []
        for p in problems:
            header = headers.get(p.path)
            top = p.column.split(".", 1)[0] if p.column else None
            if header and top in header and p.number is None:
                p = replace(p, number=header.index(top) + 1)
            out.append(p)
        return out

    def origin(self, model: Any) -> tuple[str, int] | None:
        """The file and line a model was read from (``None`` if not from here)."""
        for name, rows in self.read.items():
            for line, m in rows:
                if m is model:
                    return name, line
        return None

    def shown(self, name: str) -> str:
        """The file as a person would type it."""
        return name if self.folder == "." else f"{self.folder}/{name}"

    def __contains__(self, name: object) -> bool:
        return name in self.files

    def text(self, name: str, problems: list[Problem]) -> str | None:
        """A file's text, or ``None`` with the problem recorded (missing, not UTF-8)."""
        raw = self.files.get(name)
        if raw is None:
            problems.append(Problem(self.shown(name), None, None, "file is missing"))
            return None
        if isinstance(raw, str):
            return raw.removeprefix("\ufeff")
        try:
            return raw.decode("utf-8-sig")  # spreadsheets add a BOM
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            problems.append(Problem(self.shown(name), line, None,
                                    f"is not UTF-8 text (byte 0x{raw[exc.start]:02x} at character {column}): "
                                    + UTF8_HINT))
            return None

    def table(self, name: str, model: type[M], problems: list[Problem]) -> list[tuple[int, M]]:
        """The good rows of a CSV deck as ``(line, model)``; the bad ones add
        to ``problems``, so that a loader can check the good rows further and
        still report everything at once."""
        text = self.text(name, problems)
        if text is None:
            return []
        rows, bad = parse_csv(text, self.shown(name), model)
        problems.extend(bad)
        if rows or not bad:  # read as a table (a bad header reads nothing: checks of the whole deck wait)
            self.read[name] = list(rows)
        return rows

    def document(self, name: str, model: type[M], problems: list[Problem]) -> M | None:
        """A YAML file as one model, or ``None`` with its problems recorded."""
        text = self.text(name, problems)
        if text is None:
            return None
        try:
            doc = parse_yaml(text, self.shown(name), model)
        except DataError as exc:
            problems.extend(exc.problems)
            return None
        self.read[name] = [(1, doc)]
        return doc


# --- CSV ------------------------------------------------------------------------
_TRUE = {"yes", "y", "true", "1", "x"}
_FALSE = {"no", "n", "false", "0", ""}
_OTHER_SEPARATORS = {";": "semicolons (;)", "\t": "tabs"}


def _unclosed_quote(text: str) -> int | None:
    """The line where a quoted cell opens and is never properly closed: its
    closing quote never comes, or comes followed by something else than a
    comma or the end of the line (a spreadsheet writes ``"..."`` whole)."""
    inside, opened, line, start_of_cell = False, 0, 1, True
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if inside:
            if ch == '"':
                if text[i + 1:i + 2] == '"':
                    i += 1  # "" inside quotes is one quote
                else:
                    inside = False
                    if text[i + 1:i + 2] not in ("", ",", "\n", "\r"):
                        return opened
            elif ch == "\n":
                line += 1
        elif ch == '"' and start_of_cell:
            inside, opened = True, line
        elif ch == "\n":
            line += 1
        start_of_cell = not inside and ch in ",\n"
        i += 1
    return opened if inside else None


def parse_csv(text: str, shown: str, model: type[M]) -> tuple[list[tuple[int, M]], list[Problem]]:
    """Rows of a deck file as ``(line, model)`` pairs, and the problems of the
    bad ones. Empty cells are left out, so the model's default applies; a
    header that names an unknown column, or lacks a required one, is one
    problem about line 1, not one per row."""
    problems: list[Problem] = []
    opened = _unclosed_quote(text)
    if opened is not None:
        return [], [Problem(shown, opened, None, 'a quoted cell opens here (") and is never closed: '
                                                 "add the closing quote")]
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        return [], [Problem(shown, 1, None, "the file is empty: expected a header row")]
    fields = model.model_fields
    if len(header) == 1:
        for sep, words in _OTHER_SEPARATORS.items():
            if sep in header[0]:
                return [], [Problem(shown, 1, None, f"the columns are separated by {words}, not commas: "
                                    "save it as CSV with commas (in LibreOffice: File > Save As, "
                                    "tick 'Edit filter settings', Field delimiter ,)")]
    unknown = [name for name in header if name and name not in fields]
    missing = [name for name, info in fields.items() if info.is_required() and name not in header]
    if unknown or missing:
        parts = []
        if missing:
            parts.append(f"missing column{'s' if len(missing) > 1 else ''} {', '.join(repr(m) for m in missing)}")
        if unknown:
            parts.append(f"unknown column{'s' if len(unknown) > 1 else ''} {', '.join(repr(u) for u in unknown)}")
        return [], [Problem(shown, 1, None, "the header has " + " and ".join(parts)
                            + " (the columns are: " + ", ".join(fields) + ")")]
    rows: list[tuple[int, M]] = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue  # blank lines between groups of cards are fine
            if len(cells) > len(header):
                problems.append(Problem(shown, line, None, f"expected {len(header)} cells, found {len(cells)}"))
                continue
            record = {h: c.strip() for h, c in zip(header, cells) if h and c.strip() != ""}
            try:
                rows.append((line, model.model_validate(record)))
            except ValidationError as exc:
                for err in exc.errors():
                    column = str(err["loc"][0]) if err["loc"] else None
                    problems.append(Problem(shown, line, column, describe(err)))
    except csv.Error as exc:
        problems.append(Problem(shown, reader.line_num, None, f"cannot read this line as CSV: {exc}"))
    return rows, problems


def csv_bool(value: Any) -> Any:
    """Spreadsheet yes/no cells: 'yes', 'no', 'x', blank."""
    if isinstance(value, str):
        v = value.strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
    return value


# --- YAML -----------------------------------------------------------------------
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader where PyYAML was built with it: a good file is read ten
times faster (the studio reads a set again on every save); a broken one is
read again by the pure-Python loader, whose messages ``_yaml_syntax`` knows."""


def parse_yaml(text: str, shown: str, model: type[M]) -> M:
    try:
        data = yaml.load(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise DataError([_yaml_syntax(exc, shown)]) from None
    if data is None:
        data = {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        node = yaml.compose(text, Loader=yaml.SafeLoader)  # where each key is, for the messages
        problems = []
        for err in exc.errors():
            line, key = _yaml_locate(node, err["loc"])
            problems.append(Problem(shown, line, key, describe(err), label="key"))
        raise DataError(problems) from None


def _yaml_syntax(exc: yaml.YAMLError, shown: str) -> Problem:
    """A YAML syntax error at the line of the broken part. PyYAML notices a
    break where it gives up, often a line late (a key without its colon is
    found out on the line below), and names the part it was reading as its
    context: a key, a quoted text, a [list] or {mapping} written on one line
    is the broken part itself, so its start is the line to fix; a block (an
    indented list or mapping) is only what surrounds the break."""
    problem = getattr(exc, "problem", None) or str(exc)
    context, start = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    mark = getattr(exc, "problem_mark", None)
    if context and start is not None and "block" not in context:
        return Problem(shown, start.line + 1, None,
                       f"not valid YAML: {problem} ({context} that starts at character {start.column + 1})")
    if mark is None:
        return Problem(shown, None, None, f"not valid YAML: {problem}")
    return Problem(shown, mark.line + 1, None, f"not valid YAML: {problem} (at character {mark.column + 1})")


def _yaml_locate(node: Any, loc: Sequence[Any]) -> tuple[int | None, str | None]:
    """The line of the deepest node on ``loc`` that exists, and a dotted key path."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == str(part):
                    node = v
                    line = k.start_mark.line + 1
                    break
            else:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    key = ".".join(str(p) for p in loc) or None
    return line, key
