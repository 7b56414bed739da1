"""Babych & Hartley (2004) Tables 1-3: the paper's own figures, and the tables computed on a small study."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bleu_core.engine.bleu import corpus_bleu
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.babych import babych_tables, feature_label, pearson_pairwise, stability
from bleu_core.metrics.weighted import weighted_scores
from bleu_core.study import Criterion, Rating, Segment, Study

# Babych & Hartley 2004, Table 1 (tf.idf) and Table 2 (S-score): per system, run 1 ("Reference") and run 2
# ("Expert"); systems CANDIDE, GLOBALINK, MS, REVERSO, SYSTRAN; adequacy / fluency (REVERSO: NA).
SYSTEMS = ["candide", "globalink", "ms", "reverso", "systran"]
ADEQUACY = [0.677, 0.710, 0.718, math.nan, 0.789]
FLUENCY = [0.455, 0.381, 0.382, math.nan, 0.508]
TABLE1 = {  # measure -> (run 1 column, run 2 column)
    "P": ([0.4767, 0.4289, 0.4217, 0.4760, 0.4864], [0.4709, 0.4277, 0.4218, 0.4756, 0.4813]),
    "R": ([0.3363, 0.3146, 0.3332, 0.3643, 0.3759], [0.3324, 0.3144, 0.3354, 0.3653, 0.3734]),
    "F": ([0.3944, 0.3630, 0.3723, 0.4127, 0.4241], [0.3897, 0.3624, 0.3737, 0.4132, 0.4206]),
}
TABLE2 = {
    "P": ([0.4570, 0.4054, 0.3963, 0.4547, 0.4633], [0.4524, 0.4036, 0.3969, 0.4540, 0.4585]),
    "R": ([0.3281, 0.3086, 0.3237, 0.3563, 0.3666], [0.3254, 0.3086, 0.3259, 0.3574, 0.3644]),
    "F": ([0.3820, 0.3504, 0.3563, 0.3996, 0.4094], [0.3785, 0.3497, 0.3579, 0.4000, 0.4061]),
}
# Table 1/2 correlation rows: r(2) with adequacy and fluency, (run 1, run 2)
CORR = {
    ("tf.idf", "P"): ((0.3399, 0.3602), (0.9665, 0.9721)),
    ("tf.idf", "R"): ((0.7966, 0.8306), (0.8980, 0.8505)),
    ("tf.idf", "F"): ((0.6479, 0.6935), (0.9853, 0.9699)),
    ("s-score", "P"): ((0.2945, 0.2996), (0.9525, 0.9555)),
    ("s-score", "R"): ((0.8046, 0.8317), (0.9093, 0.8722)),
    ("s-score", "F"): ((0.6184, 0.6492), (0.9942, 0.9860)),
}
# Table 3: StDev-tf.idf and StDev-S-score per system, then AVE SDEV
TABLE3 = {
    ("tf.idf", "P"): [0.0041, 0.0008, 0.0001, 0.0003, 0.0036, 0.0018],
    ("tf.idf", "R"): [0.0028, 0.0001, 0.0016, 0.0007, 0.0018, 0.0014],
    ("tf.idf", "F"): [0.0033, 0.0004, 0.0010, 0.0004, 0.0025, 0.0015],
    ("s-score", "P"): [0.0033, 0.0013, 0.0004, 0.0005, 0.0034, 0.0018],
    ("s-score", "R"): [0.0019, 0.0000, 0.0016, 0.0008, 0.0016, 0.0012],
    ("s-score", "F"): [0.0025, 0.0005, 0.0011, 0.0003, 0.0023, 0.0013],
}


@pytest.mark.parametrize("key", list(TABLE3))
def test_stability_reproduces_table3_from_tables_1_and_2(key: tuple[str, str]) -> None:
    scheme, measure = key
    run1, run2 = (TABLE1 if scheme == "tf.idf" else TABLE2)[measure]
    sds, average = stability({s: [a, b] for s, a, b in zip(SYSTEMS, run1, run2, strict=True)})
    printed = TABLE3[key]
    # inputs and outputs are printed to 4 decimals: allow the rounding of both
    for system, value in zip(SYSTEMS, printed[:5], strict=True):
        assert sds[system] == pytest.approx(value, abs=1.2e-4), system
    assert average == pytest.approx(printed[5], abs=1.2e-4)


@pytest.mark.parametrize("key", list(CORR))
def test_pearson_reproduces_table_correlations(key: tuple[str, str]) -> None:
    scheme, measure = key
    runs = (TABLE1 if scheme == "tf.idf" else TABLE2)[measure]
    (ade1, ade2), (flu1, flu2) = CORR[key]
    for run, ade, flu in zip(runs, (ade1, ade2), (flu1, flu2), strict=True):
        r_ade = pearson_pairwise(run, ADEQUACY)
        r_flu = pearson_pairwise(run, FLUENCY)
        assert r_ade.n == 4  # REVERSO skipped pairwise
        # printed inputs are rounded to 4 decimals: r agrees within 0.002
        assert r_ade.statistic == pytest.approx(ade, abs=0.002)
        assert r_flu.statistic == pytest.approx(flu, abs=0.002)


def test_pearson_pairwise_edge_cases() -> None:
    assert math.isnan(pearson_pairwise([1, 2], [1, 2]).statistic)
    assert math.isnan(pearson_pairwise([1, 1, 1], [1, 2, 3]).statistic)
    with pytest.raises(BleuOptionError, match="two equally long lists, got 2 and 3"):
        pearson_pairwise([1, 2], [1, 2, 3])


def _study() -> Study:
    segments = tuple(Segment(str(i), doc_id="d1" if i < 3 else "d2") for i in range(6))
    ref_a = [
        "the storm hit the coast at night",
        "many houses lost their roofs",
        "the mayor asked people to stay home",
        "the team won the final match",
        "fans celebrated in the streets",
        "the coach praised the young players",
    ]
    ref_b = [
        "a storm struck the coast overnight",
        "many homes lost roofs",
        "the mayor told residents to stay indoors",
        "the team won the last game",
        "supporters celebrated in the street",
        "the coach praised his young players",
    ]
    systems = {
        "good": [
            "the storm hit the coast at night",
            "many houses lost roofs",
            "the mayor asked residents to stay home",
            "the team won the final game",
            "fans celebrated in the streets",
            "the coach praised the young players",
        ],
        "mid": [
            "a storm hit coast in night",
            "many house lost their roof",
            "mayor asked people stay at home",
            "team won final match",
            "the fans celebrated on streets",
            None,  # not translated
        ],
        "bad": [
            "weather was bad",
            "houses are there",
            "the man said things",
            "sport happened",
            "people were outside",
            "someone said good",
        ],
        "human": ref_b[:5] + ["the coach had praise for the young players"],
    }
    ratings = []
    for system, ade in (("good", 4.6), ("mid", 3.0), ("bad", 1.2), ("human", 4.8)):
        ratings.append(Rating(system, None, None, None, "adequacy", ade))
    for system, flu in (("good", 4.0), ("mid", 2.5), ("bad", 3.5)):
        ratings.append(Rating(system, None, None, None, "fluency", flu))
    return Study(
        name="toy",
        segments=segments,
        references={"A": ref_a, "B": ref_b},
        systems=systems,
        human_systems=frozenset({"human"}),
        criteria={"adequacy": Criterion("adequacy"), "fluency": Criterion("fluency")},
        ratings=tuple(ratings),
    )


def test_tables_on_a_study_agree_with_the_building_blocks() -> None:
    study = _study()
    t = babych_tables(study)
    assert t.systems == ("good", "mid", "bad")  # machine systems by default
    assert t.references == ("A", "B")
    # BLEU with both references (0-1), over the segments each system translated
    assert t.bleu["good"] == pytest.approx(
        corpus_bleu(study.systems["good"], [study.references["A"], study.references["B"]]).bleu
    )
    keep = [0, 1, 2, 3, 4]
    assert t.bleu["mid"] == pytest.approx(
        corpus_bleu(
            [study.systems["mid"][i] for i in keep],
            [[study.references[r][i] for i in keep] for r in "AB"],
        ).bleu
    )
    # weighted P/R/F with one reference, weights from that reference and the study's documents
    direct = weighted_scores(
        study.systems["good"], study.references["B"], doc_ids=["d1"] * 3 + ["d2"] * 3
    )
    for scheme in ("none", "tf.idf", "s-score"):
        corpus = direct[scheme].corpus()
        assert t.scores[(scheme, "recall", "B")]["good"] == pytest.approx(float(corpus.recall))
        assert t.scores[(scheme, "f", "B")]["good"] == pytest.approx(float(corpus.f))
    # correlations: Pearson of the tabled values with the human system scores (machine systems)
    row = next(
        r
        for r in t.correlations
        if r.feature == feature_label("tf.idf", "recall", "A") and r.criterion == "adequacy"
    )
    values = [t.scores[("tf.idf", "recall", "A")][s] for s in ("good", "mid", "bad")]
    assert row.result.statistic == pytest.approx(np.corrcoef(values, [4.6, 3.0, 1.2])[0, 1])
    assert row.result.n == 3
    bleu_row = next(r for r in t.correlations if r.feature == "BLEU" and r.criterion == "fluency")
    assert bleu_row.result.statistic == pytest.approx(
        np.corrcoef([t.bleu[s] for s in t.systems], [4.0, 2.5, 3.5])[0, 1]
    )
    # stability: sd (ddof=1) of the two single-reference runs
    a, b = (
        t.scores[("s-score", "precision", "A")]["mid"],
        t.scores[("s-score", "precision", "B")]["mid"],
    )
    assert t.stability[("precision", "s-score")]["mid"] == pytest.approx(abs(a - b) / math.sqrt(2))
    assert t.stability_average[("precision", "s-score")] == pytest.approx(
        np.mean(list(t.stability[("precision", "s-score")].values()))
    )
    assert t.notes == ()


def test_good_system_scores_above_bad_everywhere() -> None:
    t = babych_tables(_study())
    for key, values in t.scores.items():
        assert values["good"] > values["bad"], key


def test_include_human_and_single_reference() -> None:
    study = _study()
    t = babych_tables(study, include_human=True, references=["A"])
    assert "human" in t.systems and "human" in t.correlated_systems
    assert t.stability == {} and "needs at least two reference streams" in t.notes[0]


def test_validation_messages() -> None:
    study = _study()
    with pytest.raises(
        BleuOptionError, match="unknown reference stream\\(s\\) 'C'; the study has: A, B"
    ):
        babych_tables(study, references=["C"])
    with pytest.raises(BleuOptionError, match="unknown system\\(s\\) 'zzz'"):
        babych_tables(study, systems=["zzz"])
