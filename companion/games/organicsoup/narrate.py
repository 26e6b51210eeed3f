"""The Organic Soup game log in words: each action told from the states
before and after it ("Bo built 2 Oxygen molecules.", "Bo reacted 1 Oxygen and
Cy's 1 Nitrogen into 2 Nitric Oxide.", "Bo draws a complex recipe."), with
what the engine did by itself on the way (the soup replenished, recipes
taken by having the most, recipes drawn, the game's end). The referee calls
:func:`narrate` once per action; nothing here decides a rule.

The log is read by every phone and watcher, so it says only what everyone at
a real table sees. Hands are secret and the recipe decks face down: a recipe
is named only once it lies face up (a product placed from the hand, a recipe
taken); a swap, or a draw, is told by its level alone.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from engine.organicsoup.atoms import in_words, of_text, sub, times
from engine.organicsoup.cards import LEVEL_NAMES
from engine.organicsoup.ending import recipes_by_level
from engine.organicsoup.state import HAND_LEVELS


class _Told:
    """One action and the states around it, with the words every sentence needs."""

    def __init__(self, game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
                 names: list[str]) -> None:
        self.game, self.cards, self.seat, self.a = game, game.cards, seat, action
        self.before, self.after, self.names = before, after, names
        self.who = self.name(seat)

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else self.game.seat_name(seat)

    def recipe(self, rid: str) -> str:
        return self.cards.recipe(rid).name

    def level(self, rid: str) -> str:
        return self.cards.recipe(rid).level


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _molecules(n: int, name: str) -> str:
    return f"{n} {name} molecule{'s' if n != 1 else ''}"


def _a(level: str) -> str:
    return f"an {LEVEL_NAMES[level]}" if LEVEL_NAMES[level][0] in "aeiou" else f"a {LEVEL_NAMES[level]}"


# --- the actions ------------------------------------------------------------------
def _build(t: _Told) -> list[str]:
    rid, count = t.a["recipe"], t.a["count"]
    out = [f"{t.who} built {_molecules(count, t.recipe(rid))} from the soup."]
    out += _recipes_moved(t)
    out += _replenished(t, sub(of_text(t.before.soup), times(t.cards.recipe(rid).atoms, count)))
    return out


def _react(t: _Told) -> list[str]:
    mine, theirs = [], []
    for entry in t.a["ingredients"]:   # refused actions never reach the log: these fields are sound
        part = f"{entry['count']} {t.recipe(entry['recipe'])}"
        (mine if entry["seat"] == t.seat else theirs).append((entry["seat"], part))
    given = [p for _, p in mine] + [f"{t.name(s)}'s {p}" for s, p in theirs]
    made = [f"{k} {t.recipe(rid)}" for rid, k in t.a["products"].items()]
    out = [f"{t.who} reacted {_and(given)} into {_and(made)}."]
    out += _recipes_moved(t)
    if t.after.winner is not None and t.before.winner is None:
        out.append(f"{t.name(t.after.winner)} created life: {t.recipe(t.after.life)}! "
                   f"{t.name(t.after.winner)} wins the game.")
    return out


def _swap(t: _Told) -> list[str]:
    # Which recipe went under the deck is the player's secret (and the deck is
    # face down): only its level is seen, by the deck it goes under.
    level = LEVEL_NAMES[t.level(t.a["recipe"])]
    return [f"{t.who} put {_a(t.level(t.a['recipe']))} recipe on the bottom of the {level} deck "
            "and drew a new one."]


def _keep(t: _Told) -> list[str]:
    return [f"{t.who} kept the same hand."]


ACTIONS: dict[str, Callable[[_Told], list[str]]] = {"build": _build, "react": _react, "swap": _swap, "keep": _keep}


# --- what the engine did on the way -----------------------------------------------------
def _holder(state: Any, rid: str) -> tuple[str, int | None]:
    """Where a recipe lies: ``("middle", None)``, ``("front", seat)``, ``("hand", seat)`` or ``("deck", None)``."""
    if rid in state.middle:
        return "middle", None
    for i, seat in enumerate(state.seats):
        if rid in seat.recipes:
            return "front", i
        if rid in seat.hand:
            return "hand", i
    return "deck", None


def _recipes_moved(t: _Told) -> list[str]:
    """Recipes placed from the hand, then recipes taken by having the most
    (a build's tie takes it too; a reaction may move recipes between others)."""
    placed, taken = [], []
    for i, seat in enumerate(t.after.seats):
        for rid in seat.recipes:
            where, owner = _holder(t.before, rid)
            if where == "front" and owner == i:
                continue
            if where == "hand":
                placed.append(f"{t.name(i)} places the {t.recipe(rid)} recipe from the hand on the table.")
                continue
            counts = [s.molecules.get(rid, 0) for s in t.after.seats]
            how = "ties for the most" if counts.count(counts[i]) > 1 else "has the most"
            source = "the middle" if where == "middle" else t.name(owner)
            taken.append(f"{t.name(i)} {how} {t.recipe(rid)} molecules and takes its recipe from {source}.")
    return placed + taken


def _replenished(t: _Told, left: tuple[int, int, int, int]) -> list[str]:
    """The soup after a build: what came up from the atom deck (face up once
    drawn), and the end of the game when the deck runs out."""
    drawn = sub(of_text(t.after.soup), left)
    out = []
    if any(drawn):
        out.append(f"{t.who} replenishes the soup with {in_words(drawn)} "
                   f"({len(t.after.atoms)} left in the atom deck).")
    if t.after.phase == "over" and t.before.phase != "over" and t.after.winner is None:
        out.append("The atom deck is depleted: the game is over.")
        out.append(_most_building_blocks(t))
    return out


def _most_building_blocks(t: _Told) -> str:
    result = t.game.result(t.after)
    winners = [t.name(s) for s in result.winners]
    counts = recipes_by_level(t.cards, t.after.seats[result.winners[0]].recipes)
    levels = [lv for lv in ("complex", "simple", "basic") if counts[lv]]
    said = _and([f"{counts[lv]} {LEVEL_NAMES[lv]}" for lv in levels]) if levels else "no"
    noun = "recipe" if sum(counts[lv] for lv in levels) == 1 else "recipes"
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"{_and(winners)} {verb} with the most building blocks: {said} {noun}."


def _drawn(t: _Told) -> list[str]:
    """After a build or a reaction the player draws up to one recipe of each
    level; the others see the card backs, so each draw is told by its level."""
    if t.a.get("type") not in ("build", "react") or t.after.phase == "over":
        return []
    was = set(t.before.seats[t.seat].hand)
    new = [rid for rid in t.after.seats[t.seat].hand if rid not in was]
    out = []
    if new:
        out.append(f"{t.who} draws {_and([_a(t.level(rid)) for rid in new])} recipe.")
    held = {t.level(rid) for rid in t.after.seats[t.seat].hand}
    short = [LEVEL_NAMES[lv] for lv in HAND_LEVELS if lv not in held]
    if short and t.after.phase == "play":
        out.append(f"The {_and(short)} deck{'s are' if len(short) > 1 else ' is'} empty: "
                   f"{t.who}'s hand stays short.")
    return out


def narrate(game: Any, before: Any, seat: int, action: dict[str, Any], after: Any,
            names: list[str]) -> Iterable[str]:
    """The game log's sentences for one action (``Plugin.narrate``)."""
    t = _Told(game, before, seat, action, after, names)
    said = ACTIONS.get(action.get("type"), lambda t: [f"{t.who}: {action.get('type')}."])(t)
    return said + _drawn(t)
