"""Every refusal the companion makes, as one hierarchy with its HTTP status
in one place: pages show the sentence next to the control a phone used, the
API answers ``{"error": sentence}``; both with the same status.

The engine's :class:`~engine.core.IllegalAction` (a move the rules forbid)
maps to 422 here too, so neither face has a list of its own.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction, RulesError


BIGINT_LIMIT = 2 ** 63
"""Versions and seeds are stored as 64-bit integers (SQLite's and
PostgreSQL's BIGINT): anything at or past this is no table's and is refused
before it reaches the database."""


class TableError(Exception):
    """A request the companion refuses; the message is for players."""

    status = 400


class BadInput(TableError):
    """Malformed input: the sentence says what is wrong."""

    status = 400


class BadSet(BadInput):
    """A card set refused (uploaded, or named but unknown): ``problems`` are
    every problem found, each with its file, line and column, in the words
    ``labkit validate`` prints."""

    status = 422

    def __init__(self, headline: str, problems: list[str] | None = None) -> None:
        self.headline = headline
        """The sentence alone, where the problems are listed beside it (a page)."""
        self.problems = list(problems or [])
        super().__init__(f"{headline.rstrip('.')}: {'; '.join(self.problems)}" if self.problems else headline)


class NoToken(TableError):
    """An API call that needs a seat's or the host's token came without one."""

    status = 401


class Forbidden(TableError):
    """Not yours: another seat's move, the host's button, another site."""

    status = 403


class NotFound(TableError):
    """No such table."""

    status = 404


class NoSuchTable(NotFound):
    """A code that names no table: each one an address sends counts against
    it (``companion.security.missed_lookup``), so codes cannot be guessed."""


class Gone(TableError):
    """A one-time link already used, or expired."""

    status = 410


class Refused(TableError):
    """Not possible now (the game has started, the table is full)."""

    status = 409


class Conflict(TableError):
    """The table moved on since the version the phone saw; ``snapshot`` is
    the table as it is now."""

    status = 409

    def __init__(self, message: str, snapshot: Any = None) -> None:
        super().__init__(message)
        self.snapshot = snapshot


class TooMany(TableError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def status_of(exc: BaseException) -> int:
    """The HTTP status of a refusal (the engine's included)."""
    if isinstance(exc, TableError):
        return exc.status
    if isinstance(exc, (IllegalAction, RulesError)):
        return 422
    raise TypeError(f"{type(exc).__name__} is not a refusal")


REFUSALS = (TableError, RulesError)
"""What a view may catch and show: everything else is a bug and a 500."""
