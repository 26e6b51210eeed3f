"""Lab Notes invariants: what every legal state keeps. The conformance suite
and the property tests call them after every step (through ``Game.check``),
and ``from_dict`` calls them on every state read back: every die and
notecard in exactly one place, no atom over its valence, tools unlocked
exactly when built, nothing owed outside its phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import InvalidState
from engine.labnotes.notate import FIRE_BURNS
from engine.labnotes.reading import name_of as _name
from engine.labnotes.scoring import compounds
from engine.labnotes.state import BURNED, LINE_POINTS, SOURCES, VALENCE, Die, Sheet, State
from engine.labnotes.tools import MAX_REROLLS

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

def check(rules: "Rules", s: State) -> None:
    """Every invariant the rules keep; all problems at once, as InvalidState."""
    problems: list[str] = []
    p = problems.append
    per = rules.data.dice.per_players
    if s.players not in per or len(s.seats) != s.players:
        p(f"players: {s.players} players with {len(s.seats)} sheets")
        raise InvalidState("\n".join(problems))
    if not 0 <= s.lead < s.players:
        p(f"lead: seat {s.lead} is not at the table")
    if (len(s.tools) != 3 or any(t not in rules.tools for t in s.tools)
            or sorted(rules.tools[t].state for t in s.tools) != ["gas", "liquid", "solid"]):
        p(f"tools: expected one liquid, one solid and one gas tool, found {list(s.tools)}")
    full = [not sh.has_empty() for sh in s.seats]
    if s.phase in ("roll", "select") and any(full):
        p("phase: a full sheet ends the game at the end of the turn")
    if s.phase == "over" and not any(full):
        p("phase: the game ends only when a sheet is full")
    if s.phase == "notate" and all(sh.done for sh in s.seats):
        p("phase: everyone has finished notating, so the turn has ended")
    if s.phase == "fire" and not any(sh.fires or sh.burns for sh in s.seats):
        p("phase: nobody owes a Lab Fire, so the fire phase has ended")
    _check_dice(rules, s, p)
    _check_cards(rules, s, p)
    for i, sh in enumerate(s.seats):
        _check_sheet(rules, s, i, sh, p)
    if not problems and s.phase != "over":
        stuck = [seat for seat in rules.to_move(s) if not rules.actions(s, seat)]
        if stuck:
            p(f"seats.{stuck[0]}: is to move but has nothing it may do")
    if problems:
        raise InvalidState("\n".join(problems))

def _check_dice(rules: "Rules", s: State, p) -> None:
    if [d.colour for d in s.dice] != rules.dice_colours:
        p(f"dice: expected colours {rules.dice_colours}")
        return
    need = rules.in_play(s.players)
    for colour in rules.faces:
        n = sum(1 for d in s.dice if d.colour == colour and d.place != "box")
        if n != need.get(colour, 0):
            p(f"dice: {n} {colour} dice in play, expected {need.get(colour, 0)}")
    places: dict[str, list[Die]] = {pl: [] for pl in ("box", "cup", "pool", "seat", "community")}
    for i, d in enumerate(s.dice):
        places[d.place].append(d)
        if (d.face is None) != (d.place in ("box", "cup")):
            p(f"dice.{i}: a die {d.place!r} with face {d.face!r}")
        if d.face is not None and d.face not in rules.faces[d.colour]:
            p(f"dice.{i}: a {d.colour} die has no face {d.face!r}")
        if (d.seat is not None) != (d.place == "seat") or (d.seat is not None and not 0 <= d.seat < s.players):
            p(f"dice.{i}: held by seat {d.seat!r} in place {d.place!r}")
    holders = [d.seat for d in places["seat"] if d.seat is not None]
    if len(set(holders)) != len(holders):
        p("dice: a seat holds two dice")
    if s.phase == "roll" and (places["pool"] or places["seat"] or places["community"]):
        p("dice: every die in play waits in the cup before the roll")
    if s.phase == "select":
        if places["cup"] or places["community"] or not 0 <= s.picks < s.players:
            p("dice: the select phase has only rolled and taken dice")
        expected = {(s.lead + k) % s.players for k in range(s.picks)}
        if set(holders) != expected:
            p(f"dice: taken by seats {sorted(holders)}, expected {sorted(expected)}")
    elif s.rerolls:
        p("rerolls: only during a pick")
    if s.rerolls > MAX_REROLLS:
        p("rerolls: more than 2")
    if s.phase in ("notate", "fire", "over"):
        if places["cup"] or places["pool"] or len(places["community"]) != 1 or len(holders) != s.players:
            p("dice: after the draft every seat holds one die and one is the Community die")

def _check_cards(rules: "Rules", s: State, p) -> None:
    everything = s.deck + s.line + s.discard
    if sorted(everything) != rules.card_ids:
        p("notecards: every card must be in exactly one of deck, line and discard")
    if not s.deck and s.discard:
        p("deck: empty while the discard pile holds cards (it becomes the new deck at once)")
    if len(s.line) > 3:
        p(f"line: {len(s.line)} cards, at most 3")
    if sum(c in rules.lab_fires for c in s.line) > 1:
        p("line: two Lab Fires left in the line")

def _check_sheet(rules: "Rules", s: State, i: int, sh: Sheet, p) -> None:
    f = f"seats.{i}"
    if len(sh.spaces) != rules.size or any(c not in ".xHONC" for c in sh.spaces):
        p(f"{f}.spaces: expected {rules.size} spaces of '.', 'x', H, O, N, C")
        return
    bad: list[str] = []
    used = [0] * rules.size
    for (a, b), o in sh.bonds.items():
        if not (0 <= a < b < rules.size) or b not in rules.adjacent[a]:
            bad.append(f"{f}.bonds: {a}-{b} does not join neighbouring spaces")
            continue
        if sh.spaces[a] not in VALENCE or sh.spaces[b] not in VALENCE:
            bad.append(f"{f}.bonds: {rules.label(a)}-{rules.label(b)} joins a space without an element")
        if not 1 <= o <= 3:
            bad.append(f"{f}.bonds: {rules.label(a)}-{rules.label(b)} has order {o}")
        used[a] += o
        used[b] += o
    for k, e in enumerate(sh.spaces):
        if e in VALENCE and used[k] > VALENCE[e]:
            bad.append(f"{f}.bonds: the {_name(e)} at {rules.label(k)} has {used[k]} bonds, more than {VALENCE[e]}")
    for problem in bad:
        p(problem)
    if len(sh.trash) > rules.trash_cans:
        p(f"{f}.trash: {len(sh.trash)} elements in {rules.trash_cans} cans")
    if sh.tool_marks > rules.open_track(sh):
        p(f"{f}.tool_marks: {sh.tool_marks} marks on {rules.open_track(sh)} open spaces")
    if not bad:  # compounds are read only from bonds that make sense
        _check_claims(rules, s, f, sh, p)
    _check_burns(rules, s, f, sh, p)
    live = {"roll": [], "select": ["used"], "notate": ["pending", "used", "burns", "choosing", "done", "placed"],
            "fire": ["used", "burns", "fires"], "over": ["used"]}[s.phase]
    for name in Sheet.TURN_FIELDS:
        if name not in live and getattr(sh, name) not in ((), 0, False, None):
            p(f"{f}.{name}: must be empty in the {s.phase} phase")
    if any(t not in sh.tools for t in sh.used):
        p(f"{f}.used: a tool that is not unlocked")
    if sum(src == "burner" for _, src in sh.pending) > 1 or any(src not in SOURCES for _, src in sh.pending):
        p(f"{f}.pending: sources must be die, community, burner or flask, one burner at most")
    if any(not 0 <= k < rules.size or sh.spaces[k] not in VALENCE for k in sh.placed) \
            or len(set(sh.placed)) != len(sh.placed):
        p(f"{f}.placed: {list(sh.placed)} are not spaces holding an element, each once")
    if sh.burns > (FIRE_BURNS if s.phase == "fire" else 1) or (sh.choosing and sh.burns):
        p(f"{f}.burns: {sh.burns} owed")
    if sh.fires > s.fires:
        p(f"{f}.fires: {sh.fires} owed of {s.fires} this round")
    if sh.done and sh.owes():
        p(f"{f}.done: finished with elements or burns still owed")

def _check_claims(rules: "Rules", s: State, f: str, sh: Sheet, p) -> None:
    if len(sh.claims) > rules.boxes:
        p(f"{f}.claims: {len(sh.claims)} notecards in {rules.boxes} boxes")
    cards = [c.notecard for c in sh.claims]
    if len(set(cards)) != len(cards) or len({c.spaces for c in sh.claims}) != len(cards):
        p(f"{f}.claims: a notecard or a compound is claimed twice")
    complete = {c.spaces: c for c in compounds(sh.spaces, sh.bonds) if c.complete}
    for c in sh.claims:
        comp = complete.get(c.spaces)
        if c.notecard not in rules.card_shapes:
            p(f"{f}.claims: {c.notecard!r} is not a compound notecard")
        elif comp is None or not comp.matches(*rules.card_shapes[c.notecard]):
            p(f"{f}.claims: no complete {c.notecard} on the spaces claimed")
        if c.points not in LINE_POINTS:
            p(f"{f}.claims: {c.points} points")
    unlocked = set(sh.tools)
    if len(unlocked) != len(sh.tools) or not unlocked <= set(s.tools):
        p(f"{f}.tools: {list(sh.tools)} are not tools of this game")
    for t in s.tools:
        if t in rules.tool_shapes:
            built = any(c.matches(*rules.tool_shapes[t]) for c in complete.values())
            if built != (t in unlocked):
                p(f"{f}.tools: {t} {'built but locked' if built else 'unlocked but not built'}")

def _check_burns(rules: "Rules", s: State, f: str, sh: Sheet, p) -> None:
    """Every burned space has exactly one cause, and a cause only what burned
    (design doc, rule 28)."""
    burned = sorted(k for k, c in enumerate(sh.spaces) if c == BURNED)
    recorded = sorted(b.space for b in sh.burned)
    if recorded != burned:
        labels = ", ".join(rules.label(k) for k in sorted(set(burned) ^ set(recorded))
                           if 0 <= k < rules.size) or "a space twice"
        p(f"{f}.burned: {len(recorded)} causes for {len(burned)} burned spaces ({labels})")
    for b in sh.burned:
        if b.round > s.round:
            p(f"{f}.burned: a burn in round {b.round}, after this round ({s.round})")
        if b.cause == "unconnected" and (s.phase != "over" or b.round != s.round):
            p(f"{f}.burned: unconnected elements burn only when the game ends")
        if b.cause == "trash" and len(sh.trash) < rules.trash_cans:
            p(f"{f}.burned: a full trash's burn, but the trash is not full")
    rounds = [b.round for b in sh.burned if b.cause == "burner"]
    if len(set(rounds)) != len(rounds) or sum(b.cause == "trash" for b in sh.burned) > 1:
        p(f"{f}.burned: a Bunsen Burner burns one space (the die once a round, the trash once)")
