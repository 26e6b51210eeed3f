"""``python -m companion``: the same as ``labkit serve`` (one command, one
set of options)."""

import sys

from labkit.cli import main

main(["serve", *sys.argv[1:]], prog_name="python -m companion")
