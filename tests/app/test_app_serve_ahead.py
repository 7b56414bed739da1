"""``ui.app.serve`` imports the first page's modules while the browser connects (``make run``,
``bleu-study app``): the list covers what the first script run imports, and the thread really imports it."""

from __future__ import annotations

import ast
import json
import socket
import subprocess
import sys
from pathlib import Path

from ui.app.serve import FIRST_PAGE_MODULES

ROOT = Path(__file__).resolve().parents[2]


def project_imports(path: Path) -> set[str]:
    """The ``bleu_core`` and ``ui`` modules a script imports at its top level (not inside functions)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in ("bleu_core", "ui"):
                found.add(node.module)
                for alias in node.names:  # `from ui.app import context`: a module of a package
                    candidate = f"{node.module}.{alias.name}"
                    if (ROOT / (candidate.replace(".", "/") + ".py")).is_file():
                        found.add(candidate)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] in ("bleu_core", "ui")}
    return found


def test_the_list_covers_what_the_first_page_imports() -> None:
    """app.py and the Study page (the default page): every project module they import is imported ahead
    (or is a package or module those import anyway, e.g. ``ui.app``)."""
    needed = project_imports(ROOT / "app.py") | project_imports(ROOT / "pages" / "study.py")
    packages = {m for m in needed if (ROOT / m.replace(".", "/") / "__init__.py").is_file()}
    assert needed - packages - set(FIRST_PAGE_MODULES) == set()
    assert FIRST_PAGE_MODULES[0] == "numpy"  # the largest part, first


def test_the_thread_imports_them_once_the_server_answers() -> None:
    """In a fresh interpreter, with something listening on the port: every module of the list is
    imported by the thread."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        code = (
            "import json, sys\n"
            "from ui.app.serve import FIRST_PAGE_MODULES, import_ahead\n"
            f"import_ahead({port}).join(60)\n"
            "print(json.dumps([m for m in FIRST_PAGE_MODULES if m not in sys.modules]))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
