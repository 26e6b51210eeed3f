"""Card sets as an author makes, packs and shares them (``labkit new-set``,
``validate``, ``build --data``, ``pack``), run in this process for speed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from labkit.cli import main


class Run:
    def __init__(self, result) -> None:
        self.code = result.exit_code
        self.exception = result.exception
        self.text = " ".join(result.output.split())  # stdout and stderr, without rich's line wrapping

    def __repr__(self) -> str:
        return f"exit {self.code}: {self.text}"


@pytest.fixture
def labkit():
    def run(*args: str | Path) -> Run:
        result = Run(CliRunner().invoke(main, [str(a) for a in args]))
        # every failure a person can cause ends in words and exit 1, never a traceback
        assert result.exception is None or isinstance(result.exception, SystemExit), result
        assert "Traceback" not in result.text, result
        return result
    return run
