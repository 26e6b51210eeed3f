"""A card's row in a card set's files, found the one generic way (a CSV
row, or an item of a YAML list, whose ``id``, or the file's key column,
is the card's id), and what changed in it against another set, field by
field, each field with what it does (``GameDescriptor.columns``: the rules
read it, or it is printed only). A balance report's ``look_at`` shows it;
the rules' changes weight the report's correction
(:func:`engine.bots.compare.compare`). Also the set with one card's rule
fields replaced by a typical card's of its kind, for the report's leave-one-
out (:mod:`labkit.balance_effect`).

>>> own = {"recipes.csv": b"id,level,name,smiles\\nwater,simple,Water,O\\nozone,simple,Ozone,O=[O+][O-]\\n"}
>>> mine = {"recipes.csv": b"id,level,name,smiles\\nozone,simple,Ozone!,O=[O+][O-]\\nwater,simple,Water,OO\\n"}
>>> changes(mine, own, ["water", "ozone"], {"recipes.csv": {"name": "text", "smiles": "rules"}})["water"]
[{'file': 'recipes.csv', 'field': 'smiles', 'this': 'OO', 'other': 'O', 'rules': True}]
>>> changes(mine, own, ["water", "ozone"], {"recipes.csv": {"name": "text", "smiles": "rules"}})["ozone"][0]["rules"]
False
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable, Mapping

import yaml

from engine.columns import RULES
from labkit.columns import KEYS, column

Row = tuple[str, dict[str, Any]]
"""``(file, {field: value})``."""


def rows(files: Mapping[str, bytes]) -> dict[str, Row]:
    """Every row that names itself, by id, over the set's card files."""
    out: dict[str, Row] = {}
    for name, data in sorted(files.items()):
        text = data.decode("utf-8-sig", "replace")
        if name.endswith(".csv"):
            key = KEYS.get(name, "id")
            try:
                for row in csv.DictReader(io.StringIO(text)):
                    rid = (row.get(key) or "").strip()
                    if rid:
                        out.setdefault(rid, (name, {k.strip(): (v or "").strip() for k, v in row.items() if k}))
            except csv.Error:  # the parser has refused such a set before any game is played
                continue
        elif name.endswith((".yaml", ".yml")):
            try:
                doc = yaml.safe_load(text)
            except yaml.YAMLError:
                continue
            for items in (doc.values() if isinstance(doc, dict) else [doc]):
                for item in items if isinstance(items, list) else []:
                    if isinstance(item, dict) and "id" in item:
                        out.setdefault(str(item["id"]), (name, dict(item)))
    return out


def _rules(columns: Mapping[str, Mapping[str, Any]], file: str, field: str) -> bool:
    spec = columns.get(file, {}).get(field)
    return spec is None or column(spec).role == RULES


def changes(this: Mapping[str, bytes], other: Mapping[str, bytes], cards: Iterable[str],
            columns: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """For each of ``cards`` whose row differs between the two sets: each
    field that differs, ``{file, field, this, other, rules}`` (``rules``:
    the rules read that field, as far as the game's columns say). A card
    only one set has is one change, field ``(the card)``."""
    columns = columns or {}
    mine, theirs = rows(this), rows(other)
    out: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        a, b = mine.get(card), theirs.get(card)
        if a is None and b is None:
            continue
        if a is None or b is None:
            out[card] = [{"file": (a or b)[0], "field": "(the card)", "this": "present" if a else "absent",
                          "other": "present" if b else "absent", "rules": True}]
            continue
        fields = [{"file": a[0], "field": k, "this": a[1].get(k), "other": b[1].get(k),
                   "rules": _rules(columns, a[0], k)}
                  for k in dict.fromkeys([*a[1], *b[1]]) if a[1].get(k) != b[1].get(k)]
        if fields:
            out[card] = fields
    return out


def kind_of(files: Mapping[str, bytes], card: str) -> tuple[str, list[str]] | None:
    """The cards of ``card``'s kind: the rows of its CSV file that share its
    value in the file's first column (after the id) with a few values only
    (a kind, a level: at most a quarter as many values as rows). ``None``
    for a card that is not a CSV row."""
    found = rows(files).get(card)
    if found is None or not found[0].endswith(".csv"):
        return None
    file, row = found
    same = {rid: r for rid, (f, r) in rows({file: files[file]}).items() if f == file}
    for field in row:
        if field in ("id", KEYS.get(file, "id"), "name"):
            continue
        values = {r.get(field) for r in same.values()}
        if 1 < len(values) <= max(2, len(same) // 4):
            return field, [rid for rid, r in same.items() if r.get(field) == row[field] and rid != card]
    return "", [rid for rid in same if rid != card]


def replaced(files: Mapping[str, bytes], card: str, stand_in: str | None,
             model: Mapping[str, str] | None = None) -> dict[str, bytes]:
    """The set's files with ``card``'s row taking ``stand_in``'s fields (its
    id, name and place in the file kept, so the same seeds deal the same
    way), or ``model``'s (its row in another set: the change undone), or,
    with neither, without ``card``'s row."""
    file, _ = rows(files)[card]
    reader = csv.DictReader(io.StringIO(files[file].decode("utf-8-sig")))
    header = reader.fieldnames or []
    body = list(reader)
    key = KEYS.get(file, "id")
    if model is None:
        model = next((r for r in body if (r.get(key) or "").strip() == stand_in), None)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, header, lineterminator="\n")
    writer.writeheader()
    for r in body:
        if (r.get(key) or "").strip() == card:
            if model is None:
                continue
            r = {k: (v if k in (key, "name") else model.get(k, "")) for k, v in r.items()}
        writer.writerow(r)
    return {**files, file: buf.getvalue().encode("utf-8")}
