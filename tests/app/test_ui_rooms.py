"""The app side in rooms: every page imports from its own area of ``ui`` and from the shared app room only,
and every room imports ``bleu_core``, the app room and itself.

A page imports each name from the module that defines it (no module of ``ui`` only re-exports other
modules' names), and no function or class name is defined in two modules of one room, so a name found
in an import, a traceback or a grep points at one definition.

The rooms mirror the navigation:

| page(s)                                                        | room                                |
|----------------------------------------------------------------|-------------------------------------|
| Study                                                          | ``ui.study``                        |
| Explore, Learn BLEU, BLEU vs error spans                      | ``ui.explore``                      |
| Corpus, BLEU vs human, Significance, Judges, Correlation, Export | ``ui.analysis``                   |
| Metrics, Published tables                                      | ``ui.metrics``                      |
| Campaigns, Rate translations, Projector                        | ``ui.campaigns``                    |

``ui.app`` (state, settings, caches, context, export, markup) is shared by all and imports no other room.
Declared exceptions: ``ui.metrics`` draws the shared scatter and correlation rows of ``ui.analysis``, so does
``ui.campaigns`` for the projector (the paper's Figures 5-7 from a class's live ratings).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PAGE_ROOMS = {
    "study": {"study"},
    "explore": {"explore"},
    "learn": {"explore"},
    "error_spans": {"explore"},
    "corpus": {"analysis"},
    "bleu_vs_human": {"analysis"},
    "significance": {"analysis"},
    "judges": {"analysis"},
    "correlation": {"analysis"},
    "metric_ranking": {"analysis"},
    "export": {"analysis"},
    "metrics": {"metrics"},
    "published": {"metrics"},
    "campaigns": {"campaigns"},
    "rate": {"campaigns"},
    "projector": {"campaigns"},
}
ROOM_IMPORTS = {
    "app": {"app"},
    "study": {"app", "study"},
    "explore": {"app", "explore"},
    "analysis": {"app", "analysis"},
    "metrics": {"app", "metrics", "analysis"},
    "campaigns": {"app", "campaigns", "analysis"},
}


def ui_rooms_imported(path: Path) -> set[str]:
    """The ``ui`` rooms a file imports (``ui`` itself counts as ``app``: it re-exports the app room)."""
    rooms: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if node.module == "ui":
                names = [f"ui.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] != "ui":
                continue
            room = parts[1] if len(parts) > 1 and parts[1] in ROOM_IMPORTS else "app"
            rooms.add(room)
    return rooms


def re_exports_only(path: Path) -> bool:
    """Whether a module is a facade: nothing but a docstring, imports, ``__all__`` and a lazy
    ``__getattr__``, with at least one import (``from __future__`` aside)."""
    imports = 0
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import) or (
            isinstance(node, ast.ImportFrom) and node.module != "__future__"
        ):
            imports += 1
        elif isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__"):
            continue
        elif isinstance(node, ast.ImportFrom):  # from __future__ import ...
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # the docstring
            continue
        elif not (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", "") for t in node.targets] == ["__all__"]
        ):
            return False
    return imports > 0


def defined_names(path: Path) -> set[str]:
    """Names of the functions and classes a module defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in tree.body if isinstance(node, kinds)}


def names_defined_twice(folder: Path) -> dict[str, list[str]]:
    """Each function or class name defined in more than one module of ``folder``, with those modules."""
    where: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.py")):
        for name in defined_names(path):
            where.setdefault(name, []).append(path.name)
    return {name: paths for name, paths in where.items() if len(paths) > 1}


def test_every_page_has_a_room():
    pages = {p.stem for p in (ROOT / "pages").glob("*.py")}
    assert pages == set(PAGE_ROOMS), (
        "a new page needs a room in PAGE_ROOMS (and in the ui docstring)"
    )


@pytest.mark.parametrize("page", sorted(PAGE_ROOMS))
def test_page_imports_its_room_and_the_app_room_only(page):
    rooms = ui_rooms_imported(ROOT / "pages" / f"{page}.py")
    assert rooms <= PAGE_ROOMS[page] | {"app"}, f"pages/{page}.py imports ui rooms {sorted(rooms)}"


def test_no_ui_module_only_re_exports_names():
    """A page imports each name from the module that defines it: no facade between them."""
    facades = [
        str(p.relative_to(ROOT)) for p in sorted((ROOT / "ui").rglob("*.py")) if re_exports_only(p)
    ]
    assert facades == [], (
        f"modules that only re-export names (import from the defining module): {facades}"
    )


@pytest.mark.parametrize("room", sorted(ROOM_IMPORTS))
def test_no_function_name_is_defined_in_two_modules_of_a_room(room):
    twice = names_defined_twice(ROOT / "ui" / room)
    assert not twice, f"ui/{room}: names defined in several modules (rename one): {twice}"


@pytest.mark.parametrize("room", sorted(ROOM_IMPORTS))
def test_room_imports_only_what_its_docstring_allows(room):
    folder = ROOT / "ui" / room
    assert (folder / "__init__.py").exists()
    assert "May import" in (folder / "__init__.py").read_text(encoding="utf-8")
    for path in folder.rglob("*.py"):
        rooms = ui_rooms_imported(path)
        assert rooms <= ROOM_IMPORTS[room], (
            f"{path.relative_to(ROOT)} imports ui rooms {sorted(rooms)}"
        )


def test_ui_root_holds_only_rooms():
    flat = sorted(p.name for p in (ROOT / "ui").glob("*.py") if p.name != "__init__.py")
    assert flat == [], f"modules outside a room: {flat}"


def test_the_rule_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ui.campaigns.views import x\nfrom ui import cache\n", encoding="utf-8")
    assert ui_rooms_imported(bad) == {"campaigns", "app"}


def test_the_facade_and_name_rules_can_fail(tmp_path):
    facade = tmp_path / "facade.py"
    facade.write_text(
        '"""Doc."""\n\nfrom ui.analysis.relate import fit\n\n__all__ = ["fit"]\n', "utf-8"
    )
    assert re_exports_only(facade)
    (tmp_path / "a.py").write_text("def shared():\n    pass\n\n\nclass Alone:\n    pass\n", "utf-8")
    (tmp_path / "b.py").write_text(
        "from a import Alone\n\n\ndef shared():\n    pass\n\n\ndef other():\n    pass\n", "utf-8"
    )
    assert not re_exports_only(tmp_path / "b.py")
    assert names_defined_twice(tmp_path) == {"shared": ["a.py", "b.py"]}
