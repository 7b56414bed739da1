"""The Correlation page's computations (:mod:`ui.analysis.correlation_cache`) give what the plain
``bleu_core`` functions give: the reference analysis counted once per subset for all systems equals
:func:`bleu_core.evaluation.reference_subsets` and :func:`bleu_core.evaluation.random_reference_per_document`
(which count every system alone), and BLEU in the metric tests is the page's own BLEU."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.evaluation import random_reference_per_document, reference_subsets
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.references import random_reference_from_statistics, subsets_from_totals
from bleu_core.study import Segment, Study
from ui.analysis import correlation_cache


def three_reference_study() -> Study:
    rng = np.random.default_rng(5)
    vocab = [f"w{i}" for i in range(40)]
    n = 36
    base = [list(rng.choice(vocab, size=int(rng.integers(4, 12)))) for _ in range(n)]

    def vary(p: float) -> list[str | None]:
        return [
            " ".join(t if rng.random() > p else str(rng.choice(vocab)) for t in toks)
            for toks in base
        ]

    systems = {f"S{k}": vary(0.2 + 0.1 * k) for k in range(5)}
    systems["S4"][3] = None  # a missing output is not counted, in both paths
    return Study(
        name="refs",
        segments=tuple(Segment(str(i), doc_id=f"d{i // 5}") for i in range(n)),
        references={"A": vary(0.15), "B": vary(0.15), "C": vary(0.15)},
        systems=systems,
    )


@pytest.mark.parametrize(
    "options", [BleuOptions(), BleuOptions(tokenize="char", smooth="floor", max_order=3)]
)
def test_reference_analysis_equals_counting_every_system_alone(options):
    study = three_reference_study()
    names = ("S0", "S2", "S3", "S4")
    texts = {s: study.systems[s] for s in names}
    docs = [seg.doc_id for seg in study.segments]
    seen: list[tuple[int, int, str]] = []
    subsets, single = correlation_cache.reference_analysis(
        study, names, options, 7, 3, lambda *p: seen.append(p)
    )
    expected = reference_subsets(texts, study.references, options)
    assert subsets.subsets == expected.subsets  # every score and tau, bit for bit
    draws = random_reference_per_document(texts, study.references, docs, options, n_draws=7, seed=3)
    for field in ("full_scores", "draws", "choices", "kendall"):
        np.testing.assert_array_equal(getattr(single, field), getattr(draws, field))
    assert single.documents == draws.documents and single.seed == 3
    # 7 subsets of 3 references, each counted once for all systems; then the draws
    assert [p[0] for p in seen] == list(range(8)) and seen[0][1] == 8
    assert seen[0][2].startswith(
        "Reference subsets: counting 4 systems × 36 segments with A (1 of 7)"
    )


def test_reference_analysis_reuses_the_pages_statistics():
    study = three_reference_study()
    names = ("S1", "S2", "S3")
    options = BleuOptions()
    counted = compute_system_statistics(
        {s: study.systems[s] for s in names}, list(study.references.values())
    )
    current = (tuple(study.references), np.stack([counted[s].array for s in names]))
    seen: list[tuple[int, int, str]] = []
    with_current = correlation_cache.reference_analysis(
        study, names, options, 4, 1, lambda *p: seen.append(p), current
    )
    assert len(seen) == 7  # the full set is not counted again: 6 subsets, then the draws
    alone = correlation_cache.reference_analysis(study, names, options, 4, 1)
    assert with_current[0].subsets == alone[0].subsets
    np.testing.assert_array_equal(with_current[1].draws, alone[1].draws)


def test_statistics_that_do_not_fit_say_so():
    single = np.zeros((2, 2, 5, 12))
    with pytest.raises(StatsInputError, match="do not fit 3 systems and 2 references"):
        random_reference_from_statistics(["a", "b", "c"], ["A", "B"], single, np.zeros((2, 12)))
    with pytest.raises(StatsInputError, match="needs at least 2 reference streams"):
        random_reference_from_statistics(["a", "b"], ["A"], single[:, :1], np.zeros((2, 12)))
    with pytest.raises(StatsInputError, match="4 document ids for 5 segments"):
        random_reference_from_statistics(
            ["a", "b"], ["A", "B"], single, np.zeros((2, 12)), ["d"] * 4
        )
    with pytest.raises(StatsInputError, match=r"the statistics with all references \('A', 'B'\)"):
        subsets_from_totals(["a", "b"], ["A", "B"], {("A",): np.zeros((2, 12))})


def test_metric_sides_take_bleu_from_the_page():
    study = three_reference_study()
    names = ("S0", "S1")
    bleu = (np.array([1.0, 2.0]), np.ones((2, study.n_segments)))
    sides = correlation_cache.metric_sides(
        "test:refs", study, ("BLEU",), names, BleuOptions(), bleu, []
    )
    assert sides is not None and sides["BLEU"] is bleu


def test_a_tokenizer_change_redoes_only_the_bleu_side(monkeypatch):
    """The human side's bootstrap (the count matrix, the human system scores on every resample) does not
    depend on any BLEU setting: a tokenizer change re-scores BLEU only."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    import bleu_core.evaluation.meta as meta
    from tests.app.test_pages_stats import judged_study
    from ui.app import state as K

    calls = {"counts": 0, "human": 0}
    real_counts = meta.bootstrap_counts

    def counting_counts(*a: object, **k: object) -> object:
        calls["counts"] += 1
        return real_counts(*a, **k)

    class CountingSource(meta.SegmentMeanSource):
        def resampled(self, counts: np.ndarray) -> np.ndarray:
            calls["human"] += 1
            return super().resampled(counts)

    monkeypatch.setattr(meta, "bootstrap_counts", counting_counts)
    monkeypatch.setattr(correlation_cache, "SegmentMeanSource", CountingSource)
    page = Path(__file__).resolve().parents[2] / "pages" / "correlation.py"
    at = AppTest.from_file(str(page), default_timeout=120)
    state: dict[str, object] = {}
    K.init_state(state)
    seed = 1234567  # a seed no other test uses: nothing cached yet
    state.update(
        {K.STUDY: judged_study(), K.STUDY_KEY: "test:tokenizer-change", K.N_RESAMPLES: 40,
         K.SEED: seed, K.CORR_DRAWS: 2}
    )  # fmt: skip
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    first = at.dataframe[0].value
    assert calls == {"counts": 1, "human": 1}
    at.session_state[K.OPT_TOKENIZE] = "char"
    at.run()
    assert not at.exception, at.exception
    assert calls == {"counts": 1, "human": 1}
    changed = at.dataframe[0].value
    assert not np.allclose(first["r"], changed["r"])  # BLEU did change
    at.session_state[K.OPT_TOKENIZE] = "13a"
    at.run()
    np.testing.assert_array_equal(at.dataframe[0].value["r"], first["r"])
