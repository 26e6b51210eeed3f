"""Run the companion for a real table: waitress on all interfaces, the address
to open from a phone, and a QR code of it in the terminal.

>>> lan_addresses()  # doctest: +SKIP
['192.168.1.23']
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
import sys
from typing import Any, Mapping, TextIO

import segno

from companion import create_app


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a phone on the same network could
    reach, best first. Nothing is sent on the network to find them."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    found.extend(_interface_addresses())
    out: list[str] = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or address in out:
            continue
        out.append(address)
    return sorted(out, key=lambda a: (not ipaddress.ip_address(a).is_private, a))


def _interface_addresses() -> list[str]:
    """IPv4 address of every interface (Linux: SIOCGIFADDR; elsewhere nothing)."""
    out = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except (OSError, AttributeError):
        return out
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
                out.append(socket.inet_ntoa(packed[20:24]))
            except OSError:
                continue
    return out


def phone_url(host: str, port: int) -> str:
    """The address to print: the LAN address when serving on all interfaces."""
    if host in ("0.0.0.0", "::", ""):
        addresses = lan_addresses()
        shown = addresses[0] if addresses else "127.0.0.1"
    else:
        shown = host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def serve(host: str = "0.0.0.0", port: int = 5000, database_url: str | None = None, *,
          instance_path: str | None = None, config: Mapping[str, Any] | None = None,
          threads: int = 8, qr: bool = True, out: TextIO | None = None) -> None:
    """Start the companion and keep running until interrupted.

    ``database_url``: ``postgresql://...`` or ``sqlite:///file``; default: a
    SQLite file in the instance folder (``instance_path``, by default
    ``./instance``). ``config`` overrides app settings (e.g. ``RATE_LIMITS``).
    """
    from waitress import serve as waitress_serve

    out = out or sys.stdout
    url = phone_url(host, port)
    settings: dict[str, Any] = {"PUBLIC_URL": url}
    if database_url:
        settings["DATABASE_URL"] = database_url
    settings.update(config or {})
    app = create_app(None, instance_path=instance_path, overrides=settings)
    store = app.extensions["companion_store"]
    print(f"labkit companion: {store.db.kind} database, {len(app.extensions['companion_referee'].game_names())} "
          f"game(s)", file=out)
    print(f"Open this on a phone on the same network: {url}", file=out)
    if qr:
        try:
            segno.make(url, error="m").terminal(out=out, compact=True)
        except Exception:  # a terminal that cannot show it: the address is printed above
            pass
    print(f"Listening on {host}:{port} (Ctrl-C to stop)", file=out, flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="labkit", channel_timeout=30,
                   connection_limit=1000, _quiet=True)
