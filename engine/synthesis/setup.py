"""Setup: boards, name boxes, goal cards, and the solo modes' cards.

Options (all optional, a JSON object):

``side``          ``"A"`` or ``"B"``: every player uses the same side (Setup 1)
``boards``        a board letter per seat (default: dealt at random)
``boxes``         a name box (0-3) per seat on the Active Element disc
``first_game``    ``true``: side A, and no goal cards (Setup 1 and 4) unless the
                  solo mode deals its own (First Steps and Unpredictable
                  Consequences always play with their goal cards)
``chain_card``, ``pattern_card``   the goal cards (default: drawn at random)
``mode``          ``standard``, or a solo mode: ``first_steps``,
                  ``predictable``, ``unpredictable``
``difficulty``    First Steps: ``easy``, ``medium`` or ``hard``; the other
                  solo modes: 1, 2 or 3 (or easy, medium, hard), the Project
                  card's difficulty to draw
``project``       Predictable Results and Unpredictable Consequences: a Project card
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from engine.core import IllegalAction
from engine.rng import Rng
from engine.synthesis.state import LEVELS, MODES, PROJECT_LEVELS, Seat, State

if TYPE_CHECKING:
    from engine.synthesis.rules import Rules

PROJECT_DIFFICULTY = {"easy": 1, "medium": 2, "hard": 3}
"""The words a host picks on a phone, as a Project card's shaded hexagons."""
OPTIONS = ("side", "boards", "boxes", "first_game", "chain_card", "pattern_card", "mode", "difficulty", "project")


def setup(rules: "Rules", players: int, seed: int, options: Mapping[str, Any] | None) -> State:
    disc = rules.disc
    if type(players) is not int or not 1 <= players <= disc.max_players:
        raise IllegalAction(f"Synthesis is for 1 to {disc.max_players} players, not {players!r}.")
    if type(seed) is not int:
        raise IllegalAction(f"The seed must be a whole number, found {seed!r}.")
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction('Setup options are a JSON object, like {"side": "B"}.')
    o = dict(options or {})
    unknown = sorted(set(o) - set(OPTIONS))
    if unknown:
        raise IllegalAction(f"Unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)}).")
    first = o.get("first_game", False)
    if type(first) is not bool:
        raise IllegalAction("The first_game option is true or false.")
    side = o.get("side", "A")
    if side not in ("A", "B"):
        raise IllegalAction('Choose side "A" or "B" of the boards.')
    if first and side != "A":
        raise IllegalAction("For the first game, choose side A.")
    mode = o.get("mode", "standard")
    if mode not in MODES:
        raise IllegalAction(f"Unknown mode {mode!r} (modes: {', '.join(MODES)}).")
    if mode != "standard" and players != 1:
        raise IllegalAction("The solo modes are for one player.")
    rng = Rng(seed)

    letters = rules.cards.boards(side)
    boards = o.get("boards")
    if boards is None:
        if players > len(letters):
            raise IllegalAction(f"There are only {len(letters)} boards.")
        deck = list(letters)
        rng.shuffle(deck)
        boards = deck[:players]
    elif (not isinstance(boards, list) or len(boards) != players or len(set(boards)) != players
          or any(b not in letters for b in boards)):
        raise IllegalAction(f"Give a different board ({', '.join(letters)}) for each of the {players} players.")
    boxes = o.get("boxes")
    if boxes is None:
        boxes = disc.default_boxes(players)
    else:
        problem = disc.check_boxes(boxes, players) if isinstance(boxes, list) else "give a list of name boxes"
        if problem:
            raise IllegalAction(f"Name boxes: {problem}.")
    seats = [Seat(b, box, rules.formulas[(b, side)].empty_lines) for b, box in zip(boards, boxes)]
    state = State(players, mode, side, 0, seats)

    chains, patterns = sorted(rules.cards.chains), sorted(rules.cards.patterns)
    if mode in ("predictable", "unpredictable"):
        state.project = _project(rules, rng, o)
    # A first game skips the goal cards (Setup 4), but First Steps is played
    # for them: "Then, place one card from each deck on the table".
    no_cards = (first and mode == "standard") or mode == "predictable"
    for key in ("chain_card", "pattern_card"):
        if key in o and (no_cards or mode == "unpredictable"):
            raise IllegalAction(f"This game has no {key.replace('_', ' ')} to choose.")
    if mode == "first_steps":
        level = o.get("difficulty", "easy")
        if level not in LEVELS:
            raise IllegalAction(f"First Steps difficulty is one of {', '.join(LEVELS)}.")
        state.level = LEVELS[level]
    elif "difficulty" in o and mode == "standard":
        raise IllegalAction("Difficulty is chosen only in the solo modes.")
    if mode == "unpredictable":
        rng.shuffle(chains)
        rng.shuffle(patterns)
        state.offer = (tuple(sorted(chains[:2])), tuple(sorted(patterns[:2])))
        state.level = PROJECT_LEVELS[rules.cards.projects[state.project].row.difficulty]  # type: ignore[index]
        state.phase = "choose"
    elif not no_cards:
        state.chain_card = _card(o, "chain_card", chains, rng)
        state.pattern_card = _card(o, "pattern_card", patterns, rng)
    state.rng = rng.next64()
    return state


def _card(o: Mapping[str, Any], key: str, ids: list[str], rng: Rng) -> str:
    if key in o:
        if o[key] not in ids:
            raise IllegalAction(f"Unknown {key.replace('_', ' ')} {o[key]!r} (cards: {', '.join(ids)}).")
        return o[key]
    return rng.choice(ids)


def _project(rules: "Rules", rng: Rng, o: Mapping[str, Any]) -> str:
    projects = rules.cards.projects
    if "project" in o:
        if o["project"] not in projects:
            raise IllegalAction(f"Unknown Project card {o['project']!r}.")
        if "difficulty" in o:
            raise IllegalAction("Choose a Project card or a difficulty to draw one, not both.")
        return o["project"]
    level = o.get("difficulty")
    level = PROJECT_DIFFICULTY.get(level, level) if isinstance(level, str) else level
    if level is not None and level not in (1, 2, 3):
        raise IllegalAction("A Project card's difficulty is 1, 2 or 3 (easy, medium or hard).")
    pool = sorted(p for p, card in projects.items() if level is None or card.row.difficulty == level)
    return rng.choice(pool)
