"""Shared fixtures. Each area (engine, generator, companion) adds its own
conftest.py beside its tests."""

from __future__ import annotations

import http.client
import os
import socket
import urllib.request
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def labnotes_data_dir() -> Path:
    return ROOT / "cardsdata" / "labnotes"


def load_cards(folder: Path, game: str = "labnotes"):
    """A card set read from a folder the way every face reads it."""
    from labkit.cardsets import load
    from labkit.registry import find

    return load(find(game), folder)


# --- a real companion server on loopback (used by companion and house tests) ----------
def free_port() -> int:
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m companion`` on loopback, as a phone would reach it."""

    def __init__(self, instance: Path, port: int | None = None, database_url: str | None = None,
                 extra: list[str] | None = None, games: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.instance = instance
        self.env = dict(env or {})
        """Settings for the server (``LABKIT_*`` variables: timers made short, say)."""
        self.games = ("tests.toygame:GAME", *games)
        """Games named for this server beside the installed ones (``module:GAME``)."""
        self.port = port or free_port()
        self.database_url = database_url
        self.extra = extra or []
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> "Server":
        cmd = [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(self.port),
               "--instance-path", str(self.instance), "--no-qr", "--allow-chosen-seed",
               "--rate-limit", "create=off", "--rate-limit", "join=off",
               *self.extra]
        if self.database_url:
            cmd += ["--database-url", self.database_url]
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env["LABKIT_GAMES"] = ",".join(self.games)   # games from outside the core, named, not installed
        env["PYTHONPATH"] = str(ROOT)
        env.update(self.env)
        self.log = open(self.instance.parent / f"server-{self.port}.log", "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)   # its workers are its process group
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: "
                                   + (self.instance.parent / f"server-{self.port}.log").read_text()[-2000:])
            # ready when a worker answers, not when the port takes a connection
            # (gunicorn's master listens before its worker has loaded the app)
            try:
                with urllib.request.urlopen(f"{self.url}/api/games", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL to the server and its workers: no chance to flush or close anything."""
        assert self.proc is not None
        import signal

        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log.close()

    def stop(self) -> None:
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        if not self.log.closed:
            self.log.close()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def make(**kw: Any) -> Server:
        server = Server(tmp_path / "instance", **kw)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


