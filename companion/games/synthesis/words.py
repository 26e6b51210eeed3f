"""A board's score formula in words, line by line with its points, from the
engine's result (``result().scores[seat]``: the five boxes and their
details). Nothing here decides a rule: the chains are the engine's linking,
each chain's points the card set's table.

>>> from types import SimpleNamespace as NS
>>> line = lambda k, p: NS(key=k, label=k.title(), points=p)
>>> score = NS(lines=[line("elemental", 6), line("chains", 9), line("lines", 5), line("chain_card", 0),
...                   line("pattern_card", 0)], total=20,
...            details={"chains": [[[1, 1], [1, 2]], [[2, 1], [3, 1], [4, 1]]], "rows_and_columns": 1,
...                     "longest_chain": 3, "elemental_molecules": 1})
>>> shown = {"table": [["green", "green"], ["red"], ["red"], ["red"]], "elemental_boxes": {"circle": ["blue"]}}
>>> [(l["label"], l["points"], l["items"]) for l in breakdown(score, shown, (0, 0, 3, 6, 10))][:2]
[('Elemental', 6, ['circle: 1 of 2, 6']), ('Chains', 9, ['green, 2 molecules (volume 1, rows 1-2): 3', 'red, 3 molecules (row 1, volumes 2-4): 6'])]
"""

from __future__ import annotations

from typing import Any, Callable

ELEMENTAL = {1: 6, 2: 16}


def _cells(chain: list[list[int]]) -> str:
    vols = sorted({v for v, _ in chain})
    rows = sorted({r for _, r in chain})

    def span(xs: list[int]) -> str:
        return f"{xs[0]}" if len(xs) == 1 else f"{xs[0]}-{xs[-1]}"
    if len(vols) == 1:
        return f"volume {vols[0]}, rows {span(rows)}"
    if len(rows) == 1:
        return f"row {rows[0]}, volumes {span(vols)}"
    return "volume/row " + ", ".join(f"{v}/{r}" for v, r in chain)


def chain_points(length: int, points: tuple[int, ...]) -> int:
    return points[min(length, len(points) - 1)]


def breakdown(score: Any, shown: dict[str, Any], points: tuple[int, ...], elemental: Callable[[int], int] | None = None,
              names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Each score box with its points and, under it, what made them."""
    d = score.details
    per_pair = elemental or (lambda n: ELEMENTAL.get(min(n, 2), 0))
    names = names or {}
    out = []
    for line in score.lines:
        items: list[str] = []
        if line.key == "elemental":
            items = [f"{shape}: {len(boxes)} of 2, {per_pair(len(boxes))}"
                     for shape, boxes in shown["elemental_boxes"].items() if boxes]
        elif line.key == "chains":
            for chain in d.get("chains", []):
                v, r = chain[0]
                colour = shown["table"][v - 1][r - 1]
                items.append(f"{colour}, {len(chain)} molecules ({_cells(chain)}): {chain_points(len(chain), points)}")
        elif line.key == "lines":
            n = d.get("rows_and_columns", 0)
            if n:
                items = [f"{n} full row{'s' if n != 1 else ''} or column{'s' if n != 1 else ''}"]
        elif line.key == "chain_card" and "chain_card" in d:
            found = d["chain_card"]["found"]
            name = names.get(d["chain_card"]["card"], d["chain_card"]["card"])
            items = [f"{name}: found {len(found)} time{'s' if len(found) != 1 else ''}"]
            items += [", ".join(f"{v}/{r}" for v, r in cells) for cells in found]
        elif line.key == "pattern_card" and "pattern_card" in d:
            p = d["pattern_card"]
            name = names.get(p["card"], p["card"])
            what = ", ".join(p.get("molecules", [])) or "no molecules yet"
            where = f" around {p['hexagon']}" if p.get("hexagon") else ""
            colour = f" ({names.get(p['colour'], p['colour'])})" if p.get("colour") else ""
            items = [f"{name}: {what}{where}{colour}"]
        out.append({"key": line.key, "label": line.label, "points": line.points, "items": items})
    return out


def solo(score: Any, names: dict[str, str] | None = None) -> dict[str, Any] | None:
    """A solo game's goals, each met or not, and the verdict."""
    d = score.details
    if "solo" not in d:
        return None
    goals = [{"goal": g["goal"], "met": g["met"]} for g in d["solo"]["goals"]]
    project = d.get("project")
    if project is not None:
        names = names or {}
        chains = project["chains"]
        goals.insert(0, {"goal": f"{names.get(project['card'], project['card'])}: its chains "
                                 + ("reconstituted" if chains else "not reconstituted"), "met": chains is not None})
        goals = [g for g in goals if g["goal"] != "project chains"]
    return {"won": d["solo"]["won"], "goals": goals}
