"""Architecture rules that must not erode: bleu_core never imports streamlit or pandas; pages stay small."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
        assert n <= 230, f"{page.name} has {n} lines"
