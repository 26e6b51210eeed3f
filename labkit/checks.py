"""Every check a card set must pass, in one place, so that ``labkit
validate``, ``labkit pack``, ``labkit serve --sets`` and a set uploaded from
a phone all refuse the same sets for the same reasons: its data (the game's
parser), its rules in words against the game's own (:mod:`labkit.columns`),
and every face drawn as printing would (text too long for its box, a
character the font cannot draw, text outside the safe zone).
"""

from __future__ import annotations

from pathlib import Path

from engine.data import CardFiles, DataError
from engine.descriptor import GameDescriptor
from labkit import cardsets, columns


def is_own(cardset: cardsets.CardSet) -> bool:
    """The game's own set (the rulebook's), which is the measure of the others."""
    return Path(cardset.folder).resolve() == cardsets.data_dir(cardset.game).resolve()


def words_problems(cardset: cardsets.CardSet) -> list[str]:
    """Rules in words changed on the game's own cards (:func:`labkit.columns.words_problems`)."""
    if is_own(cardset) or not cardset.game.columns:
        return []
    own = cardsets.cardset(cardset.game)
    found = columns.words_problems(cardset.game.columns, cardset.set_files, own.set_files, cardset.files.folder)
    return [str(p) for p in found]


def print_problems(cardset: cardsets.CardSet) -> list[str]:
    """Every face of the set drawn as ``labkit build`` prints it, and what does not fit or draw."""
    from generator.manifest import parse_manifest
    from generator.printable import BuildError, Printable, check

    raw = cardset.set_files.get(cardsets.MANIFEST)
    files = CardFiles({cardsets.MANIFEST: raw} if raw is not None else {}, cardset.files.folder)
    try:
        printable = Printable(cardset, parse_manifest(files))
        return [str(p) for p in check(printable)[1]]
    except DataError as exc:
        return [str(p) for p in exc.problems]
    except BuildError as exc:
        return [str(exc)]


def cardset_problems(cardset: cardsets.CardSet) -> list[str]:
    """What a set read without a problem in its data may still be refused for."""
    return list(dict.fromkeys(words_problems(cardset) + print_problems(cardset)))


def problems(game: GameDescriptor, folder: Path) -> list[str]:
    """Every problem of the set in ``folder`` (a folder or a zip): what ``labkit validate`` prints."""
    try:
        opened = cardsets.cardset(game, folder)
    except DataError as exc:
        return [str(p) for p in exc.problems]
    return cardset_problems(opened)


def changes(cardset: cardsets.CardSet) -> list[columns.Change]:
    """The columns of ``cardset`` that differ from the game's own, with what each does."""
    if is_own(cardset) or not cardset.game.columns:
        return []
    own = cardsets.cardset(cardset.game)
    return columns.changes(cardset.game.columns, cardset.set_files, own.set_files)
