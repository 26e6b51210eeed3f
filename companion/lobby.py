"""The lobby's rules: making a table, taking and leaving seats, the host's
setup options, starting the game, moving a seat to another phone, a rematch
with the same seats. The store only records what these allow.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import unicodedata
from typing import TYPE_CHECKING, Any

from engine.core import RulesError
from companion.errors import BIGINT_LIMIT, BadInput, Conflict, Gone, NoSuchTable, NotFound, Refused
from companion.snapshot import Snapshot, digest
from companion.store import CodeTaken, VersionConflict
from labkit import registry

if TYPE_CHECKING:
    from companion.card_sets import TableSets
    from companion.referee import Referee

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I/1, O/0, L: read aloud across a table
CODE_LENGTH = 5
"""Letters of a new table's code, by default (the ``CODE_LENGTH`` setting):
31^5, about 28.6 million codes, short enough to read across a table."""
CODE_LENGTHS = range(CODE_LENGTH, 13)
"""What a server may be set to, and every length a code is read at: a
server whose setting changed still finds the tables made before."""
NAME_MAX = 24
OPTIONS_MAX_CHARS = 2000


def clean_code(code: str) -> str:
    """A join code as typed on a phone: case and spaces do not matter."""
    code = "".join(str(code).split()).upper()
    if len(code) not in CODE_LENGTHS or any(ch not in CODE_ALPHABET for ch in code):
        raise NoSuchTable(f"There is no table {code[:12]}. Check the code.")
    return code


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise BadInput("A name is text.")
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name:
        raise BadInput("Type a name to join.")
    if len(name) > NAME_MAX:
        raise BadInput(f"A name has at most {NAME_MAX} characters.")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise BadInput("A name cannot contain control or invisible characters.")
    return name


def plain_json(value: Any, limit: int, what: str) -> str:
    """``value`` as canonical JSON text, refusing NaN, infinity, non-JSON
    types and anything longer than ``limit`` characters."""
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise BadInput(f"{what} must be plain JSON (no NaN or infinity).") from None
    if len(text) > limit:
        raise BadInput(f"{what} may be at most {limit} characters of JSON.")
    return text


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


class LobbyRules:
    """The lobby half of :class:`~companion.referee.Referee`."""

    sets: "TableSets | None" = None
    """The card sets offered and played (:mod:`companion.card_sets`; the app sets it)."""

    def table_sets(self: "Referee") -> "TableSets":
        if self.sets is None:   # a referee made without an app: its store's sets, no server folder
            from companion.card_sets import TableSets
            self.sets = TableSets(self.store)
        return self.sets

    def table_game(self: "Referee", table: dict[str, Any]) -> Any:
        """The rules a table plays: its game bound to the card set it records
        (``card_set``, a stored set's hash), or to the game's own."""
        digest = table.get("card_set")
        if not digest:
            return self.game(table["game"])
        return self.table_sets().game(table["game"], digest)

    def set_about(self: "Referee", table: dict[str, Any]) -> Any:
        """Name, author and version of the set a table plays; ``None``: the game's own."""
        digest = table.get("card_set")
        return self.table_sets().about(digest) if digest else None

    def create(self: "Referee", game_name: Any, options: Any = None, seed: int | None = None,
               card_set: str | None = None) -> tuple[dict[str, Any], str]:
        """A new table in its lobby, and the host's secret token. ``card_set``:
        the hash of a stored set of this game (:meth:`TableSets.choose`,
        :meth:`TableSets.upload`); ``None``: the game's own."""
        if not isinstance(game_name, str) or game_name not in registry.games():
            known = ", ".join(self.game_names()) or "none"
            raise BadInput(f"Unknown game {str(game_name)[:40]!r}: the companion knows {known}.")
        game = self.table_game({"game": game_name, "card_set": card_set})
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BadInput("Options are a JSON object.")
        plain_json(options, OPTIONS_MAX_CHARS, "Options")
        if seed is None:
            seed = secrets.randbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < BIGINT_LIMIT:
            raise BadInput("A seed is an integer from 0 to 2^63 - 1.")
        # The engine reads the options now, so a bad option fails at creation:
        # good when they work for some player count (a variant may need more players).
        try:
            self._options_work(game, seed, options, None)
        except Refused as exc:
            raise BadInput(str(exc)) from None
        host_token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(self.code_length))
            try:
                table = self.store.create_table(code=code, game=game_name, seed=seed, options=options,
                                                host_token=digest(host_token), card_set=card_set)
                return table, host_token
            except CodeTaken:
                continue
        raise RuntimeError("could not find a free table code")  # pragma: no cover - 28 million codes

    def join(self: "Referee", table: str | Snapshot, name: Any) -> tuple[int, str, Snapshot]:
        """Seat a player; returns (seat, secret token, the table now)."""
        name = clean_name(name)
        token = secrets.token_urlsafe(24)
        for _ in range(10):
            snap = self.snapshot(table) if isinstance(table, str) else table
            if snap.started:
                raise Refused("The game has started: you can watch, but no one can join now.")
            limit = snap.game.max_players
            if len(snap.seats) >= limit:
                raise Refused(f"The table is full ({limit} players).")
            if any(s["name"].casefold() == name.casefold() for s in snap.seats):
                raise Refused(f"Someone at this table is already called {name}: pick another name.")
            seat = len(snap.seats)
            try:
                version = self.store.add_seat(snap.table["id"], snap.version, seat, name, digest(token))
            except VersionConflict:
                table = snap.code  # someone joined at the same moment: look again
                continue
            self.changed(snap.code, version)
            return seat, token, self.snapshot(snap.code)
        raise Conflict("The table is very busy: try again.", self.snapshot(snap.code))

    def _options_work(self: "Referee", game: Any, seed: int, options: dict[str, Any], seated: int | None) -> None:
        """The engine reads ``options`` for some player count the table can
        still start with (the players seated, or more: seats change until the
        start, and one seated player is no count at all for most games); a
        refusal is the engine's sentence."""
        counts = range(max(seated or 0, game.min_players), game.max_players + 1)
        refusals = []
        for players in counts:
            try:
                game.setup(players, seed, options)
                return
            except RulesError as exc:
                refusals.append(str(exc))
        raise Refused(_sentence(f"These options do not work: {refusals[0]}"))

    def set_options(self: "Referee", table: str | Snapshot, fields: dict[str, Any], seen_version: int) -> Snapshot:
        """The host's setup choices, from the form's fields (text each, as
        :meth:`engine.core.SetupOption.read` reads them); unset ones are left
        to the engine's defaults. Options the game does not offer on a phone
        (set through the API) are kept."""
        snap = self.snapshot(table) if isinstance(table, str) else table
        if snap.started:
            raise Refused("The game has started: its setup is settled.")
        offered = snap.game.setup_options
        options = {k: v for k, v in snap.table["options"].items() if k not in {o.key for o in offered}}
        for option in offered:
            raw = fields.get(option.key)
            try:
                value = option.read(None if raw is None else str(raw), len(snap.seats))
            except ValueError as exc:
                raise BadInput(str(exc)) from None
            if value is not None and not (option.kind == "flag" and value is False):
                options[option.key] = value
        plain_json(options, OPTIONS_MAX_CHARS, "Options")
        self._options_work(snap.game, snap.table["seed"], options, len(snap.seats) or None)
        try:
            self.changed(snap.code, self.store.set_options(snap.table["id"], seen_version, options))
        except VersionConflict:
            raise Conflict("The table changed as you chose: check the options and choose again.",
                           self.snapshot(snap.code)) from None
        return self.snapshot(snap.code)

    def leave(self: "Referee", table: str | Snapshot, seat: Any, seen_version: int) -> Snapshot:
        """Empty a seat in the lobby (its player leaves, or the host removes
        them); the seats after it move up. A seat option (the lead player) is
        unset, since the seat it named may now be someone else."""
        snap = self.snapshot(table) if isinstance(table, str) else table
        if snap.started:
            raise Refused("The game has started: seats stay as they are until it ends.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snap.seats):
            raise Refused("That seat is empty already.")
        seats = {o.key for o in snap.game.setup_options if o.kind == "seat"}
        options = {k: v for k, v in snap.table["options"].items() if k not in seats}
        try:
            self.changed(snap.code, self.store.remove_seat(snap.table["id"], seen_version, seat, options))
        except VersionConflict:
            raise Conflict("The seats changed just now: look again.", self.snapshot(snap.code)) from None
        return self.snapshot(snap.code)

    def handover(self: "Referee", table: str | Snapshot, seat: Any, minutes: float) -> str:
        """A one-time link's secret for moving ``seat`` to another phone,
        valid ``minutes``; the seat's phone keeps it until the link is used."""
        snap = self.snapshot(table) if isinstance(table, str) else table
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snap.seats):
            raise Refused("There is no such seat at this table.")
        nonce = secrets.token_urlsafe(18)
        self.changed(snap.code, self.store.create_handover(snap.table["id"], seat, nonce, minutes * 60))
        return nonce

    def claim(self: "Referee", code: str, nonce: str) -> tuple[int, str]:
        """Use a handover link on this phone: ``(seat, its new secret)``.
        The old phone loses the seat now, not before."""
        snap = self.snapshot(code)
        token = secrets.token_urlsafe(24)
        seat, how = self.store.claim_handover(snap.table["id"], str(nonce)[:64], digest(token))
        if how == "used":
            raise Gone("This link has been used: a seat link works once. Ask the host for a new one.")
        if how == "expired":
            raise Gone("This link has expired: ask the host for a new one.")
        if how != "ok":
            raise NotFound("This seat link is not valid: ask the host for a new one.")
        self.changed(snap.code, self.store.version(snap.code))
        return seat, token

    def open_handovers(self: "Referee", snap: Snapshot) -> list[dict[str, Any]]:
        """The handover links still waiting on the host's screen (read once per version)."""
        return snap.cached("handovers", lambda: self.store.open_handovers(snap.table["id"]))

    def rematch(self: "Referee", table: str | Snapshot) -> str:
        """The code of a new table for the same game, options and seats
        (made once, whoever asks first). The host keeps its secret; each seat
        gets a new one, :meth:`rematch_token`, that only its phone can claim."""
        snap = self.snapshot(table) if isinstance(table, str) else table
        if snap.table.get("rematch"):
            return str(snap.table["rematch"])
        if not snap.over:
            raise Refused("A rematch can start when this game is over.")
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(self.code_length))
            seats = [(s["name"], digest(self.rematch_token(code, s["token"])), s.get("bot")) for s in snap.seats]
            try:
                self.store.rematch(snap.table, code, secrets.randbits(63), snap.table["host_token"], seats)
            except CodeTaken:
                continue
            except VersionConflict:   # someone else asked at the same moment
                return str(self.store.table(snap.code)["rematch"])
            self.changed(snap.code, self.store.version(snap.code))
            return code
        raise RuntimeError("could not find a free table code")  # pragma: no cover

    def rematch_token(self: "Referee", new_code: str, old_digest: str) -> str:
        """A seat's secret at the rematch ``new_code``, from the digest of its
        secret at the old table: the server works it out again when the phone
        comes with its old secret, and no one without the server's key can."""
        mac = hmac.new(self.secret, f"rematch:{new_code}:{old_digest}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:24]).decode().rstrip("=")

    def new_seat_token(self: "Referee", table: str | Snapshot, seat: Any) -> str:
        """A fresh secret for ``seat``, for a player who moves to another phone."""
        snap = self.snapshot(table) if isinstance(table, str) else table
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise BadInput("A seat is a number.")
        if not 0 <= seat < len(snap.seats):
            raise Refused(f"There is no seat {seat + 1} at this table.")
        token = secrets.token_urlsafe(24)
        self.changed(snap.code, self.store.replace_seat_token(snap.table["id"], seat, digest(token)))
        return token

    def start(self: "Referee", table: str | Snapshot, seen_version: int) -> Snapshot:
        snap = self.snapshot(table) if isinstance(table, str) else table
        if snap.started:
            raise Refused("The game has already started.")
        seated = len(snap.seats)
        if seated < snap.game.min_players:
            raise Refused(f"{snap.game.title} needs at least {snap.game.min_players} players; {seated} seated.")
        try:  # the options chosen must work for the players seated
            snap.game.setup(seated, snap.table["seed"], snap.table["options"])
        except RulesError as exc:
            raise Refused(_sentence(f"The game cannot start with {seated} players and these options: {exc}")) from None
        try:
            self.changed(snap.code, self.store.start(snap.table["id"], seen_version, seated))
        except VersionConflict:
            raise Conflict("Someone joined just now: check the seats and start again.",
                           self.snapshot(snap.code)) from None
        return self.snapshot(snap.code)
