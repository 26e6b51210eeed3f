"""How near a note sheet is to the face-up notecards, for the bots'
evaluation (:mod:`engine.labnotes.evaluate`). Evaluation, not a rule.

A notecard pays its place in the line (6, 3 or 1) to a complete compound
of its structure (Score & Claim Notecards). A group of bonded elements on
the sheet, or an element alone, is on its way to a card when it could
still become the card's compound: each of its elements stands for one of
the card's, each bond for one of the card's bonds of the same order or a
higher one it can still be raised to (only a bond to or from an element
placed this turn can be: Connecting Elements), and every element the card
still needs beside it has an empty space there. Its worth is the card's
points times :data:`ODDS` for each element still to come, so every element
placed toward a card, and every bond drawn toward it, is a step a greedy
bot sees; a compound that can become a card is worth :data:`READY` of its
points until it claims it. Each group goes toward one card and each card
takes one group (a compound claims one card; a seat claims a card once).

All of it is read from the card set: a card made trivial (a small
compound, few elements) is worth much sooner, one made nearly impossible
almost never, and the bots play accordingly.

>>> from labkit.cardsets import new_game
>>> from labkit.registry import find
>>> from engine.labnotes.state import sheet_from_text
>>> game = new_game(find("labnotes"))
>>> s = game.setup(2, seed=1)
>>> s.line = ["ammonia", "methane"]
>>> sh = s.seats[0]
>>> sh.spaces, sh.bonds = sheet_from_text("C3:N C4:H C3-C4")      # N-H: two hydrogens short of ammonia
>>> reach(game.rules, s, sh), round(reach(game.rules, s, sh, hand=("H",)), 2)   # 6 x 0.5 x 0.5; an H in hand: most of a step nearer
(1.5, 2.61)
>>> sh.spaces, sh.bonds = sheet_from_text("C3:N C4:H C3=C4")      # no bond of ammonia is double
>>> reach(game.rules, s, sh)
0.0
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from engine.labnotes.state import BURNER, EMPTY, LINE_POINTS, VALENCE, Sheet, State

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

ODDS = 0.5
"""The worth kept per element a card still needs: each must come on a die
the seat takes (or the Community die) and be notated beside the group,
a turn gives two, and the line may move on meanwhile. Measured against
the evaluation without notecards (greedy against greedy, 2 players, 100
games): 0.5 won 51%, 0.7 42% (it holds on to groups that seldom finish)."""
IN_HAND = 0.8
"""An element in hand, or placed beside the group this turn and not yet
bonded, is this much of a step: most of one, less than the bond drawn."""
READY = 0.9
"""A complete compound of a face-up card's structure, not yet claimed: a
little less than the claim, so a bot claims it."""
MAPPINGS = 8
"""Ways of seeing one group as one card kept (each needs other spaces
around it); small molecules have few."""

Group = tuple[tuple[str, ...], tuple[tuple[int, int, int], ...], tuple[bool, ...]]
"""A group as the matching sees it: its elements, its bonds between their
indexes with their orders, and which elements were placed this turn."""


def reach(r: "Rules", s: State, sh: Sheet, hand: tuple[str, ...] = (), bond_items: tuple | None = None) -> float:
    """The worth of ``sh``'s groups as steps toward the face-up notecards.
    ``hand``: the elements the seat will notate this round (a Bunsen Burner
    stands for any); ``bond_items``: ``tuple(sh.bonds.items())``, if the
    caller has it."""
    if len(sh.claims) >= r.boxes:
        return 0.0
    fresh = sh.placed if s.phase == "notate" and not sh.done else ()
    return _reach(r, sh.spaces, tuple(sh.bonds.items()) if bond_items is None else bond_items, fresh,
                  tuple(sorted(hand)), tuple(s.line), sh.claims)


@lru_cache(maxsize=16384)
def _reach(r: "Rules", spaces: str, bonds: tuple, fresh: tuple[int, ...], hand: tuple[str, ...],
           shown: tuple[str, ...], claims: tuple) -> float:
    """:func:`reach` from what it depends on: the other seats' sheets do not
    change while a seat weighs its actions, and the same sheets come back
    in every rollout, so most are asked before.

    An element in hand that a group still needs counts as a step already
    taken, and so does an element placed this turn beside the group, still
    alone (a bond to it may yet be drawn): so taking the die a card needs,
    and notating it beside the group, are steps too, each worth what the
    bond that follows is."""
    mine = {c.notecard for c in claims}
    line = [(c, LINE_POINTS[i]) for i, c in enumerate(shown) if c not in r.lab_fires and c not in mine]
    if not line:
        return 0.0
    largest = max(len(r.card_shapes[c][0].atoms) for c, _ in line)
    groups = _groups(spaces, bonds, tuple(c.spaces for c in claims), fresh)
    loose = {m[0] for m, _ in groups if len(m) == 1}
    offers: list[tuple[float, int, str]] = []
    for g, (members, own) in enumerate(groups):
        if len(members) > largest:
            continue
        group = _shape(spaces, own, members, fresh)
        beside = [spaces[n] for n in {n for k in members for n in r.neighbours[k]} if n in loose] if loose else []
        for card, points in line:
            missing = _fits(r, card, group, members, spaces)
            if missing is None:
                continue
            if missing:
                steps = missing - IN_HAND * _in_hand(r.card_shapes[card][0].atoms, group[0], beside + list(hand))
                value = points * ODDS ** steps
            else:
                value = points * READY
            offers.append((value, g, card))
    offers.sort(reverse=True)
    worth, took_group, took_card = 0.0, set(), set()
    for value, g, card in offers:
        if g not in took_group and card not in took_card:
            worth += value
            took_group.add(g)
            took_card.add(card)
    return worth


def _in_hand(atoms: list[str], have: tuple[str, ...], hand: list[str]) -> int:
    """How many of the elements a card still needs (its atoms less the
    group's) are in hand; a Bunsen Burner is any one of them."""
    need = list(atoms)
    for e in have:
        need.remove(e)
    count = 0
    for e in sorted(hand, key=lambda e: e == BURNER):
        if e in need:
            need.remove(e)
            count += 1
        elif e == BURNER and need:
            need.pop()
            count += 1
    return count


def _groups(spaces: str, bonds: tuple, claimed: tuple, fresh: tuple[int, ...]) -> list[tuple[tuple[int, ...], list]]:
    """Every bonded group with its bonds, but the compounds that claimed a
    card already (each compound claims once), and every element placed this
    turn still alone. An element left alone from an earlier turn is no
    start: the bond that would start it was not drawn."""
    links: dict[int, list[int]] = {}
    for (a, b), _ in bonds:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    group_of: dict[int, int] = {}
    found: list[list[int]] = []
    for k in links:
        if k in group_of:
            continue
        group_of[k] = len(found)
        members, todo = [k], [k]
        while todo:
            for n in links[todo.pop()]:
                if n not in group_of:
                    group_of[n] = len(found)
                    members.append(n)
                    todo.append(n)
        found.append(members)
    own: list[list] = [[] for _ in found]
    for pair, order in bonds:
        own[group_of[pair[0]]].append((pair, order))
    out = []
    for members, mine in zip(found, own):
        members.sort()
        if tuple(members) not in claimed:
            out.append((tuple(members), mine))
    out += [((k,), []) for k in fresh if k not in links and spaces[k] in VALENCE]
    return out


def _shape(spaces: str, own: list, members: tuple[int, ...], fresh: tuple[int, ...]) -> Group:
    """The group as the matching sees it (``own``: its bonds)."""
    index = {k: i for i, k in enumerate(members)}
    return (tuple(spaces[k] for k in members), tuple(sorted((index[a], index[b], o) for (a, b), o in own)),
            tuple(k in fresh for k in members))


def _fits(r: "Rules", card: str, group: Group, members: tuple[int, ...], spaces: str) -> int | None:
    """The elements ``card`` still needs beyond ``group``, if the group can
    become it where it lies on the sheet; ``None`` if not."""
    atoms = len(r.card_shapes[card][0].atoms)
    for needs in _needs(r, card, group):
        if _room(r, spaces, members, needs):
            return atoms - len(members)
    return None


def _room(r: "Rules", spaces: str, members: tuple[int, ...], needs: tuple[int, ...]) -> bool:
    """An empty space beside each element for each element it still needs."""
    around: set[int] = set()
    for k, need in zip(members, needs):
        if need:
            empty = [n for n in r.neighbours[k] if spaces[n] == EMPTY]
            if len(empty) < need:
                return False
            around.update(empty)
    return len(around) >= sum(needs)


@lru_cache(maxsize=65536)
def _needs(r: "Rules", card: str, group: Group) -> tuple[tuple[int, ...], ...]:
    """Every way (up to :data:`MAPPINGS`) ``group`` can grow into ``card``'s
    compound, each as the count of elements still to bond to each of the
    group's: a search over the few atoms of a card, cached, since the same
    small groups come back on every sheet."""
    elements, bonds, fresh = group
    target = r.card_shapes[card][0]
    if len(elements) > len(target.atoms):
        return ()
    t_bonds = target.bonds
    t_near = [target.neighbours(i) for i in range(len(target.atoms))]
    near: list[dict[int, int]] = [{} for _ in elements]
    for a, b, o in bonds:
        near[a][b] = o
        near[b][a] = o
    order = _connected_order(len(elements), near)
    mapping: dict[int, int] = {}
    taken: set[int] = set()
    found: list[tuple[int, ...]] = []

    def fits(g: int, t: int) -> bool:
        if target.atoms[t] != elements[g] or t in taken:
            return False
        for h, o in near[g].items():
            if h in mapping:
                want = t_bonds.get((min(t, mapping[h]), max(t, mapping[h])), 0)
                if want < o or (want > o and not (fresh[g] or fresh[h])):
                    return False  # a bond the card lacks, or one too low that can no longer be raised
        for h, u in mapping.items():
            if h not in near[g] and (min(t, u), max(t, u)) in t_bonds:
                return False  # the card bonds them and the group does not: a ring the matching leaves alone
        return True

    def extend(i: int) -> None:
        if len(found) >= MAPPINGS:
            return
        if i == len(order):
            needs = tuple(len(t_near[mapping[g]]) - len(near[g]) for g in range(len(elements)))
            if needs not in found:
                found.append(needs)
            return
        g = order[i]
        for t in range(len(target.atoms)):
            if fits(g, t):
                mapping[g] = t
                taken.add(t)
                extend(i + 1)
                del mapping[g]
                taken.discard(t)

    extend(0)
    del extend  # a nested function that calls itself is a reference cycle (tests/test_house.py)
    return tuple(found)


def _connected_order(n: int, near: list[dict[int, int]]) -> list[int]:
    """The group's elements so that each after the first is bonded to an
    earlier one: a wrong element is found at once."""
    order = [0] if n else []
    for k in order:
        order.extend(j for j in sorted(near[k]) if j not in order)
    return order
