"""Every sentence a test says it follows (``tests/rulebook.py``'s
``follows``) is in that rulebook."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.rulebook import RULES, ROOT, follows, normalised


def quotes() -> list[tuple[str, int, str, str]]:
    """``(file, line, rulebook, sentence)`` for every ``follows(...)`` under
    tests/ (but the helper itself and this file's probe of it)."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "follows"
                    and path.name not in ("rulebook.py", "test_rulebook_quotes.py")):
                args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                assert len(args) == len(node.args) >= 2, \
                    f"{path.relative_to(ROOT)}:{node.lineno}: follows() takes a rulebook and quoted sentences as literals"
                found += [(str(path.relative_to(ROOT)), node.lineno, args[0], s) for s in args[1:]]
    return found


def test_every_quoted_sentence_is_in_its_rulebook():
    if not RULES.is_dir():
        pytest.skip(f"the rulebooks are not beside this checkout ({RULES}); the rules themselves are still tested")
    texts: dict[str, str] = {}
    missing = []
    for file, line, book, sentence in quotes():
        path = RULES / book
        assert path.is_file(), f"{file}:{line}: no rulebook {book!r} in {RULES}"
        text = texts.setdefault(book, normalised(path.read_text(encoding="utf-8")))
        if normalised(sentence) not in text:
            missing.append(f"{file}:{line}: not in {book}: {sentence!r}")
    assert not missing, "\n".join(missing)


def test_the_check_finds_quotes_and_refuses_a_made_up_one(tmp_path):
    found = quotes()
    assert found, "no test follows a rulebook sentence"
    assert normalised("“You AND the  scientist”") == normalised("you and the scientist")
    assert normalised("a made-up rule") not in normalised("A real rule, made up of words.")

    @follows("x.md", "a sentence")
    def probe() -> None: ...

    assert probe.rulebook_quotes == ("x.md", ("a sentence",))
    with pytest.raises(TypeError):
        follows("x.md")
