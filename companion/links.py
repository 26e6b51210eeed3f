"""``url_for`` for the templates, worked out once per address.

Every form of every part names its address (``url_for('pages.act',
code=snap.code)``), on every phone at every version: building each one
through werkzeug's URL map was about 25 µs a call, some 11,000 calls in
600 moves of the four games (3% of the CPU of drawing them, profiled in
process). An address depends only on its endpoint, its values, where the
app is mounted (the request's script root) and the app's URL map, so it is
kept by those.

Anything else goes to Flask's own ``url_for`` every time: an external
address, an anchor or a method (``_external``, ``_anchor``...), an endpoint
relative to the request's blueprint (``.name``), values that are not plain
hashable data, and an app with URL defaults functions (they could add
values from the request).
"""

from __future__ import annotations

import functools
from typing import Any

from flask import current_app, request, url_for


@functools.lru_cache(maxsize=16384)
def _built(endpoint: str, values: tuple[tuple[str, Any], ...], root: str, rules: int) -> str:
    return url_for(endpoint, **dict(values))


def link(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)``, from the kept addresses when it can be."""
    if (endpoint.startswith(".") or any(k.startswith("_") for k in values)
            or current_app.url_default_functions):
        return url_for(endpoint, **values)
    try:
        return _built(endpoint, tuple(sorted(values.items())), request.script_root, id(current_app.url_map))
    except TypeError:   # a value that cannot be a key (a list): built afresh
        return url_for(endpoint, **values)
