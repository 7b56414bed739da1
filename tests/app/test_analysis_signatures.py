"""Under its results, each analysis page shows one line that says everything that changes its
numbers (the BLEU signature, the systems with the human translations in or out, the criterion, the
interval's method, resamples and seed), built by :func:`bleu_core.engine.signature.analysis_signature` from the
page's own settings; a setting that changes the numbers changes the line.

The study: four systems (one a human translation, H1), two references, a 1-5 fluency criterion rated per
segment (``judged_study`` of ``test_pages_stats``); resample counts kept low.
"""

from __future__ import annotations

import pytest
from app_runs import page_alone
from streamlit.testing.v1 import AppTest
from test_pages_stats import judged_study

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.signature import analysis_signature, interval_field, make_signature
from ui.app import state as K

PREFIX = "Analysis signature: "
RESAMPLES, SEED = 20, 7
BLEU = make_signature(BleuOptions(), ["A", "B"])  # the default options, both references by name

# page: (its own settings, the criterion and the ``ci:`` field it states for resamples n and seed s)
PAGES = {
    "metrics": (
        {K.MET_METRICS: ["BLEU"]},
        "fluency",
        lambda n, s: interval_field("bootstrap", n, s),
    ),
    "bleu_vs_human": (
        {K.BVH_METRIC: "BLEU"},
        "fluency",
        lambda n, s: interval_field("bootstrap percentile", n, s),  # segments rated: bootstrap
    ),
    "significance": ({K.SIG_AR_ON: False}, None, lambda n, s: interval_field("bootstrap", n, s)),
    "metric_ranking": (
        {K.RANK_METRICS: ["BLEU", "chrF"], K.RANK_STATISTICS: ["pairwise-accuracy"]},
        "fluency",
        lambda n, s: f"bootstrap:{n}:seed{s}:alpha0.05",
    ),
}


def shown(at: AppTest) -> str:
    """The one analysis signature the page shows (inline code in a caption)."""
    lines = [c.value for c in at.caption if c.value.startswith(PREFIX)]
    assert len(lines) == 1, lines
    assert lines[0].startswith(PREFIX + "`") and lines[0].endswith("`")
    return lines[0][len(PREFIX) + 1 : -1]


def expected(page: str, *, humans: bool, n: int = RESAMPLES, seed: int = SEED) -> str:
    _, criterion, ci = PAGES[page]
    return analysis_signature(
        BLEU,
        systems=4 if humans else 3,
        human_included=humans,
        criterion=criterion,
        interval=ci(n, seed),
    )


def run(page: str) -> AppTest:
    state = {
        K.STUDY: judged_study(),
        K.STUDY_KEY: "test:judged-signatures",
        K.N_RESAMPLES: RESAMPLES,
        K.SEED: SEED,
        K.INCLUDE_HUMANS: False,
        **PAGES[page][0],
    }
    return page_alone(f"{page}.py", state, timeout=300)


@pytest.mark.parametrize("page", list(PAGES))
def test_page_shows_the_analysis_signature_of_its_settings(page: str) -> None:
    at = run(page)
    assert shown(at) == expected(page, humans=False)
    assert "|systems:3|humans:out|" in shown(at)


@pytest.mark.parametrize("page", list(PAGES))
def test_a_setting_that_changes_the_numbers_changes_the_signature(page: str) -> None:
    at = run(page)
    before = shown(at)
    at.session_state[K.SEED] = SEED + 1
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert shown(at) == expected(page, humans=False, seed=SEED + 1) != before
    at.session_state[K.INCLUDE_HUMANS] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert shown(at) == expected(page, humans=True, seed=SEED + 1)
    assert "|systems:4|humans:in|" in shown(at)
