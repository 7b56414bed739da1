"""The app side in rooms (issue 12): every page imports from its own area of ``ui`` and from the shared
app room only, and every room imports ``bleu_core``, the app room and itself.

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
``ui.campaigns`` for the projector (the paper's Figures 5-7 from a class's live ratings), and the Correlation
page shows metric tables of ``ui.metrics`` (it compares BLEU with other metrics).
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
    "correlation": {"analysis", "metrics"},
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


def test_every_page_has_a_room():
    pages = {p.stem for p in (ROOT / "pages").glob("*.py")}
    assert pages == set(PAGE_ROOMS), (
        "a new page needs a room in PAGE_ROOMS (and in the ui docstring)"
    )


@pytest.mark.parametrize("page", sorted(PAGE_ROOMS))
def test_page_imports_its_room_and_the_app_room_only(page):
    rooms = ui_rooms_imported(ROOT / "pages" / f"{page}.py")
    assert rooms <= PAGE_ROOMS[page] | {"app"}, f"pages/{page}.py imports ui rooms {sorted(rooms)}"


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
