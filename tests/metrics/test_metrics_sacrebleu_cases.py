"""sacrebleu's own chrF and TER test cases (tests/engine/data/sacrebleu_cases.json, copied from
mjpost/sacrebleu's test/test_chrf.py and test/test_ter.py: see the README there): our chrF statistics table
gives sacrebleu's expected scores, on the compiled kernel and on the numpy path; our TER table likewise."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bleu_core.metrics.chrf import ChrfOptions, chrf_statistics_table
from bleu_core.metrics.ter import ter_statistics_table

CASES = Path(__file__).resolve().parents[1] / "engine" / "data" / "sacrebleu_cases.json"
#: The tolerances of the source files: test_chrf.py's and test_ter.py's EPSILON.
EPSILON_CHRF = 1e-4
EPSILON_TER = 1e-3


@cache
def cases() -> dict[str, Any]:
    return json.loads(CASES.read_text(encoding="utf-8"))


def chrf_options(kwargs: dict[str, Any]) -> ChrfOptions:
    """sacrebleu's ``corpus_chrf`` keywords as :class:`ChrfOptions` (``remove_whitespace`` is the opposite
    of our ``whitespace``; the other names are the same)."""
    options = {k: v for k, v in kwargs.items() if k != "remove_whitespace"}
    if "remove_whitespace" in kwargs:
        options["whitespace"] = not kwargs["remove_whitespace"]
    return ChrfOptions(**options)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure"])
@pytest.mark.parametrize("case", cases()["chrf"], ids=lambda c: f"{c['case']}-{c['hyps'][0][:12]}")
def test_chrf_is_sacrebleus_expected_score(case: dict[str, Any], compiled: bool) -> None:
    table = chrf_statistics_table(
        [case["hyps"]], [case["refs"]], chrf_options(case["kwargs"]), compiled=compiled
    )
    # sentence_chrf(hypothesis, [reference]) for test_sentence_level_chrf, corpus_chrf for the others
    score = table.sentence()[0, 0] if case["sentence"] else table.corpus()[0]
    assert abs(float(score) - case["expected"]) < EPSILON_CHRF


@pytest.mark.parametrize("case", cases()["ter"], ids=lambda c: c["case"])
def test_ter_is_sacrebleus_expected_score(case: dict[str, Any]) -> None:
    table = ter_statistics_table({"system": case["hyps"]}, {"reference": case["refs"]})
    assert abs(float(table.corpus()[0]) - 100 * case["expected_fraction"]) < EPSILON_TER
