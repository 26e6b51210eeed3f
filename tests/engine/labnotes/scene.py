"""Scenario helpers for Lab Notes tests beyond the shared one-line sheets:
burned spaces always carry their cause (design doc, rule 28), so a test that
fills in spaces by hand says what burned them."""

from __future__ import annotations

from engine.labnotes.state import BURNED, Burn, State


def with_burns(s: State, seat: int, spaces: str, cause: str = "fire", round: int = 1) -> State:
    """Give ``seat`` the field ``spaces``; each burned space in it that has no
    cause yet gets ``cause`` (a Lab Fire of round 1 unless told)."""
    sh = s.seats[seat]
    sh.spaces = spaces
    known = {b.space for b in sh.burned if spaces[b.space] == BURNED}
    sh.burned = tuple(b for b in sh.burned if b.space in known) + tuple(
        Burn(k, cause, round) for k, c in enumerate(spaces) if c == BURNED and k not in known)  # type: ignore[arg-type]
    return s
