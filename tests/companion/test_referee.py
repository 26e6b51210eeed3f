"""The referee: replay from the log, versions and conflicts, undo."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.db import Database
from companion.errors import BadInput, Conflict, Refused
from companion.referee import Referee
from companion.store import Store
from engine.core import IllegalAction


@pytest.fixture
def referee(database_url: str, toy: Any) -> Any:
    database = Database(database_url)
    database.init_schema()
    yield Referee(Store(database))
    database.close()


def _start(referee: Referee, players: int = 2, seed: int = 99, options: dict | None = None) -> str:
    table, _ = referee.create("toyrace", options or {"target": 30}, seed=seed)
    for i in range(players):
        referee.join(table["code"], f"P{i}")
    referee.start(table["code"], referee.version(table["code"]))
    return table["code"]


def test_state_is_setup_plus_replay_and_survives_a_cold_cache(referee: Referee) -> None:
    code = _start(referee)
    for seat in (0, 1):
        referee.act(code, seat, {"type": "bet", "guess": "high"}, referee.version(code))
    snap = referee.act(code, 0, {"type": "roll"}, referee.version(code))
    before = snap.game.to_dict(snap.state)
    referee.forget()                         # as after a restart: nothing in memory
    again = referee.snapshot(code)
    assert again.game.to_dict(again.state) == before
    assert again.version == snap.version and again.moves == 3


def test_a_fresh_process_sees_what_another_wrote(referee: Referee) -> None:
    code = _start(referee)
    other = Referee(referee.store)            # a second server process on the same database
    other.snapshot(code)
    referee.act(code, 0, {"type": "bet", "guess": "low"}, referee.version(code))
    assert other.snapshot(code).view(0)["my_bet"] == "low"


def test_illegal_actions_change_nothing(referee: Referee) -> None:
    code = _start(referee)
    version = referee.version(code)
    with pytest.raises(IllegalAction, match="Everyone bets before the lead rolls"):
        referee.act(code, 0, {"type": "roll"}, version)
    with pytest.raises(BadInput):
        referee.act(code, 0, ["not", "an", "object"], version)
    with pytest.raises(BadInput):
        referee.act(code, 0, {"type": "bet"}, "seven")
    assert referee.version(code) == version
    assert referee.snapshot(code).moves == 0


def test_a_stale_version_conflicts_when_your_choices_changed(referee: Referee) -> None:
    code = _start(referee)
    v = referee.version(code)
    referee.act(code, 0, {"type": "bet", "guess": "high"}, v)
    with pytest.raises(Conflict) as caught:      # the same phone, twice on one version
        referee.act(code, 0, {"type": "bet", "guess": "low"}, v)
    assert caught.value.snapshot.version == v + 1
    assert referee.snapshot(code).view(0)["my_bet"] == "high"


def test_a_stale_version_passes_when_nothing_you_may_do_changed(referee: Referee) -> None:
    """Simultaneous phase: a neighbour's bet does not change yours."""
    code = _start(referee, players=3)
    v = referee.version(code)
    referee.act(code, 0, {"type": "bet", "guess": "high"}, v)
    snap = referee.act(code, 1, {"type": "bet", "guess": "low"}, v)
    assert snap.moves == 2


def test_strict_versions_make_every_stale_action_a_conflict(referee: Referee) -> None:
    strict = Referee(referee.store, strict_versions=True)
    code = _start(strict, players=3)
    v = strict.version(code)
    strict.act(code, 0, {"type": "bet", "guess": "high"}, v)
    with pytest.raises(Conflict):
        strict.act(code, 1, {"type": "bet", "guess": "low"}, v)


def test_an_undo_since_your_version_always_conflicts(referee: Referee) -> None:
    code = _start(referee, players=3)
    v = referee.version(code)
    referee.act(code, 0, {"type": "bet", "guess": "high"}, v)
    referee.undo(code, v + 1)
    with pytest.raises(Conflict):
        referee.act(code, 1, {"type": "bet", "guess": "low"}, v)


def test_undoing_a_roll_and_rolling_again_gives_the_same_die(referee: Referee) -> None:
    code = _start(referee)
    for seat in (0, 1):
        referee.act(code, seat, {"type": "bet", "guess": "high"}, referee.version(code))
    first = referee.act(code, 0, {"type": "roll"}, referee.version(code)).view(0)["last_die"]
    referee.undo(code, referee.version(code))
    assert referee.snapshot(code).view(0)["last_die"] is None
    referee.forget()
    again = referee.act(code, 0, {"type": "roll"}, referee.version(code)).view(0)["last_die"]
    assert again == first


def test_only_a_started_table_takes_actions_and_undo(referee: Referee) -> None:
    table, _ = referee.create("toyrace", {}, seed=1)
    with pytest.raises(Refused):
        referee.act(table["code"], 0, {"type": "roll"}, 0)
    with pytest.raises(Refused):
        referee.undo(table["code"], 0)
    referee.join(table["code"], "Solo")
    with pytest.raises(Refused, match="at least 2"):
        referee.start(table["code"], referee.version(table["code"]))


def test_the_lobby_seats_each_name_once_up_to_the_limit(referee: Referee) -> None:
    """The lobby's rules live in the referee: the store only records."""
    table, _ = referee.create("toyrace", {}, seed=1)
    code = table["code"]
    assert referee.join(code, "Ada")[0] == 0
    with pytest.raises(Refused, match="already called"):
        referee.join(code, "ADA")
    assert referee.join(code, "Bo")[0] == 1
    assert referee.join(code, "Cy")[0] == 2
    with pytest.raises(Refused, match="full"):
        referee.join(code, "Di")
    snap = referee.snapshot(code)
    assert snap.names == ["Ada", "Bo", "Cy"]
    referee.start(snap, snap.version)
    with pytest.raises(Refused, match="started"):
        referee.join(code, "Late")


def test_bad_options_fail_at_creation(referee: Referee) -> None:
    with pytest.raises(BadInput, match="target"):
        referee.create("toyrace", {"target": "far"})
    with pytest.raises(BadInput, match="Unknown game"):
        referee.create("chess")


def test_threads_on_the_same_version_exactly_one_applies(referee: Referee) -> None:
    """Both seats act at once in the roll phase: the lead's roll and a
    second roll from the same seat on the same version; exactly one lands."""
    code = _start(referee)
    for seat in (0, 1):
        referee.act(code, seat, {"type": "bet", "guess": "high"}, referee.version(code))
    version = referee.version(code)
    referee.forget()
    barrier = threading.Barrier(6)
    results: list[str] = []

    def roll() -> None:
        other = Referee(referee.store)       # separate caches, like separate processes
        barrier.wait()
        try:
            other.act(code, 0, {"type": "roll"}, version)
            results.append("applied")
        except Conflict:
            results.append("conflict")
        except IllegalAction:
            results.append("illegal")

    threads = [threading.Thread(target=roll) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("applied") == 1, results
    assert referee.snapshot(code).moves == 3


class _AgreeingToy:
    """Toy Race with an end by agreement (``Game.end_by_agreement``), as a game whose rules may go on for
    ever offers it: the house's side of the hook, with no real game named."""

    @staticmethod
    def make(referee: Referee) -> Any:
        from tests.toygame.game import ToyRace

        class Agreeing(ToyRace):
            def end_by_agreement(self, state: dict) -> dict:
                if self.is_over(state):
                    raise IllegalAction("The race is over.")
                return {**state, "agreed": True}

            def is_over(self, state: dict) -> bool:
                return bool(state.get("agreed")) or super().is_over(state)

        game = Agreeing(referee.game("toyrace").cards)
        referee._games["toyrace"] = game
        return game


def test_a_game_without_the_hook_cannot_be_ended_by_agreement(referee: Referee) -> None:
    code = _start(referee)
    assert not referee.snapshot(code).game.ends_by_agreement
    with pytest.raises(Refused, match="played to its end"):
        referee.end_by_agreement(code, referee.version(code))
    assert referee.snapshot(code).moves == 0


def test_the_table_ends_a_game_by_agreement_as_a_logged_row_of_its_own(referee: Referee) -> None:
    """The end by agreement is logged as the table's (no seat), told in words, replayed from the database
    after a restart, refused on a stale version, and taken back by the host's undo."""
    game = _AgreeingToy.make(referee)
    code = _start(referee)
    referee.act(code, 0, {"type": "bet", "guess": "high"}, referee.version(code))
    version = referee.version(code)
    with pytest.raises(Conflict):
        referee.end_by_agreement(code, version - 1)
    with pytest.raises(BadInput):
        referee.end_by_agreement(code, "now")
    snap = referee.end_by_agreement(code, version)
    assert snap.over and snap.moves == 2 and snap.table["status"] == "over"
    assert snap.log[-1].startswith("The host ended the game, as everyone agreed: it is scored as it stands; ")
    with pytest.raises(IllegalAction, match="over"):
        referee.end_by_agreement(code, snap.version)
    referee.forget()
    again = referee.snapshot(code)
    assert again.over and again.log == snap.log and game.to_dict(again.state)["agreed"] is True
    referee.undo(code, again.version)
    assert not referee.snapshot(code).over and referee.snapshot(code).moves == 1


def _double_tap_hazard(game: Any, players: int = 2) -> tuple[int, list, int, dict]:
    """A real position where a seat's move leaves that seat the very same
    choices, so that a second tap on the same control is a legal move again
    (Compounded: a second element; Lab Notes: a second trash; Synthesis: a
    second roll): ``(seed, log to it, seat, action)``, found by seeded play."""
    import random

    from engine.core import RulesError

    for seed in range(20):
        rng, state, log = random.Random(seed), game.setup(players, seed), []
        for _ in range(400):
            if game.is_over(state):
                break
            seat = rng.choice(game.to_move(state))
            actions = game.actions(state, seat)
            for action in actions:
                after = game.apply(state, seat, action)
                if game.actions(after, seat) == actions:
                    try:
                        game.apply(after, seat, action)
                    except RulesError:
                        continue
                    return seed, log, seat, action
            action = rng.choice(actions)
            state = game.apply(state, seat, action)
            log.append((seat, action))
    raise AssertionError(f"no double-tap position found in {game.title}")


@pytest.mark.parametrize("name", ["compounded", "labnotes", "synthesis"])
def test_a_double_tap_applies_once(referee: Referee, name: str) -> None:
    """Found at the table: two requests from one tap-tap, each with its own
    action id and the version the phone saw, applied twice (the seat's choices
    had not changed, so the second looked like a move made beside another's)."""
    game = referee.game(name)
    seed, log, seat, action = _double_tap_hazard(game)
    table, _ = referee.create(name, {}, seed=seed)
    for i in range(2):
        referee.join(table["code"], f"P{i}")
    code = table["code"]
    referee.start(code, referee.version(code))
    for who, move in log:
        referee.act(code, who, move, referee.version(code))
    seen = referee.version(code)
    first = referee.act(code, seat, action, seen, "tap-00000001")
    with pytest.raises(Conflict, match="You moved just now"):
        referee.act(code, seat, action, seen, "tap-00000002")
    again = referee.snapshot(code)
    assert again.moves == first.moves == len(log) + 1 and again.version == first.version


def test_an_action_id_reused_for_another_move_is_refused_not_taken_for_a_retry(referee: Referee) -> None:
    code = _start(referee)
    v = referee.version(code)
    referee.act(code, 0, {"type": "bet", "guess": "high"}, v, "bet-00000001")
    retried = referee.act(code, 0, {"type": "bet", "guess": "high"}, v, "bet-00000001")
    assert retried.moves == 1                                     # the same request again: applied once
    for seen in (v, referee.version(code)):                       # an old version, and the current one
        with pytest.raises(Conflict, match="id of another move"):
            referee.act(code, 1, {"type": "bet", "guess": "low"}, seen, "bet-00000001")
    assert referee.snapshot(code).moves == 1 and referee.snapshot(code).view(1)["my_bet"] is None


def test_the_undo_notice_names_the_move_taken_back_not_what_followed_it(referee: Referee) -> None:
    """Found at a table: the notice read "Ben leads and rolls" (the next
    round's first line) when the move taken back was another's."""
    import random

    table, _ = referee.create("labnotes", {}, seed=11)
    code = table["code"]
    for name in ("Ada", "Ben"):
        referee.join(code, name)
    referee.start(code, referee.version(code))
    rng = random.Random(11)
    for _ in range(400):
        snap = referee.snapshot(code)
        seat = rng.choice(snap.to_move())
        before = len(snap.log)
        after = referee.act(code, seat, rng.choice(snap.actions(seat)), snap.version)
        said = after.log[before:]
        if len(said) > 1:
            break
    else:
        raise AssertionError("no move told in more than one line")
    referee.undo(code, after.version)
    notice = referee.snapshot(code).table["notice"]
    assert notice == f"The host took back a move: {said[0]}", (notice, said)
