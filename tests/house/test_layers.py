"""Architecture rules that must not erode: bleu_core never imports streamlit or pandas; pages stay small;
imports go down the layers, and a layer is a folder (pages -> ui -> bleu_core; inside bleu_core: cli ->
evaluation, metrics, campaigns -> study -> engine -> tokenize + fast -> maths -> base; the exact rule is
written above ``layer_of`` below and in docs/ARCHITECTURE.md, "The rooms")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_bleu_core_imports_neither_streamlit_nor_pandas():
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "bleu_core").rglob("*.py")
        if p.name != "__main__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'pandas'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "", f"bleu_core pulled in: {out.stdout.strip()}"


def test_pages_stay_small():
    # A page reads widgets, calls the core and renders; over ~200 lines means logic leaked into the UI.
    for page in (ROOT / "pages").glob("*.py"):
        n = len(page.read_text(encoding="utf-8").splitlines())
        assert n <= 200, f"{page.name} has {n} lines"


def test_first_page_imports_no_heavy_library():
    # The Study page is the first page after a server start: pandas, altair and scipy load in the
    # background afterwards (ui.app.warmup), so they must not be imported by app.py or the Study page.
    code = (
        "import sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=120)\n"
        "at.run()\n"
        "assert not at.exception, [e.value for e in at.exception]\n"
        "assert at.title[0].value == 'Study'\n"
        "heavy = ('pandas', 'altair', 'scipy', 'vl_convert')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "", f"the first page pulled in: {out.stdout.strip()[:300]}"


def test_session_state_keys_are_spelled_only_in_ui_state():
    """Pages and UI helpers import their keys from ui/app/state.py; a literal key is a second owner."""
    import re

    literal = re.compile(r"""\bkey=["']|session_state(?:\.get\(|\.setdefault\(|\[)\s*["']""")
    files = [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        if path.name != "state.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert offenders == []
    assert literal.search('st.toggle("x", key="met_babych_on")')  # the check itself can fail
    assert literal.search("st.session_state.get('pub_source')")


# -- layers -----------------------------------------------------------------------------------------------------
# The import graph comes from tests/house/import_graph.py (ast; every import, lazy ones too; see its docstring).
#
#   pages/ -> ui/ -> bleu_core            (never upwards: bleu_core imports no ui/pages/app, ui imports no pages;
#                                          pages and ui never import bleu_core.cli, the command line)
#
# Inside bleu_core a layer is a folder. From top to bottom (a layer may import any layer below it, never one above):
#   cli            bleu_core/cli/ (every command and its options) and __main__: may import anything in bleu_core
#   subjects       evaluation/, metrics/, campaigns/: study and below; one subject imports another only as
#                  SUBJECT_IMPORTS allows (today: not at all)
#   study          study/: the study model, formats and analyses: the engine and below
#   bleu_core      the package __init__ (public API): the engine and below, so `import bleu_core` stays light;
#                  only cli/ imports it (a module inside the package takes a name from its home, not the face)
#   engine         engine/: BLEU from tokens to score: kernels, maths and base
#   kernels        tokenize/ and fast/: tokenizers and their batched, counting twins import each other and base
#   maths          maths/: correlation, regression, resampling: base only
#   base           the root's errors, limits, csv_safety, latex, and io/ (io imports only errors and limits:
#                  test_the_input_boundary_imports_only_errors_and_limits)
# A module of bleu_core outside these folders and ROOT_MODULES fails test_bleu_core_layers: place it in a room.

LAYERS = ("base", "maths", "kernels", "engine", "bleu_core", "study", "subject", "cli")
FOLDER_LAYER = {
    "io": "base",
    "demos": "base",
    "maths": "maths",
    "tokenize": "kernels",
    "fast": "kernels",
    "engine": "engine",
    "study": "study",
    "evaluation": "subject",
    "metrics": "subject",
    "campaigns": "subject",
    "cli": "cli",
}
#: bleu_core's root keeps the package's face: these modules and the folders above, nothing else.
ROOT_MODULES = {
    "bleu_core": "bleu_core",
    "bleu_core.__main__": "cli",
    "bleu_core.errors": "base",
    "bleu_core.limits": "base",
    "bleu_core.csv_safety": "base",
    "bleu_core.latex": "base",
}
SUBJECT_IMPORTS: dict[str, set[str]] = {"evaluation": set(), "metrics": set(), "campaigns": set()}
#: ui modules that still import the command line, each with the reason; the test fails once one is gone (remove
#: it here then) and when a new one appears.
UI_IMPORTS_OF_CLI = {
    ("ui.analysis.ranking", "bleu_core.cli.ranking_command"): (
        "value_with_interval, a number formatter the ranking table shares with `meta`'s text output"
    ),
    ("ui.analysis.error_free_view", "bleu_core.cli.error_free_command"): (
        "has_error_free_gold, whether a study has the gold the error-free section needs"
    ),
}


def _import_graph_module() -> ModuleType:
    import importlib.util

    name = "_bleu_import_graph"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "tests" / "house" / "import_graph.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def layer_of(module: str) -> str:
    """The layer of a ``bleu_core`` module: one of :data:`LAYERS`, read from its folder."""
    if module in ROOT_MODULES:
        return ROOT_MODULES[module]
    parts = module.split(".")
    if len(parts) < 2 or parts[1] not in FOLDER_LAYER:
        raise ValueError(
            f"{module} is in no room: put it in a folder of FOLDER_LAYER (or ROOT_MODULES)"
        )
    return FOLDER_LAYER[parts[1]]


def layer_violation(source: str, target: str) -> str | None:
    """Why ``source`` may not import ``target`` (both bleu_core modules), or ``None`` if it may."""
    a, b = layer_of(source), layer_of(target)
    if a == "cli":
        return None
    if b == "bleu_core":
        return (
            "only the command line imports the package's face; import the name from its home module"
        )
    if LAYERS.index(b) > LAYERS.index(a):
        return f"{a} imports only the layers below it ({', '.join(LAYERS[: LAYERS.index(a)])})"
    if a == b == "subject":
        mine, theirs = source.split(".")[1], target.split(".")[1]
        if mine != theirs and theirs not in SUBJECT_IMPORTS[mine]:
            return f"{mine} may not import {theirs}"
    return None


def test_layer_rule_itself() -> None:
    assert layer_violation("bleu_core.evaluation.meta", "bleu_core.study.model") is None
    assert (
        layer_violation("bleu_core.study.model", "bleu_core.evaluation.meta")
        == "study imports only the layers below it (base, maths, kernels, engine, bleu_core)"
    )
    assert layer_violation("bleu_core.metrics.chrf", "bleu_core.evaluation.meta") == (
        "metrics may not import evaluation"
    )
    assert layer_violation("bleu_core.engine.bleu", "bleu_core.study.model") is not None
    assert layer_violation("bleu_core.fast.corpus", "bleu_core.engine.statistics") is not None
    assert layer_violation("bleu_core.fast.corpus", "bleu_core.tokenize.line_tokenizers") is None
    assert (
        layer_violation("bleu_core.tokenize.tokenizers", "bleu_core.fast.batch_tokenizers") is None
    )
    assert layer_violation("bleu_core.engine.statistics", "bleu_core.fast.corpus") is None
    assert layer_violation("bleu_core.maths.regression", "bleu_core.engine.score") is not None
    assert layer_violation("bleu_core.maths.regression", "bleu_core.errors") is None
    assert layer_violation("bleu_core.cli.meta_significance_command", "bleu_core.cli") is None
    assert layer_violation("bleu_core.evaluation.meta", "bleu_core.cli") is not None
    assert layer_violation("bleu_core.study.model", "bleu_core") is not None
    assert layer_of("bleu_core.cli.study_command") == "cli"
    assert layer_of("bleu_core.__main__") == "cli"
    with pytest.raises(ValueError, match="is in no room"):
        layer_of("bleu_core.loose_module")


def test_bleu_core_layers() -> None:
    graph = _import_graph_module().import_graph("bleu_core")
    assert "bleu_core.engine.score" in graph  # the check sees the folders
    offenders = [
        f"{edge.source}:{edge.line} imports {edge.target}: {why}"
        for edges in graph.values()
        for edge in edges
        if (why := layer_violation(edge.source, edge.target)) is not None
    ]
    assert offenders == [], "\n".join(offenders)


def test_bleu_core_root_keeps_the_package_face() -> None:
    # the root is the face (ROOT_MODULES) and the rooms (FOLDER_LAYER): a new module goes into a room
    loose = sorted(
        path.name
        for path in (ROOT / "bleu_core").iterdir()
        if path.suffix == ".py"
        and ("bleu_core" if path.stem == "__init__" else f"bleu_core.{path.stem}")
        not in ROOT_MODULES
    )
    folders = sorted(
        path.name
        for path in (ROOT / "bleu_core").iterdir()
        if path.is_dir() and any(path.glob("*.py")) and path.name not in FOLDER_LAYER
    )
    assert loose == [] and folders == [], f"outside the rooms: {loose + folders}"


def _dotted_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, dotted module or module.name)`` of every absolute import that runs in *path*."""
    graph = _import_graph_module()
    found: list[tuple[int, str]] = []
    for node, _lazy in graph._runtime_nodes(graph._tree(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def test_ui_and_pages_never_import_the_command_line() -> None:
    files = [
        ROOT / "app.py",
        *sorted((ROOT / "pages").glob("*.py")),
        *sorted((ROOT / "ui").rglob("*.py")),
    ]
    seen: dict[tuple[str, str], str] = {}
    for path in files:
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for line, name in _dotted_imports(path):
            if name == "bleu_core.cli" or name.startswith("bleu_core.cli."):
                cli_module = ".".join(name.split(".")[:3])
                seen[(module, cli_module)] = f"{path.relative_to(ROOT)}:{line} imports {name}"
    unexpected = [where for key, where in seen.items() if key not in UI_IMPORTS_OF_CLI]
    assert unexpected == []
    gone = [
        key
        for key in UI_IMPORTS_OF_CLI
        if key not in seen and (ROOT / (key[0].replace(".", "/") + ".py")).exists()
    ]
    assert gone == [], f"no longer imported, remove from UI_IMPORTS_OF_CLI: {gone}"


def _top_level_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, top-level package)`` of every import that runs in *path* (function-level ones included)."""
    graph = _import_graph_module()
    found: list[tuple[int, str]] = []
    for node, _lazy in graph._runtime_nodes(graph._tree(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_pages_ui_bleu_core_import_downwards_only() -> None:
    forbidden = {"bleu_core": {"ui", "pages", "app"}, "ui": {"pages", "app"}}
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for room, banned in forbidden.items()
        for path in sorted((ROOT / room).rglob("*.py"))
        for line, name in _top_level_imports(path)
        if name in banned
    ]
    assert offenders == []


def test_the_input_boundary_imports_only_errors_and_limits() -> None:
    # bleu_core.io is what every format and command reads through: it must stay at the bottom of the engine
    graph = _import_graph_module().import_graph("bleu_core")
    allowed = {"bleu_core.errors", "bleu_core.limits"}
    offenders = [
        f"{edge.source}:{edge.line} imports {edge.target}"
        for module, edges in graph.items()
        if module == "bleu_core.io" or module.startswith("bleu_core.io.")
        for edge in edges
        if edge.target not in allowed and not edge.target.startswith("bleu_core.io.")
    ]
    assert any(module.startswith("bleu_core.io.") for module in graph)  # the check sees the package
    assert offenders == []
