"""Synthesis card data: rules figures, dice, boards, goal and Project cards.

``parse(files)`` reads a card set (``cardsdata/synthesis`` or an author's
copy) and reports every problem of every file at once, each with its file,
line and key or column. Beyond types it checks what makes the set playable:
every board side passes :func:`.layout.check_layout`, every bond is one
piece, every card's drawing reads, and every name used is defined.

Files (:data:`FILES`):

``rules.yaml``     turns, colours, the Active Element disc, points tables
``dice.yaml``      the Bond die's six shapes and the Mutation die's six faces
``boards.yaml``    the 24 board layouts (12 boards, sides A and B)
``patterns.csv``   the 10 Molecular Pattern cards
``chains.yaml``    the 11 Molecular Chain cards
``projects.yaml``  the 26 solo Project cards
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import yaml

from engine.data import CardFiles, DataError, Problem
from engine.synthesis.bonds import MANDATORY, MUTATIONS, Shape, connected, parse_shape
from engine.synthesis.chains import points_table
from engine.synthesis.datafiles import (BoardsData, ChainCardData, ChainsData, DiceData, MutationFace, PatternRow,
                                        ProjectData, ProjectsData, RulesData)
from engine.synthesis.lattice import Axial, parse_hex
from engine.synthesis.layout import Layout, check_layout, compile_layout
from engine.synthesis.patterns import GROUP_RULES, RULES
from engine.synthesis.printed import BoardSheet, DiceSheet, board_sheets, dice_sheet
from engine.synthesis.printed import source as printed_source
from engine.synthesis.table import TablePattern

FILES = ("rules.yaml", "dice.yaml", "boards.yaml", "patterns.csv", "chains.yaml", "projects.yaml")


# --- the compiled card set ---------------------------------------------------------
@dataclass(frozen=True)
class BondShape:
    id: str
    name: str
    lines: Shape


@dataclass(frozen=True)
class PatternCard:
    row: PatternRow
    group: tuple[Axial, ...]

    @property
    def id(self) -> str:
        return self.row.id


@dataclass(frozen=True)
class ChainCard:
    row: ChainCardData
    pattern: TablePattern

    @property
    def id(self) -> str:
        return self.row.id


@dataclass(frozen=True)
class ProjectCard:
    row: ProjectData
    chains: tuple[TablePattern, ...]

    @property
    def id(self) -> str:
        return self.row.id


@dataclass(frozen=True)
class SynthesisCards:
    """Everything the rules (and later the printer) know about one card set."""

    rules: RulesData
    bonds: dict[str, BondShape]
    mutations: dict[str, MutationFace]
    layouts: dict[tuple[str, str], Layout]
    patterns: dict[str, PatternCard]
    chains: dict[str, ChainCard]
    projects: dict[str, ProjectCard]
    sheets: tuple[BoardSheet, ...] = ()
    """The printed boards, one per letter (:mod:`.printed`)."""
    dice_sheet: DiceSheet | None = None

    def source(self, name: str) -> Any:
        """What a data file holds, for the print manifest's ``source:``
        (:func:`engine.synthesis.printed.source`)."""
        return printed_source(self, name)

    @property
    def letters(self) -> dict[str, str]:
        """Colour id -> its letter in compact text (``red`` -> ``r``)."""
        return {c.id: c.letter for c in self.rules.colours}

    @property
    def points(self) -> tuple[int, ...]:
        return points_table(self.rules.chain_points)

    def boards(self, side: str) -> list[str]:
        return sorted(b for b, s in self.layouts if s == side)


# --- parsing -------------------------------------------------------------------------
class _Lines:
    """Where keys sit in a YAML file, for problems found after validation."""

    def __init__(self, text: str | None) -> None:
        try:
            # libyaml where PyYAML has it: the same marks, ten times faster (asked on every read of a set)
            self.node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) if text else None
        except yaml.YAMLError:
            self.node = None

    def line(self, *path: Any) -> int | None:
        node = self.node
        line = node.start_mark.line + 1 if node is not None else None
        for part in path:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == str(part):
                        node, line = v, k.start_mark.line + 1
                        break
                else:
                    return line
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
                node = node.value[part]
                line = node.start_mark.line + 1
            else:
                return line
        return line


def _unique(ids: list[tuple[int | None, str]], shown: str, key: str, problems: list[Problem]) -> None:
    seen: dict[str, int | None] = {}
    for line, i in ids:
        if i in seen:
            problems.append(Problem(shown, line, key, f"expected a new id, found {i!r} again (first on line {seen[i]})"))
        seen.setdefault(i, line)


def parse(files: CardFiles) -> SynthesisCards:
    """Read and check a Synthesis card set; every problem of every file at once."""
    problems: list[Problem] = []
    rules = files.document("rules.yaml", RulesData, problems)
    dice = files.document("dice.yaml", DiceData, problems)
    boards = files.document("boards.yaml", BoardsData, problems)
    pattern_rows = files.table("patterns.csv", PatternRow, problems)
    chains = files.document("chains.yaml", ChainsData, problems)
    projects = files.document("projects.yaml", ProjectsData, problems)
    raw = {name: files.files.get(name) for name in FILES if name.endswith(".yaml")}
    # lines only: a file that is not UTF-8 is reported by files.text above
    where = {name: _Lines(r.decode("utf-8-sig", "replace") if isinstance(r, bytes) else r) for name, r in raw.items()}

    bonds: dict[str, BondShape] = {}
    mutations: dict[str, MutationFace] = {}
    if dice is not None:
        shown, at = files.shown("dice.yaml"), where["dice.yaml"].line
        _unique([(at("bond_die", i, "id"), f.id) for i, f in enumerate(dice.bond_die)], shown, "id", problems)
        for i, face in enumerate(dice.bond_die):
            try:
                lines = parse_shape(face.lines)
            except ValueError as exc:
                problems.append(Problem(shown, at("bond_die", i, "lines"), f"bond_die.{i}.lines", str(exc), "key"))
                continue
            if len(lines) < 2 or not connected(lines):
                problems.append(Problem(shown, at("bond_die", i, "lines"), f"bond_die.{i}.lines",
                                        "expected a bond of two or more lines in one piece (so that every "
                                        "mutation can apply to it)", "key"))
                continue
            bonds[face.id] = BondShape(face.id, face.name, lines)
        ids = [f.id for f in dice.mutation_die]
        for i, face in enumerate(dice.mutation_die):
            key = f"mutation_die.{i}"
            if face.id not in MUTATIONS:
                problems.append(Problem(shown, at("mutation_die", i, "id"), key + ".id",
                                        f"expected a mutation the rules know ({', '.join(MUTATIONS)}), "
                                        f"found {face.id!r}", "key"))
            elif face.kind != ("mandatory" if face.id in MANDATORY else "optional"):
                problems.append(Problem(shown, at("mutation_die", i, "kind"), key + ".kind",
                                        f"the rulebook makes {face.id!r} "
                                        f"{'mandatory' if face.id in MANDATORY else 'optional'}", "key"))
            mutations[face.id] = face
        if sorted(ids) != sorted(MUTATIONS):
            problems.append(Problem(shown, at("mutation_die"), "mutation_die",
                                    f"expected each of the six mutations once ({', '.join(MUTATIONS)})", "key"))

    layouts: dict[tuple[str, str], Layout] = {}
    if boards is not None:
        shown, at = files.shown("boards.yaml"), where["boards.yaml"].line
        shapes = tuple(rules.elemental_shapes) if rules else None  # unknown: rules.yaml did not read
        seen: dict[tuple[str, str], int | None] = {}
        for i, data in enumerate(boards.layouts):
            key = (data.board, data.side)
            if key in seen:
                problems.append(Problem(shown, at("layouts", i), f"layouts.{i}",
                                        f"board {data.board} side {data.side} again (first on line {seen[key]})", "key"))
            seen.setdefault(key, at("layouts", i))
            try:
                lay = compile_layout(data.board, data.side, data.formula, data.active, data.elemental,
                                     data.lines, tuple(data.table))
            except ValueError as exc:
                problems.append(Problem(shown, at("layouts", i, "formula"), f"layouts.{i}",
                                        f"board {data.board} side {data.side}: {exc}", "key"))
                continue
            declared = tuple(f.id for f in dice.bond_die) if dice is not None else None
            for msg in check_layout(lay, shapes, declared):
                problems.append(Problem(shown, at("layouts", i), f"layouts.{i}",
                                        f"board {data.board} side {data.side}: {msg}", "key"))
            layouts[key] = lay
        letters = {b for b, _ in seen}
        for b in sorted(letters):
            for side in ("A", "B"):
                if (b, side) not in seen:
                    problems.append(Problem(shown, None, "layouts", f"board {b} has no side {side}", "key"))

    patterns: dict[str, PatternCard] = {}
    shown = files.shown("patterns.csv")
    _unique([(line, row.id) for line, row in pattern_rows], shown, "id", problems)
    for line, row in pattern_rows:
        if row.rule not in RULES:
            problems.append(Problem(shown, line, "rule", f"expected a rule the engine knows "
                                                         f"({', '.join(RULES)}), found {row.rule!r}"))
            continue
        group: tuple[Axial, ...] = ()
        if row.rule in GROUP_RULES:
            try:
                group = tuple(parse_hex(t) for t in (row.group or "").split())
            except ValueError as exc:
                problems.append(Problem(shown, line, "group", str(exc)))
                continue
            if len(group) < 2:
                problems.append(Problem(shown, line, "group", "expected the group's hexagons, e.g. 'A1 A2 B1'"))
                continue
        elif row.group:
            problems.append(Problem(shown, line, "group", f"rule {row.rule!r} takes no group"))
        patterns[row.id] = PatternCard(row, group)

    chain_cards: dict[str, ChainCard] = {}
    if chains is not None:
        shown, at = files.shown("chains.yaml"), where["chains.yaml"].line
        _unique([(at("cards", i, "id"), c.id) for i, c in enumerate(chains.cards)], shown, "id", problems)
        for i, card in enumerate(chains.cards):
            try:
                pattern = TablePattern.parse(card.shape)
            except ValueError as exc:
                problems.append(Problem(shown, at("cards", i, "shape"), f"cards.{i}.shape", str(exc), "key"))
                continue
            chain_cards[card.id] = ChainCard(card, pattern)

    project_cards: dict[str, ProjectCard] = {}
    if projects is not None:
        shown, at = files.shown("projects.yaml"), where["projects.yaml"].line
        _unique([(at("cards", i, "id"), c.id) for i, c in enumerate(projects.cards)], shown, "id", problems)
        for i, card in enumerate(projects.cards):
            drawn = []
            for k, text in enumerate(card.chains):
                try:
                    p = TablePattern.parse(text)
                except ValueError as exc:
                    problems.append(Problem(shown, at("cards", i, "chains", k), f"cards.{i}.chains.{k}", str(exc), "key"))
                    continue
                if not p.is_path() or len(p.cells) < 2:
                    problems.append(Problem(shown, at("cards", i, "chains", k), f"cards.{i}.chains.{k}",
                                            "a chain to reconstitute is two or more cells joined by solid "
                                            "lines, without branches", "key"))
                    continue
                drawn.append(p)
            project_cards[card.id] = ProjectCard(card, tuple(drawn))

    if problems:
        raise DataError(problems)
    assert rules and dice and boards and chains and projects
    cards = SynthesisCards(rules=rules, bonds=bonds, mutations=mutations, layouts=layouts,
                           patterns=patterns, chains=chain_cards, projects=project_cards)
    sheets = tuple(board_sheets(cards))
    cards = replace(cards, sheets=sheets, dice_sheet=dice_sheet(cards))
    _register_lines(files, where, cards, boards, chains, projects)
    return cards


def _register_lines(files: CardFiles, where: dict[str, "_Lines"], cards: SynthesisCards, boards: BoardsData,
                    chains: ChainsData, projects: ProjectsData) -> None:
    """Where each printed piece of the YAML files was read (``CardFiles.read``):
    a card's text that will not fit is then reported on the card's own line."""
    boards_at, chains_at, projects_at = (where[n].line for n in ("boards.yaml", "chains.yaml", "projects.yaml"))
    first = {}
    for i, data in enumerate(boards.layouts):
        first.setdefault(data.board, boards_at("layouts", i) or 1)
    files.read["boards.yaml"] = [(1, boards)] + [(first[s.board], s) for s in cards.sheets]
    files.read["dice.yaml"] = files.read.get("dice.yaml", []) + [(where["dice.yaml"].line("bond_die") or 1,
                                                                 cards.dice_sheet)]
    files.read["chains.yaml"] = [(chains_at("cards", i) or 1, c) for i, c in enumerate(chains.cards)]
    files.read["projects.yaml"] = [(projects_at("cards", i) or 1, c) for i, c in enumerate(projects.cards)]
