"""The import graph of ``bleu_core``, read from the source with :mod:`ast` (nothing is imported).

Used by ``test_import_cycles.py`` and ``test_layers.py``. One node per module (``pkg/__init__.py`` is the node
``pkg``); an edge ``a -> b`` for every import in ``a`` of a ``bleu_core`` module ``b``:

- every ``import`` statement counts, at module level or inside a function or class (a lazy import still ties the
  two modules together), except those under ``if TYPE_CHECKING:``, which never run;
- relative imports are resolved against the importing module's package (``from . import x``,
  ``from ..errors import E``);
- ``from pkg import name`` points at the submodule ``pkg.name`` if there is one, else at the module that
  ``pkg/__init__.py`` re-exports ``name`` from (followed through chains of re-exports), else at ``pkg``;
- ``importlib.import_module(…)`` counts too when its name is a literal, an f-string built on ``__package__``,
  or the loop variable of ``for name in NAMES`` over a module-level tuple of literal names (the command line's
  ``COMMAND_MODULES``);
- importing ``pkg.sub`` also runs ``pkg/__init__.py``, but that implicit edge is not drawn: a package's
  ``__init__`` importing its own submodules is how a package publishes its names, not a cycle.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Import:
    """One import edge: *source* imports *target* at *line* (``lazy`` when inside a function)."""

    source: str
    target: str
    line: int
    lazy: bool


def module_files(package: str = "bleu_core", root: Path = ROOT) -> dict[str, Path]:
    """``{dotted module name: file}`` for every ``.py`` file of *package* under *root* (``__init__`` → the
    package)."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> list[tuple[ast.AST, bool]]:
    """Every node that runs, with whether it is inside a function; ``if TYPE_CHECKING:`` bodies skipped."""
    out: list[tuple[ast.AST, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        out.append((node, lazy))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child, lazy)
            return
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return out


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _package_of(module: str, files: dict[str, Path]) -> str:
    """The package that relative imports in *module* start from."""
    return module if files[module].name == "__init__.py" else module.rpartition(".")[0]


def _absolute(module: str, node: ast.ImportFrom, files: dict[str, Path]) -> str:
    if node.level == 0:
        return node.module or ""
    base = _package_of(module, files)
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def _reexports(package: str, files: dict[str, Path]) -> dict[str, str]:
    """``{name: module it comes from}`` for the module-level ``from X import name`` of *package*'s ``__init__``."""
    names: dict[str, str] = {}
    for node in _tree(files[package]).body:
        if isinstance(node, ast.ImportFrom):
            origin = _absolute(package, node, files)
            for alias in node.names:
                names[alias.asname or alias.name] = origin
    return names


def resolve(
    package: str, name: str, files: dict[str, Path], seen: frozenset[str] = frozenset()
) -> str:
    """The module that ``from <package> import <name>`` really depends on (see the module docstring)."""
    if f"{package}.{name}" in files:
        return f"{package}.{name}"
    if package not in files or files[package].name != "__init__.py" or package in seen:
        return package
    origin = _reexports(package, files).get(name)
    if origin is None or origin not in files:
        return package
    if files[origin].name == "__init__.py":
        return resolve(origin, name, files, seen | {package})
    return origin


def _string_tuples(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Module-level ``NAME = ("a", "b")`` assignments, and every ``for x in NAME`` loop variable bound to them
    (so ``for name in COMMAND_MODULES: importlib.import_module(name)`` is seen)."""
    found: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and isinstance(node.value, (ast.Tuple, ast.List))
            and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts
            )
        ):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = tuple(e.value for e in node.value.elts)  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.iter, ast.Name)
            and node.iter.id in found
            and isinstance(node.target, ast.Name)
        ):
            found[node.target.id] = found[node.iter.id]
    return found


def _import_module_targets(
    call: ast.Call, module: str, files: dict[str, Path], constants: dict[str, tuple[str, ...]]
) -> tuple[str, ...]:
    target = _import_module_target(call, module, files, constants)
    if target is None:
        return ()
    return target if isinstance(target, tuple) else (target,)


def _import_module_target(
    call: ast.Call, module: str, files: dict[str, Path], constants: dict[str, tuple[str, ...]]
) -> str | tuple[str, ...] | None:
    func = call.func
    if not (
        isinstance(func, ast.Attribute) and func.attr == "import_module" and call.args
    ) and not (isinstance(func, ast.Name) and func.id == "import_module" and call.args):
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.Name) and arg.id in constants:
        return constants[arg.id]
    if isinstance(arg, ast.JoinedStr):  # f"{__package__}._kernels"
        text = ""
        for part in arg.values:
            if isinstance(part, ast.Constant):
                text += str(part.value)
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Name)
                and part.value.id == "__package__"
            ):
                text += _package_of(module, files)
            else:
                return None
        return text
    return None


def imports_of(module: str, files: dict[str, Path], prefix: str = "bleu_core") -> list[Import]:
    """The imports of *module* that land on modules of *files* (whose names start with *prefix*)."""
    out: list[Import] = []

    def add(target: str, node: ast.AST, lazy: bool) -> None:
        # a name that is no .py file (a compiled extension) is not a node of the graph
        if target in files and target != module:
            edge = Import(module, target, getattr(node, "lineno", 0), lazy)
            if edge not in out:
                out.append(edge)

    constants = _string_tuples(_tree(files[module]))
    for node, lazy in _runtime_nodes(_tree(files[module])):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, lazy)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node, files)
            for alias in node.names:
                if alias.name == "*":
                    add(base, node, lazy)
                else:
                    add(resolve(base, alias.name, files), node, lazy)
        elif isinstance(node, ast.Call):
            for target in _import_module_targets(node, module, files, constants):
                add(target, node, lazy)
    return out


def is_own_submodule(source: str, target: str, files: dict[str, Path]) -> bool:
    """Whether *source* is a package ``__init__`` and *target* one of its submodules (at any depth)."""
    return files[source].name == "__init__.py" and target.startswith(source + ".")


def import_graph(package: str = "bleu_core", root: Path = ROOT) -> dict[str, list[Import]]:
    """``{module: its imports}`` for every module of *package*, without the allowed ``__init__`` → own
    submodule edges."""
    files = module_files(package, root)
    return {
        module: [
            edge
            for edge in imports_of(module, files, package)
            if not is_own_submodule(edge.source, edge.target, files)
        ]
        for module in files
    }


def cycles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(node: str) -> None:  # recursion depth ≤ number of modules (a few hundred)
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for edge in graph.get(node, []):
            if edge.target not in index:
                connect(edge.target)
                low[node] = min(low[node], low[edge.target])
            elif edge.target in on_stack:
                low[node] = min(low[node], index[edge.target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)
