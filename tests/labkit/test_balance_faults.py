"""Planted faults an author could make, found by a balance report at 200
games (``look_at``), and no card looked at in a set that did not change
(the issue's independent check, redone from the game's own files in a tmp
folder). Two games, the two whose bots play fastest (Organic Soup about 22
games per CPU-second at 2 players, Lab Notes about 10), 2 players, greedy
bots, seed 1; the game's own 200 games are played once per module and
shared (``Runner.cache``).

Tuned on (seen while the report's statistics were designed, seed 1): Organic
Soup's Urea made trivial and Ethanol made nearly impossible; Lab Notes'
Urea notecard made trivial. Kept out of the tuning (first run in this test;
the report's statistics unchanged after): Organic Soup's Hydrazine made
nearly impossible and Pyruvic Acid made trivial (below); Lab Notes'
Formamide notecard made trivial.

Kept out, tried first and not found, left out of this test (each cost
a set's games and shows no fault of the report): Organic Soup's Acetic
Acid "made trivial" as ``NCN`` and Pyruvic Acid as ``NCO``. The bots took
either new card less often, not more (Acetic Acid by a reaction in 33 of
the 115 games it was in play, against 47, built in 8 against 16; Pyruvic
Acid by a reaction in 8 of 107 against 15, built 1 against 1; none beyond
the noise after the correction): a smaller molecule is not an easier
card in this game when it needs nitrogen (18 of the 114 atom cards) or
when reactions of common molecules lead to the original. The third kept-
out "made trivial" fault, Pyruvic Acid as ``OCCO`` (no nitrogen), was
first run in this test: found with the greedy bots of the time, and no
longer with the bots that value their hand's recipes (``MISSED``).

Lab Notes' Ammonia notecard made nearly impossible was not found while the
greedy bots ignored the notecards (the game's own Ammonia was claimed in a
handful of the 200 games, so a notecard no one can claim looks the same);
it is found since they value progress toward the face-up notecards
(``engine/labnotes/notecard_reach.py``; its weights were not tuned on this
fault). Organic Soup's Glycine made trivial (``NCO``) was tried while
tuning and not found (9 against 6 games):
an amino acid is reached by reactions the bots rarely make.
"""

from __future__ import annotations

import pytest

from labkit import registry
from labkit.balance import report
from labkit.cardsets import cardset, open_set
from labkit.sets import new_set

# one xdist worker plays them all, so the game's own games are played once (make test: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("balance-faults")

GAMES = 200
FAULTS = {  # name: (game, file, the row as the game has it, the row made faulty, the card)
    "urea made trivial": ("organicsoup", "recipes.csv", "\nurea,complex,Urea,NC(N)=O,CO(NH2)2,",
                          "\nurea,complex,Urea,OCO,CH4O2,", "urea"),
    "ethanol made nearly impossible": ("organicsoup", "recipes.csv", "\nethanol,complex,Ethanol,CCO,C2H5OH,",
                                       "\nethanol,complex,Ethanol,CCCCCCCCCCO,C10H21OH,", "ethanol"),
    "pyruvic acid made trivial (kept out, the third tried)": ("organicsoup", "recipes.csv",
                                                              "\npyruvic-acid,complex,Pyruvic Acid,CC(=O)C(=O)O,"
                                                              "CH3COCOOH,",
                                                              "\npyruvic-acid,complex,Pyruvic Acid,OCCO,C2H6O2,",
                                                              "pyruvic-acid"),
    "hydrazine made nearly impossible (kept out)": ("organicsoup", "recipes.csv",
                                                    "\nhydrazine,complex,Hydrazine,NN,N2H4,",
                                                    "\nhydrazine,complex,Hydrazine,NNNNNNNN,N8H10,", "hydrazine"),
    "notecard urea made trivial": ("labnotes", "notecards.csv", "\nurea,compound,Urea,CO(NH2)2,NC(N)=O,",
                                   "\nurea,compound,Urea,H2O,O,", "urea"),
    "notecard formamide made trivial (kept out)": ("labnotes", "notecards.csv",
                                                   "\nformamide,compound,Formamide,HCONH2,NC=O,",
                                                   "\nformamide,compound,Formamide,H2,[H][H],", "formamide"),
    "notecard ammonia made nearly impossible": ("labnotes", "notecards.csv", "\nammonia,compound,Ammonia,NH3,N,",
                                                "\nammonia,compound,Ammonia,C6H14,CCCCCC,", "ammonia"),
}
MISSED = {"pyruvic acid made trivial (kept out, the third tried)":
          "found with the greedy bots that ignored their hand's recipes; with the bots that value them (issue 38) "
          "it is taken by a reaction in 32 of the 107 games it was in play against 18 of 107 (p 0.02), short "
          "of the corrected bar (about 0.008) at 200 games: a miss of the bots' play, said rather than tuned away"}
"""A planted fault the report does not find at 200 games today (strict: the
day it is found, the test says so and this entry goes)."""


@pytest.fixture(scope="module")
def played() -> dict:
    """Games already played, shared by every test here: the game's own set's
    200 games are played once per game."""
    return {}


def _report(game: str, folder, played: dict) -> dict:
    own = cardset(registry.find(game))
    return report(open_set(folder), own, GAMES, ["greedy"], [2], seed=1, workers=2, cache=played)


def _copy(game: str, tmp_path):
    folder = tmp_path / game
    new_set(registry.find(game), folder)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("fault", [pytest.param(name, marks=pytest.mark.xfail(reason=MISSED[name], strict=True))
                                   if name in MISSED else name for name in FAULTS])
def test_a_planted_fault_is_the_card_to_look_at(fault, tmp_path, played):
    game, file, row, faulty, card = FAULTS[fault]
    folder = _copy(game, tmp_path)
    text = (folder / file).read_text(encoding="utf-8")
    assert row in text
    (folder / file).write_text(text.replace(row, faulty), encoding="utf-8")
    data = _report(game, folder, played)
    looked = [c["card"] for c in data["look_at"]]
    assert card in looked, (looked, data["marked"][:5])
    assert len(looked) <= 2, looked  # the fault and at most one other card
    entry = next(c for c in data["look_at"] if c["card"] == card)
    assert any(f["field"] in ("smiles", "structure") for f in entry["changed"])  # what changed, field by field
    assert entry["name"] and entry["why"] and " of " in entry["why"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["organicsoup", "labnotes"])
def test_an_unchanged_or_reordered_set_has_no_card_to_look_at(game, tmp_path, played):
    """An unchanged copy plays the very games of the game's own set; its rows
    reversed (the same cards, other deals) plays other games, and the noise
    must not be taken for a card to look at: at most one card."""
    folder = _copy(game, tmp_path)
    assert _report(game, folder, played)["look_at"] == []
    for name in registry.find(game).card_files:
        path = folder / name
        if name.endswith(".csv") and path.exists():
            head, *body = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
            path.write_text("\n".join([head, *body[::-1]]) + "\n", encoding="utf-8")
    data = _report(game, folder, played)
    assert data["changed"] == {} and data["changed_files"]  # the same rows, by id, in files that differ
    assert len(data["look_at"]) <= 1, [c["why"] for c in data["look_at"]]
