"""Reading what a player sends: numbers that must be whole, elements named
as players name them."""

from __future__ import annotations

from typing import Any

from engine.chem import ELEMENT_NAMES
from engine.core import IllegalAction


def name_of(e: str) -> str:
    """``"C"`` -> ``"Carbon"``, for sentences a player reads."""
    return ELEMENT_NAMES.get(e, e)


def whole_number(value: Any, what: str) -> int:
    if type(value) is not int:
        raise IllegalAction(f"{what} must be a whole number, found {value!r}.")
    return value
