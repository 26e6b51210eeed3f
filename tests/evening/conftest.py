"""The evening's fixtures: the companion's browser (Debian's Chromium)."""

from tests.companion.conftest import browser  # noqa: F401 (the fixture, shared)
