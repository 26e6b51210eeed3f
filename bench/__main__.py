"""Run every benchmark section that exists and print its figures.

Each section is a module ``bench/<name>_bench.py`` with ``run(console)``.
``python -m bench print engine`` runs only those sections.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

from rich.console import Console


def main(argv: list[str]) -> int:
    console = Console()
    import bench

    sections = sorted(m.name[:-len("_bench")] for m in pkgutil.iter_modules(bench.__path__)
                      if m.name.endswith("_bench"))
    wanted = argv or sections
    for name in wanted:
        if name not in sections:
            console.print(f"unknown benchmark section {name!r} (known: {', '.join(sections)})")
            return 2
        console.rule(f"[bold]{name}")
        importlib.import_module(f"bench.{name}_bench").run(console)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
