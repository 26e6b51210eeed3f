from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import BuildOptions, build


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The complete Lab Notes set, built once per test session (per worker)."""
    out = tmp_path_factory.mktemp("output")
    build(BuildOptions(games=["labnotes"], out=out))
    return out / "labnotes"
