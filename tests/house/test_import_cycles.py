"""No import cycles in ``bleu_core``.

The import graph is read from the source (``tests/house/import_graph.py``, :mod:`ast`; nothing is imported): every
import counts, at module level or inside a function (a lazy import hides a cycle, it does not remove it), with
relative imports resolved and ``from pkg import name`` followed to the module ``pkg/__init__.py`` re-exports
``name`` from. Imports under ``if TYPE_CHECKING:`` never run, so the graph leaves them out; but a type hint
still ties two modules together for a reader, so :func:`test_no_cycle_even_through_type_hints` adds them back
and refuses those cycles too (a module that needs a type from a module above it names what it reads with a
``Protocol`` instead).

A cycle is a strongly connected component of more than one module. Allowed, and not drawn as an edge: a
package's ``__init__.py`` importing its own submodules (that is how a package publishes its names; the
submodules themselves must not import back through the package ``__init__`` to a module that imports them).

When this fails, the message lists each cycle with the import lines that close it. Break a cycle by moving the
shared piece down (into the module both import) or the caller up (into a module that imports both), not by
hiding the import inside a function.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


import_graph = _load("_bleu_import_graph", HERE / "import_graph.py")


def describe(graph: dict, cycle: list[str]) -> str:
    edges = [
        f"    {edge.source}:{edge.line} imports {edge.target}{' (inside a function)' if edge.lazy else ''}"
        for module in cycle
        for edge in graph[module]
        if edge.target in cycle
    ]
    return " <-> ".join(cycle) + "\n" + "\n".join(edges)


def test_bleu_core_has_no_import_cycles() -> None:
    graph = import_graph.import_graph("bleu_core")
    assert len(graph) > 50  # the walker found the package
    found = import_graph.cycles(graph)
    assert found == [], "import cycles in bleu_core:\n" + "\n".join(
        describe(graph, cycle) for cycle in found
    )


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_walker_finds_lazy_relative_and_reexported_cycles(tmp_path: Path) -> None:
    _package(
        tmp_path,
        {
            "toy/__init__.py": "from toy.model import Thing\nfrom toy.check import check\n",
            "toy/model.py": "def make():\n    from .check import check\n    return check\n",
            "toy/check.py": "from toy import Thing\ndef check(): return Thing\n",  # via the re-export
            "toy/sub/__init__.py": "from . import leaf\n",
            "toy/sub/leaf.py": "from ..sub import other\n",
            "toy/sub/other.py": "import toy.sub.leaf\n",
            "toy/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import toy.hint\n",
            "toy/hint.py": "import toy.typed\n",
        },
    )
    graph = import_graph.import_graph("toy", tmp_path)
    assert import_graph.cycles(graph) == [
        ["toy.check", "toy.model"],
        ["toy.sub.leaf", "toy.sub.other"],
    ]
    lazy = [edge for edge in graph["toy.model"] if edge.target == "toy.check"]
    assert [edge.lazy for edge in lazy] == [True]
    # the package __init__ importing its own submodules is not an edge, so it closes no cycle
    assert graph["toy"] == [] and graph["toy.sub"] == []
    # TYPE_CHECKING imports do not run: toy.typed -> toy.hint is not an edge
    assert graph["toy.typed"] == []


def type_hint_edges(package: str = "bleu_core", root: Path | None = None) -> dict[str, list]:
    """``{module: its imports under if TYPE_CHECKING:}``, resolved as the runtime imports are."""
    files = import_graph.module_files(package, *([root] if root else []))
    out: dict[str, list] = {module: [] for module in files}
    for module, path in files.items():
        for node in ast.walk(import_graph._tree(path)):
            if not (isinstance(node, ast.If) and import_graph._is_type_checking(node.test)):
                continue
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                targets: list[str] = []
                if isinstance(inner, ast.Import):
                    targets = [alias.name for alias in inner.names]
                elif isinstance(inner, ast.ImportFrom):
                    base = import_graph._absolute(module, inner, files)
                    targets = [import_graph.resolve(base, a.name, files) for a in inner.names]
                out[module] += [
                    import_graph.Import(module, t, inner.lineno, False)
                    for t in targets
                    if t in files and t != module
                ]
    return out


def with_type_hints(graph: dict, hints: dict) -> dict:
    return {module: [*edges, *hints.get(module, [])] for module, edges in graph.items()}


def test_no_cycle_even_through_type_hints() -> None:
    graph = with_type_hints(import_graph.import_graph("bleu_core"), type_hint_edges("bleu_core"))
    found = import_graph.cycles(graph)
    assert found == [], "import cycles in bleu_core (type-hint imports included):\n" + "\n".join(
        describe(graph, cycle) for cycle in found
    )


def test_the_type_hint_walker_finds_a_type_hint_cycle(tmp_path: Path) -> None:
    _package(
        tmp_path,
        {
            "toy/__init__.py": "",
            "toy/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.hint import H\n",
            "toy/hint.py": "import toy.typed\nclass H: ...\n",
            "toy/plain.py": "import toy.hint\n",
        },
    )
    runtime = import_graph.import_graph("toy", tmp_path)
    assert import_graph.cycles(runtime) == []  # the runtime graph alone does not see it
    graph = with_type_hints(runtime, type_hint_edges("toy", tmp_path))
    assert import_graph.cycles(graph) == [["toy.hint", "toy.typed"]]
