"""Helpers the blueprints share: the referee of the current app, and a
table's public address (what a phone across the table can open)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, request

from companion.referee import Referee


def get_referee() -> Referee:
    return current_app.extensions["companion_referee"]


def public_base_url() -> str:
    """The address phones should open.

    A host whose own browser is on the laptop sees ``127.0.0.1``, which is
    useless to a phone: then the LAN address ``serve()`` found is shown.
    Otherwise the address the browser used already works on this network.
    """
    here = request.host_url.rstrip("/")
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
