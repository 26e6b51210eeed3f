"""Synthesis as an :class:`engine.core.Game`: the contract's methods over
:mod:`.rules`, :mod:`.state` and :mod:`.scoring`, bound to one card set.

>>> from engine.synthesis.examples import example_cards
>>> game = Synthesis(example_cards())
>>> state = game.setup(2, seed=7, options={"first_game": True})
>>> game.to_move(state), game.actions(state, 1)
([1], [{'type': 'roll'}])
>>> state = game.apply(state, 1, {"type": "roll"})
>>> state.roll, game.to_move(state)
(('angle', 'twice'), [0, 1])
>>> game.actions(state, 0)[0]
{'type': 'bond', 'lines': ['A3:SW', 'B2:E']}
>>> game.apply(state, 0, {"type": "bond", "lines": ["A2:NE", "A2:E"]})
Traceback (most recent call last):
...
engine.core.IllegalAction: A new bond must touch your bonds or the starting molecule S.
>>> game.apply(state, 0, {"type": "bond", "lines": ["B2:SE", "B2:E"]})
Traceback (most recent call last):
...
engine.core.IllegalAction: The line B2:SE is a side of the starting molecule S: bonds are never drawn over other lines.
>>> state = game.apply(state, 0, {"type": "bond", "lines": ["A3:SW", "B2:E"]})
>>> state.seats[0].todo   # "twice": one more to draw
1
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from engine.core import Action, Game, InvalidState, Result, SeatScore, SetupOption
from engine.rng import Rng
from engine.synthesis import evaluate, invariants, proposals, uses
from engine.synthesis.bonds import MUTATIONS, placements
from engine.synthesis.cards import SynthesisCards
from engine.synthesis.figures import bond_figure, disc_figure, group_figure, table_figure
from engine.synthesis.layout import geometry
from engine.synthesis.patterns import Board
from engine.synthesis.reading import state_from_dict
from engine.synthesis.rules import Rules
from engine.synthesis.scoring import Goals, Scored, score, winners
from engine.synthesis.state import Seat, State, molecule_to_list, state_to_dict


MODE_WORDS = (("first_steps", "First Steps"), ("predictable", "Predictable Results"),
              ("unpredictable", "Unpredictable Consequences"))


def setup_options(cards: SynthesisCards) -> tuple[SetupOption, ...]:
    """What the rulebook lets the table choose before play (Setup, Solo
    Modes), for the host's phone; the Project cards are this card set's."""
    projects = tuple((p.id, f"{p.row.name} (difficulty {p.row.difficulty})") for p in cards.projects.values())
    return (
        SetupOption("first_game", "First game",
                    help="Side A, and no goal cards (Setup 1 and 4); a solo mode still deals its own."),
        SetupOption("side", "Board side", kind="choice", choices=(("A", "Side A"), ("B", "Side B")),
                    help="Every player uses the same side (unset: side A)."),
        SetupOption("mode", "Solo mode", kind="choice", choices=MODE_WORDS,
                    help="For one player (unset: the ordinary game, which one player may also play)."),
        SetupOption("difficulty", "Solo difficulty", kind="choice",
                    choices=(("easy", "Easy: green area, or a Project with 1 shaded hexagon"),
                             ("medium", "Medium: yellow area, or a Project with 2"),
                             ("hard", "Hard: red area, or a Project with 3")),
                    help="First Steps: the goal cards' threshold area (unset: easy). Predictable Results and "
                         "Unpredictable Consequences: the Project card is drawn at this difficulty (unset: any)."),
        SetupOption("project", "Project card", kind="choice", choices=projects,
                    help="Predictable Results and Unpredictable Consequences: this Project card instead of a "
                         "random one."),
    )


class Synthesis(Game[State]):
    """Synthesis: The Molecular Journey. Draw bonds on a honeycomb, close
    molecules, chain them in the volume table."""

    name = "synthesis"
    title = "Synthesis: The Molecular Journey"
    min_players = 1
    max_players = 8
    rollout_depth = 8
    """The planner's rollouts play the rest of this turn and about the next:
    boards never touch, so half a rollout's actions are the other seats',
    and every turn's bond is rolled anew, luck a longer rollout only adds
    (measured against greedy at 2 players, same seeds: 24 actions won 43%
    of 7 games, p95 1.5 s a decision; 8 actions 81% of 16, mean score 122
    against 107, p95 0.31 s: docs/design/bots.md)."""

    def __init__(self, cards: SynthesisCards) -> None:
        self.cards = cards
        self.rules = Rules(cards)
        self.setup_options = setup_options(cards)
        self._score = lru_cache(maxsize=256)(self._score_uncached)

    def warm(self) -> None:
        """Where every bond shape fits on every formula, with each mutation
        and with none (``engine.synthesis.bonds.placements``: about 12 MB
        and half a second, worked out once; a soak's worker was still meeting new
        ones after five minutes)."""
        lattices = {id(f.lattice): f.lattice for f in self.rules.formulas.values()}
        for lattice in lattices.values():
            for shape in self.rules.shapes.values():
                for mutation in (None, *MUTATIONS):
                    placements(lattice, shape, mutation)

    # --- the contract -------------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return self.rules.setup(players, seed, options)

    def actions(self, state: State, seat: int) -> list[Action]:
        return self.rules.actions(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> State:
        return self.rules.apply(state, seat, action)

    def to_move(self, state: State) -> list[int]:
        return self.rules.to_move(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table: only the generator (the next rolls) is hidden."""
        out = self.to_dict(state)
        del out["rng"]
        out["viewer"] = seat
        out["to_move"] = self.to_move(state)
        out["roller"] = self.rules.roller(state) if state.phase == "roll" else None
        for i, (s, shown) in enumerate(zip(state.seats, out["seats"])):
            f = self.rules.formula(state, i)
            names = self.rules.colour_names
            shown["colour"] = self.rules.disc.colour(s.box, state.turn)
            shown["turn_track"] = [self.rules.disc.colour(s.box, t) for t in range(1, state.turn + 1)]
            shown["table"] = [[names[ch] for ch in col] for col in f.columns(s)]
            shown["elemental_boxes"] = {k: [names[ch] for ch in v] for k, v in f.boxes(s).items()}
            earned = f.free_earned(s)
            shown["free_bonds"] = {"earned": earned, "used": s.free_used, "left": len(earned) - s.free_used}
        return out

    def result(self, state: State) -> Result:
        """The score formula of each board (before the end: the score so far)."""
        scored = [self.seat_scored(state, i) for i in range(state.players)]
        scores = tuple(SeatScore(i, self.seat_name(i), sc.lines, sc.total, sc.details)
                       for i, sc in enumerate(scored))
        return Result(scores=scores, winners=winners(scored))

    def to_dict(self, state: State) -> dict[str, Any]:
        return state_to_dict(state, lambda i: self.rules.formula(state, i).lattice.hex_label)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        side = data.get("side") if isinstance(data, Mapping) else None

        def index_of(board: str):
            formula = self.rules.formulas[(board, side)]
            return formula.lattice.hex_index
        state = state_from_dict(data, index_of)
        self.check(state)
        return state

    def resample_hidden(self, state: State, seat: int | None, seed: int) -> State:
        out = state.copy()
        out.rng = Rng(seed).next64()
        return out

    def evaluate(self, state: State, seat: int) -> float:
        """The score formula now plus what is in reach, against the best
        other board (:mod:`engine.synthesis.evaluate`)."""
        return evaluate.evaluate(self, state, seat)

    def proposals(self, state: State, seat: int) -> list[Action]:
        """The drawings that close or near-close the most, and every other action."""
        return proposals.proposals(self.rules, state, seat)

    def card_names(self) -> dict[str, str]:
        return uses.card_names(self.cards)

    def card_uses(self, before: State, after: State, seat: int, action: Action) -> tuple[tuple[int, str, str], ...]:
        """The game's goal cards completed, read at the end (:mod:`engine.synthesis.uses`)."""
        return uses.card_uses(self, before, after)

    def cards_in_play(self, state: State) -> list[str]:
        """The game's goal cards."""
        return [c for c in (state.chain_card, state.pattern_card, state.project) if c]

    def end_condition(self, state: State) -> str | None:
        return uses.END if self.is_over(state) else None

    def round_of(self, state: State) -> int | None:
        return state.turn

    def check(self, state: State) -> None:
        if not isinstance(state, State):
            raise InvalidState(f"expected a Synthesis state, found {type(state).__name__}")
        invariants.check(self.rules, state)

    # --- scoring --------------------------------------------------------------------
    def goals(self, state: State) -> Goals:
        return self._goals(state.chain_card, state.pattern_card, state.project, state.level, state.mode != "standard")

    def _goals(self, chain: str | None, pattern: str | None, project: str | None, level: str | None,
               solo: bool) -> Goals:
        c = self.cards
        return Goals(chain_card=c.chains.get(chain or ""), pattern_card=c.patterns.get(pattern or ""),
                     project=c.projects.get(project or ""), level=level, solo=solo)

    def seat_scored(self, state: State, seat: int) -> Scored:
        """One board's score formula (cached: phones ask again and again)."""
        s = state.seats[seat]
        return self._score(s.board, state.side, s.molecules, state.chain_card, state.pattern_card,
                           state.project, state.level, state.mode != "standard")

    def _score_uncached(self, board: str, side: str, molecules, *goal_ids) -> Scored:
        f = self.rules.formulas[(board, side)]
        seat = Seat(board, 0, f.empty_lines, molecules)
        found = Board(f.lattice, f.layout.start, f.layout.elemental,
                      {m.hexagon: (m.colour, None if m.elemental else m.volume) for m in molecules})
        boxes = {k: len(v) for k, v in f.boxes(seat).items()}
        return score(self.cards.rules, self.cards.points, f.layout, f.columns(seat), boxes,
                     self._goals(*goal_ids), found, kept=self.__dict__.setdefault("_bests", {}))

    def geometry(self, board: str, side: str) -> dict[str, Any]:
        """A board side's drawing data (hexagons, lines, table, pairs) for
        the printer and the phones: it never changes, so it is not in the view
        (made once per side; read it, never change it)."""
        return self._figure(("geometry", f"{board}{side}"), lambda: geometry(self.cards.layouts[(board, side)]))

    # --- drawings shared by the printer and the phones (engine.synthesis.figures) ---
    def bond_figure(self, shape: str) -> dict[str, Any]:
        """A Bond die shape (or ``line``, a free bond) as the die and the phones draw it."""
        return self._figure(("bond", shape), lambda: bond_figure(self.rules.shape(shape)))

    def chain_figure(self, card: str) -> dict[str, Any]:
        """A Molecular Chain card's shape in the volume table."""
        return self._figure(("chain", card), lambda: table_figure(self.cards.chains[card].pattern))

    def project_figures(self, card: str) -> list[dict[str, Any]]:
        """The chains a Project card asks for, each drawn in the volume table."""
        return self._figure(("project", card), lambda: [table_figure(p) for p in self.cards.projects[card].chains])

    def group_figure(self, card: str) -> dict[str, Any] | None:
        """A Molecular Pattern card's group of hexagons (``None``: the card has none)."""
        group = self.cards.patterns[card].group
        return self._figure(("group", card), lambda: group_figure(group) if group else None)

    def disc_figure(self, turn: int = 1) -> dict[str, Any]:
        """The Active Element disc on ``turn`` (turn 1: as printed)."""
        return self._figure(("disc", str(turn)), lambda: disc_figure(self.rules.disc, turn))

    def _figure(self, key: tuple[str, str], make) -> Any:
        figures = self.__dict__.setdefault("_figures", {})
        if key not in figures:
            figures[key] = make()
        return figures[key]

    def molecules(self, state: State, seat: int) -> list[list[Any]]:
        f = self.rules.formula(state, seat)
        return [molecule_to_list(m, f.lattice.hex_label) for m in state.seats[seat].molecules]
