"""The exact search for the best linking of one group of same-coloured
cells (see :mod:`.chains` for what a linking is).

Three steps, cheapest first. Two shortcuts look for a linking that scores
the *best split* of the cell count (the most those cells could score if
they could be cut into chains anywhere): no linking can beat that, so one
found is optimal. :func:`_along_one_path` looks for one path through every
cell and cuts it; :func:`_tile` lays chains one by one. When neither finds
one, :func:`_search` runs the row-by-row DP with a budget of lost points
(every cell can earn at most ``rate``: 28/7 = 4 in the rulebook, so a
linking's loss is ``rate * cells - points``); a budget below the best
linking's loss finds nothing, and the first budget that finds something
finds the best. Budgets start at the loss no cutting avoids and grow.

Two cuts keep the DP small, both exact: a link that is not forced and
joins a piece of 7 or more to anything is never needed (cutting it scores
at least as much: 28 + something >= 28), and a partial linking whose loss
so far plus the least loss still to come (:func:`_future_loss`, a bound
that never overestimates) exceeds the budget is dropped.
"""

from __future__ import annotations

from functools import lru_cache

from engine.synthesis.table import Cell, Link, link

@lru_cache(maxsize=64)
def _rate(points: tuple[int, ...]) -> tuple[int, int]:
    """The most a cell can earn, as a fraction ``(num, den)``: 28/7 = 4 for the rulebook."""
    return max(((points[n], n) for n in range(1, len(points))), key=lambda p: p[0] / p[1])


@lru_cache(maxsize=4096)
def _best_split(n: int, points: tuple[int, ...]) -> int:
    """The most ``n`` cells could score if they could be cut into any chains."""
    best = [0] * (n + 1)
    for m in range(1, n + 1):
        best[m] = max(best[m - k] + points[min(k, len(points) - 1)] for k in range(1, m + 1))
    return best[n]


@lru_cache(maxsize=20000)
def component_best(cells: tuple[Cell, ...], forced: tuple[Link, ...], forbidden: tuple[Link, ...],
                   points: tuple[int, ...]) -> tuple[int, frozenset[Link]] | None:
    """The best linking of one group of same-coloured cells, as ``(points,
    links)``, or ``None`` if the constraints cannot all be kept (see the
    module doc for how).

    >>> cells = ((0, 0), (0, 1), (1, 0), (1, 1))
    >>> component_best(cells, (), (), (0, 0, 3, 6, 10, 15, 21, 28))[0]
    10
    >>> component_best(cells, (), (((0, 0), (0, 1)), ((0, 0), (1, 0))), (0, 0, 3, 6, 10, 15, 21, 28))[0]
    6
    """
    if len(cells) == 1:
        return (0, frozenset()) if not forced else None
    quick = (_along_one_path(cells, frozenset(forced), frozenset(forbidden), points)
             or _tile(cells, frozenset(forced), frozenset(forbidden), points))
    if quick is not None:
        return quick
    num, den = _rate(points)
    floor = num * len(cells) - den * _best_split(len(cells), points)
    most = num * len(cells)
    step = max(den, 1)
    budget = floor
    while True:
        found = _search(cells, frozenset(forced), frozenset(forbidden), points, budget, num, den)
        if found is not None or budget >= most:
            return found
        budget = min(most, budget + step)
        step *= 2


PATH_TRIES = 4000
"""Steps the shortcut may spend looking for one path through every cell: a
bound on work, not a rule (the exact search follows if it gives up)."""


def _cut(path: list[Cell], forced: frozenset[Link], points: tuple[int, ...]) -> tuple[int, frozenset[Link]]:
    """The best way to cut a path into chains, never at a forced link."""
    n = len(path)
    cap = len(points) - 1
    best = [0] + [-1] * n
    cut_at = [0] * (n + 1)
    for i in range(1, n + 1):
        for k in range(1, i + 1):
            j = i - k  # chain path[j:i]; the link before it is cut
            if j > 0 and link(path[j - 1], path[j]) in forced:
                continue
            if best[j] >= 0 and best[j] + points[min(k, cap)] > best[i]:
                best[i], cut_at[i] = best[j] + points[min(k, cap)], j
    links = set()
    i = n
    while i:
        j = cut_at[i]
        links.update(link(path[k], path[k + 1]) for k in range(j, i - 1))
        i = j
    return best[n], frozenset(links)


def _along_one_path(cells: tuple[Cell, ...], forced: frozenset[Link], forbidden: frozenset[Link],
                    points: tuple[int, ...]) -> tuple[int, frozenset[Link]] | None:
    """A shortcut for big, dense groups: if one path runs through every cell,
    using every forced link and no forbidden one, and it can be cut (never
    at a forced link) into chains scoring the best split of the cell count,
    no linking can beat it. ``None`` when no such path turns up quickly."""
    cellset = frozenset(cells)
    nb = {c: [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1))
              if n in cellset and link(c, n) not in forbidden] for c in cells}
    must: dict[Cell, set[Cell]] = {c: set() for c in cells}
    for a, b in forced:
        must[a].add(b)
        must[b].add(a)
    if any(not nb[c] for c in cells) or any(len(m) > 2 for m in must.values()):
        return None
    target = _best_split(len(cells), points)
    budget = [PATH_TRIES]
    path: list[Cell] = []
    used: set[Cell] = set()
    found: list = []

    def extend() -> bool:
        if len(path) == len(cells):
            got = _cut(path, forced, points)
            if got[0] >= target:
                found.append(got)
                return True
            return False
        budget[0] -= 1
        if budget[0] < 0:
            return False
        last = path[-1]
        before = path[-2] if len(path) > 1 else None
        owed = [n for n in must[last] if n != before]
        if len(owed) > 1 or any(n in used for n in owed):
            return False  # a forced link of this cell can no longer be made
        options = owed or [n for n in nb[last] if n not in used]
        # Warnsdorff: go first where fewest ways on remain
        options = sorted(options, key=lambda n: (sum(1 for m in nb[n] if m not in used), n))
        for n in options:
            if len(must[n] - {last}) > 1 or any(m in used for m in must[n] - {last}):
                continue  # n's forced links could not all sit beside it on the path
            path.append(n)
            used.add(n)
            if extend():
                return True
            path.pop()
            used.discard(n)
        return False

    for start in sorted(cells, key=lambda c: (len(must[c]) > 1, len(nb[c]), c)):
        if budget[0] < 0:
            break
        path[:] = [start]
        used.clear()
        used.add(start)
        if extend():
            return found[0]
    return None


@lru_cache(maxsize=100000)
def _future_loss(lens: tuple[int, ...], left: int, points: tuple[int, ...]) -> int:
    """The least loss still to come, in the budget's units: the cells of the
    open chains (lengths ``lens``) and the ``left`` cells not reached yet all
    end up in chains, so they lose at least what the best split of their
    count loses. (Open chains may still merge, so a bound that grows each
    one on its own would overestimate: this one never does.)"""
    num, den = _rate(points)
    n = sum(lens) + left
    return num * n - den * _best_split(n, points) if n else 0


def _tile(cells: tuple[Cell, ...], forced: frozenset[Link], forbidden: frozenset[Link],
          points: tuple[int, ...]) -> tuple[int, frozenset[Link]] | None:
    """The second shortcut: lay chains one after another from the first free
    cell, each grown along free neighbours (fewest ways on first) to 7,
    losing no more than the best split of the cell count does. Found, it is
    optimal for the same reason as :func:`_along_one_path`; ``None`` when
    nothing turns up within :data:`PATH_TRIES` steps."""
    cellset = frozenset(cells)
    num, den = _rate(points)
    cap = len(points) - 1
    nb = {c: [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1))
              if n in cellset and link(c, n) not in forbidden] for c in cells}
    must: dict[Cell, set[Cell]] = {c: set() for c in cells}
    for a, b in forced:
        must[a].add(b)
        must[b].add(a)
    if any(len(m) > 2 for m in must.values()):
        return None
    budget = num * len(cells) - den * _best_split(len(cells), points)
    remaining = set(cells)
    chains: list[list[Cell]] = []
    steps = [PATH_TRIES]

    def floor(n: int) -> int:
        return num * n - den * _best_split(n, points) if n else 0

    def place(lost: int) -> bool:
        if not remaining:
            return True
        u = min(remaining)
        if len(must[u]) > 1:
            return False  # u would sit inside its chain: left to the exact search
        remaining.discard(u)
        ok = grow([u], lost)
        remaining.add(u)
        return ok

    def close(path: list[Cell], lost: int) -> bool:
        size = len(path)
        loss = num * size - den * points[min(size, cap)]
        if lost + loss + floor(len(remaining)) > budget:
            return False
        chains.append(list(path))
        if place(lost + loss):
            return True
        chains.pop()
        return False

    def grow(path: list[Cell], lost: int) -> bool:
        steps[0] -= 1
        if steps[0] < 0:
            return False
        end = path[-1]
        owed = [n for n in must[end] if n not in path]
        if len(owed) > 1 or any(n not in remaining for n in owed):
            return False
        if not owed and len(path) >= cap:
            return close(path, lost)
        options = owed or sorted((n for n in nb[end] if n in remaining),
                                 key=lambda n: (sum(1 for m in nb[n] if m in remaining), n))
        for n in options:
            if any(m != end and m not in remaining for m in must[n]):
                continue  # n is forced to a cell already taken by another chain
            remaining.discard(n)
            path.append(n)
            ok = grow(path, lost)
            path.pop()
            remaining.add(n)
            if ok:
                return True
        return not owed and close(path, lost)

    if not place(0):
        return None
    links = frozenset(link(ch[k], ch[k + 1]) for ch in chains for k in range(len(ch) - 1))
    if not forced <= links:
        return None
    return (sum(points[min(len(ch), cap)] for ch in chains), links)


def _search(cells: tuple[Cell, ...], forced_set: frozenset[Link], forbidden_set: frozenset[Link],
            points: tuple[int, ...], budget: int, num: int, den: int) -> tuple[int, frozenset[Link]] | None:
    cellset = frozenset(cells)
    cap = len(points) - 1
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    w = c1 - c0 + 1
    layers: list[dict] = []
    cur: dict[tuple, int] = {((0,) * (w + 1), ()): 0}
    order = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
    done = 0
    for r, c in order:
        j = c - c0
        back: dict[tuple, tuple] = {}
        nxt: dict[tuple, int] = {}
        if (r, c) not in cellset:
            layers.append({k: (k, (0, 0)) for k in cur})
            continue
        done += 1
        up, right = (r + 1, c), (r, c + 1)
        lu, lr = ((r, c), up), ((r, c), right)
        up_ok = up in cellset and lu not in forbidden_set
        right_ok = right in cellset and lr not in forbidden_set
        up_must, right_must = lu in forced_set, lr in forced_set
        if (up_must and not up_ok) or (right_must and not right_ok):
            return None
        ups = (1,) if up_must else (0, 1) if up_ok else (0,)
        rights = (1,) if right_must else (0, 1) if right_ok else (0,)
        for key, score in cur.items():
            plugs, lens = key
            a, b = plugs[j], plugs[w]
            if a and a == b:
                continue  # the two links would close a circle
            incoming = (a > 0) + (b > 0)
            if incoming == 0:
                length = 1
            elif incoming == 1:
                length = lens[(a or b) - 1] + 1
            else:
                length = lens[a - 1] + lens[b - 1] + 1
            for uo in ups:
                for ro in rights:
                    if incoming + uo + ro > 2:
                        continue
                    if length >= cap and ((uo and not up_must) or (ro and not right_must)):
                        continue  # never needed: see the module doc
                    p = list(plugs)
                    p[j] = 0
                    p[w] = 0
                    ls = list(lens)
                    gained = 0
                    if incoming == 0:
                        if uo or ro:
                            ls.append(length)
                            label = len(ls)
                            if uo:
                                p[j] = label
                            if ro:
                                p[w] = label
                    elif incoming == 1:
                        s = a or b
                        ls[s - 1] = length
                        if uo:
                            p[j] = s
                        elif ro:
                            p[w] = s
                        elif s not in p:
                            gained = points[min(length, cap)]
                    else:
                        ls[a - 1] = length
                        p = [a if x == b else x for x in p]
                        if a not in p:
                            gained = points[min(length, cap)]
                    # relabel by first appearance so equal states meet
                    relabel: dict[int, int] = {}
                    out_p = []
                    out_l = []
                    for x in p:
                        if x:
                            y = relabel.get(x)
                            if y is None:
                                y = relabel[x] = len(relabel) + 1
                                out_l.append(ls[x - 1])
                            out_p.append(y)
                        else:
                            out_p.append(0)
                    ns = score + gained
                    lost = num * (done - sum(out_l)) - den * ns
                    if lost + _future_loss(tuple(sorted(out_l)), len(cells) - done, points) > budget:
                        continue  # will lose more than the budget allows
                    nk = (tuple(out_p), tuple(out_l))
                    if nk not in nxt or ns > nxt[nk]:
                        nxt[nk] = ns
                        back[nk] = (key, (uo, ro))
        layers.append(back)
        cur = nxt
    end = ((0,) * (w + 1), ())
    if end not in cur:
        return None
    links = set()
    key = end
    for (r, c), back in zip(reversed(order), reversed(layers)):
        key, (uo, ro) = back[key]
        if uo:
            links.add(((r, c), (r + 1, c)))
        if ro:
            links.add(((r, c), (r, c + 1)))
    return (cur[end], frozenset(links))
