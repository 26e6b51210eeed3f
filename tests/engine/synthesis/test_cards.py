"""The card data: the rulebook's components and figures, and data errors
that name file, line and key, all at once."""

from __future__ import annotations

import pytest

from engine.data import CardFiles, DataError
from engine.synthesis.bonds import MANDATORY, MUTATIONS, OPTIONAL
from engine.synthesis.cards import parse
from engine.synthesis.examples import TEXTS
from engine.synthesis.patterns import RULES
from tests.engine.synthesis.conftest import data_files


def broken(name: str, old: str, new: str):
    files = data_files()
    text = files[name].decode()
    assert old in text, old
    files[name] = text.replace(old, new, 1).encode()
    with pytest.raises(DataError) as err:
        parse(CardFiles(files, "cardsdata/synthesis"))
    return err.value


def test_twelve_double_sided_boards(game):
    """Game Components: "12 double-sided Synthesis boards".\""""
    assert sorted(game.cards.layouts) == [(b, s) for b in "ABCDEFGHIJKL" for s in "AB"]


def test_the_dice(game):
    """The Bond die has six shapes; the Mutation die the six mutations, three
    mandatory and three optional (Mutant Bonds)."""
    assert list(game.cards.bonds) == ["angle", "arc", "zigzag", "branch", "chain", "bay"]
    assert sorted(game.cards.mutations) == sorted(MUTATIONS)
    assert {m.id for m in game.cards.mutations.values() if m.kind == "mandatory"} == set(MANDATORY)
    assert {m.id for m in game.cards.mutations.values() if m.kind == "optional"} == set(OPTIONAL)
    assert sorted(len(b.lines) for b in game.cards.bonds.values()) == [2, 3, 3, 3, 4, 4]


def test_the_goal_and_project_decks(game):
    """"26 Project cards", "10 Molecular Pattern cards", "11 Molecular Chain cards".\""""
    cards = game.cards
    assert len(cards.patterns) == 10 and len(cards.chains) == 11 and len(cards.projects) == 26
    assert [c.row.rule for c in cards.patterns.values()] == list(RULES)
    levels = [p.row.difficulty for p in cards.projects.values()]
    assert (levels.count(1), levels.count(2), levels.count(3)) == (9, 9, 8)


def test_every_goal_card_reaches_its_red_hexagon_in_whole_steps(game):
    for c in [*game.cards.chains.values(), *game.cards.patterns.values()]:
        assert c.row.maximum % c.row.points == 0 or c.row.maximum > c.row.points
        assert 0 < c.row.green <= c.row.yellow <= c.row.red <= c.row.maximum


def test_chain_cards_use_the_three_kinds_of_line(game):
    """Card Reference Guide: dotted lines (may), solid lines (must), none (must not)."""
    kinds = {k for c in game.cards.chains.values() for k in c.pattern.links.values()}
    assert kinds == {"solid", "dotted", "absent"}


def test_project_cards_ask_for_whole_chains_and_their_difficulty_in_elementals(game):
    """Unpredictable Consequences: "if your Project card is difficulty level
    2, you must [...] Create two elemental molecules.\""""
    for p in game.cards.projects.values():
        assert p.row.elemental == p.row.difficulty
        assert p.chains and all(c.is_path() for c in p.chains)
        assert all(max(c for _, c in ch.cells) < 6 for ch in p.chains)


def test_the_rulebooks_figures(game):
    r = game.cards.rules
    assert r.turns == 28
    assert dict(r.chain_points) == {2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28}
    assert (r.elemental_points.one, r.elemental_points.pair, r.line_points) == (6, 16, 5)
    assert "yellow" in r.disc.ring and r.disc.roller == "yellow" and len(r.disc.ring) == 4


def test_the_solo_example_cards_exist(game):
    """First Steps: "You chose the medium difficulty level. To win, you must
    score 15 points for the blue card and 10 points for the orange card.\""""
    assert any(c.row.yellow == 15 for c in game.cards.chains.values())
    assert any(c.row.yellow == 10 for c in game.cards.patterns.values())


def test_the_example_set_shares_the_real_figures_and_dice():
    import yaml
    files = data_files()
    for name in ("rules.yaml", "dice.yaml"):
        real = yaml.safe_load(files[name])
        example = yaml.safe_load(TEXTS[name])
        if name == "rules.yaml":
            assert real == example
        else:
            assert [f["lines"] for f in real["bond_die"]] == [f["lines"] for f in example["bond_die"]]
            assert [f["id"] for f in real["mutation_die"]] == [f["id"] for f in example["mutation_die"]]


def test_every_problem_of_every_file_at_once_with_file_and_line():
    files = data_files()
    files["rules.yaml"] = files["rules.yaml"].replace(b"turns: 28", b"turns: many")
    files["patterns.csv"] = files["patterns.csv"].replace(b"rising_colour", b"rising_color")
    files["chains.yaml"] = files["chains.yaml"].replace(b'"o-o-o-o"', b'"o-o-x-o"')
    del files["projects.yaml"]
    with pytest.raises(DataError) as err:
        parse(CardFiles(files, "cardsdata/synthesis"))
    text = str(err.value)
    assert "cardsdata/synthesis/rules.yaml:4: key 'turns': expected a whole number" in text
    assert "cardsdata/synthesis/patterns.csv:2: column 'rule': expected a rule the engine knows" in text
    assert "cardsdata/synthesis/chains.yaml:" in text and "expected a cell 'o' or a space, found 'x'" in text
    assert "cardsdata/synthesis/projects.yaml: file is missing" in text
    assert "boards.yaml" not in text  # no echo of another file's problem


def test_a_bond_die_face_in_two_pieces_is_refused():
    err = broken("dice.yaml", "lines: A1:NE A1:E              # two lines meeting at a corner", "lines: A1:NE A3:E")
    assert str(err) == ("cardsdata/synthesis/dice.yaml:8: key 'bond_die.0.lines': expected a bond of two or more "
                        "lines in one piece (so that every mutation can apply to it)")


def test_a_mutation_the_rules_do_not_know_is_refused():
    err = broken("dice.yaml", "  - id: move_line", "  - id: spin_line")
    assert "expected a mutation the rules know" in str(err)


def test_an_optional_mutation_made_mandatory_is_refused():
    err = broken("dice.yaml", "    name: Free floating\n    kind: optional", "    name: Free floating\n    kind: mandatory")
    assert "the rulebook makes 'no_connect' optional" in str(err)


def test_a_project_chain_that_branches_is_refused():
    err = broken("projects.yaml", '      - ["o-o-o"]\n      - ["o-o"]', '      - ["o-o-o", "  |", "  o"]\n      - ["o-o"]')
    assert "projects.yaml:14: key 'cards.0.chains.0': a chain to reconstitute is two or more cells" in str(err)


def test_thresholds_must_rise_to_the_maximum():
    err = broken("chains.yaml", "    green: 5\n    yellow: 10\n    red: 15\n    text: Two",
                 "    green: 5\n    yellow: 20\n    red: 15\n    text: Two")
    assert "thresholds must rise green <= yellow <= red <= maximum" in str(err)
