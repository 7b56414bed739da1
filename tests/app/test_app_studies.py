"""More AppTest checks on other studies: the zh-en demo (with a human translation), the paper's examples
(no ratings) and a small study with rater groups. Cross-checks against sacrebleu 2.x and scipy.stats.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import sacrebleu
from app_runs import captions, plain, start_app
from scipy import stats

from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.demo import load_demo
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]


start = partial(start_app, label=None)


def test_bleu_vs_human_toggle_drops_human_translations():
    # ted-zh-en keeps the human translation "ref" as a system (refB is the reference): 13 MT + 1 human.
    study = load_demo("ted-zh-en")
    assert len(study.human_systems) == 1
    at = start("bleu_vs_human", study)
    n_all = len(study.systems)
    # out by default, as meta and WMT's meta-evaluation (issue 39)
    assert f"n = {n_all - 1}" in captions(at) and f"n = {n_all}" not in captions(at)
    at.toggle(key=K.INCLUDE_HUMANS).set_value(True).run()
    assert not at.exception
    assert f"n = {n_all}" in captions(at)


def test_bleu_vs_human_fits_each_rater_group():
    segs = tuple(Segment(str(i)) for i in range(1, 7))
    refs = {"ref": [f"the cat number {i} sat on the mat" for i in range(6)]}
    systems = {
        "good": [f"the cat number {i} sat on the mat" for i in range(6)],
        "fair": [f"the cat {i} sat on a mat" for i in range(6)],
        "poor": [f"a dog {i} lay" for i in range(6)],
        "worse": [f"dog {i}" for i in range(6)],
    }
    base = {"good": 5.0, "fair": 4.0, "poor": 2.0, "worse": 1.0}
    ratings = tuple(
        Rating(s, str(i), f"{g}-rater", g, "adequacy", max(1.0, base[s] - (g == "bilingual")))
        for s in systems
        for i in range(1, 7)
        for g in ("monolingual", "bilingual")
    )
    study = Study(
        name="groups",
        segments=segs,
        references=refs,
        systems=systems,
        criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
        ratings=ratings,
    )
    at = start("bleu_vs_human", study)
    at.multiselect(key=K.BVH_GROUPS).set_value(["bilingual", "monolingual"]).run()
    assert not at.exception
    labels = [plain(m.label) for m in at.metric]
    assert (
        "Pearson r · adequacy (monolingual)" in labels
        and "Pearson r · adequacy (bilingual)" in labels
    )
    mono = at.metric[labels.index("Pearson r · adequacy (monolingual)")]
    expected = stats.pearsonr(
        [sacrebleu.corpus_bleu(systems[s], [refs["ref"]]).score for s in systems],
        [base[s] for s in systems],
    ).statistic
    assert float(mono.value) == pytest.approx(expected, abs=5e-4)


@pytest.mark.parametrize("demo", ["ted-zh-en", "paper-examples"])
@pytest.mark.parametrize("page", ["corpus", "explore", "learn", "bleu_vs_human", "export"])
def test_every_page_renders_on_the_other_demos(demo, page):
    study = load_demo(demo)
    at = start(page, study)  # start() asserts that no exception was raised
    assert at.title[0].value
    if page == "bleu_vs_human" and not study.criteria:
        assert any("no human ratings" in i.value for i in at.info)
