"""What the Synthesis table needs to be drawn, from the engine's view, its
actions and its result. Nothing here decides a rule: the boards are the
view drawn (:mod:`.drawing`), the controls the seat's actions
(:mod:`.controls`), the scores the engine's result in words (:mod:`.words`).

Every board is worked out once per version and shared by every phone
(``snap.cached``), and made only when what it is made from changed: a board,
a seat's own board up close and its controls are kept with the drawings
(:mod:`.drawn`), keyed by exactly what each is made from, so that a move
remakes the one board it changed, and a version gives the parts that did not
change the very same objects as the version before (companion/reuse.py then
compares them at once).
"""

from __future__ import annotations

from typing import Any

from companion.games.synthesis.controls import an, controls
from companion.games.synthesis.drawing import DISC_INNER, DISC_WORD_R, bond_lines, disc_names
from companion.games.synthesis.drawn import (colours, formula_html, kept, kept_drawing, panel_html, placements_html,
                                             written)
from companion.games.synthesis.words import breakdown, solo

LEVEL_WORDS = {"green": "easy (green)", "yellow": "medium (yellow)", "red": "hard (red)"}


class Table:
    """One snapshot read for the phones."""

    def __init__(self, snap: Any) -> None:
        self.snap, self.game = snap, snap.game
        self.cards = self.game.cards
        self.colours = colours(self.game)
        self.state = snap.state
        self.view = snap.view(None)
        """The spectator's: everything on the table but the dice's generator, the same for every seat."""

    # --- words ------------------------------------------------------------------------------
    def shape_name(self, shape: str) -> str:
        return "free bond (one line)" if shape == "line" else self.cards.bonds[shape].name

    def names(self) -> dict[str, str]:
        return kept(self.game, ("card names",), lambda: card_names(self.cards))

    # --- the turn: disc, dice, goal cards ------------------------------------------------------
    def table(self) -> dict[str, Any]:
        """What the turn's part shows; the disc and the goal cards drawn once
        per change (a new turn, a new holder of yellow; the cards never)."""
        disc, goals = self.disc(), self.goals()
        return {"status": self.status(), "roll": self.roll(), "goals": goals,
                "disc_html": kept_drawing(self.game, ("disc", written(disc)), "disc_svg", disc, self.colours.ink),
                "goals_html": kept_drawing(self.game, ("goals", written(goals)), "turn_goals", goals)}

    def disc(self) -> dict[str, Any]:
        fig = self.game.disc_figure(self.view["turn"])
        boxes = []
        for b in fig["boxes"]:
            seats = [i for i, s in enumerate(self.view["seats"]) if s["box"] == b["box"]]
            turn = (b["angle"] + 90 + 180) % 360 - 180          # along the ring, never upside down
            turn = turn - 180 if turn > 90 else turn + 180 if turn < -90 else turn
            names = [self.snap.name(i) for i in seats]
            boxes.append({**b, "names": names, "written": disc_names(names), "roller": b["box"] == fig["roller_box"],
                          "word_turn": turn})
        return {"boxes": boxes, "roller": fig["roller"], "step": fig["step"], "inner": DISC_INNER,
                "word_r": DISC_WORD_R}

    def roll(self) -> dict[str, Any] | None:
        return self.snap.cached(("synthesis-roll",), self._roll)   # the status and every drawing seat's prompt

    def _roll(self) -> dict[str, Any] | None:
        if not self.view["roll"]:
            return None
        bond, mutation = self.view["roll"]
        m = self.cards.mutations[mutation]
        return {"bond": bond, "name": self.cards.bonds[bond].name,
                "drawing": bond_lines(self.game.bond_figure(bond), 40, 40, 48),
                "mutation": mutation, "mutation_name": m.name, "kind": m.kind, "text": m.text}

    def goals(self) -> dict[str, Any]:
        v, c = self.view, self.cards
        out: dict[str, Any] = {"chain": None, "pattern": None, "project": None,
                               "level": LEVEL_WORDS.get(v["level"]) if v["level"] else None, "offer": None}
        if v["chain_card"]:
            out["chain"] = self.chain_card(v["chain_card"], v["level"])
        if v["pattern_card"]:
            out["pattern"] = self.pattern_card(v["pattern_card"], v["level"])
        if v["project"]:
            card = c.projects[v["project"]].row
            out["project"] = {"name": card.name, "difficulty": card.difficulty, "elemental": card.elemental,
                              "chains": [self.table_shape(f) for f in self.game.project_figures(card.id)]}
        if v["offer"]["chain"]:
            out["offer"] = {"chains": [self.chain_card(i, v["level"]) for i in v["offer"]["chain"]],
                            "patterns": [self.pattern_card(i, v["level"]) for i in v["offer"]["pattern"]]}
        return out

    def chain_card(self, card: str, level: str | None) -> dict[str, Any]:
        row = self.cards.chains[card].row
        return {"id": card, "name": row.name, "points": row.points, "maximum": row.maximum, "text": row.text,
                "shape": self.table_shape(self.game.chain_figure(card)),
                "target": row.threshold(level) if level else None}

    def pattern_card(self, card: str, level: str | None) -> dict[str, Any]:
        row = self.cards.patterns[card].row
        return {"id": card, "name": row.name, "points": row.points, "maximum": row.maximum, "text": row.text,
                "target": row.threshold(level) if level else None}

    @staticmethod
    def table_shape(fig: dict[str, Any], cell: int = 18) -> dict[str, Any]:
        """A card's shape in the volume table as small SVG geometry."""
        def centre(rc: list[int]) -> tuple[float, float]:
            return (rc[1] + 0.5) * cell, (rc[0] + 0.5) * cell
        links = []
        for link in fig["links"]:
            if link["kind"] == "absent":
                continue
            (x1, y1), (x2, y2) = centre(link["a"]), centre(link["b"])
            links.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "kind": link["kind"]})
        cells = [{"x": c[1] * cell + cell * 0.18, "y": c[0] * cell + cell * 0.18} for c in fig["cells"]]
        return {"width": fig["cols"] * cell, "height": fig["rows"] * cell, "size": cell * 0.64, "cells": cells,
                "links": links}

    # --- the boards ------------------------------------------------------------------------------
    def key(self, seat: int) -> tuple[Any, ...]:
        """Everything a seat's board is made from, as plain values: its entry in
        the view, the side, the turn (the track), its player's name and score."""
        def make() -> tuple[Any, ...]:
            score = self.snap.running_result().scores[seat]
            return ("board", seat, self.snap.name(seat), self.view["side"], self.view["turn"],
                    written(self.view["seats"][seat]), score.total,
                    tuple((line.key, line.label, line.points) for line in score.lines), written(score.details))
        return self.snap.cached(("synthesis-key", seat), make)

    def board(self, seat: int) -> dict[str, Any]:
        return self.snap.cached(("synthesis-board", seat),
                                lambda: kept(self.game, self.key(seat), lambda: self._board(seat)))

    def _board(self, seat: int) -> dict[str, Any]:
        shown, side, name = self.view["seats"][seat], self.view["side"], self.snap.name(seat)
        score = self.snap.running_result().scores[seat]
        pts = self.cards.rules.elemental_points
        names = self.names()
        return {
            "seat": seat, "name": name, "board": shown["board"], "side": side,
            "colour": shown["colour"], "ink": self.colours.ink.get(shown["colour"], "#777777"),
            "done": shown["done"], "box": shown["box"] + 1,
            "formula_html": formula_html(self.game, shown, side, name, "other"),
            "panel_html": panel_html(self.game, shown, side, self.view["turn"], score, name),
            "score": {"total": score.total,
                      "lines": breakdown(score, shown, self.cards.points,
                                         lambda n: pts.pair if n >= 2 else pts.one if n == 1 else 0, names),
                      "solo": solo(score, names),
                      "longest": score.details.get("longest_chain", 0),
                      "elementals": score.details.get("elemental_molecules", 0)},
            "free_left": shown["free_bonds"]["left"],
        }

    def mine(self, seat: int, ctl: dict[str, Any], drawing: bool) -> dict[str, Any]:
        """My board again, up close while I draw: the loupe's targets are this seat's alone."""
        free = tuple(ctl["free"]["lines"]) if drawing and ctl["free"] else ()

        def make() -> dict[str, Any]:
            shown, side, name = self.view["seats"][seat], self.view["side"], self.snap.name(seat)
            return {**self.board(seat),
                    "loupe_html": formula_html(self.game, shown, side, name, "loupe", list(free)) if drawing else None,
                    "mine_html": formula_html(self.game, shown, side, name, "mine" if drawing else "other")}
        return kept(self.game, ("mine", *self.key(seat), drawing, free), make)

    def controls(self, seat: int) -> dict[str, Any]:
        """This seat's controls, made from its actions and the phase alone: a
        seat's actions stay the same while others move, and their JSON as one
        text is a fifth of the cost of each action's (a bond has a hundred
        placements and more), which only a change needs."""
        actions = self.snap.actions(seat)

        def make() -> dict[str, Any]:
            ctl = controls(self.game, self.view, actions)
            if ctl["placements"]:
                ctl["placements"]["options_html"] = placements_html(self.game, ctl["placements"]["options"])
            return ctl
        return kept(self.game, ("controls", self.view["phase"], written(actions)), make)

    # --- what the table is doing ---------------------------------------------------------------
    def status(self) -> str:
        v, snap = self.view, self.snap
        waiting = ", ".join(snap.name(s) for s in snap.to_move())
        if v["phase"] == "choose":
            return f"{snap.name(0)} chooses which goal cards to keep."
        if v["phase"] == "roll":
            yellow = self.cards.rules.disc.roller
            if v["seats"][v["roller"]]["colour"] == yellow:
                return (f"Turn {v['turn']} of {self.game.rules.turns}: {snap.name(v['roller'])} holds "
                        f"{yellow} and rolls the dice.")
            return (f"Turn {v['turn']} of {self.game.rules.turns}: nobody holds {yellow}, so "
                    f"{snap.name(v['roller'])}, the first name after it, rolls the dice.")
        if v["phase"] == "synthesis":
            r = self.roll()
            return (f"Turn {v['turn']}: everyone draws {an(r['name'])} ({r['mutation_name']})."
                    + (f" Still drawing: {waiting}." if waiting else ""))
        if v["phase"] == "final":
            return f"All {self.game.rules.turns} turns are played: unused free bonds now." + (
                f" Still drawing: {waiting}." if waiting else "")
        result = snap.result()
        if result is None:
            return "The game is over."
        if len(result.scores) == 1 and "solo" in result.scores[0].details:
            won = result.scores[0].details["solo"]["won"]
            return (f"The game is over: {snap.name(0)} {'met every goal' if won else 'missed a goal'}, "
                    f"with {result.scores[0].total} points.")
        best = max(s.total for s in result.scores)
        who = " and ".join(snap.name(s) for s in result.winners)
        return f"The game is over: {who} {'wins' if len(result.winners) == 1 else 'share the win'} with {best} points."

    def prompt(self, seat: int, ctl: dict[str, Any]) -> str:
        v = self.view
        me = v["seats"][seat]
        colour = me["colour"]
        if ctl["kind"] == "choose":
            return "Keep one Molecular Chain card and one Molecular Pattern card."
        if ctl["kind"] == "roll":
            yellow = self.cards.rules.disc.roller
            if colour == yellow:
                return f"You hold {yellow}: roll the Bond and Mutation dice."
            # fewer names than colours: nobody faces yellow (docs/design/synthesis.md, reading 3)
            return (f"Nobody holds {yellow} this turn, and your name comes first after it on the disc: "
                    "roll the Bond and Mutation dice.")
        if me["pending"]:
            p = me["pending"][0]
            if p["kind"] == "elemental":
                mol = next(m for m in me["molecules"] if m[0] == p["hexagon"])
                shape = next(h["icon"] for h in self.game.geometry(me["board"], v["side"])["hexagons"]
                             if h["hexagon"] == p["hexagon"])
                return (f"You closed {p['hexagon']}, a {shape} hexagon, all in {self.colours.name(mol[1])}: shade it "
                        f"as an elemental molecule, or treat it as a normal molecule of volume {mol[2]}.")
            return (f"You closed the active molecule {p['hexagon']}: draw {an(self.shape_name(p['shape']))} in "
                    f"{self.colours.name(p['colour'])} now (no mutation), or decline it for good.")
        if ctl["kind"] == "bond":
            r = self.roll()
            twice = " (two copies: draw one, then the other)" if me["todo"] == 2 else (
                " (the second copy)" if r and r["mutation"] == "twice" else "")
            return f"Draw {an(r['name'])} in {colour}{twice}. {r['mutation_name']} ({r['kind']}): {r['text']}"
        if ctl["kind"] == "pass" or any(b["act"].startswith('{"type":"pass"') for b in ctl["buttons"]):
            return "The rolled bond fits nowhere on your formula. Draw a free bond to make room, or pass."
        if ctl["free"]:
            n = me["free_bonds"]["left"]
            return (f"You have {n} free bond{'s' if n != 1 else ''}: one line, any colour. Tap a line, then a "
                    "colour; " + ("or say you are done." if v["phase"] == "final" else "or finish your turn."))
        if ctl["kind"] == "finish":
            return "Your bond is drawn. Finish your turn."
        if v["phase"] in ("synthesis", "final") and me["done"]:
            return "You have finished this turn."
        return ""


def card_names(cards: Any) -> dict[str, str]:
    """Card ids and colour letters to their names, for the score words."""
    out = {c.id: c.row.name for c in cards.chains.values()}
    out.update({c.id: c.row.name for c in cards.patterns.values()})
    out.update({c.id: c.row.name for c in cards.projects.values()})
    out.update({c.letter: c.id for c in cards.rules.colours})
    return out


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    t = Table(snap)
    v = t.view
    boards = [t.board(i) for i in range(v["players"])]
    ctl = t.controls(seat) if seat is not None else None
    drawing = bool(ctl and (ctl["placements"] or ctl["free"]))
    mine = t.mine(seat, ctl, drawing) if seat is not None else None
    # the same for every phone (all from the view every seat sees): worked out once per version
    table = snap.cached(("synthesis-table",), t.table)
    return {"syn": {
        "phase": v["phase"], "turn": v["turn"], "turns": t.game.rules.turns, "side": v["side"], "mode": v["mode"],
        **table, "boards": boards,
        # what the scores' part reads, apart from the boards (which change with every move, their scores seldom)
        "scores": [{"seat": b["seat"], "name": b["name"], "score": b["score"]} for b in boards],
        "mine": mine, "ctl": ctl, "prompt": t.prompt(seat, ctl) if ctl is not None else "",
        "drawing": drawing, "marker": v["seats"][seat]["colour"] if seat is not None else None,
        "inks": dict(t.colours.ink),
        "pick_key": _pick_key(v, seat),
    }}


def _pick_key(view: dict[str, Any], seat: int | None) -> str:
    """Changes when this seat's drawing task changes (not when another phone
    moves): a half-made choice of lines is kept while it is the same."""
    if seat is None:
        return ""
    me = view["seats"][seat]
    return (f"{view['turn']}-{view['phase']}-{me['todo']}-{len(me['pending'])}-{me['lines'].count('.')}-"
            f"{me['free_used']}")


def action_label(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind in ("bond", "active_bond"):
        return f"Draw {' '.join(action.get('lines', []))}"
    if kind == "free_bond":
        return f"Free bond {action.get('line')} in {action.get('colour')}"
    return ""
