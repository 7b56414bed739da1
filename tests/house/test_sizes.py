"""Size limits that keep the code readable: no function over 100 lines, no module over 600 lines.

A function that long does several things (read, check, build, report) and wants splitting into named steps;
a module that long holds several subjects. A module may stay longer when its docstring has a line starting
``Long because:`` that says why (one subject that does not split, e.g. a table of definitions).

``ALLOWED`` names the code over the limits today, while it is being split; the list may only shrink
(:func:`test_allow_list_names_only_code_over_the_limits` fails on an entry that is within the limits again).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bleu_core", "ui", "pages")
MAX_FUNCTION_LINES = 100
MAX_MODULE_LINES = 600
REASON = "Long because:"

# "path" for a module over MAX_MODULE_LINES, "path::function" for a function over MAX_FUNCTION_LINES.
ALLOWED: frozenset[str] = frozenset()


def oversized(path: Path, relative: str) -> list[tuple[str, int]]:
    """``(name, lines)`` of what in the module at ``path`` is over the limits: the module itself (named
    ``relative``) unless its docstring gives a reason, and each function (``relative::name``)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    found = []
    lines = len(source.splitlines())
    docstring = ast.get_docstring(tree) or ""
    has_reason = any(line.strip().startswith(REASON) for line in docstring.splitlines())
    if lines > MAX_MODULE_LINES and not has_reason:
        found.append((relative, lines))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((f"{relative}::{node.name}", length))
    return found


def everything_oversized() -> dict[str, int]:
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found.update(oversized(path, path.relative_to(ROOT).as_posix()))
    return found


def test_no_function_or_module_over_the_limits():
    over = {name: n for name, n in everything_oversized().items() if name not in ALLOWED}
    assert not over, (
        f"over {MAX_FUNCTION_LINES} lines per function / {MAX_MODULE_LINES} per module "
        f"(split it, or say '{REASON} ...' in a long module's docstring): {over}"
    )


def test_allow_list_names_only_code_over_the_limits():
    stale = sorted(ALLOWED - set(everything_oversized()))
    assert not stale, (
        f"within the limits now: remove from ALLOWED in {Path(__file__).name}: {stale}"
    )


def test_the_rule_finds_long_functions_and_modules(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    long_module = f'"""A module."""\n\n\ndef long():\n{body}\n\n\ndef short():\n    return 1\n'
    long_module += "\n" * MAX_MODULE_LINES
    path = tmp_path / "long.py"
    path.write_text(long_module, encoding="utf-8")
    assert oversized(path, "long.py") == [
        ("long.py", len(long_module.splitlines())),
        ("long.py::long", MAX_FUNCTION_LINES + 1),
    ]
    path.write_text(long_module.replace("A module.", f"A module.\n\n{REASON} a reason."), "utf-8")
    assert [name for name, _ in oversized(path, "long.py")] == ["long.py::long"]
