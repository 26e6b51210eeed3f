"""What a reader found on a sheet: each mark's value with its confidence,
the marks it is unsure of (a low confidence, or a reading the rules
forbid), and the sheet in the game's paper format.

>>> r = Read("cell", "3:2", "r", 0.97, ("r", "y", "."))
>>> r.unsure, r.to_dict()["choices"]
(False, ['r', 'y', '.'])
>>> doubt(r, "a cell coloured above an empty one").unsure
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

SURE = 0.9
"""Below this confidence a mark is asked about (each kind may set its own: :data:`Read.sure`)."""


@dataclass(frozen=True)
class Read:
    kind: str
    """What the mark is, in the map's words: ``cell``, ``box``, ``space``, ``bond``, ``trash`` ..."""
    name: str
    """Which one: ``3:2`` (volume 3, row 2), ``A1``, ``A1 A2``."""
    value: Any
    """What was read, as the game's paper format writes it (``"r"``, ``"H"``, ``2``, ``None`` for nothing)."""
    confidence: float
    choices: tuple[Any, ...] = ()
    """The values it could be, the likeliest first (the phone offers them as one-tap fixes)."""
    sure: float = SURE
    why: str = ""
    """Why it is asked about, in a player's words, when a rule refuses it."""
    label: str = ""
    """The mark in a player's words: ``Volume 3, row 2``."""

    @property
    def unsure(self) -> bool:
        return bool(self.why) or self.confidence < self.sure

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "value": self.value, "confidence": round(self.confidence, 3),
                "choices": list(self.choices), "unsure": self.unsure, "why": self.why, "label": self.label}


def doubt(read: Read, why: str) -> Read:
    """``read`` asked about because a rule refuses it (the first reason is kept)."""
    return read if read.why else replace(read, why=why)


@dataclass
class Reading:
    """One photo read: the sheet it showed, every mark, and the sheet as the
    game's paper format writes it (``data``, what its scorer takes)."""

    game: str
    component: str
    piece: str
    side: int
    marks: list[Read]
    data: dict[str, Any]
    side_name: str = ""
    """The side as the game names it (``A``), when the sheet has sides."""
    code: str | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    picture: bytes = b""
    """The rectified part of the sheet as a JPEG, for the phone to draw the reading over."""
    picture_mm: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """Where the picture lies on the face: x, y, w, h in mm."""
    places: dict[str, tuple[str, tuple[float, ...]]] = field(default_factory=dict)
    """Where each mark is on the face, by ``"kind name"``: ``("box", (x, y, w, h))``,
    ``("circle", (cx, cy, r))`` or ``("line", (x1, y1, x2, y2))``, in mm."""

    @property
    def unsure(self) -> list[Read]:
        """The marks to ask the player about, the least sure first."""
        return sorted((m for m in self.marks if m.unsure), key=lambda m: (not m.why, m.confidence))

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "component": self.component, "piece": self.piece, "side": self.side,
                "code": self.code, "data": self.data, "marks": [m.to_dict() for m in self.marks],
                "unsure": [f"{m.kind} {m.name}" for m in self.unsure], "notes": list(self.notes),
                "seconds": round(self.seconds, 3), "picture_mm": list(self.picture_mm)}
