"""What the Compounded board needs to be drawn, from the engine's view.

Nothing here decides a rule: the grid, the Workbenches and the scoreboard
are the view (``game.view``) in words, and derived numbers (what a compound
still needs, who claims it, a track's number) come from the engine's own
helpers (``game.rules``). The controls are in :mod:`.controls`, built from
``actions(state, seat)`` alone.

The view hides only the decks' order, so the board is the same on every
phone but for each seat's controls, the spaces they light and the
viewer's own Workbench: :func:`table` is worked out once per version from
the spectator's view, and its pieces are drawn once per change
(:mod:`.drawn`); :func:`board_context` adds the seat's own.
"""

from __future__ import annotations

import re
from typing import Any

from engine.compounded.cards import ELEMENTS, TRACKS
from engine.compounded.printed import scientist_kits
from engine.compounded.state import cell_of, tool_of
from companion.games.compounded.controls import controls, describe_token
from companion.games.compounded.drawn import drawn, piece
from companion.kept import serial

PHASE_WORDS = {"discover": "Discover", "study": "Study", "research": "Research", "lab": "Lab", "over": "Game over"}
TRACK_WORDS = {"discover": "Discover", "study": "Study", "research": "Research", "lab": "Lab"}
STATE_WORDS = {"liquid": "liquid", "solid": "solid", "gas": "gas"}
TOOL_ORDER = ("fire_extinguisher", "pipette", "safety_goggles", "journal", "graduated_cylinder", "bunsen_burner")


def formula_runs(text: str) -> list[tuple[str, bool]]:
    """``"CH4"`` as runs of letters and of subscript digits."""
    return [(m.group(0), m.group(0).isdigit()) for m in re.finditer(r"\d+|\D+", text or "")]


def gem_list(counts: dict[str, int]) -> list[dict[str, Any]]:
    return [{"e": e, "n": counts[e]} for e in ELEMENTS if counts.get(e)]


class Board:
    """One seat's reading of one snapshot."""

    def __init__(self, snap: Any, seat: int | None) -> None:
        self.snap, self.seat = snap, seat
        self.game = snap.game
        self.rules = self.game.rules
        self.cards = self.game.cards
        self.state = snap.state
        # the spectator's: the view hides only the decks' order, the same from every seat
        self.view = snap.view(None)
        self.kits = scientist_kits(self.cards.table)

    # --- who is who -----------------------------------------------------------------
    def who(self, seat: int) -> dict[str, Any]:
        kit = self.kits[seat % len(self.kits)]
        return {"seat": seat, "name": self.snap.name(seat), "colour": kit.colour, "shape": kit.shape,
                "colour_word": kit.name}

    def cell_name(self, i: int) -> str:
        cell = self.view["grid"][i]
        card = self.rules.compound(cell["card"])
        where = f"row {i // self.view['cols'] + 1}, column {i % self.view['cols'] + 1}"
        if card:
            return f"{card.name} ({where})"
        if self.rules.is_lab_fire(cell["card"]):
            return f"the Lab Fire ({where})"
        return where

    def tool_name(self, tool: str) -> str:
        row = self.cards.tools.get(tool)
        return row.name if row else tool

    def reward_name(self, reward: str | None) -> str | None:
        if reward is None:
            return None
        row = self.cards.tools.get(reward) or self.cards.reactions.get(reward)
        return row.name if row else reward

    # --- the grid -------------------------------------------------------------------------
    def grid(self, exploded: set[int], burning: int | None = None) -> list[dict[str, Any]]:
        """Every space, none lit: the lit ones are each seat's (:func:`board_context`)."""
        return [self.space(i, exploded, burning) for i in range(len(self.view["grid"]))]

    def space(self, i: int, exploded: set[int], burning: int | None = None) -> dict[str, Any]:
        """Space ``i``, not lit (what it reads is :func:`cell_key`)."""
        cell = self.view["grid"][i]
        state_cell = self.state.grid[i]
        card = self.rules.compound(cell["card"])
        base = {"index": i, "label": self.cell_name(i), "row": i // self.view["cols"] + 1,
                "col": i % self.view["cols"] + 1, "target": False, "exploded": i in exploded,
                "partner_space": i in self.view["lab_partner_cells"], "complete": False,
                "lab_partner": False, "flammable": False, "burning": i == burning}
        if card is None:
            return {**base, "kind": "fire" if self.rules.is_lab_fire(cell["card"]) else "empty",
                    "since": cell["since"]}
        missing = self.rules.missing(state_cell)
        gems = []
        for e, n in card.needs:
            on = cell["elements"].get(e, 0)
            gems += [{"e": e, "placed": k < on} for k in range(n)]
        claims = self.rules.claimants(self.state, i)
        return {**base, "kind": "compound", "id": card.id, "name": card.name,
                "formula": card.formula, "formula_runs": formula_runs(card.formula),
                "points": card.points, "states": list(card.states), "flammable": card.flammable,
                "flames": cell["flames"], "slots": card.flame_slots,
                "full": card.flammable and cell["flames"] >= card.flame_slots,
                "gems": gems, "missing": sum(missing.values()), "complete": cell["complete"],
                "ready": cell["ready"], "lab_partner": card.lab_partner,
                "spots": self.rules.spots(self.state, i),
                "claims": [self.who(s) for s in claims],
                "reward": self.reward_name(card.reward), "fact": card.fact}

    # --- the scientists -------------------------------------------------------------------
    def scientist(self, seat: int) -> dict[str, Any]:
        sc = self.view["scientists"][seat]
        state_sc = self.state.scientists[seat]
        tracks = []
        for t in TRACKS:
            track = self.rules.tracks[t]
            level = sc["tracks"][t]
            tracks.append({"id": t, "word": TRACK_WORDS[t], "level": level, "top": track.top,
                           "value": self.rules.value(self.state, seat, t), "unlocks": track.unlocks,
                           "state": STATE_WORDS.get(track.state or "", "any"),
                           "levels": list(track.levels), "at_top": self.rules.at_top(self.state, seat, t)})
        tools = [{"id": t, "name": self.tool_name(t), "filled": sc["tools"][t]} for t in TOOL_ORDER if t in sc["tools"]]
        tokens = [describe_token(self, t) for t in sc["tokens"]]
        scores = {line.key: line.points for line in self.snap.running_result().scores[seat].lines}
        return {**self.who(seat), "score": sc["score"], "bench": gem_list(sc["bench"]),
                "held": sum(sc["bench"].values()), "keep": self.rules.value(self.state, seat, "lab"),
                "tracks": tracks, "tools": tools, "tokens": tokens, "lines": scores,
                "lead": seat == self.view["lead"], "to_move": seat in self.view["to_move"]}

    # --- the scoreboard -------------------------------------------------------------------
    def scoreboard(self) -> dict[str, Any]:
        v = self.view
        markers: dict[int, list[dict[str, Any]]] = {}
        for seat, sc in enumerate(v["scientists"]):
            markers.setdefault(sc["score"], []).append(self.who(seat))
        end = self.rules.end_at[v["players"]]
        last = max(self.cards.table.scoreboard.score_spaces, max(markers) if markers else 0)
        refresh = []
        for tool in self.rules.refresh_spaces:
            holder = self.rules.tool_space_holder(self.state, tool)
            refresh.append({"id": tool, "name": self.tool_name(tool),
                            "holder": self.who(holder) if holder is not None else None})
        return {"spaces": [{"n": k, "markers": markers.get(k, []), "end": k == end} for k in range(1, last + 1)],
                "start": markers.get(0, []), "end_at": end, "final_round": v["final_round"],
                "flames": v["flame_supply"], "flame_tokens": self.cards.table.flame_tokens,
                "deck": v["deck"], "partner_deck": v["lab_partner_deck"], "discard": len(v["discard"]),
                "bag": gem_list(v["bag"]), "bag_total": sum(v["bag"].values()), "tray": gem_list(v["tray"]),
                "dish": gem_list(v["dish"]), "trading": v["options"]["trading"], "refresh": refresh,
                "lab_partners": v["options"]["lab_partners"]}


def status(b: Board) -> str:
    """What the table is doing, for everyone."""
    v = b.view
    if v["over"]:
        return f"The game is over: {v['over']}."
    task = v["deciding"] or {}
    names = ", ".join(b.snap.name(s) for s in v["to_move"])
    phase = PHASE_WORDS.get(v["phase"], v["phase"])
    words = {
        "trade": f"Scientists trade elements. Still trading: {names}.",
        "dish": f"{names} trades 1 for 1 with the Evaporating Trade Dish, or passes.",
        "discard": f"{names}: discard down to your Lab number.",
        "claims": f"{names} moves a claim token.",
        "research_turn": f"{names} places elements.",
        "burner": f"{names} may use the Bunsen Burner.",
        "score_turn": f"{names} scores a completed compound.",
        "journal": f"{names} may use the Journal.",
        "advance": f"{names} moves an experiment up.",
        "grant": f"Grant: {names} chooses the experiment that moves up.",
        "claim_jump": f"Claim Jump: {names} may move a claim token.",
        "extinguish": f"LAB FIRE! {names}: use your Fire Extinguisher, or let it burn?",
        "scatter": f"A compound exploded: {names} moves its elements to its neighbours.",
        "cylinder": f"{names} may use the Graduated Cylinder.",
    }
    return f"{phase}: {words.get(task.get('do'), names)}"


def _plain(counts: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(counts.items())


def cell_key(b: Board, i: int, exploded: set[int], burning: int | None) -> tuple[Any, ...]:
    """What space ``i`` is drawn from (:meth:`Board.space`): its card and what
    lies on it, who claims it (and their names), and how it is marked."""
    cell = b.view["grid"][i]
    claims = tuple(b.rules.claimants(b.state, i)) if b.rules.compound(cell["card"]) else ()
    return (i, cell["card"], cell["since"], _plain(cell["elements"]), cell["flames"], cell["complete"],
            cell["ready"], i in b.view["lab_partner_cells"], i in exploded, i == burning, claims,
            tuple(b.snap.name(s) for s in claims))


def scientist_key(b: Board, seat: int) -> tuple[Any, ...]:
    """What a scientist is drawn from (:meth:`Board.scientist`): their Workbench
    in the view, where their claim tokens lie (in words), their score's lines;
    last, whether they lead and whether they are to move."""
    sc = b.view["scientists"][seat]
    lines = b.snap.running_result().scores[seat].lines
    return (seat, b.snap.name(seat), _plain(sc["bench"]), _plain(sc["tracks"]), sc["score"], _plain(sc["tools"]),
            tuple(describe_token(b, t) for t in sc["tokens"]), tuple((line.key, line.points) for line in lines),
            seat == b.view["lead"], seat in b.view["to_move"])


def strip_key(b: Board) -> tuple[Any, ...]:
    """What the score track is drawn from: who stands where (``track_strip``)."""
    v = b.view
    return (v["players"], tuple(b.snap.name(s) for s in range(len(v["scientists"]))),
            tuple(sc["score"] for sc in v["scientists"]))


def scoreboard_key(b: Board, strip: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the scoreboard is drawn from (:meth:`Board.scoreboard`), its score track's ``strip`` first."""
    v = b.view
    return (*strip, v["final_round"], v["flame_supply"], v["deck"],
            v["lab_partner_deck"], len(v["discard"]), _plain(v["bag"]), _plain(v["tray"]), _plain(v["dish"]),
            v["options"]["trading"], v["options"]["lab_partners"],
            tuple(b.rules.tool_space_holder(b.state, t) for t in b.rules.refresh_spaces))


def table(snap: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The board as every phone shows it, once per version (no seat's
    controls), and its pieces with the keys they are kept under (:mod:`.drawn`)."""
    b = Board(snap, None)
    v = b.view
    task = v["deciding"] or {}
    exploded = {task["from"]} if task.get("do") == "scatter" else set()
    fire_cell = task.get("cell") if task.get("do") == "extinguish" else None
    game = (serial(snap.game), v["cols"])     # the cards, and where each space lies
    cells = [piece((*game, "cell", *cell_key(b, i, exploded, fire_cell)),
                   lambda i=i: {"space": b.space(i, exploded, fire_cell), "shown": {}}) for i in range(len(v["grid"]))]
    sci_keys = [(*game, "scientist", *scientist_key(b, s)) for s in range(v["players"])]
    track_keys = [(*game, "tracks", _plain(sc["tracks"])) for sc in v["scientists"]]
    entries = [piece(key, lambda s=s: {"s": b.scientist(s), "shown": {}}) for s, key in enumerate(sci_keys)]
    scientists = [e["s"] for e in entries]
    track = strip_key(b)
    board_key = (*game, "scoreboard", *scoreboard_key(b, track))
    board = piece(board_key, b.scoreboard)
    # the score track's markers (the names and scores in the key) move less often than the bag and tray
    strip = piece((*game, "strip", *track), lambda: drawn("track_strip", board))
    # only what the scoreboard shows of each scientist: a change on a Workbench does not redraw it
    board_html = piece((*board_key, tuple(_plain(s["lines"]) for s in scientists)), lambda: drawn(
        "scoreboard", board, [{k: s[k] for k in ("name", "colour", "shape", "score", "lines")} for s in scientists],
        strip))
    return {
        "round": v["round"], "phase": v["phase"], "phase_word": PHASE_WORDS.get(v["phase"], v["phase"]),
        "lead": b.who(v["lead"]), "status": status(b), "over": v["over"],
        "final_round": v["final_round"], "end_at": b.rules.end_at[v["players"]],
        "fire": task.get("do") == "extinguish", "fire_cell": fire_cell, "cols": v["cols"],
        "scientists": scientists, "final": scientists if snap.over else [], "board": board,
        "board_html": board_html,
    }, {"cells": cells, "scientists": list(zip(sci_keys, track_keys, entries))}


def _shown(entry: dict[str, Any], how: Any, make: Any) -> dict[str, Any]:
    """A kept piece as one phone shows it (lit or not, open or not), made
    once for the piece: the piece is made anew when what it shows changes."""
    found = entry["shown"].get(how)
    if found is None:
        found = entry["shown"].setdefault(how, make())
    return found


def _space(entry: dict[str, Any], target: bool) -> dict[str, Any]:
    def lit() -> dict[str, Any]:
        cell = {**entry["space"], "target": target}
        return {**cell, "html": drawn("cell", cell)}
    return _shown(entry, target, lit)


def _summary(key: tuple[Any, ...], entry: dict[str, Any], opened: bool) -> dict[str, Any]:
    s = entry["s"]
    # its body does not show whether its scientist leads or moves (the key's last two), nor whether it is open
    return _shown(entry, ("summary", opened), lambda: {**s, "html": drawn(
        "summary", s, opened, piece((*key[:-2], "summary_body"), lambda: drawn("summary_body", s)))})


def _workbench(key: tuple[Any, ...], tracks: tuple[Any, ...], entry: dict[str, Any]) -> dict[str, Any]:
    s = entry["s"]
    return _shown(entry, "workbench", lambda: {**s, "html": piece((*key[:-2], "workbench"), lambda: drawn(
        "workbench", s, piece(tracks, lambda: drawn("workbench_tracks", s))))})


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    shared, pieces = snap.cached("compounded-table", lambda: table(snap))
    actions = snap.actions(seat)
    ctl = controls(Board(snap, seat) if actions else None, actions)
    targets = frozenset(ctl["targets"])
    # the phones whose controls light the same spaces (most light none) share one grid
    grid = snap.cached(("compounded-grid", targets),
                       lambda: [_space(e, e["space"]["index"] in targets) for e in pieces["cells"]])
    opened = seat is None   # a spectator has every Workbench open
    others = snap.cached(("compounded-others", seat), lambda: [
        _summary(key, entry, opened) for s, (key, _, entry) in enumerate(pieces["scientists"]) if s != seat])
    me = _workbench(*pieces["scientists"][seat]) if seat is not None else None
    return {"cp": {**shared, "grid": grid, "others": others, "me": me, "ctl": ctl}}
