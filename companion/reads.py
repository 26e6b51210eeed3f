"""A part's HTML kept across versions, keyed by what its template reads.

A move changes one or two things on a table, yet every phone's every part
was rendered again at each version (profiled on the busiest board: about two
thirds of those renders gave the same HTML as the version before). The
template itself says what it depends on: the names it looks up in its
context, and for each the first attribute or key it takes (``ln.dice``,
``snap.over``, ``me``). Those values, and nothing else, go into the key;
a part whose template reads something that cannot be keyed (a method such
as ``snap.to_move()``, a context brought in by an include we cannot
follow) is rendered per version as before.

Two things make this safe rather than hopeful: the reads are found by
walking the template's syntax tree (macros and included templates too), not
declared by hand; and tests play whole games of every game comparing each
kept part with a fresh render.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from typing import Any, Callable, Hashable, TypeVar

from jinja2 import Environment, Undefined, meta, nodes

F = TypeVar("F", bound=Callable[..., Any])
Read = tuple[str, ...]
"""A name and the constant steps taken from it: ``("ln", ("attr", "dice"))``
for ``ln.dice``, ``("b", ("item", 0), ("attr", "seat"))`` for ``b[0].seat``,
``("me",)`` for ``me``."""


@functools.lru_cache(maxsize=None)
def reads(env: Environment, name: str) -> tuple[Read, ...] | None:
    """What the template ``name`` reads of its context, or ``None`` when that
    cannot be told from its source."""
    source, _, _ = env.loader.get_source(env, name)   # type: ignore[union-attr]
    tree = env.parse(source)
    found: set[Read] = set()
    if not _walk(env, tree, found):
        return None
    free = meta.find_undeclared_variables(tree)
    included = {r for r in found if r[0] == "\0include"}
    out = {r for r in found if r[0] in free}
    for r in included:
        sub = reads(env, r[1])
        if sub is None:
            return None
        out |= set(sub)
    return tuple(sorted(out, key=repr))


def _walk(env: Environment, node: nodes.Node, found: set[Read]) -> bool:
    steps: list[tuple[str, Any]] = []
    inner = node
    while True:
        if isinstance(inner, nodes.Getattr):
            steps.append(("attr", inner.attr))
        elif (isinstance(inner, nodes.Getitem) and isinstance(inner.arg, nodes.Slice)
              and _constant(inner.arg) is not _VARIES):
            steps.append(("slice", _constant(inner.arg)))
        elif isinstance(inner, nodes.Getitem) and _constant(inner.arg) is not _VARIES:
            steps.append(("item", _constant(inner.arg)))
        else:
            break
        inner = inner.node
    if _loaded(inner):     # name.a[0].b: the whole chain of constant steps is one read
        found.add((inner.name, *reversed(steps)))   # type: ignore[attr-defined]
        return True
    if steps:              # f(x).a, d[i].a: what the steps are taken of is read by its parts
        return _walk(env, inner, found)
    if isinstance(node, nodes.Include):
        if not (isinstance(node.template, nodes.Const) and isinstance(node.template.value, str)):
            return False
        found.add(("\0include", node.template.value))
        return True
    if isinstance(node, (nodes.Import, nodes.FromImport)) and node.with_context:
        return False
    if isinstance(node, nodes.Extends):
        return False
    return all(_walk(env, child, found) for child in node.iter_child_nodes())


_VARIES = object()


def _constant(arg: nodes.Node) -> Any:
    """A subscript written as a constant (``[0]``, ``["a"]``; ``[7:]`` as ``(7, None, None)``), or ``_VARIES``."""
    if isinstance(arg, nodes.Const):
        return arg.value
    if isinstance(arg, nodes.Slice):
        parts = [_constant(p) if p is not None else None for p in (arg.start, arg.stop, arg.step)]
        return _VARIES if _VARIES in parts else tuple(parts)   # (slices are not hashable before 3.12)
    return _VARIES


def _loaded(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Name) and node.ctx == "load"


PURE = "_labkit_pure"


def pure(fn: F) -> F:
    """Mark ``fn``, put in a template's context, as answering from its
    arguments and the table's game alone (a card's face, words for a
    message): a part calling it can still be kept across versions."""
    setattr(fn, PURE, True)
    return fn


def key(env: Environment, template: str, context: dict[str, Any], constant: frozenset[str],
        added: frozenset[str], memo: dict[int, tuple[Any, bytes]]) -> Hashable | None:
    """A digest of everything ``template`` reads of ``context``; ``None`` when
    a read cannot be keyed. Names in ``constant`` are the same for every
    version of a table's game, the environment's globals for every table;
    ``added`` are the names Flask adds to every render (``request``,
    ``session``, the context processors'), which cannot be keyed. A name in
    none of these is one the template binds itself (``{% set %}`` in a
    branch, ``{% with %}`` around an include) or never finds: it depends on
    nothing outside the template. ``memo`` keeps each value's digest by its
    identity while the values live (a version's board is read by several
    parts): it must not outlive them."""
    wanted = reads(env, template)
    if wanted is None:
        return None
    out = hashlib.blake2b(template.encode(), digest_size=16)
    for read in wanted:
        name = read[0]
        if name in constant:
            continue
        if name not in context:
            if name in added:
                return None
            continue
        value = context[name]
        for kind, step in read[1:]:     # looked up as the template does
            found = (env.getattr(value, step) if kind == "attr" else env.getitem(value, step) if kind == "item"
                     else env.getitem(value, slice(*step)))
            if isinstance(found, Undefined):
                value = _Absent(_absence(value))
                break
            value = found
        if callable(value):
            if not getattr(value, PURE, False):
                return None
            value = "pure"       # its answers depend on its arguments (read and keyed) and the game alone
        digest = _digest(value, memo)
        if digest is None:
            return None
        name_bytes = repr(read).encode()
        out.update(b"%d:%b%d:%b" % (len(name_bytes), name_bytes, len(digest), digest))
    return out.digest()


def _absence(value: Any) -> Any:
    """What decides that a step finds nothing in ``value`` (``error.message``
    with no error; the fifth board of four): a list's length, a dict's keys,
    else the value itself."""
    if type(value) in (list, tuple):
        return f"length {len(value)}"
    if type(value) is dict:
        return "keys " + repr(sorted(map(repr, value)))
    return value


class _Absent:
    """A step that found nothing, and what decided it."""

    def __init__(self, of: Any) -> None:
        self.of = of


_PLAIN = (str, int, float, bool, type(None))


def _digest(value: Any, memo: dict[int, tuple[Any, bytes]]) -> bytes | None:
    kind = type(value)
    if kind in _PLAIN:
        return repr(value).encode()     # tells 1, 1.0, "1" and True apart
    if kind is _Absent:
        inner = _digest(value.of, memo)
        return None if inner is None else b"absent " + inner
    seen = memo.get(id(value))
    if seen is not None and seen[0] is value:
        return seen[1]
    if kind is list or kind is tuple:
        # item by item: a list of the boards of a version shares its boards with the other phones' lists
        items = [_digest(item, memo) for item in value]
        if None in items:
            return None
        data = kind.__name__.encode() + b"".join(b"%d:%b" % (len(d), d) for d in items)   # type: ignore[misc]
    else:
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
    digest = hashlib.blake2b(data, digest_size=16).digest()
    memo[id(value)] = (value, digest)
    return digest
