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
* Creating and joining are rate-limited per client address (token buckets,
  in memory) and request bodies are capped (``MAX_CONTENT_LENGTH``).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, jsonify, request, session
from werkzeug.exceptions import Forbidden, TooManyRequests, UnsupportedMediaType

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
                        secure=request.is_secure, path="/")


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
        parts = urlsplit(origin)
        if parts.netloc.lower() != request.host.lower():
            raise Forbidden("Requests from other sites are refused.")
    elif origin == "null":
        raise Forbidden("Requests from other sites are refused.")


def _check_csrf() -> None:
    expected = session.get("csrf")
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not (isinstance(expected, str) and isinstance(sent, str) and hmac.compare_digest(expected, sent)):
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


def protect(app: Flask) -> None:
    """Check every state-changing request before its view runs; give every
    answer the security headers."""

    @app.after_request
    def _headers(response: Any) -> Any:
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    @app.before_request
    def _guard() -> Any:
        if request.method not in UNSAFE_METHODS:
            return None
        _check_origin()
        if request.path.startswith("/api/"):
            if not request.is_json:
                raise UnsupportedMediaType("Send JSON (Content-Type: application/json).")
            return None
        _check_csrf()
        return None


# --- rate limits -------------------------------------------------------------

class RateLimiter:
    """Token buckets per (bucket, client address), in memory.

    ``limits`` maps a bucket to ``(burst, seconds)``: ``burst`` requests at
    once, refilled at ``burst / seconds`` per second.
    """

    def __init__(self, limits: dict[str, tuple[int, float]] | None) -> None:
        self.limits = dict(limits or {})
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def hit(self, bucket: str, client: str) -> float:
        """Take one token; returns 0 if allowed, else seconds to wait."""
        if bucket not in self.limits:
            return 0.0
        burst, seconds = self.limits[bucket]
        rate = burst / seconds
        now = time.monotonic()
        with self._lock:
            if len(self._buckets) > 50_000:  # forget idle clients rather than grow without end
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < seconds}
            tokens, last = self._buckets.get((bucket, client), (float(burst), now))
            tokens = min(float(burst), tokens + (now - last) * rate)
            if tokens < 1.0:
                self._buckets[(bucket, client)] = (tokens, now)
                return (1.0 - tokens) / rate
            self._buckets[(bucket, client)] = (tokens - 1.0, now)
            return 0.0


def rate_limit(bucket: str) -> None:
    """Abort with 429 when this client has used up its ``bucket``."""
    limiter: RateLimiter = current_app.extensions["companion_limiter"]
    wait = limiter.hit(bucket, request.remote_addr or "unknown")
    if wait > 0:
        seconds = max(1, round(wait))
        raise TooManyRequests(f"Too many requests: wait {seconds} s and try again.", retry_after=seconds)


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
