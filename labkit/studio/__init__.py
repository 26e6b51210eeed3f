"""``labkit studio DIR``: a local page showing every face of a card set as
it will print, redrawn within a second of a file being saved, with every
problem on the card it concerns and the differences from the game's own
set. Nothing here names a game: the set's ``game.yaml`` says which one, the
registry finds it, the print build's own code draws it.

    drawing.py      the set read and drawn into tiles, problems placed on them
    differences.py  what the set changes from the game's own
    state.py        versions, what changed between them, the folder watched
    app.py          the page and its stream (Server-Sent Events)
"""

from __future__ import annotations

import logging
import threading
import time
import webbrowser
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from engine.descriptor import GameDescriptor
from labkit.studio.app import create_app
from labkit.studio.state import Studio

__all__ = ["Studio", "create_app", "running", "serve"]


@contextmanager
def running(game: GameDescriptor, path: Path, port: int = 0) -> Iterator[tuple[Studio, str]]:
    """The studio served on 127.0.0.1 in a thread, watching, for as long as
    the ``with`` lasts: ``(studio, url)`` (tests, the bench, :func:`serve`)."""
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per face fetched
    studio = Studio(game, path)
    server = make_server("127.0.0.1", port, create_app(studio), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="studio-server", daemon=True)
    thread.start()
    studio.watch()
    try:
        yield studio, f"http://127.0.0.1:{server.server_port}/"
    finally:
        studio.close()   # ends the watcher and every open stream
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def serve(game: GameDescriptor, path: Path, port: int = 0, open_page: bool = True,
          ready: Callable[[str], None] | None = None) -> None:
    """Serve the studio on 127.0.0.1 until interrupted (Ctrl-C); ``ready(url)``
    is told the address once it answers."""
    with running(game, path, port) as (_, url):
        if ready is not None:
            ready(url)
        if open_page:
            webbrowser.open(url)
        while True:  # until Ctrl-C (KeyboardInterrupt), which ends the with: watcher, streams, server
            time.sleep(3600)
