"""The Discover phase: draw, trade, discard down to the Lab number.

Free trades are a protocol two phones can drive (rulebook: "scientists may
trade elements between each other"). Everyone trades at once:

* ``{"type": "trade_with", "seat": t}`` opens an offer to scientist ``t``;
* ``{"type": "offer_give", "element": "H"}`` and ``{"type": "offer_ask",
  "element": "S"}`` add one element to what you give or ask;
* ``{"type": "propose"}`` shows it to ``t``, who answers
  ``{"type": "accept", "seat": you}`` or ``{"type": "decline", "seat": you}``;
* ``{"type": "cancel_offer"}`` drops your offer; ``{"type": "done_trading"}``
  ends your trading (and drops your offer and those made to you).

The phase moves on when everyone is done trading. With the Evaporating
Trade Dish (two players, or No Player Trades) scientists instead take turns
from the lead: ``{"type": "dish_trade", "give": "H", "take": "O"}`` or
``{"type": "pass"}``, and a pass is for the rest of the phase.
"""

from __future__ import annotations

from engine.compounded.flow import Rules, automatic, decision, element_word, then
from engine.compounded.state import ELEMENTS, State, add, merge, take, total
from engine.core import Action
from engine.rng import Rng

MAX_OFFERS = 4
"""Offers one scientist may open in one Discover phase: a bound, not a rule
(it lets a table of idle phones always reach the end of the phase)."""


def draw(s: State, n: int) -> list[str]:
    """Up to ``n`` gems from the bag, at random (fewer if the bag runs out).

    >>> from tests.engine.compounded.helpers import fresh
    >>> s = fresh(2)
    >>> before = sum(s.bag.values())
    >>> len(draw(s, 4)), sum(s.bag.values()) == before - 4
    (4, True)
    """
    rng = Rng(s.rng)
    out = []
    for _ in range(n):
        left = total(s.bag)
        if not left:
            break
        k = rng.below(left)
        for e in ELEMENTS:
            if k < s.bag.get(e, 0):
                take(s.bag, e)
                out.append(e)
                break
            k -= s.bag.get(e, 0)
    s.rng = rng.state
    return out


def evaporate(r: Rules, s: State) -> None:
    """"If at any time the Evaporating dish shows 3 of the same element, the
    elements are all discarded and [as many] new elements are drawn."""
    triple = r.cards.table.trade_dish.three_of_a_kind
    while any(n >= triple for n in s.dish.values()):
        n = total(s.dish)
        merge(s.tray, s.dish)
        s.dish = {}
        for e in draw(s, n):
            add(s.dish, e)


@automatic("discover")
def _discover(r: Rules, s: State, task) -> None:
    s.phase = "discover"
    for seat in s.order():
        for e in draw(s, r.value(s, seat, "discover")):
            add(s.scientists[seat].bench, e)
    if s.options["trading"] == "dish":
        then(s, {"do": "dish", "turn": 0, "passed": [False] * s.players, "trades": [0] * s.players},
             {"do": "discard"})
    else:
        then(s, {"do": "trade", "done": [False] * s.players, "opened": [0] * s.players, "offers": []},
             {"do": "discard"})


# --- free trades ----------------------------------------------------------------
def _offer_of(task, seat: int):
    return next((o for o in task["offers"] if o["from"] == seat), None)


def _valid(s: State, o) -> bool:
    a, b = s.scientists[o["from"]].bench, s.scientists[o["to"]].bench
    return (all(a.get(e, 0) >= n for e, n in o["give"].items())
            and all(b.get(e, 0) >= n for e, n in o["get"].items()))


def _trade_seats(r: Rules, s: State, task) -> list[int]:
    return [seat for seat in s.order() if not task["done"][seat]]


def _trade_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    out: list[Action] = []
    mine = _offer_of(task, seat)
    if mine is None:
        if task["opened"][seat] < MAX_OFFERS:
            out += [{"type": "trade_with", "seat": t} for t in s.order(seat)[1:] if not task["done"][t]]
    elif not mine["proposed"]:
        bench, theirs = s.scientists[seat].bench, s.scientists[mine["to"]].bench
        out += [{"type": "offer_give", "element": e} for e in bench if bench[e] > mine["give"].get(e, 0)]
        out += [{"type": "offer_ask", "element": e} for e in theirs if theirs[e] > mine["get"].get(e, 0)]
        if mine["give"] and mine["get"]:
            out.append({"type": "propose"})
    if mine is not None:
        out.append({"type": "cancel_offer"})
    for o in task["offers"]:
        if o["to"] == seat and o["proposed"]:
            if _valid(s, o):
                out.append({"type": "accept", "seat": o["from"]})
            out.append({"type": "decline", "seat": o["from"]})
    out.append({"type": "done_trading"})
    return out


def _trade_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    kind = a["type"]
    mine = _offer_of(task, seat)
    if kind == "trade_with":
        task["opened"][seat] += 1
        task["offers"].append({"from": seat, "to": a["seat"], "give": {}, "get": {}, "proposed": False})
    elif kind in ("offer_give", "offer_ask"):
        add(mine["give" if kind == "offer_give" else "get"], a["element"])
    elif kind == "propose":
        mine["proposed"] = True
    elif kind == "cancel_offer":
        task["offers"].remove(mine)
    elif kind in ("accept", "decline"):
        offer = next(o for o in task["offers"] if o["from"] == a["seat"] and o["to"] == seat)
        task["offers"].remove(offer)
        if kind == "accept":
            giver, taker = s.scientists[offer["from"]], s.scientists[seat]
            for e, n in offer["give"].items():
                take(giver.bench, e, n)
                add(taker.bench, e, n)
            for e, n in offer["get"].items():
                take(taker.bench, e, n)
                add(giver.bench, e, n)
    elif kind == "done_trading":
        task["done"][seat] = True
        task["offers"] = [o for o in task["offers"] if seat not in (o["from"], o["to"])]


def _trade_why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    kind = a.get("type")
    mine = _offer_of(task, seat)
    if kind == "trade_with":
        if mine is not None:
            return "You already have an offer open: propose it or cancel it first."
        if task["opened"][seat] >= MAX_OFFERS:
            return f"You have opened {MAX_OFFERS} offers this phase; that is the limit."
        return "You can trade only with another scientist who is still trading."
    if kind in ("offer_give", "offer_ask", "propose"):
        if mine is None:
            return "Open an offer first: choose a scientist to trade with."
        if mine["proposed"]:
            return "Your offer is on the table; cancel it to change it."
        if kind == "propose":
            return "An offer gives at least one element and asks for at least one."
        who = "You have" if kind == "offer_give" else "They have"
        return f"{who} no more {element_word(a.get('element'))} to put in this offer."
    if kind == "accept":
        return "That offer cannot be accepted now: one of you no longer has the elements in it."
    return None


decision("trade", choices=_trade_choices, resolve=_trade_resolve, why=_trade_why,
         refusal="That is not a trade you can make now.")(_trade_seats)


# --- the Evaporating Trade Dish ---------------------------------------------------
def _dish_seat(s: State, task) -> int | None:
    for k in range(s.players):
        seat = s.order()[(task["turn"] + k) % s.players]
        if not task["passed"][seat] and task["trades"][seat] < s.options["dish_size"]:
            return seat
    return None


def _dish_seats(r: Rules, s: State, task) -> list[int]:
    seat = _dish_seat(s, task)
    return [] if seat is None else [seat]


def _dish_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    bench = s.scientists[seat].bench
    return [{"type": "dish_trade", "give": g, "take": t} for g in bench for t in s.dish if g != t] + [{"type": "pass"}]


def _dish_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    if a["type"] == "pass":
        task["passed"][seat] = True
    else:
        bench = s.scientists[seat].bench
        take(bench, a["give"])
        add(s.dish, a["give"])
        take(s.dish, a["take"])
        add(bench, a["take"])
        task["trades"][seat] += 1
        evaporate(r, s)
    task["turn"] = (s.order().index(seat) + 1) % s.players


def _dish_why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    if a.get("type") == "dish_trade":
        if a.get("take") not in s.dish:
            return f"The dish shows no {element_word(a.get('take'))}."
        return f"You have no {element_word(a.get('give'))} to put on the dish (and you trade one for a different one)."
    return None


decision("dish", choices=_dish_choices, resolve=_dish_resolve, why=_dish_why,
         refusal="Trade one of your elements for one on the dish, or pass.")(_dish_seats)


# --- discarding to the Lab capacity ---------------------------------------------------
def _over(r: Rules, s: State, seat: int) -> int:
    return total(s.scientists[seat].bench) - r.value(s, seat, "lab")


def _discard_seats(r: Rules, s: State, task) -> list[int]:
    return [seat for seat in s.order() if _over(r, s, seat) > 0]


def _discard_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "discard", "element": e} for e in s.scientists[seat].bench]


def _discard_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    take(s.scientists[seat].bench, a["element"])
    add(s.tray, a["element"])  # "these discarded elements do NOT go back into the bag"


decision("discard", choices=_discard_choices, resolve=_discard_resolve,
         why=lambda r, s, t, seat, a: f"You have no {element_word(a.get('element'))} to discard.",
         refusal="Discard one of your elements to the Lead Scientist tray.")(_discard_seats)
