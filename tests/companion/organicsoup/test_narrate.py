"""The Organic Soup game log in words: each action told from the states
before and after it, as the referee calls ``PLUGIN.narrate``; and, since
every phone and watcher reads the log, never a word of what a player at a
real table could not see (another's hand, the face-down decks)."""

from __future__ import annotations

import random
import re
from typing import Any, Iterable

import pytest

from companion.games.organicsoup import PLUGIN
from companion.games.organicsoup.narrate import narrate
from engine.chem import ELEMENT_NAMES
from tests.companion.organicsoup.conftest import SEED
from tests.engine.organicsoup.conftest import _GAME, at, build, climber, ingredient as ing, react, uniform
from tests.engine.organicsoup.test_ending import deck_of

NAMES = ["Ada", "Bo", "Cy", "Di"]
FULL = "?water ?propane ?glycine | ?methane ?ethanol ?alanine"


@pytest.fixture(scope="module")
def game():
    return _GAME


def told(game, state, seat, action):
    after = game.apply(state, seat, action)
    return list(narrate(game, state, seat, action, after, NAMES[:state.players])), after


def test_the_plugin_narrates_its_log():
    assert PLUGIN.narrate is narrate


def test_a_build_names_the_molecules_the_recipe_taken_and_the_soup_replenished(game):
    s = at(FULL + "; soup=CCHHHHNNOOOO")
    deck = list(s.atoms)
    for atom in "OCHN":   # the deck's top four (a test may arrange the face-down deck)
        deck.remove(atom)
        deck.insert(0, atom)
    s.atoms = "".join(deck)
    lines, after = told(game, s, 0, build("hydrogen", 2))
    assert lines == ["Ada built 2 Hydrogen molecules from the soup.",
                     "Ada has the most Hydrogen molecules and takes its recipe from the middle.",
                     "Ada replenishes the soup with 1 Carbon atom, 1 Hydrogen atom, 1 Nitrogen atom and 1 Oxygen atom "
                     f"({len(after.atoms)} left in the atom deck)."]


def test_a_tie_for_the_most_takes_the_recipe_from_its_holder(game):
    """If you tie for the most, take the recipe (the rulebook's example: Nitrogen from the first player)."""
    s = at("nitrogen +nitrogen | hydrogen*2 +hydrogen | ; soup=CHHHHNNNOOOO; turn=2")
    lines, _ = told(game, s, 2, build("nitrogen"))
    assert lines[:2] == ["Cy built 1 Nitrogen molecule from the soup.",
                         "Cy ties for the most Nitrogen molecules and takes its recipe from Ada."]
    assert lines[-1] == "Cy draws a simple, a complex and an amino/nucleic recipe."


def test_a_reaction_names_whose_ingredients_made_what_and_the_recipe_placed_from_the_hand(game):
    """The rulebook's example: his Nitrogen with one of your Oxygen forms two
    Nitric Oxide, and the Nitric Oxide recipe from your hand goes in front of you."""
    s = at("oxygen*2 +oxygen ?nitric-oxide ?propane ?glycine | nitrogen*2 +nitrogen | nitrogen")
    lines, _ = told(game, s, 0, react([ing(0, "oxygen"), ing(2, "nitrogen")], {"nitric-oxide": 2}))
    assert lines == ["Ada reacted 1 Oxygen and Cy's 1 Nitrogen into 2 Nitric Oxide.",
                     "Ada places the Nitric Oxide recipe from the hand on the table.",
                     "Ada draws a simple recipe."]


def test_a_reaction_may_move_recipes_between_others(game):
    """If a player has the most, he takes the recipe, whoever reacted: after
    Ada's reaction Bo has strictly the most Oxygen, so he takes its recipe from Cy."""
    s = at("water*2 +water | oxygen*3 | oxygen +oxygen")
    lines, _ = told(game, s, 0, react([ing(0, "water", 2)], {"hydrogen": 2, "oxygen": 1}))
    assert lines == ["Ada reacted 2 Water into 2 Hydrogen and 1 Oxygen.",
                     "Ada has the most Hydrogen molecules and takes its recipe from the middle.",
                     "Bo has the most Oxygen molecules and takes its recipe from Cy.",
                     "Ada draws a simple, a complex and an amino/nucleic recipe."]


def test_a_swap_names_the_level_never_the_recipe(game):
    """"He may instead place one of his three recipes on the bottom of its
    respective draw deck and draw a new one": the hand is secret and the deck
    face down, so the log says which deck, not which recipe (the reported
    log read "Bo: Swap Carbon Monoxide")."""
    s = game.setup(2, SEED)
    s = game.apply(s, 1, build("oxygen", 3))
    lines, _ = told(game, s, 1, {"type": "swap", "recipe": "carbon-monoxide"})
    assert lines == ["Bo put a simple recipe on the bottom of the simple deck and drew a new one."]
    s = game.apply(at(FULL + "; soup=CCHHHHNNOOOO"), 0, build("oxygen"))
    lines, after = told(game, s, 0, {"type": "swap", "recipe": "propane"})
    assert lines == ["Ada put a complex recipe on the bottom of the complex deck and drew a new one."]
    drawn = after.seats[0].hand[1]
    assert not any(game.cards.recipe(r).name in line for r in ("propane", drawn) for line in lines)
    lines, _ = told(game, s, 0, {"type": "swap", "recipe": "glycine"})
    assert lines == ["Ada put an amino/nucleic recipe on the bottom of the amino/nucleic deck and drew a new one."]
    lines, _ = told(game, s, 0, {"type": "keep"})
    assert lines == ["Ada kept the same hand."]


def test_an_empty_deck_leaves_the_hand_short(game):
    s = at("oxygen*2 +oxygen ?nitric-oxide ?propane ?glycine | nitrogen")
    s.seats[1].recipes += s.decks["simple"]
    s.decks["simple"] = []
    game.check(s)
    lines, _ = told(game, s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 2}))
    assert lines[-1] == "The simple deck is empty: Ada's hand stays short."


def test_creating_life_wins(game):
    """Create life and win: an amino/nucleic molecule from a reaction ends the
    game (and the recipes still change hands first: Bo has more Propane)."""
    s = at("graphite*5 hydrogen*3 oxygen*2 ammonia +propane ?glutamic-acid | propane*2 +graphite +ammonia")
    lines, after = told(game, s, 0, react([ing(0, "graphite", 5), ing(0, "hydrogen", 3), ing(0, "oxygen", 2),
                                            ing(0, "ammonia")], {"glutamic-acid": 1}))
    assert lines == ["Ada reacted 5 Graphite, 3 Hydrogen, 2 Oxygen and 1 Ammonia into 1 Glutamic Acid.",
                     "Ada places the Glutamic Acid recipe from the hand on the table.",
                     "Bo has the most Propane molecules and takes its recipe from Ada.",
                     "Ada created life: Glutamic Acid! Ada wins the game."]


def test_the_depleted_atom_deck_ends_the_game_with_the_most_building_blocks(game):
    """Or, have the most building blocks: "As soon as the atom draw deck is depleted, the game ends." """
    s = deck_of(game, at("?water ?propane ?glycine +ethanol | +methane ; soup=CCHHHHNNOOOO"), "OHHC")
    lines, after = told(game, s, 0, build("hydrogen", 2))
    assert game.is_over(after)
    assert lines == ["Ada built 2 Hydrogen molecules from the soup.",
                     "Ada replenishes the soup with 1 Carbon atom, 2 Hydrogen atoms and 1 Oxygen atom "
                     "(0 left in the atom deck).",
                     "The atom deck is depleted: the game is over.",
                     "Ada wins with the most building blocks: 1 complex recipe."]


# --- nothing hidden is ever told ------------------------------------------------------------
def _strings(value: Any) -> Iterable[str]:
    """Every string in a view: its values and its keys."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _occurrences(name: str, line: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line)]


def untold(line: str, hidden: set[str], seen: set[str]) -> list[str]:
    """The hidden names ``line`` says: a name counts unless it is only part
    of a longer name the viewer may see ("Hydrogen" inside "Hydrogen Cyanide")."""
    covers = [span for name in seen for span in _occurrences(name, line)]
    return [name for name in hidden for a, b in _occurrences(name, line)
            if not any(c <= a and b <= d and d - c > b - a for c, d in covers)]


def secrets(game, state, viewer) -> tuple[set[str], set[str]]:
    """The recipe names ``viewer`` cannot see on the table (others' hands, the
    decks) and those he can."""
    view = set(_strings(game.view(state, viewer)))
    names = {r.id: r.name for level in ("basic", "simple", "complex", "amino") for r in game.cards.level(level)}
    seen = {names[rid] for rid in names if rid in view}
    return {n for rid, n in names.items() if rid not in view} - seen, seen


def check_log_keeps_secrets(game, state, seat, action, after, lines) -> None:
    """Every line said for this action names no recipe hidden from any
    viewer (a seat, or a watcher) before or after it."""
    for viewer in [None, *range(state.players)]:
        hidden_before, seen_before = secrets(game, state, viewer)
        hidden_after, seen_after = secrets(game, after, viewer)
        hidden, seen = (hidden_before & hidden_after), (seen_before | seen_after | set(ELEMENT_NAMES.values()))
        for line in lines:
            said = untold(line, hidden, seen)
            assert not said, f"{line!r} tells {said} to {NAMES[viewer] if viewer is not None else 'a watcher'}"


def test_the_secret_check_sees_a_named_hand_recipe_and_spares_longer_names():
    hidden, seen = {"Ethanol", "Water", "Nitrogen Dioxide"}, {"Nitrogen", "Hydrogen Peroxide", "Methanol"}
    assert untold("Bo put Water on the bottom of the simple deck.", hidden, seen) == ["Water"]
    assert untold("Bo reacted 1 Nitrogen and 1 Methanol into 1 Hydrogen Peroxide.", hidden, seen) == []
    assert untold("Bo built Nitrogen Dioxide.", hidden, seen) == ["Nitrogen Dioxide"]


@pytest.mark.parametrize("players,seed,policy", [(2, 1, climber), (3, 2, climber), (4, 3, uniform), (3, 4, uniform),
                                                 (2, SEED, climber), (4, 6, climber)])
def test_random_games_are_told_in_words_and_keep_every_hand_secret(game, players, seed, policy):
    """Whole seeded games: each action gives sentences that start with its
    player's name and end like sentences, and no line names a recipe that a
    viewer could not see (the swap above all: its recipe goes from a secret
    hand to the bottom of a face-down deck)."""
    rng = random.Random(seed)
    s = game.setup(players, seed)
    kinds = set()
    while not game.is_over(s):
        seat = game.to_move(s)[0]
        actions = game.actions(s, seat)
        swaps = [a for a in actions if a["type"] == "swap"]
        action = rng.choice(swaps) if swaps and rng.random() < 0.7 else policy(rng, game, s, seat, actions)
        lines, after = told(game, s, seat, action)
        kinds.add(action["type"])
        assert lines and lines[0].startswith(NAMES[seat] + " "), (action, lines)
        assert all(line.endswith((".", "!")) and "None" not in line for line in lines), lines
        check_log_keeps_secrets(game, s, seat, action, after, lines)
        s = after
    assert "swap" in kinds and "build" in kinds
