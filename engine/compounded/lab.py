"""The Lab phase, and the round around it.

In turn order from the lead, each scientist scores their completed
compounds one at a time, in the order they choose (``{"type": "score",
"cell": i}``). Scoring a compound, for each claimant in turn order from the
scorer: points (minus 2 per flame token, which can make them fewer than
none: the marker goes back; once per claim token on a Lab Partner card), the Journal, the experiment advance
(``{"type": "advance", "track": "lab"}``); then the card leaves the grid and
its claim tokens go home; then the bonus (see :mod:`.reactions`). After all
scoring: the tray goes back to the bag, Graduated Cylinders, the refill with
its Lab Fires (:mod:`.fires`), and the lead passes to the left.
"""

from __future__ import annotations

from engine.compounded.flow import Rules, automatic, cell_word, decision
from engine.compounded.scoring import advance, advance_choices, final_scoring, move_marker
from engine.compounded.state import BENCH, State, merge
from engine.core import Action

FLAME_PENALTY = 2
""""Each Flame token on the compound reduces the score by 2." """


@automatic("round")
def _round(r: Rules, s: State, task) -> None:
    tasks = [{"do": "study"}, {"do": "research"}, {"do": "lab"}, {"do": "end_round"}]
    s.agenda[0:0] = ([{"do": "discover"}] if s.round > 1 else []) + tasks


@automatic("lab")
def _lab(r: Rules, s: State, task) -> None:
    s.phase = "lab"
    for cell in s.grid:
        cell.ready = cell.complete  # completed by an explosion from now on: next Lab phase
    tasks = [{"do": "burner", "seat": seat} for seat in s.order()]
    tasks += [{"do": "score_turn", "seat": seat} for seat in s.order()]
    tasks += [{"do": "lab_tail"}]
    s.agenda[0:0] = tasks


def scorable(r: Rules, s: State, seat: int) -> list[int]:
    return [i for i, c in enumerate(s.grid) if c.ready and seat in r.claimants(s, i)]


def _turn_seats(r: Rules, s: State, task) -> list[int]:
    return [task["seat"]] if scorable(r, s, task["seat"]) else []


def _turn_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "score", "cell": i} for i in scorable(r, s, seat)]


def score_tasks(r: Rules, s: State, i: int, scorer: int) -> list[dict]:
    """The steps of scoring the compound on space ``i`` in ``scorer``'s turn."""
    claims = r.claimants(s, i)
    order = [seat for seat in s.order(scorer) if seat in claims]
    tasks = []
    for seat in order:
        tasks += [{"do": "points", "seat": seat, "cell": i, "times": claims.count(seat)},
                  {"do": "journal", "seat": seat, "cell": i},
                  {"do": "advance", "seat": seat, "card": s.grid[i].card}]
    tasks.append({"do": "leave", "cell": i, "scorer": scorer, "claimants": order})
    return tasks


def _turn_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda[0:0] = score_tasks(r, s, a["cell"], seat)


decision("score_turn", choices=_turn_choices, resolve=_turn_resolve,
         why=lambda r, s, t, seat, a: f"You have no completed compound to score at {cell_word(s, a.get('cell'))}.",
         refusal="Choose which of your completed compounds to score next.")(_turn_seats)


def compound_points(r: Rules, s: State, i: int) -> int:
    """"You score the indicated number of points. Each Flame token on the
    compound reduces the score by 2": no floor, so Ammonia (6 points) with
    its four flame slots full scores -2 (the rulebook has no "never below 0")."""
    card = r.compound(s.grid[i].card)
    return card.points - FLAME_PENALTY * s.grid[i].flames if card else 0


@automatic("points")
def _points(r: Rules, s: State, task) -> None:
    move_marker(r, s, task["seat"], compound_points(r, s, task["cell"]) * task["times"], "compounds")


def _advance_seats(r: Rules, s: State, task) -> list[int]:
    card = r.compound(task["card"])
    return [task["seat"]] if card and advance_choices(r, s, task["seat"], list(card.states)) else []


def _advance_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    card = r.compound(task["card"])
    return [{"type": "advance", "track": t} for t in advance_choices(r, s, seat, list(card.states))]


def _advance_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    advance(r, s, seat, a["track"])


decision("advance", choices=_advance_choices, resolve=_advance_resolve,
         refusal="Move up the experiment of the compound's state (or the Lab), if it is not at its top.")(_advance_seats)


@automatic("leave")
def _leave(r: Rules, s: State, task) -> None:
    """The compound is discarded; its claim tokens go home; then its bonus."""
    i = task["cell"]
    cell = s.grid[i]
    card = cell.card
    completer = cell.completed_by
    clear_cell(r, s, i)
    s.discard.append(card)
    compound = r.compound(card)
    if compound and compound.reward:
        who = list(task["claimants"])
        if completer is not None and completer not in who:
            who.append(completer)  # "you AND the scientist who claimed it get any bonus reward"
        s.agenda.insert(0, {"do": "reward", "reward": compound.reward, "scorer": task["scorer"], "seats": who})


def clear_cell(r: Rules, s: State, i: int) -> None:
    """Empty space ``i``: elements to the bag, flames to the supply, claim tokens home."""
    cell = s.grid[i]
    merge(s.bag, cell.elements)
    s.flame_supply += cell.flames
    for sc in s.scientists:
        sc.tokens = [BENCH if t == f"cell:{i}" else t for t in sc.tokens]
    s.grid[i] = type(cell)()


@automatic("lab_tail")
def _lab_tail(r: Rules, s: State, task) -> None:
    for i, cell in enumerate(s.grid):
        if cell.ready and r.compound(cell.card):  # finished by an explosion and claimed by nobody
            s.discard.append(cell.card)
            clear_cell(r, s, i)
    merge(s.bag, s.tray)  # "All elements from completed compounds and the discard tray are moved to the bag."
    s.tray = {}
    # The last round's Lab phase refills the grid and resolves its Lab Fires as every round does: a fire
    # drawn then can still burn or explode a claimed unfinished compound before the end scoring.
    tasks = [{"do": "cylinder", "seat": seat} for seat in s.order()] + [{"do": "refill"}, {"do": "clear_fires"}]
    s.agenda[0:0] = tasks


@automatic("end_round")
def _end_round(r: Rules, s: State, task) -> None:
    if s.final_round is not None and s.round >= s.final_round:
        end_game(r, s, "the last round, after someone reached the end score, is over")
        return
    # Nothing else ends a round's play: a round in which nobody places is no end (the table may agree to
    # stop, see end_by_agreement; that is the players' choice, not a rule).
    s.lead = (s.lead + 1) % s.players  # "The lead scientist role moves to the left"
    s.round += 1
    s.agenda.insert(0, {"do": "round"})


def end_game(r: Rules, s: State, reason: str) -> None:
    s.agenda = []
    s.phase = "over"
    final_scoring(r, s)
    s.over = reason


AGREED = "the scientists agreed to end it here"


def end_by_agreement(r: Rules, s: State) -> None:
    """End the game now, scored by the rulebook's end scoring as it stands.
    Not a rule of Compounded: the table's way out of a game its players do
    not want to go on with (nothing in the rules ends a game in which
    nobody places, round after round). Elements in the air (an explosion's,
    not yet moved) land in the tray, so that no gem is lost."""
    for task in s.agenda:
        if task["do"] == "scatter":
            merge(s.tray, task["elements"])
    end_game(r, s, AGREED)
