"""Lab Notes in words for the table: what burned each space, and a sheet's
score line by line with its points. Drawn from the engine's result; nothing
here decides a rule.

>>> burn_groups([{"space": "F5", "cause": "fire", "round": 4}, {"space": "F6", "cause": "fire", "round": 4},
...              {"space": "C3", "cause": "unconnected", "round": 9}])
[{'spaces': ['F5', 'F6'], 'cause': 'fire', 'words': 'a Lab Fire in round 4'}, \
{'spaces': ['C3'], 'cause': 'unconnected', 'words': 'an element with no bond at the end'}]
"""

from __future__ import annotations

from typing import Any

from engine.labnotes.scoring import BOND_POINTS, BURN_PENALTY

CAUSES = {
    "burner": "the Bunsen Burner die in round {round}",
    "trash": "a full trash (its Bunsen Burner) in round {round}",
    "fire": "a Lab Fire in round {round}",
    "unattended": "an unattended Bunsen Burner in round {round}",
    "unconnected": "an element with no bond at the end",
}
"""Where a burned space came from (the engine's burn causes, design doc rule 28)."""
SHORT = {"burner": "Bunsen Burner die", "trash": "full trash", "fire": "Lab Fire",
         "unattended": "unattended Bunsen Burner", "unconnected": "no bond at the end"}


def burn_groups(burns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The burned spaces of a sheet grouped by what burned them, in the order they burned."""
    out: list[dict[str, Any]] = []
    for b in burns:
        words = CAUSES.get(b["cause"], b["cause"]).format(round=b["round"])
        if out and out[-1]["words"] == words:
            out[-1]["spaces"].append(b["space"])
        else:
            out.append({"spaces": [b["space"]], "cause": b["cause"], "words": words})
    return out


def _signed(n: int) -> str:
    return f"\u2212{-n}" if n < 0 else str(n)


def score_lines(score: Any) -> list[dict[str, Any]]:
    """Every line of a sheet's score with its points: the bonds by kind, the
    missing bonds, the compounds they make, the notecards, the burned spaces
    (with where each came from) and the total."""
    d = score.details
    lines = {line.key: line.points for line in score.lines}
    out = []
    for key, words, each in (("single_bonds", "Single bonds", BOND_POINTS[1]),
                             ("double_bonds", "Double bonds", BOND_POINTS[2]),
                             ("triple_bonds", "Triple bonds", BOND_POINTS[3]), ("missing_bonds", "Missing bonds", -1)):
        n = d[key]
        out.append({"key": key, "label": words, "how": f"{n} \u00d7 {_signed(each)}", "points": n * each})
    out.append({"key": "compounds", "label": "Compounds", "how": "",
                "points": lines["compounds"], "subtotal": True})
    cards = d["notecard_points"]
    out.append({"key": "notecards", "label": "Notecards",
                "how": " + ".join(str(p) for p in cards) if cards else "none", "points": lines["notecards"]})
    burned = d["burned_spaces"]
    out.append({"key": "burned", "label": "Burned spaces", "how": f"{burned} \u00d7 {_signed(-BURN_PENALTY)}",
                "points": lines["burned"], "burns": burn_groups(d.get("burns", []))})
    out.append({"key": "total", "label": "Total / grade", "how": "", "points": score.total, "subtotal": True})
    for line in out:
        line.setdefault("subtotal", False)
        line.setdefault("burns", [])
        line["shown"] = _signed(line["points"])
    return out
