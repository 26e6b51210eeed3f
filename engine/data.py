"""Card data files read into typed models, with errors that say where.

Decks are CSV (one row per card, edited in a spreadsheet); structured parts
(sheets, boards, dice) are YAML. A bad file gives every problem at once, each
naming the file, the line, the column, what was expected and what was found:

    cardsdata/labnotes/notecards.csv:7: column 'points': expected a whole number, found 'six'

This module only reads files the caller names; the rules never call it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence, TypeVar

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

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.column:
            return f"{where}: {self.label} '{self.column}': {self.message}"
        return f"{where}: {self.message}"


class DataError(ValueError):
    """One or more problems in card data; ``str()`` lists them all."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems), key=lambda p: (p.path, p.line or 0, p.column or ""))
        super().__init__("\n".join(str(p) for p in self.problems))


def display_path(path: Path) -> str:
    """The path as a person would type it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


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


# --- CSV ------------------------------------------------------------------------
_TRUE = {"yes", "y", "true", "1", "x"}
_FALSE = {"no", "n", "false", "0", ""}


def read_csv(path: Path, model: type[M]) -> list[tuple[int, M]]:
    """Rows of a deck file as ``(line, model)`` pairs; raises :class:`DataError`
    with every bad cell of the file."""
    rows, problems = read_csv_rows(path, model)
    if problems:
        raise DataError(problems)
    return rows


def read_csv_rows(path: Path, model: type[M]) -> tuple[list[tuple[int, M]], list[Problem]]:
    """The good rows and the problems of the bad ones, so that a caller can
    check the good rows further and still report everything at once.

    Empty cells are left out, so the model's default applies; a header that
    names an unknown column, or lacks a required one, is reported on line 1.
    """
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # spreadsheets add a BOM
    except (OSError, UnicodeDecodeError) as exc:
        return [], [Problem(shown, None, None, f"cannot read the file: {exc}")]
    return parse_csv(text, shown, model)


def parse_csv(text: str, shown: str, model: type[M]) -> tuple[list[tuple[int, M]], list[Problem]]:
    problems: list[Problem] = []
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        return [], [Problem(shown, 1, None, "the file is empty: expected a header row")]
    fields = model.model_fields
    for name in header:
        if name and name not in fields:
            problems.append(Problem(shown, 1, name, "is not a known column (expected one of: "
                                    + ", ".join(fields) + ")"))
    for name, info in fields.items():
        if info.is_required() and name not in header:
            problems.append(Problem(shown, 1, name, "this column is missing from the header"))
    if problems:
        return [], problems
    rows: list[tuple[int, M]] = []
    line = 1
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
def read_yaml(path: Path, model: type[M]) -> M:
    """A YAML file as one model; problems carry the line of the offending key."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError([Problem(shown, None, None, f"cannot read the file: {exc}")]) from None
    return parse_yaml(text, shown, model)


def parse_yaml(text: str, shown: str, model: type[M]) -> M:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        raise DataError([Problem(shown, line, None, f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    if data is None:
        data = {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            line, key = _yaml_locate(node, err["loc"])
            problems.append(Problem(shown, line, key, describe(err), label="key"))
        raise DataError(problems) from None


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
