"""The paper referee: a table playing with the printed cards writes down a
proposed reaction as JSON and learns whether it is legal, why not, and a
legal reaction it could make instead (``docs/organicsoup-reaction-format.md``)::

    {"players": [{"name": "Ana", "molecules": {"Oxygen": 2}, "recipes": ["Oxygen"],
                  "hand": ["Nitric Oxide"]},
                 {"name": "Ben", "molecules": {"Nitrogen": 2}, "recipes": ["Nitrogen"]},
                 {"name": "Cy", "molecules": {"Nitrogen": 1}}],
     "player": "Ana",
     "ingredients": [{"player": "Ana", "molecule": "Oxygen", "count": 1},
                     {"player": "Ben", "molecule": "Nitrogen", "count": 1}],
     "products": {"Nitric Oxide": 2}}

The same rules as the engine's judge it (:func:`engine.organicsoup.reactions.refusals`).

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.game import OrganicSoup
>>> game = OrganicSoup(example_cards())
>>> report = check_reaction(game, {
...     "players": [{"name": "Ana", "molecules": {"Oxygen": 2}, "recipes": ["Oxygen"], "hand": ["Nitric Oxide"]},
...                 {"name": "Ben", "molecules": {"Nitrogen": 2}, "recipes": ["Nitrogen"]},
...                 {"name": "Cy", "molecules": {"Nitrogen": 1}}],
...     "player": "Ana",
...     "ingredients": [{"player": "Ana", "molecule": "Oxygen", "count": 1},
...                     {"player": "Ben", "molecule": "Nitrogen", "count": 1}],
...     "products": {"Nitric Oxide": 2}})
>>> report.ok, report.summary
(False, "Ben's Nitrogen molecules are guarded: the Nitrogen recipe is in front of Ben.")
>>> report.data["suggestion"]["ingredients"]
[{'player': 'Ana', 'molecule': 'Oxygen', 'count': 1}, {'player': 'Cy', 'molecule': 'Nitrogen', 'count': 1}]
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import Game, InvalidState
from engine.data import describe
from engine.descriptor import PaperReport, PaperTool
from engine.organicsoup.atoms import as_dict, in_words
from engine.organicsoup.cards import LEVEL_NAMES, OrganicSoupCards
from engine.organicsoup.finder import find_products, total_atoms
from engine.organicsoup.offers import formable, proposals
from engine.organicsoup.reactions import Reaction, react, refusals
from engine.organicsoup.scenario import build_table
from engine.organicsoup.state import State

_Strict = ConfigDict(extra="forbid")
Name = Annotated[str, Field(min_length=1, max_length=60)]
Who = Annotated[str, Field(min_length=1, max_length=60)] | Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=1, le=200)]


class PaperPlayer(BaseModel):
    model_config = _Strict
    name: Name | None = None
    molecules: dict[Name, Annotated[int, Field(ge=0, le=200)]] = Field(default_factory=dict)
    recipes: list[Name] = Field(default_factory=list)
    hand: list[Name] = Field(default_factory=list, max_length=3)


class PaperIngredient(BaseModel):
    model_config = _Strict
    player: Who
    molecule: Name
    count: Count = 1


class PaperReaction(BaseModel):
    """The JSON a paper table writes (the format doc gives every field)."""

    model_config = _Strict
    game: Literal["organicsoup"] | None = None
    players: list[PaperPlayer] = Field(min_length=2, max_length=4)
    player: Who
    ingredients: list[PaperIngredient] = Field(min_length=1)
    products: dict[Name, Count] = Field(default_factory=dict)


def _recipe_names(cards: OrganicSoupCards) -> dict[str, str]:
    """Recipes by id and by printed name, any case: what a player writes."""
    out = {}
    for r in cards.recipes:
        out[r.id.casefold()] = r.id
        out[r.name.casefold()] = r.id
    return out


def _read(cards: OrganicSoupCards, data: Any) -> tuple[State, int, Reaction, list[str]]:
    """The table, the reacting seat, the reaction and the players' names;
    raises :class:`InvalidState` listing every problem."""
    if not isinstance(data, Mapping):
        raise InvalidState(f"A proposed reaction is a JSON object, found {type(data).__name__}.")
    try:
        m = PaperReaction.model_validate(data)
    except ValidationError as exc:
        raise InvalidState("\n".join(f"{'.'.join(str(p) for p in e['loc']) or 'reaction'}: {describe(e)}"
                                     for e in exc.errors())) from None
    problems: list[str] = []
    known = _recipe_names(cards)
    names = [p.name or f"Player {i + 1}" for i, p in enumerate(m.players)]
    if len(set(names)) != len(names):
        problems.append(f"players: two players have the same name ({', '.join(names)})")

    def recipe(text: str, where: str) -> str:
        rid = known.get(text.strip().casefold())
        if rid is None:
            problems.append(f"{where}: there is no recipe called {text!r}")
            return ""
        return rid

    def seat(who: str | int, where: str) -> int:
        if isinstance(who, int):
            if who < len(names):
                return who
        elif who in names:
            return names.index(who)
        problems.append(f"{where}: {who!r} is not one of the players ({', '.join(names)})")
        return -1

    seats = []
    for i, p in enumerate(m.players):
        molecules: dict[str, int] = {}
        for text, k in p.molecules.items():
            rid = recipe(text, f"players.{i}.molecules")
            molecules[rid] = molecules.get(rid, 0) + k
        seats.append({"molecules": molecules, "recipes": [recipe(t, f"players.{i}.recipes") for t in p.recipes],
                      "hand": [recipe(t, f"players.{i}.hand") for t in p.hand]})
    me = seat(m.player, "player")
    merged: dict[tuple[int, str], int] = {}
    for i, ing in enumerate(m.ingredients):
        key = (seat(ing.player, f"ingredients.{i}.player"), recipe(ing.molecule, f"ingredients.{i}.molecule"))
        merged[key] = merged.get(key, 0) + ing.count
    products: dict[str, int] = {}
    for text, k in m.products.items():
        rid = recipe(text, "products")
        products[rid] = products.get(rid, 0) + k
    if not problems:
        try:
            state = build_table(cards, seats, turn=me)
        except ValueError as exc:
            problems.extend(f"players: {p}" for p in str(exc).split("; "))
    if problems:
        raise InvalidState("This reaction cannot be read:\n" + "\n".join(f"- {p}" for p in problems))
    reaction = Reaction(tuple(sorted((s, r, k) for (s, r), k in merged.items())), tuple(sorted(products.items())))
    return state, me, reaction, names


def _fallback_ingredients(state: State, seat: int, reaction: Reaction) -> dict[tuple[int, str], int]:
    """The proposed ingredients cut down to what may be taken: molecules
    held, unguarded, from the first opponent named only."""
    opponent = next((s for s, _, _ in reaction.ingredients if s != seat), None)
    out = {}
    for s, rid, k in reaction.ingredients:
        holder = state.seats[s]
        if s not in (seat, opponent) or (s != seat and rid in holder.recipes):
            continue
        k = min(k, holder.molecules.get(rid, 0))
        if k:
            out[(s, rid)] = k
    return out


def suggest(cards: OrganicSoupCards, state: State, seat: int, reaction: Reaction) -> Reaction | None:
    """A legal reaction close to the one proposed: the same ingredients (as
    far as they may be taken) into products the player may form, the
    proposed products first; else any legal reaction the finder offers.

    >>> from engine.organicsoup.examples import example_cards
    >>> from engine.organicsoup.scenario import table
    >>> cards = example_cards()
    >>> s = table(cards, "water*2 +water | ")
    >>> suggest(cards, s, 0, Reaction(((0, "water", 2),), (("hydrogen", 2),)))
    Reaction(ingredients=((0, 'water', 2),), products=(('hydrogen', 2), ('oxygen', 1)))
    """
    chosen = _fallback_ingredients(state, seat, reaction)
    if chosen:
        types = {r for _, r in chosen}
        allowed = [r for r in formable(cards, state, seat) if r.id not in types]
        atoms = total_atoms(cards, {r: k for (_, r), k in chosen.items()})
        wanted = sorted((cards.recipe(r) for r, _ in reaction.products), key=lambda r: -r.rank)
        for require in [*(r for r in wanted if r in allowed), None]:
            found = find_products(atoms, allowed, require=require)
            if found:
                candidate = Reaction(tuple(sorted((s, r, k) for (s, r), k in chosen.items())),
                                     tuple(sorted(found.items())))
                if not refusals(cards, state, seat, candidate):
                    return candidate
    offered = proposals(cards, state, seat, limit=1)
    return offered[0] if offered else None


def _as_paper(cards: OrganicSoupCards, reaction: Reaction, names: list[str]) -> dict[str, Any]:
    return {"ingredients": [{"player": names[s], "molecule": cards.recipe(r).name, "count": k}
                            for s, r, k in reaction.ingredients],
            "products": {cards.recipe(r).name: k for r, k in reaction.products}}


def _words(cards: OrganicSoupCards, reaction: Reaction, names: list[str]) -> tuple[str, str]:
    given = ", ".join(f"{k} {cards.recipe(r).name} ({names[s]})" for s, r, k in reaction.ingredients) or "none"
    made = ", ".join(f"{k} {cards.recipe(r).name}" for r, k in reaction.products) or "none"
    return given, made


def check_reaction(game: Game, data: Any) -> PaperReport:
    """Judge a proposed reaction written as JSON (the module's format)."""
    cards: OrganicSoupCards = game.cards  # type: ignore[attr-defined]
    state, seat, reaction, names = _read(cards, data)
    reasons = refusals(cards, state, seat, reaction, names)
    given, made = _words(cards, reaction, names)
    rows = [("Ingredients", given), ("Products", made),
            ("Atoms", in_words(total_atoms(cards, {r: k for _, r, k in reaction.ingredients})))]
    found: dict[str, Any] = {"legal": not reasons, "reasons": reasons, "player": names[seat],
                             "reaction": _as_paper(cards, reaction, names)}
    if reasons:
        rows += [("Why not", r) for r in reasons]
        better = suggest(cards, state, seat, reaction)
        found["suggestion"] = _as_paper(cards, better, names) if better else None
        if better:
            rows.append(("Try instead", "%s into %s" % _words(cards, better, names)))
        return PaperReport(False, "Illegal reaction", " ".join(reasons), tuple(rows), found)
    after = react(cards, state, seat, reaction)
    formed = [r for r in state.seats[seat].hand if r not in after.seats[seat].hand]
    moved = [(r, state.owner(r), after.owner(r)) for r in after.board() if state.owner(r) != after.owner(r)
             and r not in formed]
    if formed:
        rows.append(("Recipes from hand", ", ".join(f"{cards.recipe(r).name} ({LEVEL_NAMES[cards.recipe(r).level]})"
                                                    for r in formed)))
    for r, before, now in moved:
        rows.append(("Recipe taken", f"{names[now]} takes {cards.recipe(r).name} from "
                                     f"{'the middle' if before is None else names[before]}"))
    summary = f"{names[seat]} may react {given} into {made}."
    if after.winner is not None:
        summary += f" {cards.recipe(after.life).name} is amino/nucleic: {names[seat]} creates life and wins."
    found.update({
        "formed": [cards.recipe(r).name for r in formed],
        "taken": [{"recipe": cards.recipe(r).name, "from": None if b is None else names[b], "to": names[n]}
                  for r, b, n in moved],
        "wins": after.winner is not None,
        "atoms": as_dict(total_atoms(cards, {r: k for _, r, k in reaction.ingredients})),
        "after": [{"name": names[i], "molecules": {cards.recipe(r).name: k for r, k in sorted(s.molecules.items())},
                   "recipes": [cards.recipe(r).name for r in s.recipes]} for i, s in enumerate(after.seats)],
    })
    return PaperReport(True, "Legal reaction", summary, tuple(rows), found)


CHECK_REACTION = PaperTool("check", "a proposed reaction at a paper table", check_reaction,
                           "docs/organicsoup-reaction-format.md")
