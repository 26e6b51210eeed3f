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
from companion.games.compounded.drawn import drawn

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
        self.view = snap.view(seat)
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
        out = []
        for i, cell in enumerate(self.view["grid"]):
            state_cell = self.state.grid[i]
            card = self.rules.compound(cell["card"])
            base = {"index": i, "label": self.cell_name(i), "row": i // self.view["cols"] + 1,
                    "col": i % self.view["cols"] + 1, "target": False, "exploded": i in exploded,
                    "partner_space": i in self.view["lab_partner_cells"], "complete": False,
                    "lab_partner": False, "flammable": False, "burning": i == burning}
            if card is None:
                out.append({**base, "kind": "fire" if self.rules.is_lab_fire(cell["card"]) else "empty",
                            "since": cell["since"]})
                continue
            missing = self.rules.missing(state_cell)
            gems = []
            for e, n in card.needs:
                on = cell["elements"].get(e, 0)
                gems += [{"e": e, "placed": k < on} for k in range(n)]
            claims = self.rules.claimants(self.state, i)
            out.append({**base, "kind": "compound", "id": card.id, "name": card.name,
                        "formula": card.formula, "formula_runs": formula_runs(card.formula),
                        "points": card.points, "states": list(card.states), "flammable": card.flammable,
                        "flames": cell["flames"], "slots": card.flame_slots,
                        "full": card.flammable and cell["flames"] >= card.flame_slots,
                        "gems": gems, "missing": sum(missing.values()), "complete": cell["complete"],
                        "ready": cell["ready"], "lab_partner": card.lab_partner,
                        "spots": self.rules.spots(self.state, i),
                        "claims": [self.who(s) for s in claims],
                        "reward": self.reward_name(card.reward), "fact": card.fact})
        return out

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


def table(snap: Any) -> dict[str, Any]:
    """The board as every phone shows it, once per version (no seat's controls)."""
    b = Board(snap, None)
    v = b.view
    task = v["deciding"] or {}
    exploded = {task["from"]} if task.get("do") == "scatter" else set()
    fire_cell = task.get("cell") if task.get("do") == "extinguish" else None
    scientists = [b.scientist(s) for s in range(v["players"])]
    board = b.scoreboard()
    return {
        "round": v["round"], "phase": v["phase"], "phase_word": PHASE_WORDS.get(v["phase"], v["phase"]),
        "lead": b.who(v["lead"]), "status": status(b), "over": v["over"],
        "final_round": v["final_round"], "end_at": b.rules.end_at[v["players"]],
        "fire": task.get("do") == "extinguish", "fire_cell": fire_cell,
        "grid": b.grid(exploded, fire_cell), "cols": v["cols"],
        "scientists": scientists, "board": board,
        # only what the scoreboard shows of each scientist: a change on a Workbench does not redraw it
        "board_html": drawn("scoreboard", board, [{k: s[k] for k in ("name", "colour", "shape", "score", "lines")}
                                                  for s in scientists]),
    }


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    shared = snap.cached("compounded-table", lambda: table(snap))
    ctl = controls(Board(snap, seat), snap.actions(seat))
    targets = frozenset(ctl["targets"])

    def lit(cell: dict[str, Any]) -> dict[str, Any]:
        cell = {**cell, "target": cell["index"] in targets}
        return {**cell, "html": drawn("cell", cell)}

    # the phones whose controls light the same spaces (most light none) share one grid
    grid = snap.cached(("compounded-grid", targets), lambda: [lit(c) for c in shared["grid"]])
    opened = seat is None   # a spectator has every Workbench open
    others = [{**s, "html": snap.cached(("compounded-summary", s["seat"], opened),
                                        lambda s=s: drawn("summary", s, opened))}
              for s in shared["scientists"] if s["seat"] != seat]
    me = None
    if seat is not None:
        me = {**shared["scientists"][seat], "html": drawn("workbench", shared["scientists"][seat])}
    return {"cp": {**shared, "grid": grid, "others": others, "me": me, "ctl": ctl}}
