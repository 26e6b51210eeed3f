"""The Organic Soup card set: the rulebook's counts, its named molecules,
every recipe checked against RDKit directly, and the loader's errors
(file:line:column, every problem at once)."""

from __future__ import annotations

import pytest

from engine.chem import structure
from engine.data import CardFiles, DataError
from engine.organicsoup.cards import DECK_SIZES, FILES, SIMPLE_MAX_ATOMS, parse
from engine.organicsoup.examples import example_cards
from tests.engine.organicsoup.conftest import FOLDER, rulebook_files

Chem = pytest.importorskip("rdkit.Chem")
from rdkit.Chem import rdMolDescriptors  # noqa: E402


def test_atom_cards_follow_the_rulebook(cards):
    """About the Cards: "114 atom cards: 27 Carbon, 42 Hydrogen, 18 Nitrogen, 27 Oxygen"."""
    assert {a.element: a.count for a in cards.atoms} == {"C": 27, "H": 42, "N": 18, "O": 27}
    assert cards.atom_cards == 114
    assert [a.name for a in cards.atoms] == ["Carbon", "Hydrogen", "Nitrogen", "Oxygen"]


def test_recipe_cards_follow_the_rulebook(cards):
    """About the Cards: "64 recipe cards: 4 basic, 20 simple, 20 complex, 20 amino/nucleic"."""
    assert len(cards.recipes) == 64
    assert {level: len(cards.level(level)) for level in DECK_SIZES} == {
        "basic": 4, "simple": 20, "complex": 20, "amino": 20}


def test_the_basic_recipes_are_the_rulebooks(cards):
    """The basic recipes: Graphite, Hydrogen, Nitrogen and Oxygen; "a
    molecule of Carbon (Graphite) is made up of one atom of Carbon" and the
    others "call for two atoms each"."""
    assert {r.name: r.formula for r in cards.level("basic")} == {
        "Graphite": "C", "Hydrogen": "H2", "Nitrogen": "N2", "Oxygen": "O2"}


@pytest.mark.parametrize("name,level", [("Water", "simple"), ("Carbon Suboxide", "simple"),
                                        ("Nitric Oxide", "simple"), ("Propionitrile", "complex"),
                                        ("Propane", "complex"), ("Glutamic Acid", "amino")])
def test_the_molecules_the_rulebook_names_are_in_the_deck(cards, name, level):
    """The rulebook names Water and Carbon Suboxide (simple), Nitric Oxide
    (a recipe in hand in the reaction example), Propionitrile (complex),
    Propane (the parallel reaction) and Glutamic Acid (amino/nucleic)."""
    found = [r for r in cards.recipes if r.name == name]
    assert len(found) == 1 and found[0].level == level


def test_simple_recipes_have_at_most_five_atoms(cards):
    """The simple recipes: "small molecules containing up to five atoms"."""
    assert all(r.size <= SIMPLE_MAX_ATOMS for r in cards.level("simple"))
    # Design doc, Cards: the larger levels really are larger.
    assert min(r.size for r in cards.level("complex")) > SIMPLE_MAX_ATOMS
    assert min(r.size for r in cards.level("amino")) > max(r.size for r in cards.level("simple"))


def test_every_recipe_checked_against_rdkit_directly(cards):
    """Every recipe is a real, neutral, single molecule of C, H, N and O, and
    the formula and counts the game prints are RDKit's own reading of its SMILES."""
    for r in cards.recipes:
        mol = Chem.MolFromSmiles(r.smiles)
        assert mol is not None, r.name
        assert rdMolDescriptors.CalcMolFormula(mol) == r.formula, r.name
        with_h = Chem.AddHs(mol)
        counts: dict[str, int] = {}
        for atom in with_h.GetAtoms():
            counts[atom.GetSymbol()] = counts.get(atom.GetSymbol(), 0) + 1
        assert counts == r.counts, r.name
        assert set(counts) <= {"C", "H", "N", "O"}, r.name
        assert Chem.GetFormalCharge(mol) == 0 and len(Chem.GetMolFrags(mol)) == 1, r.name
        assert r.atoms == tuple(counts.get(e, 0) for e in "CHNO"), r.name


def test_radicals_are_read_without_added_hydrogens(cards):
    """Design doc, Radicals: "[N]=O" is Nitric Oxide, NO, with one unpaired
    electron; "[C]" is Graphite, one atom."""
    no = cards.recipe("nitric-oxide")
    assert no.formula == "NO" and sum(no.structure.radicals) == 1
    assert cards.recipe("graphite").formula == "C"
    assert Chem.MolFromSmiles("[N]=O").GetAtomWithIdx(0).GetNumRadicalElectrons() == 1


def test_every_molecule_is_different(cards):
    """No two recipes share a name, an id or a structure (isomers are fine:
    Leucine and Isoleucine share C6H13NO2)."""
    assert len({r.id for r in cards.recipes}) == len({r.name for r in cards.recipes}) == 64
    canonical = {Chem.MolToSmiles(Chem.MolFromSmiles(r.smiles)) for r in cards.recipes}
    assert len(canonical) == 64
    assert cards.recipe("leucine").formula == cards.recipe("isoleucine").formula


def test_every_card_has_a_fact_line_short_enough_to_print(cards):
    assert all(r.fact and len(r.fact) <= 90 for r in cards.recipes)
    assert all(a.fact for a in cards.atoms)


def test_turn_sequence_cards_summarise_build_and_react(cards):
    """The rules summary cards "serve as reminders of how to perform the two
    main actions in the game -- building molecules and triggering reactions"; 4 of them."""
    seq = cards.turn_sequence
    assert seq.copies == 4
    headings = [s.heading for s in seq.sections]
    assert "Build molecules" in headings and "Trigger a reaction" in headings
    assert sum(len(s.steps) for s in seq.sections) >= 8


def test_the_example_set_agrees_with_the_rulebook_set(cards):
    """engine.organicsoup.examples copies a dozen recipes for docstrings:
    each must be the rulebook set's own."""
    for r in example_cards().recipes:
        assert (r.name, r.level, r.smiles) == (cards.recipe(r.id).name, cards.recipe(r.id).level, cards.recipe(r.id).smiles)


# --- the loader's errors ------------------------------------------------------------
def files_with(**replace: str) -> CardFiles:
    files = {n: (FOLDER / n).read_text(encoding="utf-8") for n in FILES}
    for name, text in replace.items():
        files[name.replace("_", "-").replace("-csv", ".csv").replace("-yaml", ".yaml")] = text
    return CardFiles(files, "cardsdata/organicsoup")


def recipes_text() -> str:
    return (FOLDER / "recipes.csv").read_text(encoding="utf-8")


def problems(files: CardFiles) -> list[str]:
    with pytest.raises(DataError) as exc:
        parse(files)
    return [str(p) for p in exc.value.problems]


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_the_rulebook_set_parses(cards):
    assert parse(rulebook_files()).recipes == cards.recipes


def test_every_problem_at_once_with_file_line_and_column():
    text = recipes_text()
    text = text.replace("water,simple,Water,O,", "water,simple,Water,O(,")
    text = text.replace("ozone,simple,Ozone,[O-][O+]=O,", "ozone,simple,Ozone,O=S=O,")
    text = text.replace("methane,simple,Methane,C,", "methane,simple,Methane,CC#C,")
    text = text.replace("ammonia,simple,Ammonia,N,", "ammonia,simple,Water,N,")
    text = text.replace("cyanogen,simple,", "formic-acid,simple,")
    found = problems(files_with(recipes_csv=text))
    shown = "cardsdata/organicsoup/recipes.csv"
    assert found == [
        f"{shown}:{line_of(text, 'water')}: column 'smiles': SMILES 'O(': its brackets ( ) do not pair up",
        f"{shown}:{line_of(text, 'ammonia')}: column 'name': expected a new name, found 'Water' again "
        f"(first on line {line_of(text, 'water')})",
        f"{shown}:{line_of(text, 'methane')}: column 'smiles': a simple recipe has at most 5 atoms, found 7 (C3H4)",
        f"{shown}:{line_of(text, 'ozone')}: column 'smiles': expected only Carbon, Hydrogen, Nitrogen and Oxygen, "
        "found Sulfur",
        f"{shown}:{line_of(text, 'formic-acid,simple,Cyanogen')}: column 'id': expected a new id, found "
        f"'formic-acid' again (first on line {line_of(text, 'formic-acid')})",
    ]


def test_wrong_counts_of_cards_per_level():
    text = "\n".join(line for line in recipes_text().splitlines() if not line.startswith("uracil"))
    assert problems(files_with(recipes_csv=text)) == [
        "cardsdata/organicsoup/recipes.csv: column 'level': expected 20 amino/nucleic recipes, found 19"]


def test_a_level_that_is_not_one():
    text = recipes_text().replace("uracil,amino,", "uracil,nucleic,")
    found = problems(files_with(recipes_csv=text))
    assert found[-1].startswith(f"cardsdata/organicsoup/recipes.csv:{line_of(text, 'uracil')}: column 'level': "
                                "expected 'basic', 'simple', 'complex' or 'amino', found 'nucleic'")


def test_a_molecule_twice_under_two_names():
    text = recipes_text().replace("cyanogen,simple,Cyanogen,N#CC#N,", "cyanogen,simple,Cyanogen,O,")
    assert problems(files_with(recipes_csv=text)) == [
        f"cardsdata/organicsoup/recipes.csv:{line_of(text, 'cyanogen')}: column 'smiles': expected a new molecule, "
        f"found the same structure as Water (line {line_of(text, 'water')})"]


def test_ions_salts_and_a_second_basic_recipe_of_one_element():
    text = recipes_text().replace("cyanogen,simple,Cyanogen,N#CC#N,", "cyanogen,simple,Cyanogen,[NH4+],")
    text = text.replace("nitrous-acid,simple,Nitrous Acid,ON=O,", "nitrous-acid,simple,Nitrous Acid,N.O,")
    text = text.replace("graphite,basic,Graphite,[C],", "graphite,basic,Graphite,[H],")
    found = problems(files_with(recipes_csv=text))
    assert any("expected a neutral molecule, found a charge of +1" in p for p in found)
    assert any("expected one molecule, found 2 pieces" in p for p in found)
    assert any("expected one basic recipe per element, found a second Hydrogen one" in p for p in found)


def test_a_recipe_larger_than_the_atom_deck():
    atoms = "element,count\nC,27\nH,42\nN,4\nO,27\n"
    found = problems(files_with(atoms_csv=atoms))
    text = recipes_text()
    assert f"cardsdata/organicsoup/recipes.csv:{line_of(text, 'adenine')}: column 'smiles': needs more atoms than " \
           "the atom deck holds: 1 Nitrogen atom too many" in found


def test_atom_deck_errors():
    found = problems(files_with(atoms_csv="element,count\nC,27\nH,forty\nC,3\nS,2\n"))
    assert "cardsdata/organicsoup/atoms.csv:3: column 'count': expected a whole number, found 'forty'" in found
    assert "cardsdata/organicsoup/atoms.csv:4: column 'element': expected each element once, found C again " \
           "(first on line 2)" in found
    assert "cardsdata/organicsoup/atoms.csv:5: column 'element': expected one of C, H, N, O, found 'S'" in found


def test_turn_sequence_errors_name_the_key():
    found = problems(files_with(turn_sequence_yaml="title: Turn Sequence\nsections:\n  - heading: Build\n"))
    assert found == ["cardsdata/organicsoup/turn-sequence.yaml:3: key 'sections.0.steps': expected a value, found nothing"]


def test_a_missing_file():
    files = {n: (FOLDER / n).read_bytes() for n in FILES if n != "atoms.csv"}
    assert problems(CardFiles(files, "cardsdata/organicsoup")) == ["cardsdata/organicsoup/atoms.csv: file is missing"]
