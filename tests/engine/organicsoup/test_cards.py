"""The Organic Soup card set: the rulebook's counts, its named molecules,
every recipe checked against RDKit directly, and the loader's errors
(file:line:column, every problem at once)."""

from __future__ import annotations

import pytest

from engine.chem import formula_counts, structure
from engine.data import CardFiles, DataError
from engine.organicsoup.cards import DECK_SIZES, FILES, SIMPLE_MAX_ATOMS, parse
from engine.organicsoup.examples import example_cards
from tests.engine.organicsoup.conftest import FOLDER, rulebook_files

Chem = pytest.importorskip("rdkit.Chem")
from rdkit.Chem import rdCIPLabeler, rdMolDescriptors  # noqa: E402

from engine.organicsoup.drawing import layout  # noqa: E402
from tests.engine.organicsoup.stereo import drawn_cis, stereo_double_bonds  # noqa: E402


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


def test_complex_and_amino_recipes_overlap_in_size(cards):
    """Design doc, Complex recipes: complex recipes have six to twelve atoms,
    amino/nucleic ones ten to twenty-four, so the levels overlap. Glycine,
    the smallest amino/nucleic recipe, has as many atoms as Pyruvic Acid and
    fewer than Propane, Diaminomaleonitrile, Glyceraldehyde and Lactic Acid;
    18 of the 20 have more atoms than any complex recipe."""
    size = {level: sorted(r.size for r in cards.level(level)) for level in ("complex", "amino")}
    assert (size["complex"][0], size["complex"][-1], size["amino"][0], size["amino"][-1]) == (6, 12, 10, 24)
    glycine = cards.recipe("glycine").size
    assert glycine == size["amino"][0] == 10
    assert {r.id: r.size for r in cards.level("complex") if r.size >= glycine} == {
        "pyruvic-acid": 10, "propane": 11, "diaminomaleonitrile": 12, "glyceraldehyde": 12, "lactic-acid": 12}
    assert sum(n > size["complex"][-1] for n in size["amino"]) == 18
    assert cards.recipe("lysine").size == 24 == 2 * size["complex"][-1]


def test_every_recipe_checked_against_rdkit_directly(cards):
    """Every recipe is a real, neutral, single molecule of C, H, N and O, and
    the counts the game prints are RDKit's own reading of its SMILES; the
    printed formula (the data's, as chemists write it) holds those atoms."""
    for r in cards.recipes:
        mol = Chem.MolFromSmiles(r.smiles)
        assert mol is not None, r.name
        assert rdMolDescriptors.CalcMolFormula(mol) == r.structure.formula, r.name
        with_h = Chem.AddHs(mol)
        counts: dict[str, int] = {}
        for atom in with_h.GetAtoms():
            counts[atom.GetSymbol()] = counts.get(atom.GetSymbol(), 0) + 1
        assert counts == r.counts, r.name
        assert formula_counts(r.formula) == counts, r.name
        assert set(counts) <= {"C", "H", "N", "O"}, r.name
        assert Chem.GetFormalCharge(mol) == 0 and len(Chem.GetMolFrags(mol)) == 1, r.name
        assert r.atoms == tuple(counts.get(e, 0) for e in "CHNO"), r.name


# The standard InChIKey of each card's molecule, worked out from its *name*,
# never from the SMILES in the data: by OPSIN (name to structure; "nitrogen
# monoxide" for Nitric Oxide, "propa-1,2-diene-1,3-dione" for Carbon Suboxide,
# "carbon" and "dihydrogen" and so on for the basic recipes), then RDKit's
# InChI. The amino acids are written without stereochemistry (design doc),
# so theirs is the key of the unspecified molecule: the skeleton block of
# the L form's key with the stereo block UHFFFAOYSA. A new or changed card
# needs its key here, from its name (OPSIN, or its PubChem record).
INCHIKEYS = {
    "graphite": "OKTJSMMVPCPJKN-UHFFFAOYSA-N",
    "hydrogen": "UFHFLCQGNIYNRP-UHFFFAOYSA-N",
    "nitrogen": "IJGRMHOSHXDMSA-UHFFFAOYSA-N",
    "oxygen": "MYMOFIZGZYHOMD-UHFFFAOYSA-N",
    "water": "XLYOFNOQVPJJNP-UHFFFAOYSA-N",
    "carbon-suboxide": "GNEVIACKFGQMHB-UHFFFAOYSA-N",
    "nitric-oxide": "MWUXSHHQAYIFBG-UHFFFAOYSA-N",
    "carbon-monoxide": "UGFAIRIUMAVXCW-UHFFFAOYSA-N",
    "carbon-dioxide": "CURLTUGMZLYLDI-UHFFFAOYSA-N",
    "ammonia": "QGZKDVFQNNGYKY-UHFFFAOYSA-N",
    "methane": "VNWKTOKETHGBQD-UHFFFAOYSA-N",
    "hydrogen-cyanide": "LELOWRISYMNNSU-UHFFFAOYSA-N",
    "nitrous-oxide": "GQPLMRYTRLFLPF-UHFFFAOYSA-N",
    "nitrogen-dioxide": "JCXJVPUVTGWSNB-UHFFFAOYSA-N",
    "hydrogen-peroxide": "MHAJPDPJQMAIIY-UHFFFAOYSA-N",
    "formaldehyde": "WSFSSNUMVMOOMR-UHFFFAOYSA-N",
    "hydroxylamine": "AVXURJPOCDRRFD-UHFFFAOYSA-N",
    "cyanamide": "XZMCDFZZKTWFGF-UHFFFAOYSA-N",
    "ozone": "CBENFWSGALASAD-UHFFFAOYSA-N",
    "isocyanic-acid": "OWIKHYCFFJSOEH-UHFFFAOYSA-N",
    "acetylene": "HSFWRNGVRCDJHI-UHFFFAOYSA-N",
    "formic-acid": "BDAGIHXWWSANSR-UHFFFAOYSA-N",
    "nitrous-acid": "IOVCWXUNBOPUCH-UHFFFAOYSA-N",
    "cyanogen": "JMANVNJQNLATNU-UHFFFAOYSA-N",
    "propionitrile": "FVSKHRXBFJPNKK-UHFFFAOYSA-N",
    "propane": "ATUOYWHBWRKTHZ-UHFFFAOYSA-N",
    "methanol": "OKKJLVBELUTLKV-UHFFFAOYSA-N",
    "ethanol": "LFQSCWFLJHTTHZ-UHFFFAOYSA-N",
    "formamide": "ZHNUHDYFZUAESO-UHFFFAOYSA-N",
    "urea": "XSQUKJJJFZCRTK-UHFFFAOYSA-N",
    "glycolaldehyde": "WGCNASOHLSPBMP-UHFFFAOYSA-N",
    "glyceraldehyde": "MNQZXJOMYWMBOU-UHFFFAOYSA-N",
    "aminoacetonitrile": "DFNYGALUNNFWKJ-UHFFFAOYSA-N",
    "acetaldehyde": "IKHGUXGNUITLKF-UHFFFAOYSA-N",
    "acetic-acid": "QTBSBXVTEAMEQO-UHFFFAOYSA-N",
    "acetonitrile": "WEVYAHXRMPXWCK-UHFFFAOYSA-N",
    "ethylene": "VGGSQFUCUMXWEO-UHFFFAOYSA-N",
    "ethane": "OTMSDBZUPAUEDD-UHFFFAOYSA-N",
    "methylamine": "BAVYZALUXZFZLV-UHFFFAOYSA-N",
    "pyruvic-acid": "LCTONWCANYUPML-UHFFFAOYSA-N",
    "lactic-acid": "JVTAAEKCZFNVCJ-UHFFFAOYSA-N",
    "hydrazine": "OAKJQQAXSVQMHS-UHFFFAOYSA-N",
    "imidazole": "RAXXELZNTBOGNW-UHFFFAOYSA-N",
    "diaminomaleonitrile": "DPZSNGJNFHWQDC-ARJAWSKDSA-N",   # Z; the E isomer, diaminofumaronitrile: -ONEGZZNKSA-N
    "glycine": "DHMQDGOQFOQNFH-UHFFFAOYSA-N",
    "alanine": "QNAYBMKLOCPYGJ-UHFFFAOYSA-N",
    "serine": "MTCFGRXMJLQNBG-UHFFFAOYSA-N",
    "threonine": "AYFVYJQAPQTCCC-UHFFFAOYSA-N",
    "valine": "KZSNJWFQEVHDMF-UHFFFAOYSA-N",
    "leucine": "ROHFNLRQFUQHCH-UHFFFAOYSA-N",
    "isoleucine": "AGPKZVBTJJNPAG-UHFFFAOYSA-N",
    "proline": "ONIBWKKTOPOVIA-UHFFFAOYSA-N",
    "aspartic-acid": "CKLJMWTZIZZHCS-UHFFFAOYSA-N",
    "glutamic-acid": "WHUUTDBJXJRKMK-UHFFFAOYSA-N",
    "asparagine": "DCXYFEDJOCDNAF-UHFFFAOYSA-N",
    "glutamine": "ZDXPYRJPNDTMRX-UHFFFAOYSA-N",
    "lysine": "KDXKERNSBIXSRK-UHFFFAOYSA-N",
    "histidine": "HNDVDQJCIGZPNO-UHFFFAOYSA-N",
    "phenylalanine": "COLNVLDHVKWLRT-UHFFFAOYSA-N",
    "adenine": "GFFGJBXGBJISGV-UHFFFAOYSA-N",
    "guanine": "UYTPUPDQBNUYGX-UHFFFAOYSA-N",
    "cytosine": "OPTASPLRGRRNAP-UHFFFAOYSA-N",
    "thymine": "RWQNBRDOKXIBIV-UHFFFAOYSA-N",
    "uracil": "ISAKRJDGNUQOIC-UHFFFAOYSA-N",
}


def test_every_recipe_is_the_molecule_its_name_says(cards):
    """The formula and counts above cannot tell isomers apart (Leucine from
    Isoleucine, maleo- from fumaronitrile): each card's SMILES must give the
    standard InChIKey of the molecule its name names, stereo layer included."""
    assert set(INCHIKEYS) == {r.id for r in cards.recipes}
    wrong = [(r.name, Chem.MolToInchiKey(Chem.MolFromSmiles(r.smiles)), INCHIKEYS[r.id]) for r in cards.recipes
             if Chem.MolToInchiKey(Chem.MolFromSmiles(r.smiles)) != INCHIKEYS[r.id]]
    assert wrong == []


def test_diaminomaleonitrile_is_the_z_isomer(cards):
    """Diaminomaleonitrile is the cis (Z) isomer: its two amino groups on one
    side of the C=C, its two nitriles on the other (the E isomer is
    diaminofumaronitrile). The only stereo element in the data, so the only
    one to check: no other recipe fixes a double bond or a stereocentre."""
    mol = Chem.MolFromSmiles(cards.recipe("diaminomaleonitrile").smiles)
    rdCIPLabeler.AssignCIPLabels(mol)
    double = [b for b in mol.GetBonds() if b.GetBondType() == Chem.BondType.DOUBLE]
    assert [b.GetProp("_CIPCode") for b in double] == ["Z"]
    assert Chem.MolToInchi(mol) == "InChI=1S/C4H4N4/c5-1-3(7)4(8)2-6/h7-8H2/b4-3-"
    assert Chem.MolToInchiKey(mol) == "DPZSNGJNFHWQDC-ARJAWSKDSA-N"
    fixed = {r.id for r in cards.recipes
             if any(s.specified == Chem.StereoSpecified.Specified for s in Chem.FindPotentialStereo(
                 Chem.MolFromSmiles(r.smiles)))}
    assert fixed == {"diaminomaleonitrile"}


def test_every_drawing_keeps_the_geometry_of_its_double_bonds(cards):
    """The drawing the card and the phone share (engine.organicsoup.drawing)
    puts the atoms about a double bond on the sides its SMILES says: on
    Diaminomaleonitrile both amino groups on one side, both nitriles on the other."""
    assert stereo_double_bonds("F/C=C\\F") == [(0, 1, 2, 3, True)]
    assert stereo_double_bonds("F/C=C/F") == [(0, 1, 2, 3, False)] and stereo_double_bonds("FC=CF") == []
    checked = set()
    for r in cards.recipes:
        points = [(a.x, a.y) for a in layout(r).atoms]
        for a, b, c, d, cis in stereo_double_bonds(r.smiles):
            assert drawn_cis(points, a, b, c, d) == cis, r.name
            checked.add(r.id)
    assert checked == {"diaminomaleonitrile"}
    damn = layout(cards.recipe("diaminomaleonitrile"))
    points = [(a.x, a.y) for a in damn.atoms]
    (b, c), = [(bond.a, bond.b) for bond in damn.bonds if bond.order == 2]

    def on(i: int, element: str) -> int:
        """The atom of ``element`` single-bonded to ``i``: its amino N or its nitrile C."""
        return next(j for bond in damn.bonds if bond.order == 1 for k, j in ((bond.a, bond.b), (bond.b, bond.a))
                    if k == i and damn.atoms[j].element == element)

    amino, nitrile = [on(b, "N"), on(c, "N")], [on(b, "C"), on(c, "C")]
    assert drawn_cis(points, amino[0], b, c, amino[1]) and drawn_cis(points, nitrile[0], b, c, nitrile[1])
    assert not drawn_cis(points, amino[0], b, c, nitrile[1])


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
        theirs = cards.recipe(r.id)
        assert (r.name, r.level, r.smiles, r.formula) == (theirs.name, theirs.level, theirs.smiles, theirs.formula)


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
    text = text.replace("methane,simple,Methane,C,CH4,", "methane,simple,Methane,CC#C,C3H4,")
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


def test_a_printed_formula_must_hold_the_structures_atoms():
    """The formula is the data's, as chemists write it (NH3, not Hill's H3N),
    and must have exactly the atoms of the recipe's structure."""
    text = (recipes_text().replace("ammonia,simple,Ammonia,N,NH3,", "ammonia,simple,Ammonia,N,NH4,")
            .replace("water,simple,Water,O,H2O,", "water,simple,Water,O,,")
            .replace("methane,simple,Methane,C,CH4,", "methane,simple,Methane,C,CH4+,")
            .replace("urea,complex,Urea,NC(N)=O,CO(NH2)2,", "urea,complex,Urea,NC(N)=O,CO(NH2,"))
    shown = "cardsdata/organicsoup/recipes.csv"
    assert problems(files_with(recipes_csv=text)) == [
        f"{shown}:{line_of(text, 'water')}: column 'formula': expected the formula as chemists write it "
        "(NH3, H2SO4), found nothing",
        f"{shown}:{line_of(text, 'ammonia')}: column 'formula': expected the atoms of H3N (the structure's formula, "
        "in any order), found 'NH4'",
        f"{shown}:{line_of(text, 'methane')}: column 'formula': expected a charge of +0 (the structure's), "
        "found +1 in 'CH4+'",
        f"{shown}:{line_of(text, 'urea')}: column 'formula': unbalanced '(' in formula 'CO(NH2'",
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
    text = recipes_text().replace("cyanogen,simple,Cyanogen,N#CC#N,C2N2,", "cyanogen,simple,Cyanogen,O,H2O,")
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
