"""What the Organic Soup board needs to be drawn, beyond the engine's view.

Nothing here decides a rule. The controls come from ``actions(state, seat)``:
a recipe is offered for building with exactly the counts the engine lists,
the offered reactions are the engine's, the swaps and the keep are the
engine's. The free reaction form lists what the view's ``reaction`` field
says a reaction may be made of (with the opponents' guarded molecules and
the hand's recipes too, marked, so that trying one gets the referee's
reason), and sends any reaction as a ``react`` action: the engine accepts
it or says why not, next to the form.

Gestures (``companion.js``): ``data-act`` sends an action; a buildable
recipe is an option (``data-option`` with ``data-fill="count"`` and its
``data-values``) completed by a count (``data-target="count"``). The form is
this plugin's own script (``organicsoup.js``), which builds the action and
calls ``window.labkit.submit``.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from typing import Any

from markupsafe import Markup

from engine.chem import ELEMENT_NAMES
from engine.organicsoup.atoms import ELEMENTS
from engine.organicsoup.cards import LEVEL_NAMES
from companion.games.organicsoup.cards import face, recipe_card
from companion.plugins import macros

HAND_ORDER = ("simple", "complex", "amino")


def _json(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _by_type(actions: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in actions:
        out[a["type"]].append(a)
    return out


def reaction_words(game: Any, snap: Any, seat: int, action: dict[str, Any]) -> str:
    """``"1 Oxygen + 1 Nitrogen (Cy) → 2 Nitric Oxide"``."""
    name = lambda rid: game.cards.recipe(rid).name  # noqa: E731
    given = " + ".join(f"{i['count']} {name(i['recipe'])}" + ("" if i["seat"] == seat else f" ({snap.name(i['seat'])})")
                       for i in action["ingredients"])
    made = " + ".join(f"{k} {name(rid)}" for rid, k in action["products"].items())
    return f"{given} \u2192 {made}"


def in_names(names: tuple[str, ...], text: str) -> str:
    """A referee's sentence with the table's names: the engine knows the
    seats only as "Player 1", "Player 2" (its refusals name the owner of a
    guarded molecule)."""
    def name(m: re.Match) -> str:
        seat = int(m.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else m.group(0)
    return re.sub(r"\bPlayer (\d+)\b", name, text)


def action_label(action: dict[str, Any]) -> str:
    """Words for an action's button where the generic board is used."""
    from companion.web import get_referee

    cards = get_referee().game("organicsoup").cards
    kind = action.get("type")
    try:
        if kind == "build":
            return f"Build {action['count']} {cards.recipe(action['recipe']).name}"
        if kind == "swap":
            return f"Swap {cards.recipe(action['recipe']).name}"
        if kind == "keep":
            return "Keep my hand"
        if kind == "react":
            made = ", ".join(f"{k} {cards.recipe(r).name}" for r, k in action["products"].items())
            return f"React into {made}"
    except (KeyError, TypeError):
        return ""
    return ""


def soup(view: dict[str, Any]) -> dict[str, Any]:
    counts = {e: view["soup"].count(e) for e in ELEMENTS}
    return {"atoms": list(view["soup"]), "counts": [{"element": e, "name": ELEMENT_NAMES[e], "n": counts[e]}
                                                     for e in ELEMENTS],
            "deck": view["atom_deck"], "decks": [{"level": lv, "name": LEVEL_NAMES[lv], "n": view["decks"][lv]}
                                                 for lv in HAND_ORDER]}


def builds(game: Any, view: dict[str, Any], by_type) -> dict[str, Any]:
    """Every face-up recipe; those the engine lets the player build are
    options completed by a count."""
    counts: dict[str, list[int]] = defaultdict(list)
    for a in by_type["build"]:
        counts[a["recipe"]].append(a["count"])
    where = {rid: None for rid in view["middle"]}
    for s, seat in enumerate(view["seats"]):
        for rid in seat["recipes"]:
            where[rid] = s
    tiles = []
    for rid, owner in where.items():
        offered = sorted(counts.get(rid, []))
        tiles.append({"card": recipe_card(game, rid), "owner": owner, "counts": offered,
                      "option": _json({"type": "build", "recipe": rid}) if offered else None})
    most = max((max(c) for c in counts.values()), default=0)
    return {"tiles": tiles, "targets": list(range(1, most + 1)), "any": bool(counts)}


def reaction_form(game: Any, snap: Any, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """The free reaction form: ingredients (his own molecules, each
    opponent's, the guarded ones marked by the engine's omission) and
    products (the recipes he may form, then the rest of his hand)."""
    form = view.get("reaction")
    if form is None:
        return None
    name = lambda rid: game.cards.recipe(rid).name  # noqa: E731
    own = [{"seat": seat, "recipe": rid, "name": name(rid), "have": k, "guarded": False}
           for rid, k in form["own"].items()]
    opponents = []
    for s, other in enumerate(view["seats"]):
        if s == seat or not other["molecules"]:
            continue
        free = form["opponents"].get(str(s), {})
        opponents.append({"seat": s, "name": snap.name(s), "molecules": [
            {"seat": s, "recipe": rid, "name": name(rid), "have": k, "guarded": rid not in free}
            for rid, k in other["molecules"].items()]})
    formable = list(form["products"])
    products = [{"recipe": rid, "card": recipe_card(game, rid), "from_hand": rid in (view["seats"][seat]["hand"] or []),
                 "may": True} for rid in formable]
    products += [{"recipe": rid, "card": recipe_card(game, rid), "from_hand": True, "may": False}
                 for rid in view["seats"][seat]["hand"] or [] if rid not in formable]
    return {"own": own, "opponents": opponents, "products": products,
            "key": f"{snap.code}-{snap.moves}", "empty": not own and not any(o["molecules"] for o in opponents)}


def players(snap: Any, seat: int | None) -> list[dict[str, Any]]:
    """What lies in front of each player, in seat order, and the backs of
    his hand; the viewer's own hand is drawn apart (:func:`board_context`).

    An area is public, so another player's is the same on every phone: it
    is worked out and drawn once per version, from the spectator's view
    (which holds no hand). Only the viewer's own (no backs) is his."""
    def theirs(s: int) -> dict[str, Any]:
        return snap.cached(("organicsoup-area", s), lambda: area(snap, s, snap.view(None)["seats"][s], mine=False))

    return [area(snap, s, snap.view(seat)["seats"][s], mine=True) if s == seat else theirs(s)
            for s in range(len(snap.seats))]


def area(snap: Any, s: int, shown: dict[str, Any], mine: bool) -> dict[str, Any]:
    """One player's area as ``shown`` (a seat of a view); its HTML too."""
    game, view = snap.game, snap.view(None)
    by_level = defaultdict(int)
    for rid in shown["recipes"]:
        by_level[game.cards.recipe(rid).level] += 1
    out = {
        "seat": s, "name": snap.name(s), "mine": mine, "turn": s == view["turn"] and view["phase"] != "over",
        "molecules": [{"recipe": rid, "name": game.cards.recipe(rid).name, "n": k,
                       "formula_runs": recipe_card(game, rid)["formula_runs"],
                       "with_recipe": rid in shown["recipes"]} for rid, k in shown["molecules"].items()],
        "recipes": [recipe_card(game, rid) for rid in shown["recipes"]],
        "levels": [{"level": lv, "name": LEVEL_NAMES[lv], "n": by_level[lv]} for lv in ("complex", "simple", "basic")],
        "backs": [LEVEL_NAMES[lv] for lv in shown["hand_levels"]],
        "known": recipe_card(game, shown["known"])["name"] if shown["known"] and not mine else None,
    }
    macro = macros("organicsoup/_recipe.html").area
    return {**out, "html": Markup(macro(out, lambda rid: face(game, rid)))}


def status(snap: Any, view: dict[str, Any]) -> str:
    who = snap.name(view["turn"])
    if view["phase"] == "play":
        return f"{who}'s turn: build molecules or trigger a reaction."
    if view["phase"] == "end":
        return f"{who} may swap a recipe from the hand, or keep it."
    if view["winner"] is not None:
        return f"{snap.name(view['winner'])} created life: {snap.game.cards.recipe(view['life']).name}."
    return "The atom deck has run out: the game is over."


def prompt(view: dict[str, Any], seat: int | None) -> str:
    if seat is None or seat != view["turn"] or view["phase"] == "over":
        return ""
    if view["phase"] == "end":
        return "Your turn is nearly over: swap one recipe for a new one, or keep your hand."
    return "Your turn: build molecules from the soup, or trigger a reaction."


def standings(snap: Any) -> dict[str, Any] | None:
    """The winner and every player's recipes by level, from the engine's
    result (its totals only rank; the counts are in each score's details)."""
    result = snap.result()
    if result is None:
        return None
    rows = []
    for score in sorted(result.scores, key=lambda s: -s.total):
        counts = score.details["recipes"]
        life = score.details.get("life")
        rows.append({"seat": score.seat, "name": snap.name(score.seat), "winner": score.seat in result.winners,
                     "life": snap.game.cards.recipe(life).name if life else None,
                     "complex": counts["complex"], "simple": counts["simple"], "basic": counts["basic"],
                     "amino": counts["amino"]})
    return {"rows": rows, "winners": [snap.name(w) for w in result.winners]}


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    game, view = snap.game, snap.view(seat)
    by_type = _by_type(snap.actions(seat))
    mine = view["seats"][seat] if seat is not None else None
    return {"os": {
        "phase": view["phase"], "turn": view["turn"], "turn_name": snap.name(view["turn"]),
        "status": status(snap, view), "prompt": prompt(view, seat),
        "soup": soup(view),
        "build": builds(game, view, by_type),
        "offers": [{"act": _json(a), "text": reaction_words(game, snap, seat, a)} for a in by_type["react"]],
        "form": reaction_form(game, snap, seat, view) if seat is not None else None,
        "swaps": [{"act": _json(a), "card": recipe_card(game, a["recipe"])} for a in by_type["swap"]],
        "keep": _json(by_type["keep"][0]) if by_type["keep"] else None,
        "hand": [recipe_card(game, rid) for rid in mine["hand"]] if mine and mine["hand"] is not None else None,
        "players": players(snap, seat),
        "standings": standings(snap),
        # the names, not the snapshot: the snapshot keeps this context. The
        # same function object from one version to the next (while the names
        # stay), so a part that calls it is known unchanged (companion/reuse.py)
        "say": _say(tuple(snap.names)),
        "face": _face(game),
    }}


@functools.lru_cache(maxsize=256)
def _say(names: tuple[str, ...]) -> Any:
    return functools.partial(in_names, names)


@functools.lru_cache(maxsize=8)
def _face(game: Any) -> Any:
    return functools.partial(face, game)
