"""What the app's first page (app.py + the Study page, the first run after a server start) does, and when.

The first page's time from server start is a target (issue 31: ≤ 3 s, Streamlit's hello world beside it;
``benchmarks/bench_first_page.py``). What it does beyond hello world is kept small: no import it does not
draw with, and the background work (the warm-up imports, counting statistics ahead) starts only once the
page has run, so that it does not take the CPU from the page or from the browser drawing it.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

from app_runs import start_app as start

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_page_imports_no_metric_module():
    """The metric-score upload imports every metric (``bleu_core.metrics.registry``, ~45 ms of CPU) only when
    scores are attached; drawing the Study page imports none of them. A fresh process: the test process
    has imported everything already."""
    code = (
        "import sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=120)\n"
        "at.run()\n"
        "assert not at.exception, [e.value for e in at.exception]\n"
        "assert at.title[0].value == 'Study'\n"
        "loaded = ('bleu_core.metrics.registry', 'ui.app.metric_tables')\n"
        "print(','.join(m for m in loaded if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == ""


def test_background_work_starts_after_the_first_page_has_run(monkeypatch):
    """On a real server (not under AppTest) the warm-up and the count of the first statistics start once
    the Study page has run, not before it (app.py); the page's last element is the metric-score panel."""
    import ui.study.metric_upload
    from ui.app import context, shared_cache, warmup

    events: list[str] = []
    panel = ui.study.metric_upload.metric_scores_panel

    def drawn(study):
        panel(study)
        events.append("page drawn")

    monkeypatch.setattr(context, "under_app_test", lambda: False)
    monkeypatch.setattr(warmup, "start", lambda *a, **k: events.append("warm-up"))
    monkeypatch.setattr(shared_cache, "count_current", lambda *a, **k: events.append("count"))
    monkeypatch.setattr(ui.study.metric_upload, "metric_scores_panel", drawn)
    at = start()
    assert not at.exception, [e.value for e in at.exception]
    assert events == ["page drawn", "warm-up", "count"]


def test_streamlit_still_has_the_direct_run_flag_app_py_sets():
    """app.py marks Streamlit's "run it with `streamlit run`" hint as given (under a runtime no hint is due;
    the check behind it costs 30-40 ms of the first page: ``inspect.stack()``). If Streamlit renames the
    flag, setting it does nothing: this test says so."""
    from streamlit import delta_generator

    assert isinstance(delta_generator._use_warning_has_been_displayed, bool)
    assert "_use_warning_has_been_displayed" in inspect.getsource(
        delta_generator._maybe_print_use_warning
    )
