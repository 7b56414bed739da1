"""Readability under AppTest: one number for one quantity on every page, missing translations, block layout,
pages that say what a study lacks, and the judge-only app.

The charts' labels with 50 systems are checked in a real browser (tests/browser/test_many_systems.py).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from app_runs import page_alone
from scipy import stats
from streamlit.testing.v1 import AppTest

from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_statistics
from bleu_core.study import Study
from bleu_core.study.demo import load_demo
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "pages"
N_SEGMENTS = 50


@pytest.fixture(scope="module")
def ted_with_gap() -> Study:
    """4 MT systems × 50 segments of the TED en-de demo (MQM ratings), one translation taken out."""
    full = load_demo("ted-en-de")
    names = list(full.systems)[:4]
    small = full.subset(names, N_SEGMENTS)
    texts = dict(small.systems)
    first = list(texts[names[1]])
    first[2] = None  # the release lacks this output
    texts[names[1]] = first
    return dataclasses.replace(small, systems=texts)


def run_page(name: str, study: Study, key: str, **extra: object) -> AppTest:
    state = {K.STUDY: study, K.STUDY_KEY: key, K.N_RESAMPLES: 30, K.SEED: 3}
    return page_alone(name, {**state, **extra})


def frame_with(at: AppTest, column: str):  # noqa: ANN201 - a pandas DataFrame
    for element in at.dataframe:
        if column in element.value.columns:
            return element.value
    raise AssertionError(f"no table with a {column!r} column")


def segment_r_on_pages(study: Study, key: str, settings: dict[str, object]) -> dict[str, float]:
    """Segment-level Pearson r of BLEU vs mqm as each page shows it, under the same sidebar settings."""
    common = {**settings, K.INCLUDE_HUMANS: True}
    bvh = run_page("bleu_vs_human.py", study, key, **common, **{K.BVH_CRITERION: "mqm"})
    bvh_r = float(next(m.value for m in bvh.metric if m.label == "Pearson r"))
    corr = run_page(
        "correlation.py", study, key, **common, **{K.CORR_CRITERION: "mqm", K.CORR_DRAWS: 2}
    )
    table = frame_with(corr, "CI low")
    corr_r = float(
        table[(table["level"] == "segment") & (table["method"] == "pearson")]["r"].iloc[0]
    )
    met = run_page("metrics.py", study, key, **common, **{K.MET_METRICS: ["BLEU"]})
    rows = frame_with(met, "oriented r")
    pick = (
        (rows["metric"] == "BLEU")
        & (rows["criterion"] == "mqm")
        & (rows["level"] == "segment")
        & (rows["method"] == "pearson")
    )
    return {
        "bleu_vs_human": bvh_r,
        "correlation": corr_r,
        "metrics": float(rows[pick]["r"].iloc[0]),
    }


@pytest.mark.parametrize(
    "settings",
    [
        {K.OPT_SMOOTH: "floor", K.OPT_EFFECTIVE_ORDER: True},
        {K.OPT_SMOOTH: "exp", K.OPT_EFFECTIVE_ORDER: False},
    ],
    ids=["floor-eff", "exp-no-eff"],
)
def test_segment_level_r_is_one_number_on_every_page(ted_with_gap, settings):
    found = segment_r_on_pages(ted_with_gap, f"test:i15-ted-{len(settings)}", settings)
    # the independent figure: scipy's Pearson r of sentence BLEU as sacrebleu's sentence_bleu computes it
    # (the sidebar's options with effective order on, whatever the corpus-level checkbox says) against
    # the MQM segment scores, the missing translation left out
    from ui.app.settings import options_from_state

    state: dict[str, object] = {}
    K.init_state(state)
    state.update(settings)
    options = options_from_state(state)[0]
    refs = [ted_with_gap.references[r] for r in ted_with_gap.references]
    human = ted_with_gap.segment_scores("mqm")
    xs, ys = [], []
    for k, name in enumerate(ted_with_gap.systems):
        texts = ted_with_gap.systems[name]
        keep = [i for i, t in enumerate(texts) if t is not None and not np.isnan(human[k, i])]
        array = compute_statistics(
            [texts[i] for i in keep],
            [[r[i] for i in keep] for r in refs],
            max_order=options.statistics_order,
            tokenize=options.tokenize,
            lowercase=options.lowercase,
        ).array
        xs.extend(bleu_from_stats(array, options.with_(effective_order=True)).score.tolist())
        ys.extend(human[k, keep].tolist())
    expected = stats.pearsonr(xs, ys).statistic
    assert found["bleu_vs_human"] == pytest.approx(expected, abs=6e-4)  # shown to 3 decimals
    assert found["correlation"] == pytest.approx(expected, abs=1e-9)
    assert found["metrics"] == pytest.approx(expected, abs=1e-9)


def test_the_sidebar_smoothing_moves_the_segment_level_r_on_every_page(ted_with_gap):
    # the cross-page test above could pass with a constant: the sidebar's settings must move the number
    a = segment_r_on_pages(ted_with_gap, "test:i15-smooth", {K.OPT_SMOOTH: "none"})
    b = segment_r_on_pages(ted_with_gap, "test:i15-smooth", {K.OPT_SMOOTH: "add-k"})
    for page in a:
        assert abs(a[page] - b[page]) > 1e-3, page


def test_explore_marks_missing_translations_and_keeps_the_segment(ted_with_gap):
    name = list(ted_with_gap.systems)[1]
    seg = ted_with_gap.segment_ids[2]
    at = run_page(
        "explore.py",
        ted_with_gap,
        "test:i15-explore",
        **{
            K.EXPLORE_SYSTEMS: [name],
            K.EXPLORE_SEGMENT: seg,
            K.EXPLORE_SORT: "position",
            K.EXPLORE_DESCENDING: False,
        },
    )
    table = at.dataframe[0].value
    row = table[table["segment"] == seg].iloc[0]
    assert row["output"] == "— not in the release —" and np.isnan(row["BLEU"])
    caption = next(c.value for c in at.caption if "translations match" in c.value)
    assert caption.startswith("49 of 199 translations match (+ 1 not in the release)")
    html = "".join(h.proto.body for h in at.get("html"))
    assert "not in the release" in html and "◆ human" not in html  # no human system in this slice
    assert at.subheader[0].value.startswith(f"Segment {seg}")
    # the detail view follows the segment by its id through a sort and a settings change
    at.session_state[K.EXPLORE_SORT] = "BLEU"
    at.session_state[K.EXPLORE_DESCENDING] = True
    at.session_state[K.OPT_SMOOTH] = "floor"
    at.run()
    assert not at.exception
    assert at.subheader[0].value.startswith(f"Segment {seg}")


def test_significance_blocks_use_every_segment_by_default(ted_with_gap):
    at = run_page("significance.py", ted_with_gap, "test:i15-sig", **{K.SIG_TRIALS: 100})
    captions = [c.value for c in at.caption]
    # 50 segments in 20 blocks: 10 of 3 and 10 of 2, none left over
    assert any(
        c.startswith("20 blocks of 2-3 segments · BLEU on the 0-100 scale") for c in captions
    )
    assert not [w for w in at.warning if "not used" in w.value]
    p_values = frame_with(at, "verdict")["p"].tolist()
    assert all(isinstance(p, str) and p != "None" for p in p_values)


def test_judges_page_says_when_ratings_have_no_rater_ids(ted_with_gap):
    anonymous = dataclasses.replace(
        ted_with_gap,
        ratings=tuple(dataclasses.replace(r, rater=None) for r in ted_with_gap.ratings),
    )
    at = run_page("judges.py", anonymous, "test:i15-judges")
    assert any("carry no rater ids" in i.value for i in at.info)
    assert not at.get("vega_lite_chart") and not at.dataframe


def test_a_judges_link_opens_the_rate_page_only():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["campaign"] = "NOSUCH"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Rate translations"
    assert at.session_state[K.STUDY] is None  # no study opened, no study data shown
    assert not [w for w in at.sidebar.selectbox if w.key == K.OPT_TOKENIZE]
    assert "BLEU signature" not in " ".join(c.value for c in at.sidebar.caption)
