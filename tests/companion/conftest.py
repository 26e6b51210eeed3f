"""Fixtures for the companion: a fresh app per test (Flask tutorial style),
a toy game registered for the test's duration, phones (one test client per
phone, each with its own cookies), and databases: SQLite always, PostgreSQL
when one is reachable."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import pytest

from companion import HTMX_FILE, create_app
from tests.conftest import Server, free_port, server_factory  # noqa: F401 (fixtures shared with every test folder)
from labkit import registry
from tests.toygame import GAME as TOY
from tests.toygame.game import ToyRace

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture
def toy() -> Iterator[type[ToyRace]]:
    """Toy Race in the registry for this test only (a game from outside the core)."""
    registry.register(TOY)
    yield ToyRace
    registry.unregister("toyrace")


def make_app(tmp_path: Path, database_url: str | None = None, **config: Any) -> Any:
    settings = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "DATABASE_URL": database_url or f"sqlite:///{tmp_path / 'companion.sqlite3'}",
        "ALLOW_CHOSEN_SEED": True,
        "RATE_LIMITS": {},
    }
    settings.update(config)
    return create_app(settings, instance_path=str(tmp_path / "instance"))


@pytest.fixture
def app(tmp_path: Path, toy: Any) -> Any:
    app = make_app(tmp_path)
    yield app
    app.extensions["companion_store"].db.close()


class Phone:
    """One phone at the table: its own cookies, and the CSRF token of the
    last page it loaded, sent the way htmx sends it."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.csrf: str | None = None

    def get(self, url: str, **kw: Any) -> Any:
        response = self.client.get(url, **kw)
        match = re.search(rb'"X-CSRF-Token": "([^"]+)"', response.data)
        if match:
            self.csrf = match.group(1).decode()
        return response

    def post(self, url: str, data: dict[str, Any] | None = None, htmx: bool = True, **kw: Any) -> Any:
        if self.csrf is None:
            self.get("/")
        headers = {"X-CSRF-Token": self.csrf or ""}
        if htmx:
            headers["HX-Request"] = "true"
        headers.update(kw.pop("headers", {}))
        return self.client.post(url, data=data or {}, headers=headers, **kw)

    def create(self, game: str = "toyrace") -> str:
        response = self.post("/tables", {"game": game}, htmx=False)
        assert response.status_code == 303, response.data
        return response.headers["Location"].rsplit("/", 1)[-1]

    def join(self, code: str, name: str) -> Any:
        self.get(f"/t/{code}")
        return self.post(f"/t/{code}/join", {"name": name})

    def version(self, code: str) -> int:
        page = self.get(f"/t/{code}").data
        return int(re.search(rb'id="live-state" hidden data-code="\w+" data-version="(\d+)"', page).group(1))

    def act(self, code: str, action: dict[str, Any], version: int | None = None, origin: str = "actions") -> Any:
        import json

        if version is None:
            version = self.version(code)
        return self.post(f"/t/{code}/act", {"action": json.dumps(action), "version": str(version), "origin": origin})


@pytest.fixture
def phones(app: Any) -> Any:
    def make() -> Phone:
        return Phone(app)
    return make


# --- the JSON API ------------------------------------------------------------

class Api:
    def __init__(self, client: Any) -> None:
        self.client = client

    def call(self, method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "GET":
            return self.client.get(url, headers=headers)
        return self.client.open(url, method=method, json=body if body is not None else {}, headers=headers)

    def table(self, game: str = "toyrace", seed: int | None = 1234, players: list[str] = ("Ada", "Bo"),
              start: bool = True, options: dict | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game}
        if seed is not None:
            body["seed"] = seed
        if options:
            body["options"] = options
        created = self.call("POST", "/api/tables", body)
        assert created.status_code == 201, created.json
        out = {"code": created.json["code"], "host": created.json["host_token"], "tokens": []}
        for name in players:
            joined = self.call("POST", f"/api/tables/{out['code']}/seats", {"name": name})
            assert joined.status_code == 201, joined.json
            out["tokens"].append(joined.json["token"])
        if start:
            version = self.state(out["code"])["version"]
            started = self.call("POST", f"/api/tables/{out['code']}/start", {"version": version}, out["host"])
            assert started.status_code == 200, started.json
        return out

    def state(self, code: str, token: str | None = None) -> dict[str, Any]:
        response = self.call("GET", f"/api/tables/{code}", token=token)
        assert response.status_code == 200, response.json
        return response.json

    def act(self, code: str, token: str, action: dict[str, Any], version: int | None = None) -> Any:
        if version is None:
            version = self.state(code, token)["version"]
        return self.call("POST", f"/api/tables/{code}/actions", {"version": version, "action": action}, token)


@pytest.fixture
def api(app: Any) -> Api:
    return Api(app.test_client())


# --- PostgreSQL ------------------------------------------------------------------

def _with_search_path(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema}')}"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh schema on a reachable PostgreSQL (DATABASE_URL, else the CI's
    127.0.0.1:5432), dropped at the end; a skip with the reason otherwise."""
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - psycopg is a dependency
        pytest.skip(f"psycopg is not installed: {exc}")
    base = os.environ.get("DATABASE_URL") or DEFAULT_PG
    if not base.startswith(("postgresql://", "postgres://")):
        base = DEFAULT_PG
    try:
        admin = psycopg.connect(base, autocommit=True, connect_timeout=3)
    except Exception as exc:
        pytest.skip(f"PostgreSQL is not reachable at {base}: {exc}".strip())
    schema = f"labkit_test_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield _with_search_path(base, schema)
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: Any, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        base = request.getfixturevalue("postgres_url")
        # A schema of its own per test, so tests never see each other's tables.
        import psycopg

        schema = f"labkit_t_{secrets.token_hex(6)}"
        plain = base.split("?")[0]
        with psycopg.connect(plain, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield _with_search_path(plain, schema)
        finally:
            with psycopg.connect(plain, autocommit=True) as admin:
                admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


# --- a real server in a subprocess -------------------------------------------------

ONE_ADDRESS = {"LABKIT_CONNECTIONS_PER_ADDRESS": "0", "LABKIT_STREAMS_PER_ADDRESS": "1000"}
"""Settings for a server whose many phones are all one browser on 127.0.0.1 (a
module's tests sharing one server): the bounds per address are for a room's
devices, each with its own address (docs/deploy.md)."""

def need_htmx() -> None:
    if not HTMX_FILE.exists():
        pytest.skip(f"{HTMX_FILE} is missing: `make {HTMX_FILE.relative_to(ROOT)}` fetches it from npm")


# --- a real browser (Debian's Chromium) -------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Playwright driving Debian's Chromium; a skip that says what is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; `make test` does it as root)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
