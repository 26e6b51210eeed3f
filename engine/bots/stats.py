"""The statistics of a balance report, each named where the report uses it
(``method`` in its JSON): two-sided p-values of normal statistics, the
Benjamini-Hochberg procedure (weighted, Genovese, Roeder & Wasserman 2006)
that keeps the share of false marks among many figures at ``q``, intervals
at the false-coverage-rate level of Benjamini & Yekutieli (2005) for the
figures it selects, Newcombe's interval of a difference of two rates, and
the smallest difference a number of games could find. Plain ``math``: no
package beyond the standard library.

>>> benjamini_hochberg([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216])
[True, True, False, False, False, False, False, False, False, False]
>>> round(p_two_sided(1.96), 3)
0.05
>>> low, high = newcombe(22, 30, 16, 30)
>>> round(low, 3), round(high, 3)
(-0.042, 0.412)
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

from engine.bots.report import wilson

Q = 0.05
"""The false discovery rate a report allows among the figures it marks."""
POWER = 0.8
"""The chance of finding a change that :func:`detectable` promises."""
_NORMAL = NormalDist()


def p_two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def z_of(level: float) -> float:
    """The normal quantile of a two-sided interval of ``level`` (0.95: 1.96)."""
    return _NORMAL.inv_cdf(0.5 + min(level, 1 - 1e-12) / 2)


def benjamini_hochberg(p: Sequence[float], q: float = Q, weights: Sequence[float] | None = None) -> list[bool]:
    """Which of the hypotheses with p-values ``p`` are rejected by the
    Benjamini-Hochberg step-up procedure at false discovery rate ``q``:
    the ``k`` smallest, for the largest ``k`` with ``p_(k) <= k q / m``.
    With ``weights`` (fixed before the data are seen, averaging 1) each
    p-value is divided by its weight first (Genovese, Roeder & Wasserman
    2006): a figure thought likelier to change gets a lower bar, the others
    a higher one, and the false discovery rate stays at ``q``."""
    m = len(p)
    if m == 0:
        return []
    w = weights or [1.0] * m
    scaled = [pi / wi if wi > 0 else math.inf for pi, wi in zip(p, w)]
    order = sorted(range(m), key=lambda i: scaled[i])
    passed = 0
    for rank, i in enumerate(order, start=1):
        if scaled[i] <= rank * q / m:
            passed = rank
    keep = set(order[:passed])
    return [i in keep for i in range(m)]


def adjusted_level(selected: int, tested: int, q: float = Q, weight: float = 1.0) -> float:
    """The level of the interval of each figure selected: ``1 - R q w / m``
    for ``R`` of ``m`` figures selected (Benjamini & Yekutieli 2005), so
    that on average at most a share ``q`` of the intervals shown miss."""
    return 1 - max(selected, 1) * q * weight / max(tested, 1)


def newcombe(hits_a: float, n_a: int, hits_b: float, n_b: int, z: float = 1.959964) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) of the difference
    of two rates, ``a``'s less ``b``'s, from their Wilson intervals."""
    if n_a <= 0 or n_b <= 0:
        return (-1.0, 1.0)
    pa, pb = hits_a / n_a, hits_b / n_b
    la, ua = wilson(hits_a, n_a, z)
    lb, ub = wilson(hits_b, n_b, z)
    d = pa - pb
    return (d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


def two_proportions(hits_a: float, n_a: int, hits_b: float, n_b: int) -> float:
    """The two-proportion z statistic (pooled): ``a``'s rate less ``b``'s in
    units of its standard error; 0 when either side has no trials or the
    pooled rate is 0 or 1 (no spread to measure against).

    >>> round(two_proportions(30, 50, 20, 50), 2)
    2.0
    """
    if n_a <= 0 or n_b <= 0:
        return 0.0
    pooled = (hits_a + hits_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return (hits_a / n_a - hits_b / n_b) / se if se > 0 else 0.0


def best_possible(hits_a: float, n_a: int, hits_b: float, n_b: int) -> float:
    """The smallest p-value the two-proportion test could give with the same
    hits in all, put all on one side (Tarone 1990): a figure that could not
    reach ``q`` even alone is left out of the count of figures tested."""
    total = hits_a + hits_b
    one = two_proportions(min(total, n_a), n_a, total - min(total, n_a), n_b)
    other = two_proportions(total - min(total, n_b), n_a, min(total, n_b), n_b)
    return p_two_sided(max(abs(one), abs(other)))


def against_share(hits: float, n: int, share: float) -> float:
    """The z statistic of a rate of ``hits`` in ``n`` against ``share``."""
    if n <= 0 or not 0 < share < 1:
        return 0.0
    return (hits / n - share) / math.sqrt(share * (1 - share) / n)


def detectable(n_a: int, n_b: int, rate: float, alpha: float, power: float = POWER) -> float:
    """The smallest difference of two rates around ``rate`` that a test at
    two-sided ``alpha`` finds with chance ``power`` with ``n_a`` and ``n_b``
    trials (normal approximation); ``n_b`` 0: one rate against a fixed share."""
    if n_a <= 0:
        return 1.0
    spread = rate * (1 - rate) * (1 / n_a + (1 / n_b if n_b > 0 else 0.0))
    return min(1.0, (z_of(1 - alpha) + _NORMAL.inv_cdf(power)) * math.sqrt(max(spread, 1e-12)))
