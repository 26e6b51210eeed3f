"""Lab Notes rules: phases and actions.

A round runs through phases (design doc, rule 1)::

    roll -> select -> notate -> [fire] -> roll (next lead) ... -> over

Actions are JSON objects with a ``"type"``; spaces are indexes
``row * cols + col`` into the compound field (see :func:`space_label`).

``{"type": "roll"}``
    Roll phase, the lead player: roll every die in play.
``{"type": "reroll", "dice": [i, ...]}``
    Select phase, the picker, with the Centrifuge: reroll the chosen
    available dice. The first reroll of a pick pays the tool's icons; at most
    two rerolls per pick.
``{"type": "take_die", "die": i}``
    Select phase, in turn order from the lead. When one die is left it
    becomes the Community die.
``{"type": "notate", "element": "H", "space": k}``
    Notate phase: place one of your pending elements on an empty space.
``{"type": "bond", "spaces": [a, b]}``
    Raise the bond between two adjacent elements by one step; one of them
    must be the element you placed last this turn.
``{"type": "trash", "element": "H"}``
    Fill your next trash can instead of notating. Filling the last can
    triggers the Bunsen Burner at once.
``{"type": "burn", "space": k}``
    Burn an empty space you owe: a Bunsen Burner (die or full trash) in the
    notate phase, a Lab Fire (two burns each) in the fire phase.
``{"type": "choose_element", "element": "C"}``
    After a Bunsen Burner's burn: the element you gain. You must notate it
    at once.
``{"type": "use_tool", "tool": id, ...}``
    ``retort-flask``; ``mortar-and-pestle`` with ``"element"`` (the one it
    grinds); ``pipette`` with ``"spaces": [a, b]``; ``fume-hood``;
    ``fire-suppressant`` (fire phase, instead of a Lab Fire's two burns).
    The Centrifuge is used through ``reroll``.
``{"type": "claim", "notecard": id}``
    Claim a face-up notecard with an unused complete compound of the same
    structure.
``{"type": "finish"}``
    End your notating for the turn (nothing may be pending or owed).

No action was added to the vocabulary the contract fixed.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Mapping

from engine.chem import ELEMENT_NAMES, Molecule
from engine.core import Action, IllegalAction
from engine.hexgrid import HexField
from engine.labnotes.cards import LabNotesData
from engine.labnotes.scoring import burn_unconnected, compound_at, compounds, molecule_shape
from engine.labnotes.state import (BURNED, BURNER, ELEMENTS, EMPTY, LINE_POINTS, VALENCE, Claim, Die,
                                   Sheet, State, bond_key, space_label)
from engine.rng import Rng

TOOL_IDS = ("centrifuge", "retort-flask", "fire-suppressant", "pipette", "mortar-and-pestle", "fume-hood")
"""The tools whose abilities the engine knows. Setup offers only these."""
TOOL_FIELDS = {
    "retort-flask": (), "fire-suppressant": (), "fume-hood": (),
    "mortar-and-pestle": ("element",), "pipette": ("spaces",),
}
ACTION_FIELDS = {
    "roll": (), "reroll": ("dice",), "take_die": ("die",), "notate": ("element", "space"),
    "bond": ("spaces",), "trash": ("element",), "burn": ("space",), "choose_element": ("element",),
    "use_tool": ("tool",), "claim": ("notecard",), "finish": (),
}
GROUND = {"C": "N", "N": "O", "O": "H"}
"""Mortar and Pestle: the element that takes one bond fewer."""
MAX_REROLLS = 2
FIRE_BURNS = 2
"""A Lab Fire burns 2 spaces (Lab Fires)."""
TAKE_ORDER = {"burner": 0, "community": 1, "flask": 2, "die": 3}
"""When two pending elements are alike, notating or trashing takes the one
whose loss closes the fewest options (the die's stays grindable)."""

OPTIONS = ("first_game", "tools", "lead")


def _name(e: str) -> str:
    return ELEMENT_NAMES.get(e, e)


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise IllegalAction(f"{what} must be a whole number, found {value!r}.")
    return value


class Rules:
    """Lab Notes rules bound to one card set; every method is pure except on
    the fresh copy :meth:`apply` makes."""

    def __init__(self, data: LabNotesData) -> None:
        self.data = data
        self.rows, self.cols = data.sheet.field.rows, data.sheet.field.cols
        self.size = self.rows * self.cols
        hexfield = HexField(self.rows, self.cols)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(r * self.cols + c for r, c in hexfield.neighbours((i // self.cols, i % self.cols)))
            for i in range(self.size))
        self.adjacent = tuple(frozenset(n) for n in self.neighbours)
        self.trash_cans = data.sheet.trash_cans
        self.track = data.sheet.tools_track
        self.boxes = data.sheet.notecard_boxes
        self.dice_colours = [d.colour for d in data.dice.dice for _ in range(d.count)]
        self.faces = {d.colour: tuple(d.faces) for d in data.dice.dice}
        self.tools = {t.id: t for t in data.tools if t.id in TOOL_IDS}
        self.tool_shapes = {t: (m, molecule_shape(m)) for t, m in
                            ((t.id, t.molecule()) for t in self.tools.values())}
        self.cards = {c.id: c for c in data.notecards}
        self.card_ids = sorted(self.cards)
        self.lab_fires = frozenset(c.id for c in data.notecards if c.is_lab_fire)
        self.card_shapes: dict[str, tuple[Molecule, tuple]] = {
            c.id: (m, molecule_shape(m)) for c, m in
            ((c, c.molecule()) for c in data.notecards if not c.is_lab_fire)}

    # --- small helpers -----------------------------------------------------------
    def label(self, space: int) -> str:
        return space_label(space, self.cols)

    def open_track(self, sheet: Sheet) -> int:
        """Tools-track spaces open: those open from the start, plus those the
        first notecards claimed opened."""
        return self.track.open + sum(self.track.opened_by_notecard[:len(sheet.claims)])

    def track_room(self, sheet: Sheet) -> int:
        return self.open_track(sheet) - sheet.tool_marks

    def room(self, sheet: Sheet, space: int) -> int:
        """Bonds the element on ``space`` can still take."""
        return VALENCE[sheet.spaces[space]] - sheet.bonds_used(space)

    def tool_name(self, tool: str) -> str:
        return self.tools[tool].name if tool in self.tools else tool

    def in_play(self, players: int) -> dict[str, int]:
        return dict(self.data.dice.per_players[players])

    # --- setup ---------------------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None) -> State:
        per = self.data.dice.per_players
        if type(players) is not int or players not in per:
            raise IllegalAction(f"Lab Notes is for {min(per)} to {max(per)} players, not {players!r}.")
        if type(seed) is not int:
            raise IllegalAction(f"The seed must be a whole number, found {seed!r}.")
        if options is not None and not isinstance(options, Mapping):
            raise IllegalAction("Setup options are a JSON object, like {\"first_game\": true}.")
        options = dict(options or {})
        if not isinstance(options.get("first_game", False), bool):
            raise IllegalAction("The first_game option is true or false.")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise IllegalAction(f"Unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)}).")
        rng = Rng(seed)
        tools = self._choose_tools(rng, options)
        lead = options.get("lead", 0)
        if type(lead) is not int or not 0 <= lead < players:
            raise IllegalAction(f"The lead player must be a seat from 0 to {players - 1}, found {lead!r}.")
        need = self.in_play(players)
        dice, seen = [], dict.fromkeys(need, 0)
        for colour in self.dice_colours:
            seen[colour] = seen.get(colour, 0) + 1
            dice.append(Die(colour, None, "cup" if seen[colour] <= need.get(colour, 0) else "box", None))
        deck = list(self.card_ids)
        rng.shuffle(deck)
        # Setup 3: flip 2 notecards; Lab Fires are set aside, then shuffled back.
        line: list[str] = []
        aside: list[str] = []
        while len(line) < 2 and deck:
            card = deck.pop(0)
            (aside if card in self.lab_fires else line).insert(0, card)
        if aside:
            deck.extend(aside)
            rng.shuffle(deck)
        return State(players=players, tools=tools, rng=rng.state, dice=dice, deck=deck, line=line, discard=[],
                     seats=[Sheet(EMPTY * self.size) for _ in range(players)], lead=lead)

    def _choose_tools(self, rng: Rng, options: Mapping[str, Any]) -> tuple[str, ...]:
        by_state = {s: [t for t in self.tools.values() if t.state == s] for s in ("liquid", "solid", "gas")}
        if "tools" in options:
            if options.get("first_game"):
                raise IllegalAction("Choose either the first-game tools or a list of tools, not both.")
            chosen = options["tools"]
            if not isinstance(chosen, (list, tuple)) or not all(isinstance(t, str) for t in chosen):
                raise IllegalAction("The tools option is a list of three tool ids.")
            for t in chosen:
                if t not in self.tools:
                    raise IllegalAction(f"{t!r} is not a tool of this game (tools: {', '.join(self.tools)}).")
            states = sorted(self.tools[t].state for t in chosen)
            if len(chosen) != 3 or states != ["gas", "liquid", "solid"]:
                raise IllegalAction("Choose one liquid, one solid and one gas tool.")
            return tuple(chosen)
        if options.get("first_game"):
            firsts = tuple(next((t.id for t in by_state[s] if t.first_game), "") for s in by_state)
            if not all(firsts):
                raise IllegalAction("This card set has no first-game tool of every state.")
            return firsts
        if not all(by_state.values()):
            raise IllegalAction("This card set lacks a liquid, a solid or a gas tool.")
        return tuple(rng.choice(by_state[s]).id for s in ("liquid", "solid", "gas"))

    # --- who may act ------------------------------------------------------------------
    def to_move(self, s: State) -> list[int]:
        if s.phase == "roll":
            return [s.lead]
        if s.phase == "select":
            return [s.picker()]
        if s.phase == "notate":
            return [i for i, sh in enumerate(s.seats) if not sh.done]
        if s.phase == "fire":
            return [i for i, sh in enumerate(s.seats) if sh.fires or sh.burns]
        return []

    # --- legal actions ----------------------------------------------------------------
    def actions(self, s: State, seat: int) -> list[Action]:
        if type(seat) is not int or not 0 <= seat < s.players or seat not in self.to_move(s):
            return []
        sh = s.seats[seat]
        if s.phase == "roll":
            return [{"type": "roll"}]
        if s.phase == "select":
            pool = [i for i, d in enumerate(s.dice) if d.place == "pool"]
            out: list[Action] = [{"type": "take_die", "die": i} for i in pool]
            if self._can_reroll(s, sh):
                for n in range(1, len(pool) + 1):
                    out.extend({"type": "reroll", "dice": list(c)} for c in combinations(pool, n))
            return out
        empties = sh.empty_spaces()
        if s.phase == "fire":
            out = [{"type": "burn", "space": k} for k in empties]
            if self._can_suppress(sh):
                out.append({"type": "use_tool", "tool": "fire-suppressant"})
            return out
        # notate
        if sh.burns:
            return [{"type": "burn", "space": k} for k in empties]
        if sh.choosing:
            return [{"type": "choose_element", "element": e} for e in ELEMENTS]
        trash_room = len(sh.trash) < self.trash_cans
        must = self._must_place(sh)
        if must:
            if empties:
                return [{"type": "notate", "element": must, "space": k} for k in empties]
            return [{"type": "trash", "element": must}] if trash_room else []
        out = []
        for e in dict.fromkeys(e for e, _ in sh.pending):
            out.extend({"type": "notate", "element": e, "space": k} for k in empties)
            if trash_room:
                out.append({"type": "trash", "element": e})
        last = sh.last_placed
        if last is not None and self.room(sh, last) > 0:
            for n in self.neighbours[last]:
                if sh.spaces[n] in VALENCE and self.room(sh, n) > 0 and sh.bonds.get(bond_key(last, n), 0) < 3:
                    out.append({"type": "bond", "spaces": list(bond_key(last, n))})
        out.extend(self._tool_actions(s, seat, sh))
        out.extend({"type": "claim", "notecard": c} for c in self._claimable(s, sh))
        if not sh.pending:
            out.append({"type": "finish"})
        return out

    def _must_place(self, sh: Sheet) -> str | None:
        for e, src in sh.pending:
            if src == "burner":
                return e
        return None

    def _usable(self, sh: Sheet, tool: str) -> bool:
        return (tool in sh.tools and tool not in sh.used and tool in self.tools
                and self.track_room(sh) >= self.tools[tool].icons)

    def _can_reroll(self, s: State, sh: Sheet) -> bool:
        if "centrifuge" not in sh.tools or s.rerolls >= MAX_REROLLS:
            return False
        return s.rerolls > 0 or self._usable(sh, "centrifuge")

    def _can_suppress(self, sh: Sheet) -> bool:
        return (sh.fires > 0 and sh.burns == 0 and "fire-suppressant" in sh.tools
                and self.track_room(sh) >= self.tools["fire-suppressant"].icons)

    def _tool_actions(self, s: State, seat: int, sh: Sheet) -> list[Action]:
        out: list[Action] = []
        if self._usable(sh, "retort-flask") and self._flask_ok(s, seat, sh):
            out.append({"type": "use_tool", "tool": "retort-flask"})
        if self._usable(sh, "mortar-and-pestle"):
            for e in dict.fromkeys(e for e, src in sh.pending if src in ("die", "flask") and e in GROUND):
                out.append({"type": "use_tool", "tool": "mortar-and-pestle", "element": e})
        if self._usable(sh, "pipette") and not sh.pending:
            for a in range(self.size):
                if sh.spaces[a] in VALENCE and self.room(sh, a) > 0:
                    for b in self.neighbours[a]:
                        if (b > a and sh.spaces[b] in VALENCE and self.room(sh, b) > 0
                                and sh.bonds.get((a, b), 0) < 3):
                            out.append({"type": "use_tool", "tool": "pipette", "spaces": [a, b]})
        if self._usable(sh, "fume-hood") and 0 < len(sh.trash) < self.trash_cans:
            out.append({"type": "use_tool", "tool": "fume-hood"})
        return out

    def _flask_ok(self, s: State, seat: int, sh: Sheet) -> bool:
        die = s.die_of(seat)
        return (die is not None and die.face in VALENCE
                and any(src == "community" for _, src in sh.pending))

    def _unused_complete(self, sh: Sheet):
        used = {c.spaces for c in sh.claims}
        return [c for c in compounds(sh.spaces, sh.bonds) if c.complete and c.spaces not in used]

    def _claimable(self, s: State, sh: Sheet) -> list[str]:
        if len(sh.claims) >= self.boxes:
            return []
        mine = {c.notecard for c in sh.claims}
        cards = [c for c in s.line if c not in self.lab_fires and c not in mine]
        if not cards:
            return []
        ready = self._unused_complete(sh)
        return [c for c in cards if any(comp.matches(*self.card_shapes[c]) for comp in ready)]

    # --- applying ------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise IllegalAction('An action is a JSON object with a "type".')
        kind = action.get("type")
        handler = getattr(self, f"_do_{kind}", None) if isinstance(kind, str) and kind in ACTION_FIELDS else None
        if handler is None:
            raise IllegalAction(f"Unknown action {kind!r} (known: {', '.join(ACTION_FIELDS)}).")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        allowed = set(ACTION_FIELDS[kind]) | {"type"}
        if kind == "use_tool" and isinstance(action.get("tool"), str):
            allowed |= set(TOOL_FIELDS.get(action["tool"], ()))
        extra = sorted(set(action) - allowed)
        if extra:
            raise IllegalAction(f"A {kind} action has no field {extra[0]!r}.")
        missing = [f for f in allowed if f not in action]
        if missing:
            raise IllegalAction(f"A {kind} action needs {sorted(missing)[0]!r}.")
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        s = state.copy()
        handler(s, seat, action)
        self._settle(s)
        return s

    def _seat_turn(self, s: State, seat: int, phase: str, what: str) -> Sheet:
        if s.phase != phase:
            raise IllegalAction(f"You cannot {what} now: the table is in the {s.phase} phase.")
        sh = s.seats[seat]
        if phase == "notate" and sh.done:
            raise IllegalAction("You have finished notating this turn.")
        return sh

    def _not_blocked(self, sh: Sheet) -> None:
        if sh.burns:
            raise IllegalAction("Burn a space first: the Bunsen Burner acts immediately.")
        if sh.choosing:
            raise IllegalAction("Choose the Bunsen Burner's element first.")
        must = self._must_place(sh)
        if must:
            raise IllegalAction(f"Notate the Bunsen Burner's {_name(must)} first: it is notated at once.")

    def _space(self, value: Any) -> int:
        k = _int(value, "A space")
        if not 0 <= k < self.size:
            raise IllegalAction(f"Space {k} is not on the compound field.")
        return k

    def _element(self, value: Any) -> str:
        if not isinstance(value, str) or value not in VALENCE:
            raise IllegalAction(f"{value!r} is not an element of Lab Notes (H, O, N or C).")
        return value

    def _pair(self, value: Any) -> tuple[int, int]:
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise IllegalAction("A bond joins two spaces: give \"spaces\": [a, b].")
        a, b = self._space(value[0]), self._space(value[1])
        if a == b:
            raise IllegalAction("A bond joins two different spaces.")
        return a, b

    def _check_bond(self, sh: Sheet, a: int, b: int) -> None:
        if b not in self.adjacent[a]:
            raise IllegalAction(f"{self.label(a)} and {self.label(b)} are not next to each other.")
        for k in (a, b):
            if sh.spaces[k] not in VALENCE:
                raise IllegalAction(f"{self.label(k)} holds no element to bond.")
        if sh.bonds.get(bond_key(a, b), 0) >= 3:
            raise IllegalAction("At most a triple bond joins two elements.")
        for k in (a, b):
            if self.room(sh, k) <= 0:
                e = sh.spaces[k]
                raise IllegalAction(f"The {_name(e)} at {self.label(k)} already has all its {VALENCE[e]} "
                                    f"bond{'s' if VALENCE[e] > 1 else ''}: the bond must be legal for both elements.")

    def _raise_bond(self, s: State, sh: Sheet, a: int, b: int) -> None:
        key = bond_key(a, b)
        sh.bonds[key] = sh.bonds.get(key, 0) + 1
        comp = compound_at(sh.spaces, sh.bonds, a)
        if comp.complete:  # Earning tools: a complete compound of the tool's structure unlocks it
            for t in s.tools:
                if t not in sh.tools and comp.matches(*self.tool_shapes[t]):
                    sh.tools += (t,)

    def _take_pending(self, sh: Sheet, element: str) -> None:
        options = sorted((TAKE_ORDER[src], i) for i, (e, src) in enumerate(sh.pending) if e == element)
        if not options:
            have = ", ".join(_name(e) for e, _ in sh.pending) or "nothing"
            raise IllegalAction(f"You have no {_name(element)} to notate or trash (you have {have}).")
        i = options[0][1]
        sh.pending = sh.pending[:i] + sh.pending[i + 1:]

    def _pay(self, sh: Sheet, tool: str) -> None:
        icons = self.tools[tool].icons
        if self.track_room(sh) < icons:
            raise IllegalAction(f"Your tools track has {self.track_room(sh)} open space(s); the "
                                f"{self.tool_name(tool)} needs {icons}.")
        sh.tool_marks += icons
        sh.used += (tool,)

    # roll and select
    def _do_roll(self, s: State, seat: int, a: Action) -> None:
        if s.phase != "roll":
            raise IllegalAction("The dice are rolled only at the start of a round.")
        if seat != s.lead:
            raise IllegalAction("Only the lead player rolls the dice.")
        rng = Rng(s.rng)
        for d in s.dice:
            if d.place == "cup":
                d.face, d.place = rng.choice(self.faces[d.colour]), "pool"
        s.rng = rng.state
        s.phase, s.picks, s.rerolls = "select", 0, 0

    def _pool_die(self, s: State, seat: int, value: Any) -> int:
        i = _int(value, "A die")
        if not 0 <= i < len(s.dice) or s.dice[i].place != "pool":
            raise IllegalAction(f"Die {i} is not available.")
        return i

    def _picker(self, s: State, seat: int, what: str) -> Sheet:
        self._seat_turn(s, seat, "select", what)
        if seat != s.picker():
            raise IllegalAction("It is not your pick yet: dice are taken in turn order from the lead player.")
        return s.seats[seat]

    def _do_reroll(self, s: State, seat: int, a: Action) -> None:
        sh = self._picker(s, seat, "reroll")
        if "centrifuge" not in sh.tools:
            raise IllegalAction("Rerolling needs the Centrifuge: build its compound first.")
        if s.rerolls >= MAX_REROLLS:
            raise IllegalAction("The Centrifuge rerolls at most 2 times before you select your die.")
        dice = a["dice"]
        if not isinstance(dice, (list, tuple)) or not dice:
            raise IllegalAction("Name the dice to reroll: \"dice\": [i, ...].")
        chosen = [self._pool_die(s, seat, i) for i in dice]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("Name each die to reroll once.")
        if s.rerolls == 0:
            if "centrifuge" in sh.used:
                raise IllegalAction("You have used the Centrifuge this turn.")
            self._pay(sh, "centrifuge")
        rng = Rng(s.rng)
        for i in sorted(chosen):
            s.dice[i].face = rng.choice(self.faces[s.dice[i].colour])
        s.rng = rng.state
        s.rerolls += 1

    def _do_take_die(self, s: State, seat: int, a: Action) -> None:
        self._picker(s, seat, "take a die")
        d = s.dice[self._pool_die(s, seat, a["die"])]
        d.place, d.seat = "seat", seat
        s.picks += 1
        s.rerolls = 0
        if s.picks == s.players:
            for d in s.dice:
                if d.place == "pool":
                    d.place = "community"
            self._start_notate(s)

    def _start_notate(self, s: State) -> None:
        s.phase = "notate"
        community = s.community()
        for i, sh in enumerate(s.seats):
            die = s.die_of(i)
            pending = []
            sh.burns = 0
            if die.face == BURNER:
                sh.burns = 1  # the burner burns first, then gives any element
            else:
                pending.append((die.face, "die"))
            if community.face != BURNER:
                pending.append((community.face, "community"))
            sh.pending, sh.choosing, sh.last_placed, sh.done = tuple(pending), False, None, False

    # notate
    def _do_notate(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "notate")
        element, k = self._element(a["element"]), self._space(a["space"])
        if sh.burns or sh.choosing:
            self._not_blocked(sh)
        must = self._must_place(sh)
        if must and must != element:
            raise IllegalAction(f"Notate the Bunsen Burner's {_name(must)} first: it is notated at once.")
        if sh.spaces[k] != EMPTY:
            what = "is burned" if sh.spaces[k] == BURNED else f"holds {_name(sh.spaces[k])} already"
            raise IllegalAction(f"{self.label(k)} {what}: elements go on empty spaces.")
        self._take_pending(sh, element)
        sh.spaces = sh.spaces[:k] + element + sh.spaces[k + 1:]
        sh.last_placed = k

    def _do_bond(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "draw a bond")
        x, y = self._pair(a["spaces"])
        self._not_blocked(sh)
        if sh.last_placed not in (x, y):
            last = "" if sh.last_placed is None else f" ({self.label(sh.last_placed)})"
            raise IllegalAction(f"Bonds are drawn only to or from the element you just placed{last}.")
        self._check_bond(sh, x, y)
        self._raise_bond(s, sh, x, y)

    def _do_trash(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "trash")
        element = self._element(a["element"])
        if sh.burns or sh.choosing:
            self._not_blocked(sh)
        if len(sh.trash) >= self.trash_cans:
            raise IllegalAction("Your trash is full: you can no longer trash elements.")
        must = self._must_place(sh)
        if must:
            if must != element:
                raise IllegalAction(f"Notate the Bunsen Burner's {_name(must)} first: it is notated at once.")
            if sh.has_empty():
                raise IllegalAction("The Bunsen Burner's element must be notated while a space is empty.")
        self._take_pending(sh, element)
        sh.trash += element
        if len(sh.trash) == self.trash_cans:
            sh.burns += 1  # the last can triggers the Bunsen Burner: not optional

    def _do_burn(self, s: State, seat: int, a: Action) -> None:
        k = self._space(a["space"])
        sh = s.seats[seat]
        if s.phase == "fire":
            if not (sh.burns or sh.fires):
                raise IllegalAction("You owe no Lab Fire.")
            if not sh.burns:
                sh.fires -= 1
                sh.burns = FIRE_BURNS
        elif s.phase == "notate":
            if sh.done or not sh.burns:
                raise IllegalAction("You owe no burn now.")
        else:
            raise IllegalAction("There is nothing to burn now.")
        if sh.spaces[k] != EMPTY:
            raise IllegalAction(f"{self.label(k)} is not empty: a burn fills an empty space.")
        sh.spaces = sh.spaces[:k] + BURNED + sh.spaces[k + 1:]
        sh.burns -= 1
        if s.phase == "notate":
            sh.choosing = True  # then gain any element

    def _do_choose_element(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "choose an element")
        element = self._element(a["element"])
        if not sh.choosing:
            raise IllegalAction("You have no Bunsen Burner element to choose.")
        sh.choosing = False
        sh.pending = ((element, "burner"),) + sh.pending

    def _do_claim(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "claim a notecard")
        card = a["notecard"]
        self._not_blocked(sh)
        if not isinstance(card, str) or card not in s.line:
            raise IllegalAction(f"{card!r} is not face up in the notecard line.")
        if card in self.lab_fires:
            raise IllegalAction("A Lab Fire cannot be claimed.")
        name = self.cards[card].name
        if any(c.notecard == card for c in sh.claims):
            raise IllegalAction(f"You have claimed {name} already.")
        if len(sh.claims) >= self.boxes:
            raise IllegalAction("Every notecard box on your sheet is checked.")
        for comp in self._unused_complete(sh):
            if comp.matches(*self.card_shapes[card]):
                sh.claims += (Claim(card, LINE_POINTS[s.line.index(card)], comp.spaces),)
                s.claimed = True
                return
        raise IllegalAction(f"None of your unused complete compounds is {name} ({self.cards[card].formula}).")

    def _do_finish(self, s: State, seat: int, a: Action) -> None:
        sh = self._seat_turn(s, seat, "notate", "finish")
        self._not_blocked(sh)
        if sh.pending:
            left = ", ".join(_name(e) for e, _ in sh.pending)
            raise IllegalAction(f"Notate or trash your {left} first.")
        sh.done, sh.last_placed = True, None

    # tools
    def _do_use_tool(self, s: State, seat: int, a: Action) -> None:
        tool = a["tool"]
        if tool == "centrifuge":
            raise IllegalAction("The Centrifuge is used by rerolling dice before you select yours.")
        if not isinstance(tool, str) or tool not in s.tools:
            raise IllegalAction(f"{tool!r} is not a tool of this game.")
        sh = s.seats[seat]
        if tool not in sh.tools:
            t = self.tools[tool]
            raise IllegalAction(f"Build the {t.compound} ({t.formula}) first to unlock the {t.name}.")
        if tool == "fire-suppressant":
            if s.phase != "fire" or not sh.fires or sh.burns:
                raise IllegalAction("The Fire Suppressant ignores a Lab Fire, when one reaches you.")
            self._pay(sh, tool)
            sh.fires -= 1
            return
        self._seat_turn(s, seat, "notate", f"use the {self.tool_name(tool)}")
        self._not_blocked(sh)
        if tool in sh.used:
            raise IllegalAction(f"You have used the {self.tool_name(tool)} this turn.")
        if tool == "retort-flask":
            if not self._flask_ok(s, seat, sh):
                raise IllegalAction("The Retort Flask needs your die to be an element and the Community "
                                    "element still to notate.")
            self._pay(sh, tool)
            face = s.die_of(seat).face
            sh.pending = tuple((face, "flask") if src == "community" else (e, src) for e, src in sh.pending)
        elif tool == "mortar-and-pestle":
            element = self._element(a["element"])
            idx = [i for i, (e, src) in enumerate(sh.pending) if e == element and src in ("die", "flask")]
            if element not in GROUND or not idx:
                raise IllegalAction(f"The Mortar and Pestle grinds a Carbon, Nitrogen or Oxygen of your own "
                                    f"die still to notate; you have no {_name(element)} of your die.")
            self._pay(sh, tool)
            i = idx[0]
            sh.pending = sh.pending[:i] + ((GROUND[element], sh.pending[i][1]),) + sh.pending[i + 1:]
        elif tool == "pipette":
            x, y = self._pair(a["spaces"])
            if sh.pending:
                raise IllegalAction("The Pipette draws its bond after notating: place your elements first.")
            self._check_bond(sh, x, y)
            self._pay(sh, tool)
            self._raise_bond(s, sh, x, y)
        elif tool == "fume-hood":
            if not sh.trash:
                raise IllegalAction("Your trash is empty: the Fume Hood has nothing to erase.")
            if len(sh.trash) >= self.trash_cans:
                raise IllegalAction("The Fume Hood cannot erase a full trash.")
            self._pay(sh, tool)
            sh.trash = sh.trash[:-1]

    # --- the end of a round --------------------------------------------------------
    def _settle(self, s: State) -> None:
        """What happens without a choice: burns with no empty space left,
        elements that can go nowhere, and the end of each phase."""
        if s.phase == "notate":
            for sh in s.seats:
                if not sh.has_empty():
                    sh.burns, sh.choosing = 0, False
                    if len(sh.trash) >= self.trash_cans:
                        sh.pending = ()
            if all(sh.done for sh in s.seats):
                self._end_round(s)
        elif s.phase == "fire":
            for sh in s.seats:
                if not sh.has_empty():
                    sh.burns = sh.fires = 0
            if not any(sh.fires or sh.burns for sh in s.seats):
                self._end_turn(s)

    def _end_round(self, s: State) -> None:
        fires = self._refill(s) if s.claimed else 0
        if s.community().face == BURNER:
            fires += 1  # an unattended Bunsen Burner is a Lab Fire for everyone
        s.fires = fires
        for sh in s.seats:
            sh.done, sh.last_placed, sh.burns = False, None, 0
            sh.fires = fires if sh.has_empty() else 0
        if any(sh.fires for sh in s.seats):
            s.phase = "fire"
        else:
            self._end_turn(s)

    def _draw(self, s: State, rng: Rng) -> str | None:
        if not s.deck:
            if not s.discard:
                return None
            s.deck, s.discard = s.discard, []
            rng.shuffle(s.deck)
        return s.deck.pop(0)

    def _refill(self, s: State) -> int:
        """Refill Notecards: the third card goes, the others shift, a new one
        is revealed. Returns the Lab Fires revealed (design doc, rule 11)."""
        rng = Rng(s.rng)
        fires = 0
        if len(s.line) >= 3:
            s.discard.append(s.line.pop())
        card = self._draw(s, rng)
        if card is not None:
            s.line.insert(0, card)
            fires += card in self.lab_fires
        for _ in range(4 * len(self.card_ids) + 4):  # ends long before: a bound, not a rule
            if sum(c in self.lab_fires for c in s.line) < 2:
                break
            s.discard.extend(c for c in s.line if c in self.lab_fires)
            s.line = [c for c in s.line if c not in self.lab_fires]
            while len(s.line) < 3:
                card = self._draw(s, rng)
                if card is None:
                    break
                s.line.insert(0, card)
                if card in self.lab_fires:
                    fires += 1
                    if sum(c in self.lab_fires for c in s.line) >= 2:
                        break
        s.rng = rng.state
        return fires

    def _end_turn(self, s: State) -> None:
        if any(not sh.has_empty() for sh in s.seats):
            for sh in s.seats:  # End Game: unconnected elements burn, no tool prevents it
                sh.spaces = burn_unconnected(sh.spaces, sh.bonds)
                sh.pending, sh.burns, sh.fires, sh.choosing, sh.done = (), 0, 0, False, False
            s.phase = "over"
            return
        s.lead = (s.lead + 1) % s.players
        s.round += 1
        s.phase, s.picks, s.rerolls, s.claimed, s.fires = "roll", 0, 0, False, 0
        for d in s.dice:
            if d.place != "box":
                d.face, d.place, d.seat = None, "cup", None
        for sh in s.seats:
            sh.pending, sh.used, sh.last_placed, sh.burns, sh.fires = (), (), None, 0, 0
            sh.choosing, sh.done = False, False

    def check(self, s: State) -> None:
        # The invariants live in their own module (it imports this one).
        from engine.labnotes.invariants import check

        check(self, s)
