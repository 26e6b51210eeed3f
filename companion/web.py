"""Helpers the blueprints share: the referee of the current app, a
table's public address (what a phone across the table can open), and
forgetting old tables now and then."""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from urllib.parse import urlsplit

from flask import current_app, g, request

from companion.referee import Referee
from companion.security import is_secure

log = logging.getLogger(__name__)
TIDY_EVERY = 600.0   # seconds between two cleanings by one worker
_tidied = {"at": 0.0}
_tidy_lock = threading.Lock()


def get_referee() -> Referee:
    return current_app.extensions["companion_referee"]


def public_base_url() -> str:
    """The address phones should open.

    A host whose own browser is on the laptop sees ``127.0.0.1``, which is
    useless to a phone: then the LAN address ``serve()`` found is shown.
    Otherwise the address the browser used already works on this network.
    """
    cached = g.get("public_base_url")
    if cached is not None:
        return cached
    g.public_base_url = _public_base_url()
    return g.public_base_url


def _public_base_url() -> str:
    here = request.host_url.rstrip("/")
    if here.startswith("http://") and is_secure():   # HTTPS ends at the proxy
        here = "https://" + here[len("http://"):]
    host = urlsplit(here).hostname or ""
    configured = current_app.config.get("PUBLIC_URL")
    if configured and _is_loopback(host):
        return str(configured).rstrip("/")
    return here


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tidy() -> int:
    """Forget finished tables after ``FINISHED_HOURS`` and any table idle
    for ``IDLE_DAYS``, at most once every ten minutes per worker (called
    when a table is made, so a busy server cleans as it goes). Returns how many."""
    with _tidy_lock:
        if time.monotonic() - _tidied["at"] < TIDY_EVERY and not current_app.testing:
            return 0
        _tidied["at"] = time.monotonic()
    config = current_app.config
    store = current_app.extensions["companion_store"]
    gone = store.clean(float(config["FINISHED_HOURS"]), float(config["IDLE_DAYS"]))
    if gone:
        log.info("forgot %d old tables", gone)
    # a set no table plays any more, unused for as long as a finished table is kept
    sets = store.forget_card_sets(float(config["FINISHED_HOURS"]))
    if sets:
        log.info("forgot %d card sets no table plays", sets)
    return gone
