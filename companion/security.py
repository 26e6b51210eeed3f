"""Who may do what: seat and host cookies, CSRF, origins, rate limits.

* A seat's secret token lives in an HttpOnly, SameSite=Lax cookie named for
  its table; the host's in another. The database keeps only their digests.
* Pages: every state-changing request carries the session's CSRF token (htmx
  sends it in the ``X-CSRF-Token`` header set on ``<body hx-headers>``; plain
  forms in a hidden field).
* The JSON API never reads cookies: a seat or the host acts with
  ``Authorization: Bearer <token>``, which a forged cross-site request cannot
  carry, and every POST must be ``application/json`` (a cross-site form
  cannot send that without a preflight this server never allows).
* Both: a request whose ``Origin`` (or ``Sec-Fetch-Site``) says it came from
  another site is refused.
* Creating and joining are rate-limited per client address (token buckets
  in the database, shared by every worker; the address is read from
  ``X-Forwarded-For`` only when a trusted proxy sent it) and request bodies
  are capped (``MAX_CONTENT_LENGTH``).
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import secrets
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, has_request_context, jsonify, request, session
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import BadRequest, Forbidden, TooManyRequests, UnsupportedMediaType

from companion.errors import TooMany

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


# --- cookies ---------------------------------------------------------------

def seat_cookie(code: str) -> str:
    return f"labkit_seat_{code}"


def host_cookie(code: str) -> str:
    return f"labkit_host_{code}"


def set_token_cookie(response: Any, name: str, token: str) -> None:
    response.set_cookie(name, token, max_age=60 * 60 * 24 * 7, httponly=True, samesite="Lax",
                        secure=is_secure(), path="/")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


# --- CSRF ------------------------------------------------------------------

def csrf_token() -> str:
    """The session's CSRF token, made on first use (a Jinja global)."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def _check_origin() -> None:
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise Forbidden("Requests from other sites are refused.")
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        try:
            parts = urlsplit(origin)
        except ValueError:   # "http://[::1" and the like: no site at all (was a 500)
            raise BadRequest("The request's Origin header cannot be read as an address.") from None
        if parts.netloc.lower() != request.host.lower():
            raise Forbidden("Requests from other sites are refused.")
    elif origin == "null":
        raise Forbidden("Requests from other sites are refused.")


def _check_csrf() -> None:
    expected = session.get("csrf")
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    # compared as bytes: hmac refuses str with characters outside ASCII, and a
    # header or form field can hold anything a client sends
    if not (isinstance(expected, str) and isinstance(sent, str)
            and hmac.compare_digest(expected.encode(), sent.encode("utf-8", "surrogatepass"))):
        raise Forbidden("This page is out of date (its security token does not match): reload it.")


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""Scripts only from this server's own files (no inline script, no eval: htmx
runs with allowEval off), no framing; inline style attributes are allowed
(a board sets a CSS variable), style sheets only from here."""

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


class _Sessions(SecureCookieSessionInterface):
    """The session cookie (it holds the CSRF token) is ``Secure`` whenever
    the phone reached us over HTTPS, as the table's token cookies are:
    Flask marks it so only when ``SESSION_COOKIE_SECURE`` says so for good."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and is_secure())


def protect(app: Flask) -> None:
    """Check every state-changing request before its view runs; give every
    answer the security headers."""
    app.session_interface = _Sessions()

    @app.after_request
    def _headers(response: Any) -> Any:
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    app.extensions["companion_guessers"] = {}

    @app.before_request
    def _guard() -> Any:
        _refuse_guessers()
        if request.method not in UNSAFE_METHODS or request.routing_exception is not None:
            # no such page, or not with this method: its 404 or 405 is the answer
            # (checking the body first answered a PUT anywhere under /api/ 415)
            return None
        _check_origin()
        if request.path.startswith("/api/"):
            if not request.is_json and _has_body():
                raise UnsupportedMediaType("Send JSON (Content-Type: application/json).")
            return None
        _check_csrf()
        return None


def _has_body() -> bool:
    """A POST with a body (a request without one carries nothing to forge)."""
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


# --- rate limits -------------------------------------------------------------

def client_address() -> str:
    """The address a request came from. Behind a proxy every request comes
    from the proxy, so its ``X-Forwarded-For`` is read, but only when the
    request came from a proxy listed in ``TRUSTED_PROXIES`` (anyone else
    could write that header): the rightmost address not itself a trusted
    proxy is the client."""
    remote = request.remote_addr or "unknown"
    trusted = _trusted(str(current_app.config.get("TRUSTED_PROXIES") or ""))
    if not trusted or not _is_in(remote, trusted):
        return remote
    hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_in(hop, trusted):
            return hop
    return hops[0] if hops else remote


@functools.lru_cache(maxsize=8)
def _trusted(text: str) -> tuple[Any, ...]:
    """``"10.0.0.1, 192.168.0.0/16"`` as networks (a bad entry stops the server at start)."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.replace(";", ",").split(",")
                 if part.strip())


def _is_in(address: str, networks: tuple[Any, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def is_secure() -> bool:
    """HTTPS as the phone sees it (a trusted proxy says so in ``X-Forwarded-Proto``)."""
    if request.is_secure:
        return True
    trusted = _trusted(str(current_app.config.get("TRUSTED_PROXIES") or ""))
    return (bool(trusted) and _is_in(request.remote_addr or "", trusted)
            and request.headers.get("X-Forwarded-Proto", "").lower() == "https")


def rate_limit(bucket: str) -> None:
    """Abort with 429 when this client has used up its ``bucket``: token
    buckets kept in the database, so every worker counts the same tokens."""
    limits = current_app.config["RATE_LIMITS"]
    if bucket not in limits:
        return
    burst, seconds = limits[bucket]
    wait = current_app.extensions["companion_store"].take_token(bucket, client_address()[:64], int(burst),
                                                                 float(seconds))
    if wait > 0:
        seconds = max(1, round(wait))
        raise TooManyRequests(f"Too many requests: wait {seconds} s and try again.", retry_after=seconds)


# --- guessing table codes ------------------------------------------------------
GUESSERS_KEPT = 10_000
"""Addresses one worker remembers as out of lookups (the oldest go first)."""
_GUESSERS_LOCK = threading.Lock()


def _names_a_code() -> bool:
    return "code" in (request.view_args or {}) or (request.path == "/join" and "code" in request.args)


def _refuse_guessers() -> None:
    """While an address is out of lookups (``missed_lookup``), every request
    of its that names a table code is refused, the codes of real tables too:
    otherwise a guesser would still tell a hit (200) from a miss (429)."""
    if not _names_a_code():
        return
    until = current_app.extensions["companion_guessers"].get(client_address()[:64])
    wait = (until or 0.0) - time.time()
    if wait > 0:
        raise TooMany(f"Too many codes that name no table: wait {max(1, round(wait))} s and try again.",
                      max(1, round(wait)))


def missed_lookup() -> None:
    """A code this address sent named no table: it costs a token of the
    ``lookup`` bucket (shared by the workers through the database). With
    none left the address is refused every code until the bucket refills:
    raises :class:`TooMany`."""
    limits = current_app.config["RATE_LIMITS"]
    if "lookup" not in limits or not _names_a_code():
        return
    burst, seconds = limits["lookup"]
    client = client_address()[:64]
    wait = current_app.extensions["companion_store"].take_token("lookup", client, int(burst), float(seconds))
    if wait > 0:
        guessers = current_app.extensions["companion_guessers"]
        with _GUESSERS_LOCK:
            guessers.pop(client, None)
            guessers[client] = time.time() + wait
            while len(guessers) > GUESSERS_KEPT:
                guessers.pop(next(iter(guessers)))
        raise TooMany(f"Too many codes that name no table: wait {max(1, round(wait))} s and try again.",
                      max(1, round(wait)))


def parse_limit(text: str) -> tuple[int, float]:
    """``"20/60"`` -> 20 requests per 60 seconds."""
    count, _, seconds = text.partition("/")
    return int(count), float(seconds or 60)


def json_error(status: int, message: str, **extra: Any) -> Any:
    response = jsonify({"error": message, **extra})
    response.status_code = status
    return response


def forbid(message: str) -> None:
    abort(Forbidden(message))
