"""Organic Soup as an :class:`engine.core.Game`: the contract's methods over
the rulebook's phases (:mod:`.setup`, :mod:`.building`, :mod:`.reactions`,
:mod:`.turn`, :mod:`.ending`).

A turn is one action, then (if the hand needed no draw) one end-of-turn
choice. Actions are JSON objects with a ``"type"``; recipes and molecule
types are recipe ids (``"nitric-oxide"``), seats are numbers from 0.

``{"type": "build", "recipe": id, "count": n}``
    Build ``n`` whole molecules of one face-up recipe from the soup. Every
    possible build is listed by :meth:`OrganicSoup.actions`.
``{"type": "react", "ingredients": [{"seat": s, "recipe": id, "count": n}, ...], "products": {id: n, ...}}``
    Trigger a reaction. Ingredients are your own molecules and unguarded
    molecules of at most one opponent; products are recipes on the board or
    recipes from your hand at a level your recipes allow. This action is
    *open*: any legal reaction may be sent, and a refused one says every
    reason. :meth:`OrganicSoup.actions` lists only a few concrete legal
    ones found by the reaction finder (at most
    :data:`~engine.organicsoup.offers.MAX_PROPOSALS`); the view's
    ``reaction`` field lists what a free one may be made of.
``{"type": "swap", "recipe": id}``
    End of a turn that needed no draw: put that hand recipe under its deck
    and draw the top one.
``{"type": "keep"}``
    End of a turn that needed no draw: keep the hand.

Drawing after a build or a reaction needs no choice, so it is no action:
it happens as the action ends.

>>> from engine.organicsoup.examples import example_cards
>>> game = OrganicSoup(example_cards())
>>> s = game.setup(3, seed=7)
>>> game.to_move(s), game.actions(s, 0)[0]
([0], {'type': 'build', 'recipe': 'graphite', 'count': 1})
>>> s = game.apply(s, 0, {"type": "build", "recipe": "graphite", "count": 1})
>>> s.phase, game.actions(s, 0)[-1]
('end', {'type': 'keep'})
>>> game.apply(s, 1, {"type": "keep"})
Traceback (most recent call last):
...
engine.core.IllegalAction: It is not your turn: it is Player 1's.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import Action, Game, IllegalAction, InvalidState, Result
from engine.molecules import Layout
from engine.organicsoup import building, drawing, ending, evaluate, invariants, offers, reactions, turn, uses
from engine.organicsoup.cards import OrganicSoupCards, Recipe
from engine.organicsoup.setup import MAX_PLAYERS, MIN_PLAYERS, setup
from engine.organicsoup.state import HAND_LEVELS, State, state_from_dict, state_to_dict
from engine.rng import Rng

FIELDS = {"build": {"recipe", "count"}, "react": {"ingredients", "products"}, "swap": {"recipe"}, "keep": set()}
"""Each action's fields besides ``type``."""


class OrganicSoup(Game[State]):
    """Organic Soup: build molecules from the soup, react them up the recipe
    levels, create life."""

    name = "organicsoup"
    title = "Organic Soup"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    ranked = True  # its totals rank the seats (ending.py WEIGHTS): codes, not points (engine/core.py)
    rollout_depth = 6
    """The planner's rollouts play three turns at two players (an action and
    an end-of-turn choice each): a turn's reaction changes the table so
    much that later greedy turns add more noise than sight. Measured at two
    players against greedy on the same 60 seeds (900-959): 48 won at 6
    actions, 39 at 12, 37 at 3, and 26.5 of the first 49 at the default 24;
    at 6 on other seeds (2000-2099) 75 of 100, 66-82%, the planner's p95
    0.15 s of CPU a decision (0.49 s at 24)."""

    def __init__(self, cards: OrganicSoupCards) -> None:
        self.cards = cards

    # --- the contract -------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        if options:
            raise IllegalAction(f"Organic Soup has no setup options (found {', '.join(map(repr, sorted(options)))}).")
        return setup(self.cards, players, seed)

    def to_move(self, state: State) -> list[int]:
        return [] if state.phase == "over" else [state.turn]

    def actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == "end":
            return turn.end_actions(self.cards, state)
        return building.builds(self.cards, state) + [r.action() for r in offers.proposals(self.cards, state, seat)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if not isinstance(kind, str) or kind not in FIELDS:
            raise IllegalAction(f"Unknown action {kind!r}: expected one of {', '.join(FIELDS)}.")
        extra = set(action) - FIELDS[kind] - {"type"}
        if extra:
            raise IllegalAction(f"A {kind} action has no field {', '.join(sorted(extra))}.")
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if seat != state.turn:
            raise IllegalAction(f"It is not your turn: it is {self.seat_name(state.turn)}'s.")
        if state.phase == "play" and kind in ("swap", "keep"):
            raise IllegalAction("First build molecules or trigger a reaction; the end of your turn comes after.")
        if state.phase == "end" and kind in ("build", "react"):
            raise IllegalAction("You have had your build or reaction this turn: swap a recipe or keep your hand.")
        if kind == "build":
            recipe = self._recipe(action.get("recipe"))
            count = action.get("count")
            if type(count) is not int or count < 1:
                raise IllegalAction(f"count must be a whole number of molecules, at least 1, found {count!r}.")
            return turn.end_action(self.cards, building.build(self.cards, state, seat, recipe, count))
        if kind == "react":
            reaction = reactions.read_reaction(action, self.cards, state.players)
            reactions.check(self.cards, state, seat, reaction, self.names(state))
            return turn.end_action(self.cards, reactions.react(self.cards, state, seat, reaction))
        if kind == "swap":
            return turn.swap(self.cards, state, self._recipe(action.get("recipe")))
        return turn.keep(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it: his own hand, and of the others'
        hands only how many of each level (the card backs) and a recipe dealt
        face up at setup while it stays there. Deck orders and the generator
        are hidden."""
        seats = []
        for i, s in enumerate(state.seats):
            seats.append({
                "name": self.seat_name(i),
                "recipes": list(s.recipes),
                "molecules": dict(sorted(s.molecules.items())),
                "hand": list(s.hand) if i == seat else None,
                "hand_levels": [self.cards.recipe(r).level for r in s.hand],
                "known": state.dealt[i] if s.shown else None,
            })
        out: dict[str, Any] = {
            "game": self.name, "viewer": seat, "players": state.players, "phase": state.phase,
            "turn": state.turn, "first": state.first, "to_move": self.to_move(state),
            "soup": state.soup, "atom_deck": len(state.atoms), "middle": list(state.middle),
            "decks": {level: len(state.decks[level]) for level in HAND_LEVELS},
            "dealt": list(state.dealt), "seats": seats, "winner": state.winner, "life": state.life,
        }
        if seat is not None and seat == state.turn and state.phase == "play":
            out["reaction"] = offers.reaction_form(self.cards, state, seat)
        return out

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> Result:
        return ending.result(self.cards, state, self.names(state))

    def to_dict(self, state: State) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        state = state_from_dict(data)
        self.check(state)
        return state

    def resample_hidden(self, state: State, seat: int | None, seed: int) -> State:
        """Deck orders, the generator and the other hands drawn afresh: each
        hidden hand card is dealt again from the cards of its level that
        ``seat`` cannot see (the deck and the other hidden hands of that
        level), so every hand keeps its levels. Each is shuffled from a fixed order
        (sorted), so the result depends on what ``seat`` sees only."""
        rng = Rng(seed)
        s = state.copy()
        atoms = sorted(s.atoms)
        rng.shuffle(atoms)
        s.atoms = "".join(atoms)
        for level in HAND_LEVELS:
            slots = [(i, r) for i, other in enumerate(s.seats) if i != seat for r in other.hand
                     if self.cards.recipe(r).level == level and not (other.shown and r == s.dealt[i])]
            unseen = sorted(s.decks[level] + [r for _, r in slots])
            rng.shuffle(unseen)
            for (i, old), new in zip(slots, unseen):
                hand = s.seats[i].hand
                hand[hand.index(old)] = new
            s.decks[level] = unseen[len(slots):]
        s.rng = rng.next64()
        return s

    def evaluate(self, state: State, seat: int) -> float:
        """Recipes by level plus what is in reach, against the best other
        player (:mod:`engine.organicsoup.evaluate`)."""
        return evaluate.evaluate(self.cards, state, seat)

    def card_names(self) -> dict[str, str]:
        return uses.card_names(self.cards)

    def card_uses(self, before: State, after: State, seat: int, action: Action) -> tuple[tuple[int, str, str], ...]:
        """Recipes taken in front of a player, built or by a reaction (:mod:`engine.organicsoup.uses`)."""
        return uses.card_uses(before, after, action)

    def cards_in_play(self, state: State) -> list[str]:
        """The recipes in the middle, in every hand and in front of every player."""
        return [*state.middle, *(r for s in state.seats for r in (*s.hand, *s.recipes))]

    def end_condition(self, state: State) -> str | None:
        return uses.end_condition(state)

    def check(self, state: State) -> None:
        if not isinstance(state, State):
            raise InvalidState(f"expected an Organic Soup state, found {type(state).__name__}")
        invariants.check(self.cards, state)

    # --- what the printer and the phones draw ---------------------------------
    def drawing(self, recipe: Recipe | str) -> Layout:
        """The drawing of a recipe's molecule, the same on a card and on a
        phone (:mod:`engine.organicsoup.drawing` chooses the look by level)."""
        return drawing.layout(self.cards.recipe(recipe) if isinstance(recipe, str) else recipe)

    # --- helpers --------------------------------------------------------------
    def names(self, state: State) -> list[str]:
        return [self.seat_name(i) for i in range(state.players)]

    def _recipe(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.cards:
            raise IllegalAction(f"There is no recipe called {value!r}.")
        return value
