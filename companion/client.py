"""A small client of the companion's JSON API (described at
``/api/openapi.json``), for scripts, tests and the load benchmark."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         timeout: float = 20) -> tuple[int, Any]:
    """One API request: ``(HTTP status, decoded JSON body)``. A seat or the
    host acts with its token (``Authorization: Bearer``)."""
    data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
