"""Fixtures live once: a fixture body is written in one place, and a test module does not quietly replace a
fixture that a ``conftest.py`` above it provides.

Shared fixtures are in ``conftest.py`` files: ``tests/conftest.py`` for those several rooms use, a room's own
``tests/<room>/conftest.py`` for the rest. Two fixtures with the same body are one fixture written twice (put
it in the conftest of the rooms that use it); a module fixture with a conftest fixture's name hides it from
that module's tests, so a reader of a test cannot tell which one it gets. ``OVERRIDES`` names the deliberate
ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

OVERRIDES = frozenset(
    {
        # runs the SQLite store tests it imports against PostgreSQL by giving them another ``store``
        "tests/campaigns/test_campaigns_postgres.py::store",
    }
)


def is_fixture(node: ast.FunctionDef) -> bool:
    """Whether ``node`` is decorated with ``pytest.fixture`` (called or not) or a bare ``fixture``."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "fixture":
            return True
    return False


def fixtures(path: Path) -> Iterator[ast.FunctionDef]:
    """The fixtures a test file defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and is_fixture(node):
            yield node


def body_key(node: ast.FunctionDef) -> str:
    """What a fixture does, for comparison: its parameters and its statements without the docstring."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return ast.dump(node.args) + ast.dump(ast.Module(body=body, type_ignores=[]))


def fixtures_written_twice(files: list[Path], root: Path) -> list[list[str]]:
    """Groups of ``path::name`` whose fixture bodies are the same."""
    by_body: dict[str, list[str]] = {}
    for path in files:
        for node in fixtures(path):
            name = f"{path.relative_to(root).as_posix()}::{node.name}"
            by_body.setdefault(body_key(node), []).append(name)
    return [names for names in by_body.values() if len(names) > 1]


def hidden_conftest_fixtures(files: list[Path], root: Path) -> list[str]:
    """``path::name`` of each module fixture named like a fixture of a ``conftest.py`` above the module."""
    found = []
    for path in files:
        if path.name == "conftest.py":
            continue
        above = [folder / "conftest.py" for folder in path.parents if folder.is_relative_to(root)]
        provided = {
            node.name for conftest in above if conftest.exists() for node in fixtures(conftest)
        }
        for node in fixtures(path):
            if node.name in provided:
                found.append(f"{path.relative_to(root).as_posix()}::{node.name}")
    return found


def suite_modules() -> list[Path]:
    """Every Python file of the test suite."""
    return sorted(p for p in TESTS.rglob("*.py") if "artifacts" not in p.parts)


def test_no_fixture_body_is_written_twice():
    twice = fixtures_written_twice(suite_modules(), ROOT)
    assert not twice, f"the same fixture written twice (move it to a conftest.py): {twice}"


def test_no_module_hides_a_conftest_fixture():
    hidden = [
        name for name in hidden_conftest_fixtures(suite_modules(), ROOT) if name not in OVERRIDES
    ]
    assert not hidden, f"module fixtures that hide a conftest fixture (rename one): {hidden}"


def test_overrides_are_still_there():
    assert OVERRIDES <= set(hidden_conftest_fixtures(suite_modules(), ROOT))


def test_the_rules_can_fail(tmp_path):
    room = tmp_path / "tests" / "room"
    room.mkdir(parents=True)
    fixture = "import pytest\n\n\n@pytest.fixture\ndef {name}():\n    {doc}return load('x')\n"
    (tmp_path / "tests" / "conftest.py").write_text(fixture.format(name="ted", doc=""), "utf-8")
    (room / "test_a.py").write_text(fixture.format(name="ted", doc='"""Mine."""\n    '), "utf-8")
    (room / "test_b.py").write_text(fixture.format(name="other", doc=""), "utf-8")
    files = sorted((tmp_path / "tests").rglob("*.py"))
    assert fixtures_written_twice(files, tmp_path) == [
        ["tests/conftest.py::ted", "tests/room/test_a.py::ted", "tests/room/test_b.py::other"]
    ]
    assert hidden_conftest_fixtures(files, tmp_path) == ["tests/room/test_a.py::ted"]
