"""Concurrency of campaign storage: a short version of ``benchmarks/load_ratings.py``: 30 judges (threads) rate
at once for 3 s through :class:`JudgeSession` (the Rate page's code path); every submitted rating must be stored
exactly once with its last submitted score.

Durability (kill-and-restart at random points over several rounds, the SQLite settings asserted directly, judges
as separate processes on one file) is in ``tests/campaigns/test_campaigns_durability.py``; it replaced the kill test that
used to live here, which killed at one fixed point only.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "load_ratings", ROOT / "benchmarks" / "load_ratings.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_ratings"] = module
    spec.loader.exec_module(module)
    return module


def test_thirty_concurrent_judges_every_rating_exactly_once(tmp_path):
    bench = load_benchmark()
    report = bench.run_load(
        tmp_path / "load.sqlite", n_judges=30, seconds=3.0, seed=1, n_segments=40
    )
    assert report.errors == [] and report.n_errors == 0
    assert report.n_submits > 30 and report.n_changes > 0 and report.n_skips > 0
    assert report.n_rows == report.n_expected_ratings > 0
    assert (
        report.n_duplicate_keys
        == report.n_missing
        == report.n_wrong_score
        == report.n_unexpected
        == 0
    )
    assert report.skips_match
    assert report.ok
    text_report = bench.format_report(report, "tmp")
    assert (
        "PASS" in text_report and f"| rows in the ratings table | {report.n_rows} |" in text_report
    )
