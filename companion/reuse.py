"""What a part is drawn from, so a new version redraws only the parts it changed.

A move changes a few parts of a few phones; the rest would come out exactly
as they did at the version before. Rendering them all again, for every phone,
at every version, was most of the worker's time under load. So each part's
template is read once (its Jinja syntax tree) for the values it reads from its
context: ``ln.dice``, ``snap.to_move()``, ``take_back()``, ``me``... Those values,
looked up the way Jinja would, are the part's *inputs*. A table keeps the last
HTML of each part for each viewer with the inputs it was drawn from
(:attr:`companion.snapshot.Snapshot.drawn`); when the new inputs equal the kept
ones (``==``, on plain data), the kept HTML is the new version's too.

Any doubt draws afresh: a template that reads the request or the session, a
name this module does not know, ``snap`` passed whole, a method of ``snap``
whose answer depends on its arguments, an include or import whose name is not
a constant, a value that is not equal to itself (a function, an object
without ``==``). Values that stay the same for a table and viewer (the game,
the plugin, the viewer's seat, the address of the table) are not looked at:
the kept HTML is already per table, part and viewer.
"""

from __future__ import annotations

import threading
import types
from typing import Any, Callable

from jinja2 import Environment, nodes
from jinja2.runtime import Undefined

FIXED = frozenset({
    "game", "plugin", "label", "to_json", "me", "is_host", "join_url",      # per table and viewer (live.context)
    "config", "url_for", "qr_inline", "bot_label", "bot_levels", "bot_word", "csrf_field",  # the app's, the same for every render
    "range", "dict", "lipsum", "cycler", "joiner", "namespace",               # Jinja's own
})
"""Names whose value is the same for every render of one part for one
viewer at one table (the kept HTML is kept per table, part and viewer)."""

CALLED = frozenset({"take_back", "handovers", "host_key"})
"""Context functions whose answer is an input (worked out once per version
and seat, or, for the host's key, read from the phone's own cookie)."""

SNAP_READS: dict[str, Callable[[Any], Any]] = {
    "code": lambda s: s.code, "version": lambda s: s.version, "moves": lambda s: s.moves,
    "started": lambda s: s.started, "names": lambda s: s.names, "status": lambda s: s.status,
    "over": lambda s: s.over, "seats": lambda s: s.seats, "log": lambda s: s.log,
    "table": lambda s: s.table,
    # methods whose answer depends only on the snapshot (and names, on the seats)
    "name": lambda s: (s.names, s.seats), "to_move": lambda s: s.to_move(), "log_lines": lambda s: s.log,
    "result_dict": lambda s: s.result_dict(), "result": lambda s: s.result(),
    "running_result": lambda s: s.running_result(), "public_seats": lambda s: s.seats,
}
"""What each read of ``snap`` depends on. A read not named here (``snap.view(x)``,
``snap.actions(x)``: their answer depends on the argument) depends on the version."""


class _Never:
    """An input that equals nothing, not even itself: the part is drawn afresh."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


NEVER = _Never()
_MISSING = ("missing",)


class Reads:
    """The reads of each template of one Jinja environment (worked out once per template)."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._lock = threading.Lock()
        self._found: dict[str, tuple[tuple[Any, ...], ...] | None] = {}

    def of(self, name: str) -> tuple[tuple[tuple[Any, ...], ...], frozenset[str]] | None:
        """The paths the template reads (``("ln", "dice")``, ``("take_back",)``)
        and the names it sets itself, or ``None`` when that cannot be told
        (then the part is always drawn)."""
        try:
            return self._found[name]
        except KeyError:
            pass
        with self._lock:
            if name not in self._found:
                found = self._reads(name, set())
                self._found[name] = None if found is None else (tuple(sorted(found[0], key=repr)),
                                                                  frozenset(found[1]))
            return self._found[name]

    def _reads(self, name: str, seen: set[str]) -> tuple[set[tuple[Any, ...]], set[str]] | None:
        if name in seen:
            return set(), set()
        seen.add(name)
        source, _, _ = self.env.loader.get_source(self.env, name)  # type: ignore[union-attr]
        tree = self.env.parse(source, name)
        paths: set[tuple[Any, ...]] = set()
        # A name the template sets itself (``{% set back = take_back() %}`` in
        # a branch, a ``with`` around an include) is found free by Jinja's
        # analysis too; its value comes from expressions read elsewhere.
        local = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
        for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
            if isinstance(node, nodes.Extends):
                return None
            if not isinstance(node.template, nodes.Const) or not isinstance(node.template.value, str):
                return None
            if isinstance(node, nodes.Include) or node.with_context:
                # an include sees the whole context: what it reads, this part reads
                inner = self._reads(node.template.value, seen)
                if inner is None:
                    return None
                paths.update(inner[0])
                local.update(inner[1])
            # an import without context sees only the app's globals and its arguments
        _collect(tree, _free_names(tree, self.env), paths)
        return paths, local


def _free_names(tree: nodes.Template, env: Environment) -> set[str]:
    """Names the template reads from outside: Jinja's analysis leaves out the
    environment's globals (Flask's ``request``, ``session``, ``g`` among them),
    which must be looked at too."""
    from jinja2 import meta

    loaded = {n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"}
    return set(meta.find_undeclared_variables(tree)) | (loaded & set(env.globals))


def _collect(node: nodes.Node, free: set[str], paths: set[tuple[Any, ...]]) -> None:
    """Each use of a free name, as the longest constant path read from it
    (``ln.dice`` -> ``("ln", "dice")``); a method called on a value reads the
    value (``ln.items()`` -> ``("ln",)``), except the known reads of ``snap``."""
    for child in node.iter_child_nodes():
        path = _path(child, free)
        if path is not None:
            paths.add(path)
            # the arguments of a call on the path are expressions of their own
            if isinstance(child, nodes.Call):
                for arg in _arguments(child):
                    _collect_expr(arg, free, paths)
            elif isinstance(child, (nodes.Getattr, nodes.Getitem)):
                _collect_inside(child, free, paths)
            continue
        _collect(child, free, paths)


def _arguments(call: nodes.Call) -> list[nodes.Node]:
    """A call's arguments: positional, keyword, ``*args`` and ``**kwargs``."""
    return [*call.args, *(k.value for k in call.kwargs),
            *(x for x in (call.dyn_args, call.dyn_kwargs) if x is not None)]


def _collect_expr(node: nodes.Node, free: set[str], paths: set[tuple[Any, ...]]) -> None:
    path = _path(node, free)
    if path is not None:
        paths.add(path)
        if isinstance(node, nodes.Call):
            for arg in _arguments(node):
                _collect_expr(arg, free, paths)
        else:
            _collect_inside(node, free, paths)
        return
    _collect(node, free, paths)


def _collect_inside(node: nodes.Node, free: set[str], paths: set[tuple[Any, ...]]) -> None:
    """Non-constant subscripts inside a path (``ln.sheets[i]``) are expressions too."""
    while isinstance(node, (nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getitem) and not isinstance(node.arg, nodes.Const):
            _collect_expr(node.arg, free, paths)
        node = node.node


def _path(node: nodes.Node, free: set[str]) -> tuple[Any, ...] | None:
    """The constant path ``node`` reads from a free name, or None when it is not one."""
    call = isinstance(node, nodes.Call)
    target = node.node if call else node
    steps: list[Any] = []
    while True:
        if isinstance(target, nodes.Getattr):
            steps.append(("attr", target.attr))
            target = target.node
        elif isinstance(target, nodes.Getitem) and isinstance(target.arg, nodes.Const):
            steps.append(("item", target.arg.value))
            target = target.node
        elif isinstance(target, nodes.Getitem):
            steps = []  # a computed subscript: the whole value below it is read
            target = target.node
        else:
            break
    if not isinstance(target, nodes.Name) or target.name not in free or target.ctx != "load":
        return None
    steps.reverse()
    if target.name == "snap":
        # snap.X / snap.X(...) / snap.table.K: the known reads, or the version;
        # a method of snap.table (``snap.table.get(k)``) reads the whole row
        if call and len(steps) >= 2:
            steps = steps[:1]
        return ("snap", *steps[:2]) if steps else ("snap",)
    # A method or function called from a value (``os.face(card)``) is an
    # input itself: equal from one version to the next only when it is the
    # same function (a bound method: of the very same object), whose answer
    # then depends only on its arguments, which are read as expressions.
    return (target.name, *steps)


def inputs(env: Environment, reads: tuple[tuple[tuple[Any, ...], ...], frozenset[str]],
           ctx: dict[str, Any]) -> tuple[Any, ...] | None:
    """The values a part's template reads from ``ctx``, or None when one cannot be known."""
    paths, local = reads
    out: list[Any] = []
    for path in paths:
        head, steps = path[0], path[1:]
        if head in FIXED:
            continue
        if head in CALLED:
            out.append(ctx[head]())
            continue
        if head not in ctx:
            if head in local:
                continue  # set by the template from what it read
            return None   # the request, the session, a name we do not know
        if head == "snap":
            out.append(_snap_read(ctx["snap"], steps))
            continue
        value = ctx[head]
        for kind, key in steps:
            value = env.getattr(value, key) if kind == "attr" else env.getitem(value, key)
            if isinstance(value, Undefined):
                value = _MISSING
                break
        if isinstance(value, types.FunctionType):
            # a function made for this render (a lambda, a closure) is new at
            # every version, and may hold the snapshot: kept as an input it
            # would keep the snapshot alive through the table's kept parts
            return None
        out.append(value)
    return tuple(out)


def _snap_read(snap: Any, steps: tuple[Any, ...]) -> Any:
    if not steps or steps[0][0] != "attr" or steps[0][1] not in SNAP_READS:
        return ("version", snap.version)
    value = SNAP_READS[steps[0][1]](snap)
    if steps[0][1] == "table" and len(steps) > 1:
        value = value.get(steps[1][1], _MISSING) if isinstance(value, dict) else ("version", snap.version)
    return value
