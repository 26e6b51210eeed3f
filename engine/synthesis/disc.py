"""The Active Element disc: who holds which colour each turn, and who rolls.

The inner disc has a name box per colour of the outer ring (four); players
write their names in the boxes, one per box with up to 4 players and up to
two per box with more (Setup 2). Each turn after the first, the outer ring
turns clockwise one step (Preparation 1), so the colour beside each box
moves on to the next box clockwise. A player's marker is the colour beside
their box (Preparation 3); "the player whose name is aligned with yellow
rolls the two dice" (Synthesis 1).

The ring is listed clockwise starting beside box 0 on turn 1. With the
rulebook's ring (red, yellow, green, blue) the player in box 0 holds red,
then blue, then green, then yellow: Denis' first four turns.

>>> disc = Disc(("red", "yellow", "green", "blue"), "yellow", 2)
>>> [disc.colour(0, turn) for turn in (1, 2, 3, 4, 5)]
['red', 'blue', 'green', 'yellow', 'red']
>>> disc.default_boxes(6)
(0, 1, 2, 3, 0, 1)
>>> disc.roller((0, 1, 2), turn=1), disc.roller((0, 1, 2), turn=2)
(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Disc:
    ring: tuple[str, ...]
    roller_colour: str
    names_per_box: int

    @property
    def boxes(self) -> int:
        return len(self.ring)

    @property
    def max_players(self) -> int:
        return self.boxes * self.names_per_box

    def colour(self, box: int, turn: int) -> str:
        """The marker of the player(s) in ``box`` on ``turn`` (from 1)."""
        return self.ring[(box - (turn - 1)) % self.boxes]

    def box_of(self, colour: str, turn: int) -> int:
        """The box beside ``colour`` on ``turn``."""
        return (self.ring.index(colour) + turn - 1) % self.boxes

    def default_boxes(self, players: int) -> tuple[int, ...]:
        """Names go round the boxes in order; from the fifth player on, a
        second name joins each box."""
        return tuple(i % self.boxes for i in range(players))

    def check_boxes(self, boxes: Sequence[int], players: int) -> str | None:
        """Why ``boxes`` (a box per seat) breaks Setup 2, or ``None``."""
        if len(boxes) != players or not all(type(b) is int and 0 <= b < self.boxes for b in boxes):
            return f"give one name box (0 to {self.boxes - 1}) for each of the {players} players"
        limit = 1 if players <= self.boxes else self.names_per_box
        for b in set(boxes):
            if list(boxes).count(b) > limit:
                return (f"box {b} holds {list(boxes).count(b)} names; with {players} players a box "
                        f"holds at most {limit}")
        return None

    def roller(self, boxes: Sequence[int], turn: int) -> int:
        """The seat that rolls: the (first) name beside the roller's colour.
        When that box is empty (fewer players than boxes), the first name
        clockwise from it rolls instead."""
        start = self.box_of(self.roller_colour, turn)
        for step in range(self.boxes):
            box = (start + step) % self.boxes
            for seat, b in enumerate(boxes):
                if b == box:
                    return seat
        raise ValueError("nobody is at the table")
