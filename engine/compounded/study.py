"""The Study phase: claims, one token at a time, in turn order.

"Each scientist (starting with the lead scientist and proceeding to the
left) may either move their claim token from their Workbench to a compound
on the board, ... from 1 compound to an unclaimed compound, or ... to a tool
icon on the scoreboard in order to immediately refresh a tool that they
have." Then those with a second token move it, and so on.

Actions: ``{"type": "claim", "token": k, "cell": i}``, ``{"type": "claim",
"token": k, "tool": "pipette"}`` (token ``k`` of yours not yet moved this
phase) or ``{"type": "keep"}``. Claim Jump (a reaction) offers the same
targets through ``{"type": "claim", ...}`` or ``{"type": "pass"}``.
"""

from __future__ import annotations

from engine.compounded.flow import Rules, automatic, cell_word, decision
from engine.compounded.state import State, cell_of
from engine.core import Action


def claim_targets(r: Rules, s: State, seat: int, token: int) -> list[Action]:
    """Where ``seat``'s claim token ``token`` may go: a compound still being
    made with a free claim spot, or a free tool refresh space."""
    here = s.scientists[seat].tokens[token]
    # Where every token lies, read once (a bot asks this for every claim it weighs).
    claims: dict[str, list[int]] = {}
    for who, sc in enumerate(s.scientists):
        for t in sc.tokens:
            claims.setdefault(t, []).append(who)
    out: list[Action] = []
    for i in r.open_compounds(s):
        where = f"cell:{i}"
        if here == where:
            continue
        on = claims.get(where, []) + s.grid[i].marks
        spots = r.spots(s, i)
        if len(on) < spots and (spots > 1 or seat not in on):
            out.append({"type": "claim", "token": token, "cell": i})
    for tool in r.refresh_spaces:
        if f"tool:{tool}" not in claims:
            out.append({"type": "claim", "token": token, "tool": tool})
    return out


def move_token(r: Rules, s: State, seat: int, a: Action) -> None:
    """Put the claim token where ``a`` says; on a tool space, refresh that tool if held."""
    sc = s.scientists[seat]
    if "cell" in a:
        sc.tokens[a["token"]] = f"cell:{a['cell']}"
    else:
        sc.tokens[a["token"]] = f"tool:{a['tool']}"
        if a["tool"] in sc.tools:
            sc.tools[a["tool"]] = True


def why_claim(r: Rules, s: State, seat: int, a: Action) -> str | None:
    token = a.get("token")
    if type(token) is not int or not 0 <= token < len(s.scientists[seat].tokens):
        return f"You have {len(s.scientists[seat].tokens)} claim token(s); token {token!r} is not one of them."
    if "cell" in a:
        i = a["cell"]
        if type(i) is not int or not 0 <= i < len(s.grid) or not r.compound(s.grid[i].card):
            return f"There is no compound at {cell_word(s, i)} to claim."
        if s.grid[i].complete:
            return "That compound is already complete."
        return "Someone has already claimed that compound."
    if a.get("tool") not in r.refresh_spaces:
        return f"There is no refresh space for {a.get('tool')!r} on the scoreboard."
    return "Another claim token is already on that tool refresh space."


@automatic("study")
def _study(r: Rules, s: State, task) -> None:
    s.phase = "study"
    s.agenda.insert(0, {"do": "claims", "pass": 0, "turn": 0, "moved": [[] for _ in range(s.players)]})


def _current(s: State, task) -> int | None:
    """The seat whose claim it is: pass ``k`` is for scientists with more than ``k`` tokens."""
    most = max(len(sc.tokens) for sc in s.scientists)
    k, j = task["pass"], task["turn"]
    while k < most:
        while j < s.players:
            seat = s.order()[j]
            if len(s.scientists[seat].tokens) > k:
                task["pass"], task["turn"] = k, j
                return seat
            j += 1
        k, j = k + 1, 0
    return None


def _seats(r: Rules, s: State, task) -> list[int]:
    seat = _current(s, dict(task))
    return [] if seat is None else [seat]


def _choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    out: list[Action] = []
    for k in range(len(s.scientists[seat].tokens)):
        if k not in task["moved"][seat]:
            out += claim_targets(r, s, seat, k)
    return out + [{"type": "keep"}]


def _resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    _current(s, task)
    if a["type"] == "claim":
        move_token(r, s, seat, a)
        task["moved"][seat].append(a["token"])
    task["turn"] += 1


def _why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    if a.get("type") == "claim":
        if a.get("token") in task["moved"][seat]:
            return "You have already moved that claim token this phase: move another one, or keep."
        return why_claim(r, s, seat, a)
    return None


def _legal(r: Rules, s: State, task, seat: int, a: Action) -> bool | None:
    """Whether a claim is one of :func:`_choices`, without listing them
    (a keep: ``None``, list them). Kept to the same conditions as
    :func:`claim_targets`, and tested against it."""
    if a.get("type") != "claim" or len(a) != 3:
        return None if a.get("type") != "claim" else False
    token = a.get("token")
    tokens = s.scientists[seat].tokens
    if type(token) is not int or not 0 <= token < len(tokens) or token in task["moved"][seat]:
        return False
    if "cell" in a:
        i = a["cell"]
        if type(i) is not int or not 0 <= i < len(s.grid) or s.grid[i].complete or s.grid[i].card not in r.needs:
            return False
        if tokens[token] == f"cell:{i}":
            return False
        claims = r.claimants(s, i)
        spots = r.spots(s, i)
        return len(claims) < spots and (spots > 1 or seat not in claims)
    tool = a.get("tool")
    return type(tool) is str and tool in r.refresh_spaces and r.tool_space_holder(s, tool) is None


decision("claims", choices=_choices, resolve=_resolve, why=_why, legal=_legal,
         refusal="Move one of your claim tokens to a compound or a tool refresh space, or keep.")(_seats)


__all__ = ["claim_targets", "cell_of", "move_token", "why_claim"]
