"""Writing files so that a failed or repeated build harms nothing: atomic
replacement, and no write at all when the bytes are the same."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


def digest_key(*parts: object) -> str:
    """A digest of anything JSON can say (paths and the like as text)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> None:
    """A rebuild that changes nothing leaves the file alone (its time too)."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    atomic_write(path, data)
