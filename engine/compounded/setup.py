"""The rulebook's Setup, and the options a table chooses.

Options (all optional): ``two_player_dish`` (the 2 Player Games rule: trade
1 for 1 with the Evaporating Trade Dish; on by default in a 2-player game),
``no_trade`` (the No Player Trades variant), ``lab_partners`` (3 to 5
players) and ``lead`` (the seat of the first lead scientist, "whoever most
recently mixed two liquids together"; 0 by default).

>>> from tests.engine.compounded.helpers import RULES
>>> s = setup(RULES, 4, seed=1, options={"lab_partners": True})
>>> len(s.grid), s.lab_partner_cells, [sum(sc.bench.values()) for sc in s.scientists]
(16, [5, 6, 9, 10], [3, 3, 3, 3])
>>> setup(RULES, 3, seed=1, options={"two_player_dish": True})
Traceback (most recent call last):
...
engine.core.IllegalAction: The two-player Evaporating Dish is for 2 players; this table has 3.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.compounded.discover import draw, evaporate
from engine.compounded.flow import Rules, run
from engine.compounded.state import BENCH, Cell, Scientist, State
from engine.core import IllegalAction
from engine.rng import Rng

OPTIONS = ("two_player_dish", "no_trade", "lab_partners", "lead")


def _flag(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if not isinstance(value, bool):
        raise IllegalAction(f"The {name} option is true or false, not {value!r}.")
    return value


def read_options(r: Rules, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise IllegalAction('Setup options are a JSON object, like {"lab_partners": true}.')
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise IllegalAction(f"Unknown option {unknown[0]!r} (the options are {', '.join(OPTIONS)}).")
    dish2 = _flag(options, "two_player_dish", players == 2 and not options.get("no_trade"))
    no_trade = _flag(options, "no_trade", False)
    partners = _flag(options, "lab_partners", False)
    if dish2 and players != 2:
        raise IllegalAction(f"The two-player Evaporating Dish is for 2 players; this table has {players}.")
    if dish2 and no_trade:
        raise IllegalAction("Choose the two-player dish or No Player Trades, not both.")
    allowed = r.cards.table.lab_partners.players
    if partners and players not in allowed:
        raise IllegalAction(f"Lab Partners is for {min(allowed)} to {max(allowed)} players; this table has {players}.")
    lead = options.get("lead", 0)
    if type(lead) is not int or not 0 <= lead < players:
        raise IllegalAction(f"The lead scientist is a seat from 0 to {players - 1}, not {lead!r}.")
    dish = r.cards.table.trade_dish
    size = dish.two_player if dish2 else players + dish.no_trade_extra if no_trade else 0
    return {"trading": "dish" if size else "free", "dish_size": size, "lab_partners": partners, "lead": lead}


def setup(r: Rules, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    counts = sorted({p for g in r.cards.table.grids for p in g.players})
    if type(players) is not int or players not in counts:
        raise IllegalAction(f"Compounded is for {counts[0]} to {counts[-1]} scientists, not {players!r}.")
    if type(seed) is not int:
        raise IllegalAction(f"The seed is a whole number, not {seed!r}.")
    opts = read_options(r, players, options)
    rng = Rng(seed)
    grid = r.cards.table.grid(players)
    deck = list(r.cards.deck)
    rng.shuffle(deck)
    partners = list(r.cards.lab_partners) if opts["lab_partners"] else []
    rng.shuffle(partners)
    lp_cells = list(grid.lab_partner_cells) if opts["lab_partners"] else []
    supply = dict(r.tool_counts)
    scientists = []
    for _ in range(players):
        supply["fire_extinguisher"] -= 1  # "Each scientist takes 1 red Fire Extinguisher"
        scientists.append(Scientist(tools={"fire_extinguisher": True},
                                    tokens=[BENCH] * r.tracks["study"].levels[0]))
    s = State(players=players, options={k: opts[k] for k in ("trading", "dish_size", "lab_partners")},
              rng=rng.state, rows=grid.rows, cols=grid.cols, lab_partner_cells=lp_cells,
              bag=dict(r.distribution), tray={}, dish={}, deck=deck, lab_partner_deck=partners, discard=[],
              grid=[Cell() for _ in range(grid.rows * grid.cols)], scientists=scientists,
              flame_supply=r.cards.table.flame_tokens, tool_supply=supply, agenda=[], lead=opts["lead"])
    # Setup 7: Lab Fires drawn now are set aside, then shuffled back.
    aside = []
    for i, cell in enumerate(s.grid):
        if i in lp_cells:
            cell.card = s.lab_partner_deck.pop(0)
            continue
        while cell.card is None:
            card = s.deck.pop(0)
            if r.is_lab_fire(card):
                aside.append(card)
            else:
                cell.card = card
    if aside:
        s.deck.extend(aside)
        rng = Rng(s.rng)
        rng.shuffle(s.deck)
        s.rng = rng.state
    # Setup 8: in turn order from the lead, each draws their Discover number.
    for seat in s.order():
        for e in draw(s, r.value(s, seat, "discover")):
            s.scientists[seat].bench[e] = s.scientists[seat].bench.get(e, 0) + 1
    if opts["dish_size"]:
        for e in draw(s, opts["dish_size"]):
            s.dish[e] = s.dish.get(e, 0) + 1
        evaporate(r, s)
    for sc in s.scientists:
        sc.bench = {e: sc.bench[e] for e in r.distribution if sc.bench.get(e)}
    s.dish = {e: s.dish[e] for e in r.distribution if s.dish.get(e)}
    s.agenda = [{"do": "round"}]  # round 1: "The Discover phase is ALWAYS skipped the first round of play."
    run(r, s)
    return s
