"""Two sets' figures side by side (:func:`compare`): every figure they
share tested, the tests corrected together for their number, and the cards
an author should look at first (``look_at``), each with the evidence that
survived the correction. Plain data in and out, knowing no game.

The method (stated in the report's ``method``):

* a rate (a card's use in the games it was in play, its users' win share, a
  seat's win share, an end condition) by the two-proportion z-test
  (pooled); a mean (rounds, actions, lead changes, scores) by Welch's z;
  two-sided p-values from the normal;
* a figure that could not reach 5% even alone, whatever its games showed
  (too few uses on both sides: Tarone's screen) is not counted as tested;
* Benjamini-Hochberg at a false discovery rate of 5% over all the figures
  tested, weighted (Genovese, Roeder & Wasserman 2006): where the author
  changed cards' rules in the data, their figures share half the weight and
  every other figure the other half (the weights come from the files, never
  from the games, so the false discovery rate stays at 5%);
* each marked difference with an interval at the level ``1 - R q w / m``
  (Benjamini & Yekutieli 2005, false coverage rate): Newcombe's hybrid score
  interval for a difference of rates, Welch's for means;
* the smallest change the games could find: the difference of two rates of
  50% that a lone figure finds with chance 80% at the first bar of the
  procedure (``q w / m``).

Both sets play the same matches (seeds); where the deals stay the same the
two samples are positively correlated and the unpaired tests above are, if
anything, conservative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine.bots.stats import (Q, adjusted_level, benjamini_hochberg, best_possible, detectable, newcombe,
                               p_two_sided, two_proportions, z_of)

CHANGED_WEIGHT = 0.5
"""The share of the weight the figures of the cards whose rules changed get
(when some changed and other figures are tested too)."""


@dataclass
class Figure:
    figure: str
    where: str
    this: Mapping[str, float]
    other: Mapping[str, float]
    kind: str  # "rate" or "mean"
    card: str | None = None
    verb: str | None = None
    z: float = 0.0
    p: float = 1.0
    tested: bool = True
    weight: float = 1.0
    marked: bool = False
    interval: tuple[float, float] | None = None
    level: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def difference(self) -> float:
        key = "rate" if self.kind == "rate" else "mean"
        return self.this[key] - self.other[key]

    def to_dict(self) -> dict[str, Any]:
        out = {"figure": self.figure, "where": self.where, "this": dict(self.this), "other": dict(self.other),
               "difference": self.difference, "z": self.z, "p": self.p, "tested": self.tested,
               "weight": self.weight, "marked": self.marked}
        if self.card is not None:
            out.update(card=self.card, verb=self.verb)
        if self.interval is not None:
            out.update(low=self.interval[0], high=self.interval[1], level=self.level)
        return out


def welch(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Welch's z of two means (from :func:`engine.bots.balance.spread` summaries); 0 with no spread."""
    if a["n"] < 2 or b["n"] < 2:
        return 0.0
    se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return (a["mean"] - b["mean"]) / se if se > 0 else 0.0


def _figures(this: Mapping[str, Any], other: Mapping[str, Any]) -> list[Figure]:
    out: list[Figure] = []
    for p, seats in this["seat_advantage"].items():
        for s, a in enumerate(seats):
            if p in other["seat_advantage"]:
                out.append(Figure("seat_advantage", f"{p} players, seat {s + 1}", a, other["seat_advantage"][p][s],
                                  "rate"))
    for p, seats in this.get("scores", {}).items():
        for s, a in enumerate(seats):
            if p in other.get("scores", {}):
                out.append(Figure("scores", f"{p} players, seat {s + 1}", a, other["scores"][p][s], "mean"))
    for name in ("rounds", "actions", "lead_changes"):
        for p, a in this[name].items():
            if p in other[name]:
                out.append(Figure(name, f"{p} players", a, other[name][p], "mean"))
    for p, ends in this["end_conditions"].items():
        theirs = other["end_conditions"].get(p)
        if theirs is None:
            continue
        n_a, n_b = this["seat_advantage"][p][0]["n"], other["seat_advantage"][p][0]["n"]
        for end in sorted(set(ends) | set(theirs)):
            a = ends.get(end, {"hits": 0, "n": n_a, "rate": 0.0})
            b = theirs.get(end, {"hits": 0, "n": n_b, "rate": 0.0})
            out.append(Figure("end_conditions", f"{p} players: {end}", a, b, "rate"))
    for card, a in this["cards"].items():
        b = other["cards"].get(card)
        if b is None:
            continue
        for verb, va in a["verbs"].items():
            if verb in b["verbs"]:
                out.append(Figure("cards", f"{card}: {verb}", va, b["verbs"][verb], "rate", card, verb))
        out.append(Figure("cards", f"{card}: win rate of its users", a["win_used"], b["win_used"], "rate", card,
                          "won"))
    return out


def _test(f: Figure) -> None:
    if f.kind == "rate":
        a, b = f.this, f.other
        f.z = two_proportions(a["hits"], a["n"], b["hits"], b["n"])
        f.p = p_two_sided(f.z) if f.z else 1.0
        f.tested = a["n"] > 0 and b["n"] > 0 and best_possible(a["hits"], a["n"], b["hits"], b["n"]) <= Q
    else:
        f.z = welch(f.this, f.other)
        f.p = p_two_sided(f.z) if f.z else 1.0
        f.tested = f.this["n"] > 1 and f.other["n"] > 1 and (f.this["sd"] > 0 or f.other["sd"] > 0)


def _interval(f: Figure, level: float) -> tuple[float, float]:
    z = z_of(level)
    if f.kind == "rate":
        return newcombe(f.this["hits"], f.this["n"], f.other["hits"], f.other["n"], z)
    se = math.sqrt(f.this["sd"] ** 2 / max(f.this["n"], 1) + f.other["sd"] ** 2 / max(f.other["n"], 1))
    return (f.difference - z * se, f.difference + z * se)


def compare(this: Mapping[str, Any], other: Mapping[str, Any], changed: Mapping[str, Sequence[Mapping[str, Any]]]
            | None = None, q: float = Q) -> dict[str, Any]:
    """Every figure the two sets share, tested and corrected together (see
    the module's note); ``changed`` is what changed in the data, by card id
    (:func:`labkit.balance_rows.changes`: the fields whose rules changed).
    Returns the figures (``differences``), the ``look_at`` list, the
    sentences of the marked figures (``marked``) and the smallest changes
    the games could find (``power``)."""
    changed = changed or {}
    rules_changed = {c for c, fields in changed.items() if any(f.get("rules", True) for f in fields)}
    figs = _figures(this, other)
    for f in figs:
        _test(f)
    tested = [f for f in figs if f.tested]
    in_changed = [f for f in tested if f.card in rules_changed]
    rest = len(tested) - len(in_changed)
    for f in tested:
        if in_changed and rest:
            share = CHANGED_WEIGHT if f.card in rules_changed else 1 - CHANGED_WEIGHT
            f.weight = share * len(tested) / (len(in_changed) if f.card in rules_changed else rest)
    kept = benjamini_hochberg([f.p for f in tested], q, [f.weight for f in tested])
    selected = sum(kept)
    for f, k in zip(tested, kept):
        f.marked = k
        if k:
            f.level = adjusted_level(selected, len(tested), q, f.weight)
            f.interval = _interval(f, f.level)
    return {"differences": [f.to_dict() for f in figs], "look_at": look_at(figs, this, other, changed),
            "marked": [sentence(f) for f in sorted((f for f in figs if f.marked), key=lambda f: f.p / f.weight)],
            "power": power(this, tested, len(in_changed), q),
            "tested": len(tested), "selected": selected}


def _count(r: Mapping[str, float]) -> str:
    hits = r["hits"]
    return f"{hits:g} of {r['n']}" if float(hits).is_integer() else f"{hits:.1f} of {r['n']}"


def sentence(f: Figure) -> str:
    """A marked figure in words, with its counts and its interval."""
    if f.kind == "rate":
        said = (f"{f.this['rate']:.0%} ({_count(f.this)}) here against {f.other['rate']:.0%} "
                f"({_count(f.other)})")
        diff = f"{100 * f.difference:+.0f} percentage points"
        interval = (f"{100 * f.interval[0]:+.0f} to {100 * f.interval[1]:+.0f}" if f.interval else "")
    else:
        said = f"{f.this['mean']:.3g} here against {f.other['mean']:.3g} on average"
        diff = f"{f.difference:+.3g}"
        interval = f"{f.interval[0]:+.3g} to {f.interval[1]:+.3g}" if f.interval else ""
    level = f", {f.level:.1%} interval {interval}" if f.level is not None else ""
    return f"{f.figure.replace('_', ' ')}, {f.where}: {said}: {diff}{level}"


def _verb_words(f: Figure, in_play_told: bool) -> str:
    where = "games it was in play" if in_play_told else "games"
    if f.verb == "won":
        return (f"the seats that used it won {_count(f.this)} times here ({f.this['rate']:.0%}), against "
                f"{_count(f.other)} ({f.other['rate']:.0%})")
    return f"{f.verb} in {_count(f.this)} {where} here, against {_count(f.other)}"


def look_at(figs: Sequence[Figure], this: Mapping[str, Any], other: Mapping[str, Any],
            changed: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The cards with at least one figure that survived the correction, the
    strongest evidence first: what changed in their data, what the games
    showed (with counts), the effect on winning, how sure."""
    by_card: dict[str, list[Figure]] = {}
    for f in figs:
        if f.card is not None:
            by_card.setdefault(f.card, []).append(f)
    told = any(c["in_play"]["rate"] < 1 for c in this["cards"].values())
    out = []
    for card, mine in by_card.items():
        marked = sorted((f for f in mine if f.marked), key=lambda f: f.p / f.weight)
        if not marked:
            continue
        top = marked[0]
        fields = list(changed.get(card, []))
        what = ("changed in the data: " + "; ".join(f"{c['field']} {c['other']!r} -> {c['this']!r}" for c in fields)
                if fields else "unchanged in the data (its use changed with the cards around it)")
        shown = _verb_words(top, told)
        level = f"{top.level:.1%}"
        why = (f"{what}; {shown}: {100 * top.difference:+.0f} percentage points ({100 * top.interval[0]:+.0f} to "
               f"{100 * top.interval[1]:+.0f}, {level} interval after the correction).")
        win = next((f for f in mine if f.verb == "won"), None)
        out.append({
            "card": card, "name": this["cards"][card]["name"], "why": why[0].upper() + why[1:],
            "changed": fields,
            "games": [{"verb": f.verb, "said": _verb_words(f, told), "this": dict(f.this), "other": dict(f.other),
                       "difference": f.difference, "p": f.p, "marked": f.marked,
                       **({"low": f.interval[0], "high": f.interval[1], "level": f.level} if f.interval else {})}
                      for f in mine if f.verb != "won"],
            "winning": None if win is None else {
                "said": _verb_words(win, told), "this": dict(win.this), "other": dict(win.other),
                "difference": win.difference, "p": win.p, "marked": win.marked,
                "all_seats": this["cards"][card]["win_not"]["rate"]},
            "p": top.p, "weight": top.weight,
        })
    return sorted(out, key=lambda c: c["p"] / c["weight"])


def power(this: Mapping[str, Any], tested: Sequence[Figure], changed: int, q: float = Q) -> dict[str, Any]:
    """The smallest changes the games could find (see the module's note)."""
    m = max(len(tested), 1)
    offered = sorted(c["in_play"]["hits"] for c in this["cards"].values() if c["in_play"]["hits"])
    n_card = int(offered[len(offered) // 2]) if offered else 0
    w_rest = (1 - CHANGED_WEIGHT) * m / max(m - changed, 1) if changed else 1.0
    w_changed = CHANGED_WEIGHT * m / changed if changed else None
    seats = sum(len(s) for s in this["seat_advantage"].values())
    per_count = {p: r[0]["n"] for p, r in this["seat_advantage"].items()}
    return {
        "games": this["games"], "figures_tested": len(tested), "typical_card_games": n_card,
        "card_rate": detectable(n_card, n_card, 0.5, q * w_rest / m),
        "changed_card_rate": detectable(n_card, n_card, 0.5, q * w_changed / m) if w_changed else None,
        "seat_share": {p: detectable(n, 0, 1 / int(p), q / max(seats, 1)) for p, n in per_count.items()},
    }
