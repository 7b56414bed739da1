"""AppTests of the Significance, Judges and Correlation pages (small studies; resample counts kept low)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from app_runs import page_alone
from streamlit.testing.v1 import AppTest

from bleu_core.study import Criterion, Rating, Segment, Study
from ui.app import state as K

PAGES = Path(__file__).resolve().parents[2] / "pages"


def judged_study() -> Study:
    """Four systems, two references, two rater groups in which every judge rates every system (paper §4)."""
    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(60)]
    n = 30
    base = [list(rng.choice(vocab, size=8)) for _ in range(n)]

    def vary(p: float) -> list[str]:
        return [
            " ".join(t if rng.random() > p else str(rng.choice(vocab)) for t in toks)
            for toks in base
        ]

    quality = {"S1": 1.0, "S2": 1.6, "S3": 2.0, "H1": 3.5}
    ratings = [
        Rating(
            s, str(i), f"{g}-{j}", g, "fluency", float(np.clip(round(q + rng.normal(0, 0.7)), 1, 5))
        )
        for g in ("monolingual", "bilingual")
        for j in range(3)
        for s, q in quality.items()
        for i in range(n)
    ]
    return Study(
        name="judged",
        segments=tuple(Segment(str(i), doc_id=f"d{i // 10}") for i in range(n)),
        references={"A": vary(0.2), "B": vary(0.2)},
        systems={"S1": vary(0.7), "S2": vary(0.5), "S3": vary(0.4), "H1": vary(0.25)},
        human_systems=frozenset({"H1"}),
        criteria={"fluency": Criterion("fluency", scale=(1.0, 5.0))},
        ratings=tuple(ratings),
    )


def run_page(name: str, study: Study, key: str, **extra: object) -> AppTest:
    state = {K.STUDY: study, K.STUDY_KEY: key, K.N_RESAMPLES: 60, K.SEED: 7, K.SIG_TRIALS: 300}
    return page_alone(name, {**state, **extra}, check=False)


def test_significance_page_shows_blocks_intervals_and_matrices(ted_slice):
    at = run_page(
        "significance.py", ted_slice, "test:ted-slice", **{K.SIG_BLOCK_SIZE: 0, K.SIG_BLOCKS: 6}
    )
    assert not at.exception, at.exception
    assert at.title[0].value == "How sure are we?"
    subheaders = [s.value for s in at.subheader]
    assert subheaders[0].startswith("Blocks") and "Approximate randomisation" in subheaders
    table2 = at.dataframe[0].value
    # one scale on screen: BLEU 0-100 in the layout, as in the differences and the chart
    assert list(table2.index) == ["Mean BLEU (0-100)", "StdDev (0-100)", "t vs left neighbour"]
    assert len(table2.columns) == 5
    intervals = at.dataframe[2].value
    assert (intervals["95% CI low"] < intervals["BLEU"]).all() and (
        intervals["BLEU"] < intervals["95% CI high"]
    ).all()
    captions = [c.value for c in at.caption]
    assert any(c.startswith("6 blocks of 10 segments · BLEU on the 0-100 scale") for c in captions)
    assert "Bootstrap: seed 7 · 60 resamples." in captions
    assert "Approximate randomisation: seed 7 · 300 trials." in captions
    # the paper's 20 × 25 layout does not fit 60 segments: a clear message, the rest of the page still works
    at.session_state[K.SIG_BLOCK_SIZE] = 25
    at.session_state[K.SIG_BLOCKS] = 20
    at.run()
    assert not at.exception
    assert any(
        "20 blocks of 25 segments need 500 segments but the test set has 60" in e.value
        for e in at.error
    )


def test_judges_page_pairs_adjacent_systems_per_group():
    at = run_page("judges.py", judged_study(), "test:judged", **{K.INCLUDE_HUMANS: True})
    assert not at.exception, at.exception
    frame = at.dataframe[0].value
    assert set(frame["group"]) == {"monolingual", "bilingual"}
    assert (frame["n"] == 90).all()  # 3 judges × 30 segments per adjacent pair
    assert frame.iloc[-1]["pair"].endswith("→ H1")
    at.toggle(key=K.INCLUDE_HUMANS).set_value(False).run()  # the default, as meta (issue 39)
    assert not at.exception
    assert not at.dataframe[0].value["pair"].str.contains("H1").any()


def test_judges_page_explains_when_no_judge_rated_two_systems(ted_slice):
    at = run_page("judges.py", ted_slice, "test:ted-slice")
    assert not at.exception, at.exception
    # TED: one rater per (system, segment); pairs exist only where one rater happened to rate both systems
    if at.warning:
        assert "No judge rated the same segment for two adjacent systems" in at.warning[0].value
    else:
        frame = at.dataframe[0].value
        assert set(frame["group"]) == {"all raters"} and (frame["n"] >= 2).any()


def test_correlation_page_system_segment_and_references():
    at = run_page(
        "correlation.py",
        judged_study(),
        "test:judged",
        **{K.CORR_DRAWS: 5, K.CORR_OTHER_METRIC: "chrF", K.INCLUDE_HUMANS: True},
    )
    assert not at.exception, at.exception
    frame = at.dataframe[0].value
    system = frame[frame["level"] == "system"]
    assert list(system["method"]) == ["pearson", "spearman", "kendall"]
    assert (system["n"] == 4).all() and system["CI low"].notna().all()
    assert "kendall-wmt (by item)" in set(frame["method"])
    # the tables by their columns: the human-vs-human section (show_human_passes) sits between them
    frames = [d.value for d in at.dataframe]
    (tests,) = [f for f in frames if "test" in f.columns]
    assert list(tests["test"]) == ["williams", "permutation", "williams"]
    (sizes,) = [f for f in frames if "references" in f.columns]
    assert list(sizes["references"]) == [1, 2] and list(sizes["subsets"]) == [2, 1]
    assert any(c.value.startswith("Bootstrap intervals: seed 7 · 60 resamples") for c in at.caption)
    assert any(
        "One random reference per document (3 documents, 5 draws, seed 7)" in m.value
        for m in at.markdown
    )
