"""Organic Soup card data: atom cards, recipe cards, turn sequence cards.

A recipe is written as a name, a SMILES string and its formula as chemists
write it (``recipes.csv``); everything else a card prints about its molecule
(atom counts, the drawing) is computed from the SMILES with
:func:`engine.chem.structure`, never typed, and the formula is checked
against it atom for atom (its order is the author's: NH3, not Hill's
H3N). :func:`parse` checks what makes the deck playable and reports
every problem at once, each with file, line and column.

Radicals (Nitric Oxide, Nitrogen Dioxide, and Graphite, the rulebook's one
atom of Carbon) are written with their atoms in square brackets, ``[N]=O``:
SMILES gives a bracketed atom exactly the hydrogens written inside the
bracket (none here), so RDKit adds none, and the unpaired electrons are kept
in :attr:`engine.chem.Structure.radicals` (design doc, "Radicals").

>>> files = CardFiles({"atoms.csv": "element,count\\nC,3\\nH,8\\nN,2\\nO,2\\n",
...     "recipes.csv": "id,level,name,smiles,formula\\nwater,simple,Water,O,H2O\\nsalt,simple,Salt,[Na+].[Cl-],NaCl\\n",
...     "turn-sequence.yaml": "title: T\\nsections: [{heading: B, steps: [x]}]\\n"}, "my-set")
>>> try:
...     parse(files)
... except DataError as exc:
...     print(str(exc).splitlines()[-1])
my-set/recipes.csv:3: column 'smiles': expected only Carbon, Hydrogen, Nitrogen and Oxygen, found Chlorine and Sodium
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from pydantic import Field

from engine.chem import ELEMENT_NAMES, ChemistryError, Structure, structure
from engine.formulas import formula_problem
from engine.data import CardFiles, DataError, Model, Problem
from engine.organicsoup.atoms import ELEMENTS, Vec, fits, in_words, vec

FILES = ("atoms.csv", "recipes.csv", "turn-sequence.yaml")
LEVELS = ("basic", "simple", "complex", "amino")
"""Recipe levels, lowest first: a player climbs them one at a time."""
LEVEL_NAMES = {"basic": "basic", "simple": "simple", "complex": "complex", "amino": "amino/nucleic"}
"""How the rulebook names each level."""
DECK_SIZES = {"basic": 4, "simple": 20, "complex": 20, "amino": 20}
"""About the Cards: "4 basic, 20 simple, 20 complex, 20 amino/nucleic"."""
SIMPLE_MAX_ATOMS = 5
"""The simple recipes: "small molecules containing up to five atoms"."""
SOUP = 12
"""Spill the soup: "Draw and place twelve atom cards faceup"."""

Level = Literal["basic", "simple", "complex", "amino"]
Id = str


class AtomRow(Model):
    element: str = Field(min_length=1, max_length=2)
    count: int = Field(ge=1, le=500)
    fact: str | None = None

    # The print manifest names a deck's pieces by ``id`` and ``name``; an
    # atom row has neither column, its element says both.
    @property
    def id(self) -> str:
        return ELEMENT_NAMES.get(self.element, self.element).lower()

    @property
    def name(self) -> str:
        return ELEMENT_NAMES.get(self.element, self.element)


class RecipeRow(Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)
    level: Level
    name: str = Field(min_length=1, max_length=40)
    smiles: str = Field(min_length=1)
    formula: str | None = None
    """As chemists write it (NH3, CH3COOH, C5H5N5): printed on the card."""
    fact: str | None = None


class Section(Model):
    heading: str = Field(min_length=1)
    steps: list[str] = Field(min_length=1)


class TurnSequence(Model):
    """The rules summary cards: one text, printed ``copies`` times."""

    title: str = Field(min_length=1)
    copies: int = Field(default=4, ge=1, le=12)
    intro: str | None = None
    sections: list[Section] = Field(min_length=1)

    # Printed as a deck of ``copies`` alike cards: the manifest wants an id and a name.
    @property
    def id(self) -> str:
        return "turn-sequence"

    @property
    def name(self) -> str:
        return self.title


@dataclass(frozen=True)
class AtomCard:
    element: str
    count: int
    fact: str | None = None
    row: AtomRow | None = field(default=None, repr=False, compare=False)
    """The row it was read from: the printer names a card's file and line by it."""

    @property
    def name(self) -> str:
        return ELEMENT_NAMES[self.element]


@dataclass(frozen=True)
class Recipe:
    """One recipe card, with what is computed from its SMILES."""

    id: str
    level: str
    name: str
    smiles: str
    fact: str | None
    structure: Structure = field(repr=False, compare=False)
    atoms: Vec = (0, 0, 0, 0)
    """Atom counts ``(C, H, N, O)``, from the structure."""
    row: RecipeRow | None = field(default=None, repr=False, compare=False)
    """The row it was read from: the printer names a card's file and line by it."""
    formula: str = ""
    """As printed, the data's (in the order chemists write it); checked
    against the structure's atoms when the card set is read."""

    @property
    def counts(self) -> dict[str, int]:
        return self.structure.counts

    @property
    def size(self) -> int:
        """How many atom cards one molecule takes."""
        return sum(self.atoms)

    @property
    def rank(self) -> int:
        return LEVELS.index(self.level)


@dataclass(frozen=True)
class OrganicSoupCards:
    """Everything the rules and the printer need to know about one card set."""

    atoms: tuple[AtomCard, ...]
    recipes: tuple[Recipe, ...]
    turn_sequence: TurnSequence

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {r.id: r for r in self.recipes})

    def recipe(self, recipe_id: str) -> Recipe:
        return self._by_id[recipe_id]  # type: ignore[attr-defined]

    def __contains__(self, recipe_id: object) -> bool:
        return recipe_id in self._by_id  # type: ignore[attr-defined]

    def level(self, level: str) -> tuple[Recipe, ...]:
        return tuple(r for r in self.recipes if r.level == level)

    def source(self, name: str) -> tuple[Any, ...]:
        """The rows a print component is made of (its ``source:`` in
        ``game.yaml``): ``atoms.csv``, ``turn-sequence.yaml``, and
        ``recipes.csv`` whole or one level of it, ``recipes.csv#simple``
        (each level is a card size of its own). The rows themselves, not
        copies: the printer finds a card's file and line by them, and a
        template reaches the card's chemistry with :meth:`recipe`.

        >>> from engine.organicsoup.examples import example_cards
        >>> [row.name for row in example_cards().source("recipes.csv#complex")]
        ['Propane', 'Propionitrile', 'Ethanol']
        """
        file, _, level = name.partition("#")
        if file == "recipes.csv" and (not level or level in LEVELS):
            return tuple(r.row for r in (self.level(level) if level else self.recipes))
        if file == "atoms.csv" and not level:
            return tuple(a.row for a in self.atoms)
        if file == "turn-sequence.yaml" and not level:
            return (self.turn_sequence,)
        raise KeyError(name)

    @property
    def atom_deck(self) -> Vec:
        """How many atom cards of each element the game has."""
        return vec({a.element: a.count for a in self.atoms})

    @property
    def atom_cards(self) -> int:
        return sum(a.count for a in self.atoms)


# --- checks -------------------------------------------------------------------
def _names(symbols) -> str:
    names = [ELEMENT_NAMES.get(s, s) for s in symbols]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _read_recipe(row: RecipeRow, shown: str, line: int, problems: list[Problem]) -> Recipe | None:
    def bad(message: str, column: str = "smiles") -> None:
        problems.append(Problem(shown, line, column, message))

    try:
        s = structure(row.smiles)
    except ChemistryError as exc:
        bad(str(exc))
        return None
    wrong = sorted(set(s.atoms) - set(ELEMENTS))
    if wrong:
        bad(f"expected only {_names(ELEMENTS)}, found {_names(wrong)}")
        return None
    if len(s.fragments) > 1:
        bad(f"expected one molecule, found {len(s.fragments)} pieces (a '.' joins separate molecules)")
    if s.charge:
        bad(f"expected a neutral molecule, found a charge of {s.charge:+d}")
    atoms = vec(s.counts)
    if row.level == "simple" and sum(atoms) > SIMPLE_MAX_ATOMS:
        bad(f"a simple recipe has at most {SIMPLE_MAX_ATOMS} atoms, found {sum(atoms)} ({s.formula})")
    if row.level == "basic" and len(s.elements) != 1:
        bad(f"a basic recipe is one element in molecular form, found {s.formula}")
    wrong_formula = formula_problem(row.formula, s)
    if wrong_formula:
        bad(wrong_formula, "formula")
    return Recipe(row.id, row.level, row.name, row.smiles, row.fact, s, atoms, row, row.formula or s.formula)


def _check_atoms(rows: list[tuple[int, AtomRow]], shown: str, problems: list[Problem]) -> None:
    seen: dict[str, int] = {}
    for line, row in rows:
        if row.element not in ELEMENTS:
            problems.append(Problem(shown, line, "element", f"expected one of {', '.join(ELEMENTS)}, found {row.element!r}"))
        elif row.element in seen:
            problems.append(Problem(shown, line, "element", f"expected each element once, found {row.element} again "
                                                            f"(first on line {seen[row.element]})"))
        seen.setdefault(row.element, line)
    missing = [e for e in ELEMENTS if e not in seen]
    if missing and rows:
        problems.append(Problem(shown, None, "element", f"expected a count for every element, {_names(missing)} missing"))
    if rows and sum(r.count for _, r in rows) <= SOUP:
        problems.append(Problem(shown, None, "count", f"expected more than {SOUP} atoms (the soup takes {SOUP} "
                                                      f"and the deck needs the rest), found {sum(r.count for _, r in rows)}"))


def _check_unique(rows: list[tuple[int, RecipeRow]], shown: str, problems: list[Problem]) -> None:
    ids: dict[str, int] = {}
    names: dict[str, int] = {}
    for line, r in rows:
        if r.id in ids:
            problems.append(Problem(shown, line, "id", f"expected a new id, found {r.id!r} again (first on line {ids[r.id]})"))
        key = r.name.casefold()
        if key in names:
            problems.append(Problem(shown, line, "name", f"expected a new name, found {r.name!r} again "
                                                         f"(first on line {names[key]})"))
        ids.setdefault(r.id, line)
        names.setdefault(key, line)


def _check_deck(recipes: list[tuple[int, Recipe]], deck: Vec | None, shown: str, problems: list[Problem]) -> None:
    for line, r in recipes:
        if deck is not None and not fits(r.atoms, deck):
            over = tuple(max(0, a - d) for a, d in zip(r.atoms, deck))
            problems.append(Problem(shown, line, "smiles", f"needs more atoms than the atom deck holds: "
                                                           f"{in_words(over)} too many"))
    for i, (line, r) in enumerate(recipes):
        for line2, r2 in recipes[:i]:
            if r.atoms == r2.atoms and r.structure.graph().is_isomorphic(r2.structure.graph()):
                problems.append(Problem(shown, line, "smiles", f"expected a new molecule, found the same structure as "
                                                               f"{r2.name} (line {line2})"))
                break


def _check_levels(rows: list[tuple[int, RecipeRow]], sizes: Mapping[str, int], shown: str,
                  problems: list[Problem]) -> None:
    for level, size in sizes.items():
        found = [row for _, row in rows if row.level == level]
        if len(found) != size:
            problems.append(Problem(shown, None, "level", f"expected {size} {LEVEL_NAMES[level]} recipes, found {len(found)}"))


def _check_basics(recipes: list[tuple[int, Recipe]], shown: str, problems: list[Problem]) -> None:
    """Building depends on one basic recipe per element: a soup of twelve
    always holds a whole basic molecule (design doc, reading 2)."""
    basics = [(line, r) for line, r in recipes if r.level == "basic" and len(r.structure.elements) == 1]
    covered: dict[str, int] = {}
    for line, r in basics:
        element = r.structure.elements[0]
        if element in covered:
            problems.append(Problem(shown, line, "smiles", f"expected one basic recipe per element, found a second "
                                                           f"{ELEMENT_NAMES[element]} one (line {covered[element]})"))
        covered.setdefault(element, line)


def parse(files: CardFiles, sizes: Mapping[str, int] = DECK_SIZES) -> OrganicSoupCards:
    """Read and check an Organic Soup card set; every problem of every file at once.

    ``sizes`` is how many recipes each level must have: the rulebook's, unless
    a small example set (:mod:`engine.organicsoup.examples`) says otherwise.

    >>> try:
    ...     parse(CardFiles({}, "cardsdata/organicsoup"))
    ... except DataError as exc:
    ...     print(exc)
    cardsdata/organicsoup/atoms.csv: file is missing
    cardsdata/organicsoup/recipes.csv: file is missing
    cardsdata/organicsoup/turn-sequence.yaml: file is missing
    """
    problems: list[Problem] = []
    atom_rows = files.table("atoms.csv", AtomRow, problems)
    _check_atoms(atom_rows, files.shown("atoms.csv"), problems)
    complete = len(atom_rows) == len(ELEMENTS) and all(r.element in ELEMENTS for _, r in atom_rows)
    deck = vec({r.element: r.count for _, r in atom_rows}) if complete else None

    shown = files.shown("recipes.csv")
    rows = files.table("recipes.csv", RecipeRow, problems)
    recipes = [(line, r) for line, r in ((line, _read_recipe(row, shown, line, problems)) for line, row in rows)
               if r is not None]
    if "recipes.csv" in files and rows:
        _check_levels(rows, sizes, shown, problems)
    _check_unique(rows, shown, problems)
    _check_deck(recipes, deck, shown, problems)
    _check_basics(recipes, shown, problems)

    sequence = files.document("turn-sequence.yaml", TurnSequence, problems)
    if problems:
        raise DataError(problems)
    atoms = tuple(AtomCard(r.element, r.count, r.fact, r) for _, r in sorted(atom_rows, key=lambda x: ELEMENTS.index(x[1].element)))
    ordered = tuple(sorted((r for _, r in recipes), key=lambda r: r.rank))  # level by level, file order within
    assert sequence is not None
    return OrganicSoupCards(atoms=atoms, recipes=ordered, turn_sequence=sequence)
