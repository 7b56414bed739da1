"""Our BLEU equals the WMT21 organisers' official sacreBLEU scores (scores/automatic-scores.tsv).

Data: ../shared/data/wmt21-newstest2021-mqm-da/wmt21-news-systems (research use only, read in place, never copied).
The full check over all pairs is ``benchmarks/wmt21_official.py``; here en-de: 20 systems × bleu-A/C/D/all.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "wmt21_official", ROOT / "benchmarks" / "wmt21_official.py"
)
wmt21 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wmt21)


@pytest.mark.skipif(
    not wmt21.DEFAULT.is_dir(), reason="WMT21 release not available on this machine"
)
def test_official_wmt21_bleu_en_de():
    rows = wmt21.compare(wmt21.DEFAULT, ["en-de"])
    assert len(rows) == 80  # 20 systems × (bleu-A, bleu-C, bleu-D, bleu-all)
    for pair, system, metric, ours, official in rows:
        assert abs(ours - official) < 1e-9, (pair, system, metric)
