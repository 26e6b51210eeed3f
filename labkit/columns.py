"""An author's card set against the game's own, column by column: which
columns changed and what each does (the rules read it, it is printed only,
or it is a rule in words the rules do not read), and every rule in words
changed while the rule it says stayed the game's own: the card would print
one rule while the table plays another, so it is refused, by file, line and
column (``GameDescriptor.columns``; docs/authoring.md).

A column is named as in ``engine/<game>/columns.py``: a CSV column; a YAML
key, ``key.sub``; a field of a list's items, ``list[id].field``, the items
matched by their ``id`` (or the key named in the brackets).

>>> from engine.columns import WORDS, Column
>>> own = {"tools.csv": b"id,name,ability\\nsaw,Saw,Cut one card.\\n"}
>>> mine = {"tools.csv": b"id,name,ability\\nsaw,Big Saw,Cut two cards.\\n"}
>>> columns = {"tools.csv": {"id": "rules", "name": "text", "ability": Column(WORDS)}}
>>> [(c.file, c.column, c.role) for c in changes(columns, mine, own)]
[('tools.csv', 'ability', 'words'), ('tools.csv', 'name', 'text')]
>>> print(words_problems(columns, mine, own, "my-set")[0])
my-set/tools.csv:2: column 'ability' (C): is the rule in words, which the rules do not read: the table plays 'saw' as the game's own card says, so this must stay as it is: 'Cut one card.'
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import yaml

from engine.columns import RULES, TEXT, WORDS, Column, yaml_line
from engine.data import Problem

_ITEM = re.compile(r"^(\w+)\[(\w+)\]\.(\w+)$")
KEYS = {"atoms.csv": "element"}
"""The column that names a row, where it is not ``id``."""
ROLE_WORDS = {RULES: "the rules read it: a change changes play",
              TEXT: "printed (and shown at the table) only",
              WORDS: "a rule in words the rules do not read: kept as the game's own",
              "layout": "how it prints"}


def column(spec: Any) -> Column:
    return spec if isinstance(spec, Column) else Column(spec)


@dataclass(frozen=True)
class Change:
    file: str
    column: str
    role: str


def _text(data: bytes | str | None) -> str | None:
    if data is None:
        return None
    return data if isinstance(data, str) else data.decode("utf-8-sig", "replace")


def _rows(text: str | None, key: str) -> dict[str, tuple[int, dict[str, str]]]:
    """A CSV file's rows by their key: ``(line, {column: value})``."""
    if text is None:
        return {}
    reader = csv.DictReader(io.StringIO(text))
    out = {}
    try:
        for row in reader:
            name = (row.get(key) or "").strip()
            if name:
                out[name] = (reader.line_num, {k.strip(): (v or "").strip() for k, v in row.items() if k})
    except csv.Error:  # the parser reports a broken file; nothing to compare
        return {}
    return out


def _header(text: str | None) -> list[str]:
    if not text:
        return []
    return [h.strip() for h in next(csv.reader(io.StringIO(text.split("\n", 1)[0])), [])]


def _load(text: str | None) -> Any:
    try:
        return yaml.safe_load(text) if text is not None else None
    except yaml.YAMLError:  # the parser reports it
        return None


def _values(doc: Any, name: str) -> dict[tuple, tuple[tuple, Any]]:
    """The values a YAML column names, by the item they belong to:
    ``{item key: (path to the value, value)}`` (one entry, key ``()``, for a plain key)."""
    m = _ITEM.match(name)
    if m:
        items, key, field = m.groups()
        out = {}
        listed = doc.get(items) if isinstance(doc, dict) else None
        for i, item in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(item, dict) and key in item:
                out[(str(item[key]),)] = ((items, i, field), item.get(field))
        return out
    node, path = doc, []
    for part in name.split("."):
        if not isinstance(node, dict):
            return {(): (tuple(path), None)}
        node = node.get(part)
        path.append(part)
    return {(): (tuple(path), node)}


def changes(columns: Mapping[str, Mapping[str, Any]], mine: Mapping[str, bytes], own: Mapping[str, bytes]) -> list[Change]:
    """Every declared column whose values differ from the game's own set (a
    card added or removed changes every column of its file)."""
    out = []
    for file, cols in columns.items():
        a, b = _text(mine.get(file)), _text(own.get(file))
        if a == b:
            continue
        for name, spec in cols.items():
            if file.endswith(".csv"):
                key = KEYS.get(file, "id")
                ra, rb = _rows(a, key), _rows(b, key)
                differs = ra.keys() != rb.keys() or any(ra[k][1].get(name, "") != rb[k][1].get(name, "") for k in ra)
            else:
                da, db = _load(a), _load(b)
                va, vb = _values(da, name), _values(db, name)
                differs = va.keys() != vb.keys() or any(va[k][1] != vb[k][1] for k in va)
            if differs:
                out.append(Change(file, name, column(spec).role))
    return sorted(out, key=lambda c: (c.file, c.column))


def words_problems(columns: Mapping[str, Mapping[str, Any]], mine: Mapping[str, bytes], own: Mapping[str, bytes],
                   shown: str) -> list[Problem]:
    """A rule in words changed on a card the game's own set has, while the
    columns it describes are the game's own: the card would print a rule
    the table does not play."""
    problems = []
    for file, cols in columns.items():
        a, b = _text(mine.get(file)), _text(own.get(file))
        if a is None or b is None or a == b:
            continue
        path = f"{shown}/{file}" if shown not in ("", ".") else file
        for name, spec in cols.items():
            col = column(spec)
            if col.role != WORDS:
                continue
            if file.endswith(".csv"):
                problems += _csv_words(a, b, file, name, col, path)
            else:
                problems += _yaml_words(a, b, name, col, path)
    return problems


def _csv_words(a: str, b: str, file: str, name: str, col: Column, path: str) -> list[Problem]:
    key = KEYS.get(file, "id")
    ra, rb = _rows(a, key), _rows(b, key)
    header = _header(a)
    out = []
    for k, (line, row) in ra.items():
        if k not in rb:
            continue  # a card of the author's own: its words are theirs to keep true
        theirs = rb[k][1]
        if any(row.get(d, "") != theirs.get(d, "") for d in col.describes):
            continue  # its rule changed too: the words say the new rule
        if row.get(name, "") != theirs.get(name, ""):
            out.append(Problem(path, line, name, _refusal(k, theirs.get(name, "")),
                               number=header.index(name) + 1 if name in header else None))
    return out


def _yaml_words(a: str, b: str, name: str, col: Column, path: str) -> list[Problem]:
    da, db = _load(a), _load(b)
    va, vb = _values(da, name), _values(db, name)
    out = []
    for k, (where, value) in va.items():
        if k not in vb:
            continue
        if any(_values(da, d).get(k, (None, None))[1] != _values(db, d).get(k, (None, None))[1]
               for d in col.describes):
            continue
        if value != vb[k][1]:
            label = k[0] if k else name
            out.append(Problem(path, yaml_line(a, where), ".".join(str(p) for p in where),
                               _refusal(label, vb[k][1]), label="key"))
    return out


def _refusal(card: str, theirs: Any) -> str:
    shown = theirs if isinstance(theirs, str) else yaml.safe_dump(theirs, default_flow_style=True,
                                                                   allow_unicode=True).strip()
    if len(shown) > 120:
        shown = shown[:117] + "..."
    return (f"is the rule in words, which the rules do not read: the table plays {card!r} as the game's own "
            f"card says, so this must stay as it is: {shown!r}")


def describe(changed: Iterable[Change]) -> list[str]:
    """Sentences for ``labkit validate``: per file, the columns changed, by what they do."""
    by_file: dict[str, dict[str, list[str]]] = {}
    for c in changed:
        by_file.setdefault(c.file, {}).setdefault(c.role, []).append(c.column)
    out = []
    for file, roles in by_file.items():
        parts = [f"{', '.join(cols)} ({ROLE_WORDS.get(role, role)})" for role, cols in sorted(roles.items())]
        out.append(f"{file}: changed " + "; ".join(parts))
    return out
