"""Bonus rewards: tools and chemical reactions.

A compound's bonus goes to each of its claimants and to the scientist who
completed it, once each. Tools: a scientist holds at most one of each; a
bonus tool is taken from the supply, or a spent one is flipped back (the
Journal only for a scientist at or past the Journal space). Reactions:

* **Lab Fire**: once, as if drawn from the deck (:mod:`.fires`);
* **Grant**: once; the scorer chooses the track (and, on a tie for lowest
  score, which of the tied scientists): ``{"type": "grant", "seat": t,
  "track": "study"}``;
* **Claim Jump**: each beneficiary may move one claim token, as in the Study
  phase (``{"type": "claim", ...}`` or ``{"type": "pass"}``);
* **Extinguisher Refill**: each beneficiary's extinguisher is filled.
"""

from __future__ import annotations

from engine.compounded.cards import TOOLS, TRACKS
from engine.compounded.fires import lab_fire
from engine.compounded.flow import Rules, automatic, decision
from engine.compounded.scoring import advance, gain_tool
from engine.compounded.state import State
from engine.compounded.study import claim_targets, move_token, why_claim
from engine.core import Action


@automatic("reward")
def _reward(r: Rules, s: State, task) -> None:
    reward, seats = task["reward"], task["seats"]
    tasks: list[dict] = []
    if reward in TOOLS:
        for seat in seats:
            if reward == "journal" and "journal" not in s.scientists[seat].tools:
                continue  # the Journal belongs to the Study midpoint
            gain_tool(r, s, seat, reward)
    elif reward == "extinguisher_refill":
        for seat in seats:
            gain_tool(r, s, seat, "fire_extinguisher")
    elif reward == "lab_fire":
        tasks = lab_fire(s, None)
    elif reward == "grant":
        tasks = [{"do": "grant", "seat": task["scorer"]}]
    elif reward == "claim_jump":
        tasks = [{"do": "claim_jump", "seat": seat} for seat in seats]
    s.agenda[0:0] = tasks


# --- Grant ----------------------------------------------------------------------
def _grant_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "grant", "seat": low, "track": t}
            for low in r.lowest(s) for t in TRACKS if not r.at_top(s, low, t)]


def _grant_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    advance(r, s, a["seat"], a["track"])


def _grant_why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    if a.get("seat") not in r.lowest(s):
        return "The Grant goes to the scientist with the lowest score."
    return "That experiment is already at its top."


decision("grant", choices=_grant_choices, resolve=_grant_resolve, why=_grant_why,
         refusal="Choose which experiment of the lowest-scoring scientist moves up.")(
    lambda r, s, task: [task["seat"]] if _grant_choices(r, s, task, task["seat"]) else [])


# --- Claim Jump -------------------------------------------------------------------
def _movable(r: Rules, s: State, seat: int) -> list[int]:
    """Tokens a Claim Jump may move: not one on a completed compound (it is being scored)."""
    out = []
    for k, t in enumerate(s.scientists[seat].tokens):
        i = int(t[5:]) if t.startswith("cell:") else None
        if i is None or not s.grid[i].complete:
            out.append(k)
    return out


def _jump_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [a for k in _movable(r, s, seat) for a in claim_targets(r, s, seat, k)] + [{"type": "pass"}]


def _jump_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    if a["type"] == "claim":
        move_token(r, s, seat, a)


decision("claim_jump", choices=_jump_choices, resolve=_jump_resolve,
         why=lambda r, s, t, seat, a: why_claim(r, s, seat, a) if a.get("type") == "claim" else None,
         refusal="Move one of your claim tokens to a new compound or tool refresh space, or pass.")(
    lambda r, s, task: [task["seat"]])
