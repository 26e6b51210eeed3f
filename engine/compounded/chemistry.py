"""What a compound card's numbers mean, computed from real chemistry.

A card gives its compound as a SMILES structure, its melting and boiling
points and its NFPA 704 flammability rating (the red diamond, 0 to 4). From
these the rules compute what the rulebook asks a card to show:

* its **elements** (the formula, from the structure, never typed);
* its **states** at room temperature: every state it takes between 15 and
  25 °C (the European Pharmacopoeia's "room temperature"), so a compound
  that melts or boils inside that range has two;
* its **flame slots**: a flammable compound (rating 1 to 4) holds
  ``5 - rating`` flame tokens, so the most flammable explode soonest;
* its **points** (the rulebook: "worth more if they require rarer elements
  or are volatile"): each element is worth the commonest element's count
  divided by its own, rounded (H 25/25 = 1, O 1, N 2, C 2, Ca 3, S 5), plus
  the flammability rating.

>>> states_at_room_temperature(0.0, 100.0)      # water
('liquid',)
>>> states_at_room_temperature(16.6, 118.1)     # acetic acid freezes in a cool lab
('solid', 'liquid')
>>> values = element_values({"H": 25, "O": 20, "N": 15, "C": 15, "Ca": 10, "S": 5})
>>> values
{'H': 1, 'O': 1, 'N': 2, 'C': 2, 'Ca': 3, 'S': 5}
>>> formula_points({"H": 2, "O": 1}, 0, values)  # water: the rulebook's Lilly scores 3
3
>>> flame_slots(4), flame_slots(1), flame_slots(0)
(1, 4, 0)
"""

from __future__ import annotations

from typing import Mapping

ROOM_TEMPERATURE = (15.0, 25.0)
"""Degrees Celsius: the European Pharmacopoeia's room temperature."""
STATES = ("solid", "liquid", "gas")
MAX_RATING = 4
"""NFPA 704 ratings run from 0 (will not burn) to 4."""


def states_at_room_temperature(melts_c: float, boils_c: float | None) -> tuple[str, ...]:
    """Every state the compound takes somewhere in :data:`ROOM_TEMPERATURE`.

    ``boils_c`` is ``None`` for a solid that decomposes before it boils; a
    compound that sublimes has ``melts_c == boils_c``.

    >>> states_at_room_temperature(-78.5, -78.5)   # dry ice sublimes
    ('gas',)
    >>> states_at_room_temperature(-11.2, 21.7)    # dinitrogen tetroxide boils at 21.7
    ('liquid', 'gas')
    >>> states_at_room_temperature(825.0, None)    # chalk decomposes first
    ('solid',)
    """
    low, high = ROOM_TEMPERATURE
    boils = float("inf") if boils_c is None else boils_c
    out = []
    if melts_c >= low:
        out.append("solid")
    if melts_c < high and boils > low and melts_c < boils:
        out.append("liquid")
    if boils < high:
        out.append("gas")
    return tuple(out)


def element_values(distribution: Mapping[str, int]) -> dict[str, int]:
    """Points per element: the commonest element's count over this one's,
    rounded half up, so rarer elements are worth more."""
    most = max(distribution.values())
    return {e: int(most / n + 0.5) for e, n in distribution.items()}


def formula_points(counts: Mapping[str, int], rating: int, values: Mapping[str, int]) -> int:
    """The points a compound card should show: its elements' values plus its
    flammability rating (volatility)."""
    return sum(values[e] * n for e, n in counts.items()) + rating


def flame_slots(rating: int) -> int:
    """Flame tokens a compound holds before the next Lab Fire explodes it."""
    return 0 if rating <= 0 else MAX_RATING + 1 - rating
