"""Where a long name may break on a narrow card. A phone that must break
"Nitromethane" in a 75 px cell broke it "Nitrometh|ane", mid-syllable and
with no hyphen (CSS ``overflow-wrap``); with soft hyphens at the points
English hyphenation allows, it breaks it "Nitro-methane", hyphen shown. A
name that fits is shown whole: a soft hyphen is drawn only where a line
breaks (CSS ``hyphens: manual``, the browsers' default).

The points are pyphen's, from its British dictionary: its breaks follow a
word's parts ("Meth-ane-thiol", "Methyl-am-ine"), where the American one
has none in either word."""

from __future__ import annotations

from functools import lru_cache

import pyphen

SOFT_HYPHEN = "\u00ad"
SHORTEST = 7
"""Words shorter than this are left whole: they fit any card, and a break
in a short word reads worse than a wrapped line."""


@lru_cache(maxsize=1)
def _dictionary() -> pyphen.Pyphen:
    return pyphen.Pyphen(lang="en_GB", left=2, right=3)


@lru_cache(maxsize=4096)
def soft_hyphens(text: str) -> str:
    """``text`` with a soft hyphen at each point where one of its long
    words may break (names come from the card data, a few hundred of them)."""
    words = text.split(" ")
    return " ".join(_dictionary().inserted(w, hyphen=SOFT_HYPHEN) if len(w) >= SHORTEST else w for w in words)
