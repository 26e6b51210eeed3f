"""``python -m companion``: serve the table companion.

    python -m companion --port 5000
    python -m companion --database-url postgresql://postgres@127.0.0.1/labkit
    python -m companion --game-module mygames.register   # games from outside engine/
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion.security import parse_limit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0", help="interface to listen on (default: all)")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--database-url", default=None,
                        help="postgresql://... or sqlite:///file (default: $DATABASE_URL, else instance/companion.sqlite3)")
    parser.add_argument("--instance-path", default=None, help="folder for the SQLite file and the secret key")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code in the terminal")
    parser.add_argument("--rate-limit", action="append", default=[], metavar="BUCKET=N/SECONDS",
                        help="e.g. create=20/60 or join=off (repeatable)")
    parser.add_argument("--poll-ms", type=int, default=None, help="how often phones ask for changes")
    parser.add_argument("--allow-chosen-seed", action="store_true", help="let API clients fix seeds (tests, benches)")
    parser.add_argument("--game-module", action="append", default=[],
                        help="import this module first (it registers more games)")
    args = parser.parse_args(argv)

    for module in args.game_module:
        importlib.import_module(module)

    from companion import DEFAULTS
    from companion.server import serve

    config: dict = {}
    if args.rate_limit:
        limits = dict(DEFAULTS["RATE_LIMITS"])
        for item in args.rate_limit:
            bucket, _, value = item.partition("=")
            if value in ("off", "none", "0"):
                limits.pop(bucket, None)
            else:
                try:
                    limits[bucket] = parse_limit(value)
                except ValueError:
                    parser.error(f"cannot read rate limit {item!r}: use BUCKET=N/SECONDS or BUCKET=off")
        config["RATE_LIMITS"] = limits
    if args.poll_ms:
        config["POLL_MS"] = args.poll_ms
    if args.allow_chosen_seed:
        config["ALLOW_CHOSEN_SEED"] = True
    try:
        serve(args.host, args.port, args.database_url, instance_path=args.instance_path, config=config,
              threads=args.threads, qr=not args.no_qr)
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
