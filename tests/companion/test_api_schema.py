"""The API against its own description, driven by schemathesis: every
operation of ``/api/openapi.json`` with generated input (a few seeded cases
each, so the suite stays quick), every answer checked against the
description: no 500, a described status and body, 405 for a method the
description does not list, 401 without a required token."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from companion import create_app  # noqa: E402


_FOLDER = Path(tempfile.mkdtemp(prefix="labkit-schema-"))
APP = create_app({"TESTING": True, "SECRET_KEY": "schema-test", "RATE_LIMITS": {}, "BOTS": False,
                  "DATABASE_URL": f"sqlite:///{_FOLDER / 'companion.sqlite3'}"}, instance_path=str(_FOLDER / "i"))
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)
"""Made as the module is read (schemathesis makes a test per operation from it then)."""


@pytest.fixture(scope="module", autouse=True)
def _stop_the_app() -> Iterator[None]:
    """Its helper threads stopped and its files gone once the module's tests
    are done, so nothing of it runs on beside later tests in this process."""
    yield
    APP.extensions["companion_hub"].close()
    APP.extensions["companion_presence"].stop(timeout=1.0)
    APP.extensions["companion_bots"].stop(timeout=1.0)
    APP.extensions["companion_store"].db.close()
    shutil.rmtree(_FOLDER, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=12, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_answer_matches_the_description(case: Any) -> None:
    """Every check but one: that a request fitting the schema is accepted.
    Some rules are said in words, not in the schema (a game's own options, a
    name with no control or invisible character of any kind, a move the
    rules allow now), and the refusal of each is a described answer (400,
    409, 422) that the other checks hold to the description."""
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
