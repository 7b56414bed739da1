"""``meta --pairs``'s per-pair document-level correlation and human clusters
(:mod:`bleu_core.evaluation.multi_pair_extras`): the numbers single-pair ``meta --pair`` and ``significance
--pair`` give, pair by pair, on the WMT24 release."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.evaluation.multi_pair_extras import PairExtras, format_extras
from bleu_core.evaluation.system_clusters import ClusterRow, SystemClusters

WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
FEW = ["--n-resamples", "20"]  # the per-pair extras draw nothing; fewer draws for the rankings


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.skipif(not WMT24.is_dir(), reason="needs ../shared/data/wmt24-general-esa")
def test_every_pair_carries_single_pair_meta_document_level_and_clusters(capsys) -> None:
    release = str(WMT24)
    several = _json(["meta", release, "--pairs", "all", *FEW], capsys)
    per_pair = {e["pair"]: e for e in several["per_pair"]}
    assert sorted(per_pair) == sorted(several["pairs"]) and len(per_pair) == 2
    for pair, extras in per_pair.items():
        single = _json(["meta", release, "--pair", pair, *FEW], capsys)
        documents = [
            c for c in single["correlations"]
            if c["level"] == "document" and c["criterion"] == extras["criterion"]
        ]  # fmt: skip
        assert documents, pair
        mine = extras["document_correlations"]
        assert [(c["method"], c["statistic"], c["pvalue"], c["n"]) for c in mine] == [
            (c["method"], c["statistic"], c["pvalue"], c["n"]) for c in documents
        ]
        assert extras["systems"] == single["systems"]  # the machine systems, as single-pair meta
        significance = _json(["significance", release, "--pair", pair, *FEW], capsys)
        human = next(c for c in significance["clusters"] if c["name"] == extras["criterion"])
        assert extras["clusters"][0] == human


@pytest.mark.skipif(not WMT24.is_dir(), reason="needs ../shared/data/wmt24-general-esa")
def test_the_text_output_has_each_pairs_section(capsys) -> None:
    assert main(["meta", str(WMT24), "--pairs", "en-hi", *FEW]) == 0
    out = capsys.readouterr().out
    assert "en-hi · BLEU against esa, document level" in out
    assert "clusters · esa: one-sided Wilcoxon signed-rank" in out


def test_a_study_without_documents_says_so() -> None:
    clusters = SystemClusters("esa", "test", (ClusterRow("A", 90.0, 1, 1, 1, 5, None),))
    text = format_extras([PairExtras("en-de", "esa", ("A",), (), (clusters,))])
    assert "no segment names a document" in text
    assert "clusters · esa: test" in text
