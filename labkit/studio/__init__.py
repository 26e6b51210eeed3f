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

import threading
import webbrowser
from pathlib import Path

from engine.descriptor import GameDescriptor
from labkit.studio.app import create_app
from labkit.studio.state import Studio

__all__ = ["Studio", "create_app", "serve"]


def serve(game: GameDescriptor, path: Path, port: int = 0, open_page: bool = True,
          ready=None) -> None:
    """Serve the studio on 127.0.0.1 until interrupted (Ctrl-C); ``ready(url)``
    is told the address once it answers."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per face fetched

    studio = Studio(game, path)
    server = make_server("127.0.0.1", port, create_app(studio), threaded=True)
    url = f"http://127.0.0.1:{server.server_port}/"
    studio.watch()
    if ready is not None:
        ready(url)
    if open_page:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        studio.close()   # ends the watcher and every open stream
        server.server_close()
