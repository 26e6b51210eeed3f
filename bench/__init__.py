"""``make bench``: the figures each issue asks for. Benchmarks, not tests:
nothing here asserts a time."""
