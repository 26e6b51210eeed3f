"""The Compounded game log in words: each action told from the states before
and after it ("Ada claimed Water (row 1, column 2).", "Bo placed Oxygen on
Ozone (row 2, column 3).", "Ada scored Water (row 1, column 2): 3 points.";
:mod:`.telling` has the words and each action's sentences), then what the
engine's agenda did by itself until the next decision, in the order a round
runs it: points and bonuses, the Lab phase's clean-up, the refill with its
Lab Fires, flames and explosions, the next round's lead and draws, the next
phase, the end. The referee calls :func:`narrate` once per action; nothing
here decides a rule, and the work is comparing a few small parts of the two
states.

Everything in Compounded lies face up but the order of the two decks (the
view hides only that), so a card is named once it is on the grid or in the
discard, never while it is in a deck: the log reads the grid and the
discard, and of the decks only how many cards are left.
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.compounded.cards import TRACKS
from companion.games.compounded.telling import DECISIONS, Told, and_, gems, minus

PHASE_WORDS = {
    "study": "Study phase: scientists claim compounds in turn.",
    "research": "Research phase: scientists place elements in turn.",
    "lab": "Lab phase: completed compounds are scored.",
}
POINT_LINES = ("compounds", "tops", "lab", "skips")
FINAL_LINES = {"elements": "for elements left", "unfinished": "for claimed unfinished compounds",
               "skips": "for occupied spaces skipped"}


# --- what the agenda did by itself ------------------------------------------------------
def _entered(t: Told) -> list[str]:
    """The phases begun between the two states, in order (a new round's
    Discover phase is told with the round)."""
    b, a = t.before, t.after
    if (a.round, a.phase) == (b.round, b.phase):
        return []
    cycle = ["discover", "study", "research", "lab"]
    out, phase, rnd = [], b.phase, b.round
    for _ in range(8):
        k = cycle.index(phase) if phase in cycle else 3
        if k == 3:
            if a.over or a.round == rnd:
                break
            phase, rnd = "discover", rnd + 1
        else:
            phase = cycle[k + 1]
        out.append(phase)
        if (rnd, phase) == (a.round, a.phase):
            break
    return out


def _points(t: Told) -> list[str]:
    """Every seat's points of the play (not the end's): for which compound,
    which experiment's top, the Lab advance, the occupied spaces skipped."""
    out = []
    for seat, (was, now) in enumerate(zip(t.before.scientists, t.after.scientists)):
        parts = []
        for line in POINT_LINES:
            n = now.lines.get(line, 0) - was.lines.get(line, 0)
            if n <= 0 or (seat, line) in t.said_points or (line == "skips" and _ends(t)):
                continue
            if line == "compounds":
                parts.append(f"{n} for {_scored_by(t, seat)}")
            elif line == "tops":
                tops = [t.track(k) for k, (x, y) in zip(TRACKS, zip(was.tracks, now.tracks))
                        if y > x and t.rules.at_top(t.after, seat, k)]
                parts.append(f"{n} for reaching the top of {and_(tops) if tops else 'an experiment'}")
            elif line == "lab":
                parts.append(f"{n} for the Lab advance")
            else:
                parts.append(f"{n} for occupied spaces skipped")
        if parts:
            out.append(f"{t.name(seat)} scores {and_(parts)}: now at {now.score}.")
    return out


def _scored_cells(t: Told) -> list[int]:
    """Spaces whose compound is being scored in this stretch of the agenda."""
    cells = [t.a["cell"]] if t.a.get("type") == "score" else []
    return cells + [task["cell"] for task in t.before.agenda if task["do"] in ("points", "leave")]


def _scored_by(t: Told, seat: int) -> str:
    for i in _scored_cells(t):
        if seat in t.rules.claimants(t.before, i):
            return t.cell(i)
    return "a compound"


def _burning(t: Told) -> set[int]:
    """The Lab Fires that burned between the two states (not put out)."""
    fires = {task["fire"] for task in t.before.agenda if task["do"] == "burn"}
    fires |= set(range(t.before.fires + 1, t.after.fires + 1))
    fires -= {task["fire"] for task in t.after.agenda if task["do"] == "burn"}
    if t.task.get("do") == "extinguish" and t.a.get("type") == "use_tool":
        fires.discard(t.task.get("fire"))
    return fires


def _gone(t: Told) -> tuple[list[str], list[str], list[tuple[str, int | None]]]:
    """The cards the grid lost, in the order they left (the discard grows at
    its end): scored ones (with their bonus), those the Lab phase clears
    (Lab Fires of the round before, complete compounds nobody claimed), and
    the spaces of those that exploded."""
    where = {c.card: i for i, c in enumerate(t.before.grid) if c.card}
    scored_cells = set(_scored_cells(t))
    extinguished = t.task.get("cell") if t.task.get("do") == "extinguish" and t.a.get("type") == "use_tool" else None
    burned = bool(_burning(t))
    scored, cleared, exploded = [], [], []
    for card in t.after.discard[len(t.before.discard):]:
        i = where.get(card)
        compound = t.rules.compound(card)
        if compound is None:   # a Lab Fire card
            if i is not None and i != extinguished:
                cleared.append(f"The Lab Fire ({t.where(i)}) of the round before is discarded.")
        elif i is not None and i in scored_cells:
            bonus = f"; its bonus: {t.reward(compound.reward)}" if compound.reward else ""
            scored.append(f"{t.cell(i)} is scored and leaves the grid{bonus}.")
        elif (i is not None and t.before.grid[i].ready and not t.rules.claimants(t.before, i)
              and not (burned and compound.flammable and t.before.grid[i].flames >= compound.flame_slots)):
            cleared.append(f"{t.cell(i)}, completed by an explosion and claimed by nobody, is discarded.")
        else:
            exploded.append((card, i))
    return scored, cleared, exploded


def _tools(t: Told) -> list[str]:
    out = []
    refreshed = (t.seat, t.a.get("tool")) if t.a.get("type") == "claim" else None
    for seat, (was, now) in enumerate(zip(t.before.scientists, t.after.scientists)):
        for tool in now.tools:
            if tool not in was.tools:
                out.append(f"{t.name(seat)} takes the {t.tool(tool)}.")
            elif now.tools[tool] and not was.tools[tool] and (seat, tool) != refreshed:
                out.append(f"{t.name(seat)}'s {t.tool(tool)} is refilled.")
        for tool in was.tools:
            if tool not in now.tools:
                out.append(f"{t.name(seat)} returns the {t.tool(tool)} to the supply.")
    return out


def _end_triggered(t: Told) -> list[str]:
    if t.before.final_round is not None or t.after.final_round is None:
        return []
    end = t.rules.end_at[t.after.players]
    first = [t.name(s) for s, sc in enumerate(t.after.scientists) if sc.score >= end]
    return [f"{and_(first)} reached {end} points: round {t.after.final_round} is the last."]


def _tray(t: Told) -> list[str]:
    ran = (any(task["do"] == "lab_tail" for task in t.before.agenda)
           and not any(task["do"] == "lab_tail" for task in t.after.agenda))
    return ["The elements of the Lead Scientist tray go back into the bag."] if ran and t.before.tray else []


def _refill(t: Told) -> list[str]:
    """New cards on the grid (face up once drawn), Lab Fires among them."""
    new, fires = [], []
    for i, (was, now) in enumerate(zip(t.before.grid, t.after.grid)):
        if now.card is None or now.card == was.card:
            continue
        if t.rules.is_lab_fire(now.card):
            fires.append(f"A Lab Fire is drawn ({t.where(i)})!")
        else:
            new.append(t.cell(i, t.after))
    out = []
    if new:
        left = len(t.after.deck) + len(t.after.lab_partner_deck)
        out.append(f"The grid is refilled with {and_(new)}; {left} card{'s are' if left != 1 else ' is'} left to draw.")
    return out + fires


def _burned(t: Told, exploded: list[tuple[str, int | None]]) -> list[str]:
    """Lab Fires that burned (not put out): the flames they added, and the
    compounds that had no room for one more and exploded."""
    burning = _burning(t)
    if not burning:
        return []
    caught = []
    for i, (was, now) in enumerate(zip(t.before.grid, t.after.grid)):
        if not t.rules.compound(now.card):
            continue
        gained = now.flames - (was.flames if was.card == now.card else 0)
        if t.a.get("type") == "use_tool" and t.a.get("tool") == "bunsen_burner" and t.a.get("cell") == i:
            gained -= 1
        if gained > 0:
            caught.append(t.card(now.card) + (f" ({gained} flames)" if gained > 1 else ""))
    fire = "The Lab Fire burns" if len(burning) == 1 else f"{len(burning)} Lab Fires burn"
    if caught:
        verb = "gains" if len(caught) == 1 else "gain"
        out = [f"{fire}: {and_(caught)} {verb} a flame token."]
    else:
        out = [f"{fire}, but no compound catches." if not exploded else f"{fire}."]
    for card, i in exploded:
        if i is None:   # drawn in this refill, caught by one fire and blown up by the next
            out.append(f"{t.card(card)} explodes!")
            continue
        scatter = next((task for task in t.after.agenda if task["do"] == "scatter" and task["from"] == i), None)
        if scatter is None:
            out.append(f"{t.cell(i)} explodes! It held no elements.")
        else:
            out.append(f"{t.cell(i)} explodes! {t.name(scatter['seat'])} moves its elements "
                       f"({gems(scatter['elements'])}) to the compounds around it.")
    return out


def _new_round(t: Told) -> list[str]:
    b, a = t.before, t.after
    if a.round <= b.round or a.over:
        return []
    out = [f"Round {a.round}, Discover phase: {t.name(a.lead)} is the lead scientist."]
    for seat in a.order():
        drawn = minus(a.scientists[seat].bench, b.scientists[seat].bench)
        # the Journal's element is not a draw (a claim on the Journal's slot takes none)
        if seat == t.seat and t.a.get("type") == "use_tool" and t.a.get("tool") == "journal":
            drawn = minus(drawn, {t.a["element"]: 1})
        out.append(f"{t.name(seat)} draws {gems(drawn)}.")
    return out


def _ends(t: Told) -> bool:
    return bool(t.after.over) and not t.before.over


def _end(t: Told) -> list[str]:
    """The end: the final scoring (with the occupied spaces it skipped: the
    spaces skipped on the way there are told with them), the winner."""
    if not _ends(t):
        return []
    out = []
    for seat in t.after.order():
        was, now = t.before.scientists[seat], t.after.scientists[seat]
        parts = [f"{now.lines.get(k, 0) - was.lines.get(k, 0)} {words}" for k, words in FINAL_LINES.items()
                 if now.lines.get(k, 0) > was.lines.get(k, 0)]
        if parts:
            out.append(f"Final scoring: {t.name(seat)} scores {and_(parts)}: now at {now.score}.")
    result = t.game.result(t.after)
    winners = [t.name(s) for s in result.winners]
    best = max(s.total for s in result.scores)
    verb = "wins" if len(winners) == 1 else "share the win"
    out.append(f"The game is over: {t.after.over}. {and_(winners)} {verb} with {best} points.")
    return out


def narrate(game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
            names: list[str]) -> Iterable[str]:
    """The game log's sentences for one action (``Plugin.narrate``)."""
    t = Told(game, before, seat, action, after, names)
    told = DECISIONS.get(t.task.get("do", ""))
    said = told(t) if told else [f"{t.who}: {action.get('type')}."]
    entered = _entered(t)
    scored, cleared, exploded = _gone(t)
    said += [PHASE_WORDS["lab"]] if "lab" in entered else []
    said += _points(t) + scored + _tools(t) + _end_triggered(t)
    said += cleared + _tray(t) + _refill(t) + _burned(t, exploded)
    said += _new_round(t)
    said += [PHASE_WORDS[p] for p in entered if p in ("study", "research")]
    return said + _end(t)
