"""No import cycles in ``bleu_core`` (issue 12).

The import graph is read from the source (``tests/house/import_graph.py``, :mod:`ast`; nothing is imported): every
import counts, at module level or inside a function (a lazy import hides a cycle, it does not remove it), with
relative imports resolved and ``from pkg import name`` followed to the module ``pkg/__init__.py`` re-exports
``name`` from. Imports under ``if TYPE_CHECKING:`` never run and do not count.

A cycle is a strongly connected component of more than one module. Allowed, and not drawn as an edge: a
package's ``__init__.py`` importing its own submodules (that is how a package publishes its names; the
submodules themselves must not import back through the package ``__init__`` to a module that imports them).

When this fails, the message lists each cycle with the import lines that close it. Break a cycle by moving the
shared piece down (into the module both import) or the caller up (into a module that imports both), not by
hiding the import inside a function.
"""

from __future__ import annotations

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
