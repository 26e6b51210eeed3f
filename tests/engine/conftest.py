"""Engine test helpers: a Lab Notes game, one-line scenarios, playout policies."""

from __future__ import annotations

import collections
import json
import random
from typing import Iterable

import pytest

from engine.labnotes import LabNotes
from engine.labnotes.dice import start_notate
from engine.labnotes.scoring import compounds
from engine.labnotes.state import State, parse_space_label, sheet_from_text
from labkit.cardsets import new_game
from labkit.registry import find

FIRST_GAME = ("centrifuge", "retort-flask", "fire-suppressant")
DESIGNED = ("pipette", "mortar-and-pestle", "fume-hood")

_GAME = new_game(find("labnotes"))


@pytest.fixture(scope="session")
def game() -> LabNotes:
    return _GAME


# --- actions with paper labels ------------------------------------------------------
def notate(element: str, label: str) -> dict:
    return {"type": "notate", "element": element, "space": parse_space_label(label)}


def bond(a: str, b: str) -> dict:
    return {"type": "bond", "spaces": [parse_space_label(a), parse_space_label(b)]}


def burn(label: str) -> dict:
    return {"type": "burn", "space": parse_space_label(label)}


def trash(element: str) -> dict:
    return {"type": "trash", "element": element}


def tool(tool_id: str, **fields) -> dict:
    return {"type": "use_tool", "tool": tool_id, **fields}


FINISH = {"type": "finish"}


def run(game: LabNotes, state: State, *steps: tuple[int, dict]) -> State:
    for seat, action in steps:
        state = game.apply(state, seat, action)
    return state


# --- scenarios ------------------------------------------------------------------------
def _colour_for(face: str) -> tuple[str, ...]:
    return {"H": ("white",), "C": ("yellow",), "burner": ("yellow",)}.get(face, ("white", "yellow"))


def notating(game: LabNotes, dice: Iterable[str], community: str, sheets: dict[int, str] | None = None,
             tools: Iterable[str] = FIRST_GAME, seed: int = 1, claims: dict | None = None) -> State:
    """A state in the notate phase: seat i took a die showing ``dice[i]``, the
    Community die shows ``community``, and seat sheets are given in the
    one-line form of :func:`sheet_from_text`. Tools whose compound is on a
    sheet are unlocked, as in play."""
    dice = list(dice)
    s = game.setup(len(dice), seed, {"tools": list(tools)})
    wanted = [(i, f) for i, f in enumerate(dice)] + [(None, community)]
    wanted.sort(key=lambda w: len(_colour_for(w[1])))
    free = [d for d in s.dice if d.place == "cup"]
    for seat, face in wanted:
        die = next(d for d in free if d.colour in _colour_for(face))
        free.remove(die)
        die.face = face
        die.place, die.seat = ("community", None) if seat is None else ("seat", seat)
    s.phase = "notate"
    start_notate(s)
    for seat, text in (sheets or {}).items():
        s.seats[seat].spaces, s.seats[seat].bonds = sheet_from_text(text)
        unlock(game, s, seat)
    game.check(s)
    return s


def unlock(game: LabNotes, s: State, seat: int) -> None:
    sh = s.seats[seat]
    found = [c for c in compounds(sh.spaces, sh.bonds) if c.complete]
    sh.tools = tuple(t for t in s.tools if any(c.matches(*game.rules.tool_shapes[t]) for c in found))


def arrange_cards(game: LabNotes, s: State, line: list[str], deck_top: list[str] = (),
                  discard: list[str] = ()) -> None:
    """Put the notecards where a test wants them; the rest go under the deck."""
    placed = set(line) | set(deck_top) | set(discard)
    s.line = list(line)
    s.discard = list(discard)
    s.deck = list(deck_top) + [c for c in game.rules.card_ids if c not in placed]


# --- playouts --------------------------------------------------------------------------
def builder(rng: random.Random, game: LabNotes, s: State, seat: int, actions: list[dict]) -> dict:
    """A random player who likes to finish compounds: claims, tools and bonds
    first, elements next to open bonds, so that the rarer rules get played."""
    by = collections.defaultdict(list)
    for a in actions:
        by[a["type"]].append(a)
    for kind, p in (("claim", .95), ("use_tool", .5), ("reroll", .3), ("bond", .8)):
        if by.get(kind) and rng.random() < p:
            return rng.choice(by[kind])
    if by.get("notate") and rng.random() < .8:
        sh, rules = s.seats[seat], game.rules
        near = [a for a in by["notate"]
                if any(sh.spaces[n] in "HONC" and rules.room(sh, n) > 0 for n in rules.neighbours[a["space"]])]
        if near:
            return rng.choice(near)
    return rng.choice(actions)


def uniform(rng: random.Random, game, s, seat: int, actions: list[dict]) -> dict:
    return rng.choice(actions)


def canonical(action) -> str:
    """An action as JSON text, so that ``True`` is not ``1``; bonds and
    rerolls name their spaces and dice in any order."""
    a = dict(action) if isinstance(action, dict) else action
    if isinstance(a, dict):
        for key in ("spaces", "dice"):
            if isinstance(a.get(key), list) and all(type(x) is int for x in a[key]):
                a[key] = sorted(a[key])
    return json.dumps(a, sort_keys=True)
