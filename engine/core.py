"""The contract every game implements, so that the companion, the simulators
and the tests serve every game the same way.

A game is card data plus pure functions over a state (boardgame.io's shape,
OpenSpiel's registry):

* ``setup(players, seed, options)`` makes the first state;
* ``actions(state, seat)`` lists what that seat may do now, as plain JSON
  objects, enough for a phone to offer only legal choices;
* ``apply(state, seat, action)`` returns a *new* state, or raises
  :class:`IllegalAction` with a sentence a player understands, leaving the
  given state untouched;
* ``view(state, seat)`` is what that seat may see (``None`` is a spectator);
* ``is_over(state)`` and ``result(state)`` end the game with each seat's score
  broken down the way the game's own score boxes show it.

States are plain data: ``to_dict`` gives JSON-ready dicts, ``from_dict``
validates what it reads. All randomness lives in the state (see
:mod:`engine.rng`), so ``replay(seed, log)`` rebuilds a state exactly.

Rules never do I/O, never look at the clock, never import Flask, reportlab or
svgwrite (a test keeps it so).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Iterable, Mapping, TypeVar

Action = dict[str, Any]
"""An action is a JSON object with a ``"type"`` key, e.g. ``{"type": "take_die", "die": 2}``."""


class RulesError(ValueError):
    """Base of every error the rules raise on purpose."""


class IllegalAction(RulesError):
    """The rules do not allow this action now. The message is for players."""


class InvalidState(RulesError):
    """A state (or a paper sheet) read from outside breaks the rules or the format."""


class MalformedInput(InvalidState):
    """Input from outside that is not in its format at all, before any rule
    can be read from it (a list where a card's name belongs): the message
    names the field. A server answers it 400, where a sheet that breaks a
    rule is 422."""


@dataclass(frozen=True)
class ScoreLine:
    """One box of a score sheet: ``label`` as printed, ``points`` signed."""

    key: str
    label: str
    points: int


@dataclass(frozen=True)
class SeatScore:
    seat: int
    name: str
    lines: tuple[ScoreLine, ...]
    total: int
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "lines": [{"key": l.key, "label": l.label, "points": l.points} for l in self.lines],
            "total": self.total,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Result:
    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"scores": [s.to_dict() for s in self.scores], "winners": list(self.winners)}


@dataclass(frozen=True)
class SetupOption:
    """One choice the rulebook offers before play, for a host to make on a
    phone: a ``flag`` (on or off), a ``choice`` among ``choices`` (value,
    words), or a ``seat`` (one of the players seated). Left unset, the
    engine's own default stands (often one that depends on the player count)."""

    key: str
    label: str
    kind: str = "flag"
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("flag", "choice", "seat"):
            raise ValueError(f"a setup option is a flag, a choice or a seat, not {self.kind!r}")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"setup option {self.key!r}: choices go with kind 'choice' only")

    def read(self, text: str | None, players: int) -> Any:
        """The option's value from a form field's text (``None``: unset),
        or ``ValueError`` saying what is wrong."""
        if text is None or text == "":
            return None
        if self.kind == "flag":
            return text in ("on", "true", "1")
        if self.kind == "seat":
            if not text.isdigit() or not 0 <= int(text) < players:
                raise ValueError(f"{self.label}: choose one of the players seated.")
            return int(text)
        for value, _ in self.choices:
            if str(value) == text:
                return value
        raise ValueError(f"{self.label}: choose one of {', '.join(w for _, w in self.choices)}.")


def margin(values: "list[float] | tuple[float, ...]", seat: int) -> float:
    """``seat``'s value less the best of the others' (alone: its own value):
    what an evaluation measures, so that a bot plays to win, not only to score.

    >>> margin([12, 9, 15], 0), margin([12, 9, 15], 2), margin([7], 0)
    (-3.0, 3.0, 7.0)
    """
    others = [v for i, v in enumerate(values) if i != seat]
    return float(values[seat] - max(others)) if others else float(values[seat])


S = TypeVar("S")


class Game(abc.ABC, Generic[S]):
    """One game's rules bound to one card set (the rulebook's, or an author's)."""

    name: ClassVar[str]
    """Registry key and data folder name: a lower-case identifier."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    setup_options: ClassVar[tuple[SetupOption, ...]] = ()
    """What the host may choose before play (the rulebook's variants)."""
    rollout_depth: ClassVar[int] = 24
    """For the bots' planner (:mod:`engine.bots.planner`), unless its budget
    says otherwise: the actions a rollout plays before the evaluation cuts
    it short. Long enough to see an action's consequences through (about
    two rounds at two players), short enough to keep a decision within a
    second; a game whose actions cost more may ask for fewer."""

    # --- the contract -------------------------------------------------
    @abc.abstractmethod
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> S:
        """The state before the first action."""

    @abc.abstractmethod
    def actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not their move)."""

    @abc.abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> S:
        """The state after ``seat`` takes ``action``. Pure: ``state`` is not changed."""

    @abc.abstractmethod
    def to_move(self, state: S) -> list[int]:
        """Seats that may act now (several in simultaneous phases)."""

    @abc.abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready. ``None``: a spectator."""

    @abc.abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abc.abstractmethod
    def result(self, state: S) -> Result:
        """Scores with their breakdown, and the winners (several on a tie)."""

    @abc.abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]: ...

    @abc.abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> S:
        """Read a state back, validating it; raises :class:`InvalidState`."""

    @abc.abstractmethod
    def resample_hidden(self, state: S, seat: int | None, seed: int) -> S:
        """A state ``seat`` cannot tell apart from ``state``: everything hidden
        from that seat (deck order, other hands, the generator) drawn afresh.

        The conformance suite checks ``view(state, seat) ==
        view(resample_hidden(state, seat, s), seat)``, so a view that leaks a
        secret fails a test (OpenSpiel's resampling from an information state).

        The result depends on what ``seat`` sees and on ``seed`` only, never
        on the hidden parts it replaces: draw them afresh from a fixed order
        (a deck sorted before it is shuffled), so that resampling a
        resampled state with the same seed gives the same state. The bots
        (:mod:`engine.bots`) plan over such states; this is what makes their
        choices the same whatever is hidden (``tests/engine/bots``).
        """

    def check(self, state: S) -> None:
        """Raise :class:`InvalidState` if the state breaks an invariant the
        rules keep (every die and card accounted for, ...). Tests call it."""

    # --- what the bots ask (engine.bots); optional ----------------------------
    def evaluate(self, state: S, seat: int) -> float:
        """How well ``seat`` stands in ``state``, in the game's own points,
        relative to the other seats: above 0 ahead, below 0 behind (alone at
        a table: its own points). The bots' greedy level picks the action
        that scores best by it one step ahead, and the planner cuts its
        rollouts short with it, so a game that overrides it gets stronger
        bots: the points its score boxes would give now plus what is in
        reach (see ``docs/design/adding-a-game.md``).

        The bots call it on determinised states only (``resample_hidden``),
        so it may read the whole state it is given. The default knows
        nothing before the end: the final margin once the game is over
        (:func:`margin` of the totals), else 0."""
        if not self.is_over(state):
            return 0.0
        return margin([s.total for s in self.result(state).scores], seat)

    def proposals(self, state: S, seat: int) -> list[Action]:
        """The actions a bot weighs (greedy scores each, the planner searches
        them): by default every action of :meth:`actions`. A game whose list
        is long may offer fewer, always among the legal ones and never chosen
        from what ``seat`` may not see."""
        return self.actions(state, seat)

    def waits(self, state: S, seat: int) -> bool:
        """Whether ``seat``'s bot makes no move now and waits for another
        seat's (in a phase where several may act at once: an offer made,
        its answer awaited). Its :meth:`proposals` are then empty; the arena
        and the table ask the other seats, and ask this one again once the
        state has changed. By default a bot never waits."""
        return False

    # --- what a balance report asks (labkit balance); optional ---------------
    def card_names(self) -> dict[str, str]:
        """Every card of the set a balance report follows, by id, with the
        name it prints (the cards a player takes, builds, claims or
        completes). The default follows none."""
        return {}

    def card_uses(self, before: S, after: S, seat: int, action: Action) -> tuple[tuple[int, str, str], ...]:
        """What ``seat``'s ``action`` did with cards, read from the states
        around it: ``(seat, card id, verb)`` in the rulebook's words
        ("claimed", "completed", "built"...), the seat being whoever the
        rules credit (a claimant, a completer), not always the actor. A
        report sums them over bot games (:mod:`engine.bots.balance`): how
        often each card is used, and whether the seats that used it won
        more. Pure; called once per applied action. The default sees none."""
        return ()

    def cards_in_play(self, state: S) -> Iterable[str]:
        """The cards of :meth:`card_names` a seat could use now (face up on
        the table, in a hand): a report counts the games in which a card was
        ever in play, and how often it was used when it was. The default
        says nothing (each card's use is then counted over all games)."""
        return ()

    def end_condition(self, state: S) -> str | None:
        """Which of the rulebook's end conditions ended a finished game, in
        a few words ("the atom deck ran out"); ``None``: the game does not say."""
        return None

    ranked: ClassVar[bool] = False
    """Whether a seat's total is a ranking code rather than points (a code
    like 1,010,201 that weighs one tally above the next): codes
    order the seats but an average of them means nothing, so reports give
    places and win shares (:mod:`engine.bots.balance`, ``labkit play``)."""

    def standings(self, state: S) -> tuple[float, ...]:
        """Each seat's standing now, higher better, for a report's lead
        changes (read once a round). The default: the totals of
        :meth:`result`; a game whose running total says little before the
        end may give its own."""
        return tuple(s.total for s in self.result(state).scores)

    def round_of(self, state: S) -> int | None:
        """The round being played (the last one, once over), counted as the
        rulebook counts them; ``None``: the state keeps no count (a report
        then counts the times the first seat to move moves again)."""
        return None

    # --- what a table may do beyond the rules -----------------------------
    def end_by_agreement(self, state: S) -> S:
        """The state after everyone at the table agrees to stop here: over,
        scored by the game's own end scoring as things stand. Not a rule of
        any game: the way out of one that its rules would let go on for
        ever (players who may pass round after round). A game offers it by
        overriding this (then :attr:`ends_by_agreement` is true) and the
        house gives the host a control for it. Pure, like ``apply``."""
        raise IllegalAction("This game has no end by agreement: it is played to its end.")

    @property
    def ends_by_agreement(self) -> bool:
        """Whether the game offers :meth:`end_by_agreement`."""
        return type(self).end_by_agreement is not Game.end_by_agreement

    # --- serving -----------------------------------------------------------
    def warm(self) -> None:
        """Work out now the lookups that play would otherwise work out as it
        meets them, kept for good (where each bond shape fits on each board,
        say). A server calls it once, before its workers start: their
        memory then holds what it will hold from the start, shared by every
        worker, instead of growing for as long as new corners of the game
        come up. The default has nothing to work out."""

    # --- helpers every game gets --------------------------------------
    def replay(self, players: int, seed: int, options: Mapping[str, Any] | None,
               log: Iterable[tuple[int, Action]]) -> S:
        """Rebuild a state from its seed and action log."""
        state = self.setup(players, seed, options)
        for seat, action in log:
            state = self.apply(state, seat, action)
        return state

    def seat_name(self, seat: int) -> str:
        return f"Player {seat + 1}"
