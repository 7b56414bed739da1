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
