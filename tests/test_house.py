"""The house itself: the core names no game, its modules stay readable in one
sitting, and nothing imports in a circle (docs/design/adding-a-game.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from labkit import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "generator", "companion", "labkit", "reader")
KNOWN = ("labnotes", "lab notes", "lab_notes", "organicsoup", "organic soup", "organic_soup", "compounded",
         "synthesis", "toyrace", "toy race")
"""Every game there is or is being written, by name and by title."""


def _core_files() -> list[Path]:
    """The core: everything in the shared folders that is not a game's own
    (a path naming a game is that game's), nor a fetched vendor file."""
    names = {g.name for g in registry.games().values()} | {"labnotes", "organicsoup", "compounded", "synthesis"}
    out = []
    for folder in (*PACKAGES, "bench", "templates"):
        for path in (ROOT / folder).rglob("*"):
            rel = path.relative_to(ROOT)
            if not path.is_file() or "__pycache__" in rel.parts or "vendor" in rel.parts:
                continue
            if any(n in part for part in rel.parts for n in names):
                continue
            if path.suffix in (".py", ".html", ".j2", ".js", ".css", ".yaml", ".toml"):
                out.append(path)
    return out + [ROOT / "Makefile"]


def test_there_is_a_core_to_check():
    files = {p.relative_to(ROOT).as_posix() for p in _core_files()}
    assert {"companion/pages.py", "generator/build.py", "engine/core.py", "labkit/cli.py", "reader/page.py",
            "companion/static/companion.js", "templates/companion/base.html", "Makefile"} <= files


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_core_names_no_game(path: Path):
    titles = {g.title.lower() for g in registry.games().values()}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(set(KNOWN) | titles)), re.I)
    named = [f"{i}: {line.strip()[:100]}" for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert not named, f"{path.relative_to(ROOT)} names a game:\n" + "\n".join(named)


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            out[".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")] = p
    return out


@pytest.mark.parametrize("path", [p for p in _modules().values() if p.parts[len(ROOT.parts)] != "labkit"],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_is_over_400_lines(path: Path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{path.relative_to(ROOT)} has {lines} lines: split it along the rulebook or its concerns"


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """What a module imports when it runs: imports under ``if TYPE_CHECKING``
    are for readers, not run; ``from pkg import sub`` imports the submodule."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    deps = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            deps.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
            if len(subs) < len(node.names):
                deps.add(node.module)  # a name defined in the module (or package) itself
            deps.update(subs)
    return {d for d in deps if d in modules}


def test_nothing_imports_in_a_circle():
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def _self_calling_nested(path: Path) -> list[str]:
    """Nested functions that call themselves by name and whose name the
    enclosing function never deletes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for outer in ast.walk(tree):
        if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        deleted = {t.id for n in ast.walk(outer) if isinstance(n, ast.Delete) for t in n.targets
                   if isinstance(t, ast.Name)}
        for inner in ast.walk(outer):
            if inner is outer or not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            calls = {n.func.id for n in ast.walk(inner) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            if inner.name in calls and inner.name not in deleted:
                found.append(f"{path.relative_to(ROOT)}: {outer.name}.{inner.name}")
    return found


def test_no_nested_function_calls_itself_without_letting_go():
    """A nested function that calls itself by name is a reference cycle (it
    and its closure's cell) that only a full garbage collection frees, and a
    serving worker never makes one (companion/collector.py): the enclosing
    function deletes the name when done (engine/chem.py's find_isomorphism)."""
    found = [f for p in _modules().values() for f in _self_calling_nested(p)]
    assert not found, found
