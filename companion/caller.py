"""Who is asking: each request reads its table once (one query: the row;
seats and state come from the referee's cache) and finds the caller's seat
and host rights in what it read. Views hand the result to the referee.

Pages identify a phone by its cookies; the API by ``Authorization: Bearer``.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g, request

from companion.errors import NoToken
from companion.security import bearer_token, host_cookie, seat_cookie
from companion.snapshot import Snapshot
from companion.web import get_referee


@dataclass
class Caller:
    snap: Snapshot
    seat: int | None
    host: bool

    @property
    def code(self) -> str:
        return self.snap.code


def heard(caller: Caller) -> Caller:
    """A seat's phone asked for its table: it is there (:mod:`companion.presence`)."""
    if caller.seat is not None:
        presence = current_app.extensions.get("companion_presence")
        if presence is not None:
            seat = caller.snap.seats[caller.seat]
            presence.heard(caller.snap.table["id"], caller.seat, seat.get("away_since") is not None)
    return caller


def by_cookies(code: str) -> Caller:
    """The phone's seat and host rights at this table, from its cookies."""
    snap = get_referee().snapshot(code)
    caller = Caller(snap, snap.seat_of(request.cookies.get(seat_cookie(snap.code))),
                    snap.is_host(request.cookies.get(host_cookie(snap.code))))
    g.caller = caller
    return heard(caller)


def by_cookies_at(snap: Snapshot) -> Caller:
    """The same phone (its cookies) at another version of the table: a seat
    whose secret was replaced since is no longer its seat."""
    return Caller(snap, snap.seat_of(request.cookies.get(seat_cookie(snap.code))),
                  snap.is_host(request.cookies.get(host_cookie(snap.code))))


def by_token(code: str, *, required: bool = False) -> Caller:
    """An API client's seat or host rights, from its bearer token."""
    token = bearer_token()
    if required and token is None:
        raise NoToken("Send your token: Authorization: Bearer <token>.")
    snap = get_referee().snapshot(code)
    caller = Caller(snap, snap.seat_of(token), snap.is_host(token))
    g.caller = caller
    return heard(caller)


def again(caller: Caller, snap: Snapshot) -> Caller:
    """The same caller at a newer version of the table."""
    return Caller(snap, caller.seat, caller.host)
