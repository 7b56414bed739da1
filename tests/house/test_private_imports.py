"""No module imports another module's private names (``_x``) from ``bleu_core``.

A leading underscore says "only this module uses it": a name another module needs is part of an interface,
so it gets a public name (or moves to where both can use it). Checked on the source with :mod:`ast` in
``bleu_core``, ``ui``, ``pages`` and ``app.py``: every ``from bleu_core… import _name`` (relative imports
inside ``bleu_core`` included) and every ``import bleu_core…._name``. A private *submodule* imported from
inside its own package (``from bleu_core.fast import _kernels`` in ``bleu_core/fast/native.py``) is allowed:
that is what a private module is for.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _package_of(path: Path, root: Path) -> list[str]:
    """The dotted package of the module at *path* (relative to *root*), as parts."""
    return list(path.relative_to(root).with_suffix("").parts)[:-1]


def _resolve(node: ast.ImportFrom, package: list[str]) -> str:
    if node.level == 0:
        return node.module or ""
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_module(dotted: str, root: Path) -> bool:
    target = root.joinpath(*dotted.split("."))
    return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()


def private_imports(source: str, path: Path, root: Path = ROOT) -> list[str]:
    """``"file:line: what"`` for every private ``bleu_core`` name that *source* (the file *path* of the
    repository at *root*) imports."""
    package = _package_of(path, root)
    where = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = _resolve(node, package)
            if module.split(".")[0] != "bleu_core":
                continue
            for alias in node.names:
                own_submodule = module == ".".join(package) and _is_module(
                    f"{module}.{alias.name}", root
                )
                if _private(alias.name) and not own_submodule:
                    found.append(f"{where}:{node.lineno}: from {module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "bleu_core" and any(_private(p) for p in parts):
                    inside = ".".join(parts[:-1]) == ".".join(package)
                    if not (inside and not any(_private(p) for p in parts[:-1])):
                        found.append(f"{where}:{node.lineno}: import {alias.name}")
    return sorted(found, key=lambda hit: int(hit.split(":")[1]))


def _sources() -> list[Path]:
    files = [*(ROOT / "bleu_core").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]
    files += [*(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
    return sorted(p for p in files if p.is_file())


def test_no_private_name_is_imported_across_modules() -> None:
    found = [hit for p in _sources() for hit in private_imports(p.read_text(encoding="utf-8"), p)]
    assert not found, "private names imported from another module:\n" + "\n".join(found)


def test_the_check_finds_private_imports() -> None:
    here = ROOT / "bleu_core" / "evaluation" / "example.py"
    source = (
        "from .ties import _VALUE, pair_outcomes\n"
        "def f():\n"
        "    from bleu_core.study.wmt import _SOURCE\n"
        "import bleu_core.study._hidden\n"
        "from bleu_core.textio import decode_text as _decode_text\n"
    )
    assert private_imports(source, here) == [
        "bleu_core/evaluation/example.py:1: from bleu_core.evaluation.ties import _VALUE",
        "bleu_core/evaluation/example.py:3: from bleu_core.study.wmt import _SOURCE",
        "bleu_core/evaluation/example.py:4: import bleu_core.study._hidden",
    ]


def test_a_private_submodule_of_the_own_package_is_allowed(tmp_path: Path) -> None:
    package = tmp_path / "bleu_core" / "fast"
    package.mkdir(parents=True)
    (package / "_kernels.py").write_text("")
    source = "from bleu_core.fast import _kernels\nfrom . import _kernels\nimport bleu_core.fast._kernels\n"
    assert private_imports(source, package / "native.py", tmp_path) == []
    assert private_imports(source, tmp_path / "bleu_core" / "cli.py", tmp_path) == [
        "bleu_core/cli.py:1: from bleu_core.fast import _kernels",
        "bleu_core/cli.py:2: from bleu_core import _kernels",
        "bleu_core/cli.py:3: import bleu_core.fast._kernels",
    ]
