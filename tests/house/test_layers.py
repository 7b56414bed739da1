"""Architecture rules that must not erode: bleu_core never imports streamlit or pandas; pages stay small;
imports go down the layers (pages -> ui -> bleu_core; inside bleu_core: command line -> subpackages -> engine ->
fast; the exact rule is written above ``layer_of`` below and in docs/ARCHITECTURE.md, "Layers")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from types import ModuleType

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
#   pages/ -> ui/ -> bleu_core            (never upwards: bleu_core imports no ui/pages/app, ui imports no pages)
#
# Inside bleu_core, from top to bottom (a layer may import any layer below it, never one above):
#   command line   cli, cli_options, __main__, launch and every command.py / *_command.py: may import anything in bleu_core
#   subpackages    study, stats, metrics, campaigns; study is their base: stats, metrics and campaigns may
#                  import study, study imports none of them, and stats, metrics, campaigns import each other
#                  only as SUBPACKAGE_IMPORTS allows (today: not at all)
#   bleu_core      the package __init__ (public API): engine and fast only, so `import bleu_core` stays light
#   engine         the other top-level modules (bleu, statistics, score, matches, options, smoothing,
#                  brevity_penalty, signature, tokenizers, io, errors, limits...): engine and fast only
#   fast           bleu_core.fast.*: itself and the engine's base modules FAST_MAY_IMPORT only (tokenizers and
#                  line_tokenizers - whose batched versions live in fast - segment_counts, errors, options,
#                  limits); never statistics, score, bleu...
# Which way round fast and tokenizers go is left to test_import_cycles.py (no cycle either way).

SUBPACKAGES = ("study", "stats", "metrics", "campaigns")
SUBPACKAGE_IMPORTS = {
    "study": set(),
    "stats": {"study"},
    "metrics": {"study"},
    "campaigns": {"study"},
}
COMMAND_LINE = {"bleu_core.cli", "bleu_core.cli_options", "bleu_core.__main__", "bleu_core.launch"}
FAST_MAY_IMPORT = {
    "bleu_core.tokenizers",
    "bleu_core.line_tokenizers",
    "bleu_core.segment_counts",
    "bleu_core.errors",
    "bleu_core.options",
    "bleu_core.limits",
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
    """``command line``, ``subpackage:<name>``, ``bleu_core``, ``engine`` or ``fast``."""
    parts = module.split(".")
    if module in COMMAND_LINE or parts[-1] == "command" or parts[-1].endswith("_command"):
        return "command line"
    if module == "bleu_core":
        return "bleu_core"
    if parts[1] in SUBPACKAGES:
        return f"subpackage:{parts[1]}"
    return "fast" if parts[1] == "fast" else "engine"


def layer_violation(source: str, target: str) -> str | None:
    """Why ``source`` may not import ``target`` (both bleu_core modules), or ``None`` if it may."""
    a, b = layer_of(source), layer_of(target)
    if a == "command line" or a == b:
        return None
    if b == "command line":
        return "nothing below the command line imports it"
    if a == "fast":
        return (
            None
            if target in FAST_MAY_IMPORT
            else "fast imports only itself and " + ", ".join(sorted(FAST_MAY_IMPORT))
        )
    if a in ("engine", "bleu_core"):
        return (
            None if b in ("engine", "fast") else f"the {a} layer imports only the engine and fast"
        )
    # a is a subpackage
    if b.startswith("subpackage:"):
        mine, theirs = a.split(":")[1], b.split(":")[1]
        return None if theirs in SUBPACKAGE_IMPORTS[mine] else f"{mine} may not import {theirs}"
    return (
        "a subpackage imports the engine and fast, not the bleu_core package"
        if b == "bleu_core"
        else None
    )


def test_layer_rule_itself() -> None:
    assert layer_violation("bleu_core.stats.meta", "bleu_core.study.model") is None
    assert (
        layer_violation("bleu_core.study.model", "bleu_core.stats.meta")
        == "study may not import stats"
    )
    assert layer_violation("bleu_core.bleu", "bleu_core.study.model") is not None
    assert layer_violation("bleu_core.fast.corpus", "bleu_core.statistics") is not None
    assert layer_violation("bleu_core.fast.corpus", "bleu_core.tokenizers") is None
    assert layer_violation("bleu_core.statistics", "bleu_core.fast.corpus") is None
    assert layer_violation("bleu_core.stats.command", "bleu_core.cli") is None
    assert layer_violation("bleu_core.stats.meta", "bleu_core.cli") is not None
    assert layer_of("bleu_core.study.command") == "command line"
    assert layer_of("bleu_core.spans_command") == "command line"


def test_bleu_core_layers() -> None:
    graph = _import_graph_module().import_graph("bleu_core")
    offenders = [
        f"{edge.source}:{edge.line} imports {edge.target}: {why}"
        for edges in graph.values()
        for edge in edges
        if (why := layer_violation(edge.source, edge.target)) is not None
    ]
    assert offenders == [], "\n".join(offenders)


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
