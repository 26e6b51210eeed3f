"""What a card set changes from the game's own: cards added, removed and
changed, field by field, read from the files as the author typed them (so
it works on a set that does not read yet, and names the columns an author
sees in a spreadsheet).

A CSV row is a card, known by its ``id`` (else its first column). A YAML
file is compared by key path; an entry of a list that has an ``id`` is
known by it, so that moving an entry is not a change.

>>> own = {"deck.csv": b"id,points\\na,1\\nb,2\\n"}
>>> mine = {"deck.csv": b"id,points\\na,3\\nc,1\\n"}
>>> [(d.kind, d.card, d.fields) for d in differences(own, mine)]
[('changed', 'a', (('points', '1', '3'),)), ('removed', 'b', ()), ('added', 'c', ())]
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Mapping

import yaml

MISSING = "(none)"


@dataclass(frozen=True)
class Difference:
    file: str
    kind: str
    """``added``, ``removed``, ``changed``, or ``unreadable`` (the file does not read as CSV or YAML)."""
    card: str
    line: int | None = None
    """Its line in the set's file (``None`` for a removed card)."""
    fields: tuple[tuple[str, str, str], ...] = ()
    """``(field, the game's value, the set's value)`` of a changed card."""


def differences(own: Mapping[str, bytes], mine: Mapping[str, bytes]) -> list[Difference]:
    """Every difference between two sets' files, file by file in name order."""
    out: list[Difference] = []
    for name in sorted(set(own) | set(mine)):
        if name in ("game.yaml", "set.yaml") or own.get(name) == mine.get(name):
            continue
        read = _csv_cards if name.endswith(".csv") else _yaml_cards
        try:
            before, after = read(own.get(name, b"")), read(mine.get(name, b""))
        except (UnicodeDecodeError, csv.Error, yaml.YAMLError) as exc:
            out.append(Difference(name, "unreadable", "", None, (("", "", str(exc).splitlines()[0]),)))
            continue
        for card, (line, fields) in after.items():
            if card not in before:
                continue
            old = before[card][1]
            changes = tuple((f, _show(old.get(f)), _show(fields.get(f)))
                            for f in dict.fromkeys([*old, *fields]) if old.get(f) != fields.get(f))
            if changes:
                out.append(Difference(name, "changed", card, line, changes))
        out.extend(Difference(name, "removed", card) for card in before if card not in after)
        out.extend(Difference(name, "added", card, line) for card, (line, _) in after.items() if card not in before)
    return out


def _show(value: Any) -> str:
    return MISSING if value is None or value == "" else str(value)


def _csv_cards(data: bytes) -> dict[str, tuple[int, dict[str, str]]]:
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig")))
    header = [h.strip() for h in next(reader, [])]
    key = header.index("id") if "id" in header else 0
    out: dict[str, tuple[int, dict[str, str]]] = {}
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        row = {h: c.strip() for h, c in zip(header, cells) if h}
        card = cells[key].strip() if key < len(cells) else ""
        out.setdefault(card or f"line {reader.line_num}", (reader.line_num, row))
    return out


def _yaml_cards(data: bytes) -> dict[str, tuple[int | None, dict[str, str]]]:
    """A YAML file as "cards": each entry with an ``id`` of a top-level list
    (``chains[ethyl]``), else each top-level key; the fields are the paths under it."""
    doc = yaml.safe_load(data.decode("utf-8-sig")) if data else None
    if not isinstance(doc, dict):
        doc = {"(whole file)": doc}
    out: dict[str, tuple[int | None, dict[str, str]]] = {}
    for k, v in doc.items():
        if isinstance(v, list) and v and all(isinstance(e, dict) and isinstance(e.get("id"), (str, int)) for e in v):
            out.update((f"{k}[{e['id']}]", (None, dict(_flat(e, "")))) for e in v)
        else:
            out[str(k)] = (None, dict(_flat(v, "")))
    return out


def _flat(value: Any, path: str):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flat(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            name = v.get("id") if isinstance(v, dict) and isinstance(v.get("id"), (str, int)) else i
            yield from _flat(v, f"{path}[{name}]")
    else:
        yield path or "(value)", value
