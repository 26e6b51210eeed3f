"""The "Sheets to buy" table of a game's PRINTING.md, checked against the
PDFs themselves (issue 20, prepress): each count is the sheets the files of
that set, paper and stock take, from their page counts read with pypdf (two
pages a sheet for a two-sided file)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from pypdf import PdfReader

PAPERS = {"A4": "a4", "Letter": "letter"}


def table(guide: str) -> dict[tuple[str, str, str], int]:
    """(set, stock, paper) -> sheets, as PRINTING.md says."""
    section = guide.split("## Sheets to buy", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("|")]
    head, body = rows[0], rows[2:]
    return {(r[0], r[1], PAPERS[head[i]]): int(r[i]) for r in body for i in range(2, len(head))}


def files(guide: str) -> list[tuple[str, str]]:
    """(file, how) of every row of the file table."""
    return re.findall(r"^\| `([^`]+)` \| [^|]+ \| ([^|]+) \|$", guide, flags=re.M)


def check(game_dir: Path, data_dir: Path) -> dict[tuple[str, str, str], int]:
    """``data_dir``'s game.yaml says which components are sheets (plain paper, like the rules)."""
    guide = (game_dir / "PRINTING.md").read_text(encoding="utf-8")
    manifest = yaml.safe_load((data_dir / "game.yaml").read_text(encoding="utf-8"))
    on_paper = ["rules", "player-aid", "calibration"] + [c["id"] for c in manifest["components"] if c["kind"] == "sheet"]
    said = table(guide)
    listed = files(guide)
    assert listed
    counted: dict[tuple[str, str, str], int] = {}
    bleed_twins = {f.replace("-bleed", "") for f, _ in listed if "-bleed" in f}
    for name, how in listed:
        if "-rules-booklet" in name:  # the rules again, folded: counted once, as the rules
            continue
        pages = len(PdfReader(game_dir / name).pages)
        two_sided = "two-sided" in how or "calibration" in name
        sheets = -(-pages // 2) if two_sided else pages
        paper = name.split("/", 1)[0]
        component = re.sub(r"^\w+/[a-z]+-(a4|letter)-|(-bleed)?(-ink-saver)?\.pdf$", "", name)
        stock = "paper" if component in on_paper else "card stock"
        sets = ["print-shop files (bleed)"] if "-bleed" in name else (
            ["home files"] + ([] if name in bleed_twins else ["print-shop files (bleed)"]))
        for s in sets:
            key = (s, stock, paper)
            counted[key] = counted.get(key, 0) + sheets
    counted = {k: v for k, v in counted.items() if v and k[0] in {s for s, _, _ in said}}
    assert said == counted, (said, counted)
    return said
