"""The score track, experiment advances and the end-game scoring.

"No 2 scientists can occupy the same space on the scoreboard, if a
scientist's score marker is ending in an occupied spot, they advance to the
next unoccupied spot." Every gain goes through :func:`move_marker`, which
books the points to a score line and the skipped spaces to their own line,
so a score always equals the sum of its lines. Markers start beside the
track (score 0), where any number may wait.
"""

from __future__ import annotations

from engine.compounded.cards import TRACKS
from engine.compounded.flow import Rules
from engine.compounded.state import BENCH, State, cell_of, total

LINES = {
    "compounds": "Compounds scored",
    "tops": "Experiment tops",
    "lab": "Lab advances",
    "skips": "Occupied spaces skipped",
    "elements": "Elements left (1 per 2)",
    "unfinished": "Claimed unfinished compounds",
}
"""Score lines, in the order a score sheet shows them."""


def move_marker(r: Rules, s: State, seat: int, points: int, line: str) -> int:
    """Move ``seat``'s marker ``points`` spaces, past occupied ones; returns
    the spaces moved. Reaching the end score starts the last round.

    >>> from tests.engine.compounded.helpers import RULES, fresh
    >>> s = fresh(3)
    >>> s.scientists[1].score = 29
    >>> s.scientists[0].score = 27
    >>> move_marker(RULES, s, 0, 2, "compounds"), s.scientists[0].score
    (3, 30)

    A loss (a compound burnt below nothing) moves it back, never past the
    start, where any number of markers may wait (reading 3); it too lands
    on the next unoccupied space:

    >>> move_marker(RULES, s, 0, -2, "compounds"), s.scientists[0].score
    (-2, 28)
    >>> move_marker(RULES, s, 0, -40, "compounds"), s.scientists[0].score
    (-28, 0)
    """
    if points == 0:
        return 0
    sc = s.scientists[seat]
    taken = {o.score for i, o in enumerate(s.scientists) if i != seat and o.score > 0}
    landed = max(0, sc.score + points)
    target = landed
    while target in taken:
        target += 1
    sc.lines[line] = sc.lines.get(line, 0) + landed - sc.score
    if target > landed:
        sc.lines["skips"] = sc.lines.get("skips", 0) + target - landed
    moved = target - sc.score
    sc.score = target
    if s.final_round is None and sc.score >= r.end_at[s.players]:
        s.final_round = s.round + 1  # "There is 1 more round"
    return moved


def gain_tool(r: Rules, s: State, seat: int, tool: str) -> None:
    """Take ``tool`` from the supply, or flip a spent one back (one of each tool per scientist)."""
    sc = s.scientists[seat]
    if tool not in sc.tools:
        if s.tool_supply.get(tool, 0) <= 0:
            return
        s.tool_supply[tool] -= 1
    sc.tools[tool] = True


def return_tool(s: State, seat: int, tool: str) -> None:
    if s.scientists[seat].tools.pop(tool, None) is not None:
        s.tool_supply[tool] = s.tool_supply.get(tool, 0) + 1


def advance(r: Rules, s: State, seat: int, track: str) -> None:
    """Move ``seat``'s piece on ``track`` up 1, with what that unlocks and scores."""
    sc = s.scientists[seat]
    k = TRACKS.index(track)
    t = r.tracks[track]
    if sc.tracks[k] >= t.top:
        return
    sc.tracks[k] += 1
    level = sc.tracks[k]
    if t.advance_points:
        move_marker(r, s, seat, t.advance_points[level], "lab")
    if level == t.top and t.top_points:
        move_marker(r, s, seat, t.top_points, "tops")
    if track == "study":
        while len(sc.tokens) < t.levels[level]:
            sc.tokens.append(BENCH)  # unlocked from the claim reserve
        if level == r.journal_at and "journal" not in sc.tools:
            gain_tool(r, s, seat, "journal")


def reduce(r: Rules, s: State, seat: int, track: str) -> None:
    """Move ``seat``'s piece on ``track`` down 1 (the Graduated Cylinder).
    A lost claim token goes back to the reserve, abandoning its claim; below
    the Journal space the Journal goes back to the supply."""
    sc = s.scientists[seat]
    k = TRACKS.index(track)
    if sc.tracks[k] <= 0:
        return
    sc.tracks[k] -= 1
    if track == "study":
        keep = r.tracks["study"].levels[sc.tracks[k]]
        del sc.tokens[keep:]
        if r.journal_at is not None and sc.tracks[k] < r.journal_at:
            return_tool(s, seat, "journal")


def advance_choices(r: Rules, s: State, seat: int, states: list[str]) -> list[str]:
    """Tracks a completed compound may move: its states' tracks, or always Lab."""
    tracks = [r.state_track[st] for st in states if st in r.state_track] + ["lab"]
    return [t for t in TRACKS if t in tracks and not r.at_top(s, seat, t)]


def final_scoring(r: Rules, s: State) -> None:
    """"Any elements remaining on a scientist's workbench are worth 1 point
    for every 2 elements. Any unfinished compounds they have claimed, are
    worth 1 point for each element on them." In turn order from the lead."""
    for seat in s.order():
        sc = s.scientists[seat]
        move_marker(r, s, seat, total(sc.bench) // 2, "elements")
        cells = {cell_of(t) for t in sc.tokens} | {i for i, c in enumerate(s.grid) if seat in c.marks}
        on = sum(total(s.grid[i].elements) for i in cells if i is not None and r.compound(s.grid[i].card))
        move_marker(r, s, seat, on, "unfinished")
