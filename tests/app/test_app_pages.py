"""Every page of the app under Streamlit's AppTest: renders without exception, key elements, one interaction.

The app opens the bundled TED en-de demo (Apache-2.0 data, 13 systems × 529 segments) on first start.
Independent cross-checks: corpus BLEU against sacrebleu 2.x on the same texts, the BLEU-vs-MQM correlation
against scipy.stats.pearsonr, the Learn page's fractions against the BLEU paper (section 2).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sacrebleu
from app_runs import captions, html_text, plain
from app_runs import start_app as start
from scipy import stats
from streamlit.testing.v1 import AppTest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.signature import make_signature
from bleu_core.study import Criterion, Rating, Segment, Study
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(2)>"


def set_option(at: AppTest, key: str, value: object) -> None:
    """Change a sidebar setting and re-run.

    AppTest keeps only the current page's elements after ``switch_page`` (the sidebar drawn by app.py
    before ``navigation.run()`` is not in its element tree there, though browsers show it), so sidebar
    widgets are driven through their session-state key; test_sidebar_widgets_drive_every_page uses the
    widgets themselves on the default page.
    """
    at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def sidebar_signature(at: AppTest) -> str:
    """The signature shown in the sidebar (inline code in a caption, between backticks)."""
    prefix = "Signature: `nrefs:"
    shown = [c.value for c in at.sidebar.caption if c.value.startswith(prefix)]
    assert len(shown) == 1, [c.value for c in at.sidebar.caption]
    return shown[0].split("`")[1]  # the corpus signature; the segment-level one follows it


def xss_study() -> Study:
    segs = tuple(Segment(str(i), doc_id="d", source=f"source {i} {XSS_IMG}") for i in range(1, 4))
    return Study(
        name=f"xss {XSS_SCRIPT}",
        segments=segs,
        references={f"ref {XSS_IMG}": ["the cat sat", f"a {XSS_SCRIPT} dog", "hello world"]},
        systems={
            f"sys {XSS_SCRIPT}": ["the cat sat", f"a {XSS_SCRIPT} dog", "hello"],
            "B": ["cat the", f"{XSS_IMG} dog", "hello world"],
        },
        criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
        ratings=tuple(
            Rating(s, str(i), "r1", None, "adequacy", float(1 + (i + k) % 5))
            for k, s in enumerate([f"sys {XSS_SCRIPT}", "B"])
            for i in range(1, 4)
        ),
    )


def test_study_page_shows_the_demo_and_opens_another(ted_en_de):
    at = start()
    assert at.title[0].value == "Study"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Segments"] == "529" and metrics["Systems"] == str(len(ted_en_de.systems))
    assert "nrefs:1|refs:ref|case:mixed|eff:no|tok:13a|smooth:exp" in sidebar_signature(at)
    at.selectbox(key=K.STUDY_DEMO_CHOICE).set_value("paper-examples")
    at.button[0].click().run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Segments"] == "4"


def test_corpus_page_matches_sacrebleu_and_follows_the_sidebar(ted_en_de):
    at = start("corpus")
    frame = at.dataframe[0].value.set_index("system")
    refs = [ted_en_de.references["ref"]]
    for system, texts in ted_en_de.systems.items():
        # sacrebleu 2.x corpus_bleu, default settings (13a, mixed case, exp smoothing, closest ref length)
        expected = sacrebleu.corpus_bleu(texts, refs).score
        assert frame.loc[system, "BLEU"] == pytest.approx(expected, abs=1e-9), system
    assert "mqm" in frame.columns
    set_option(at, K.OPT_MAX_ORDER, 2)
    frame2 = at.dataframe[0].value
    assert "p2" in frame2.columns and "p3" not in frame2.columns
    assert make_signature(BleuOptions(max_order=2), ["ref"]) in captions(at)


def test_explore_page_highlights_and_changes_order():
    at = start("explore")
    assert at.title[0].value == "Explore translations"
    assert len(at.dataframe) >= 2  # segment browser and n-gram table
    body = html_text(at)
    assert "bs-matched" in body and "hypothesis (order 1)" in body
    at.session_state[K.EXPLORE_ORDER] = 2
    at.run()
    assert not at.exception
    assert "hypothesis (order 2)" in html_text(at)
    set_option(at, K.OPT_TOKENIZE, "char")
    assert "tok:char" in captions(at)


def test_explore_filters_sit_in_a_popover_labelled_with_them():
    at = start("explore")
    label = at.get("popover")[0].proto.popover.label
    assert label == "Filter and sort · all 13 systems · sorted by BLEU vs human disagreement ↓"
    at.multiselect(key=K.EXPLORE_SYSTEMS).set_value(["Nemo"]).run()
    at.text_input(key=K.EXPLORE_SEARCH).set_value("Million").run()
    label = at.get("popover")[0].proto.popover.label
    assert (
        label
        == "Filter and sort · 1 of 13 systems · “Million” · sorted by BLEU vs human disagreement ↓"
    )
    assert set(at.dataframe[0].value["system"]) == {"Nemo"}


def test_explore_page_escapes_user_text():
    at = start("explore", xss_study())
    at.session_state[K.EXPLORE_SEGMENT] = "2"
    at.run()
    assert not at.exception
    body = html_text(at)
    assert "<script>" not in body and "<img" not in body
    assert "&lt;script&gt;" in body and "&lt;img" in body


def test_learn_page_reproduces_the_papers_fractions():
    at = start("learn")
    # Papineni et al. (2002), section 2.1: 17/18 and 8/14 (Example 1), 2/7 (Example 2), 2/2 and 1/1 (Example 3)
    pattern = re.compile(r"Modified (\d)-gram precision .*?\*\*(\d+/\d+)\*\*")

    def fractions() -> dict[int, str]:
        found = {}
        for md in at.markdown:
            m = pattern.search(md.value)
            if m:
                found[int(m.group(1))] = m.group(2)
        return found

    seen = []
    n_examples = len(at.selectbox(key=K.LEARN_EXAMPLE).options) - 1  # last one: your own sentences
    for index in range(n_examples):
        at.selectbox(key=K.LEARN_EXAMPLE).set_value(index).run()
        assert not at.exception
        seen.append(fractions())
    unigram = {f[1] for f in seen}
    assert {"17/18", "8/14", "2/7", "2/2"} <= unigram
    assert any(f[1] == "2/2" and f[2] == "1/1" for f in seen)
    assert any("BLEU" in m.label for m in at.metric)


def test_bleu_vs_human_page_reports_scipys_correlation(ted_en_de):
    at = start("bleu_vs_human")
    refs = [ted_en_de.references["ref"]]
    systems = list(ted_en_de.systems)  # no human translations among the en-de systems
    bleu = [sacrebleu.corpus_bleu(ted_en_de.systems[s], refs).score for s in systems]
    mqm = ted_en_de.system_scores("mqm")
    expected = stats.pearsonr(bleu, [mqm[s] for s in systems]).statistic
    metric = next(m for m in at.metric if plain(m.label).startswith("Pearson r · mqm"))
    assert float(metric.value) == pytest.approx(expected, abs=5e-4)
    assert len(at.get("vega_lite_chart")) >= 3
    at.selectbox(key=K.BVH_CRITERION).set_value("mqm_fluency").run()
    assert not at.exception
    assert any(plain(m.label).startswith("Pearson r · mqm_fluency") for m in at.metric)


def test_export_page_records_settings_and_seed():
    at = start("export")
    assert at.title[0].value == "Reproducible export"
    at.number_input(key=K.SEED).set_value(99).run()
    assert not at.exception
    settings = json.loads(at.code[0].value)
    assert settings["resampling"]["seed"] == 99
    assert settings["input_files"][0]["name"] == "ted-en-de.study.json.gz"
    assert len(settings["study"]["content_sha256"]) == 64


def test_sidebar_settings_apply_on_every_page():
    at = start()
    assert at.selectbox(key=K.OPT_SMOOTH).value == "exp"  # the sidebar's widgets are there
    settings = {
        K.OPT_SMOOTH: "floor",
        K.OPT_MAX_ORDER: 3,
        K.OPT_WEIGHTS: "0.5, 0.25, 0.25",
        K.OPT_LOWERCASE: True,
    }
    expected = make_signature(
        BleuOptions(max_order=3, weights=(0.5, 0.25, 0.25), smooth="floor", lowercase=True), ["ref"]
    )
    # Persistence across page switches is checked in the browser (tests/browser): AppTest does not
    # report the values of sidebar widgets it no longer has in its element tree after a switch.
    for page in ("explore", "corpus", "bleu_vs_human", "export"):
        for key, value in settings.items():
            at.session_state[key] = value
        at.switch_page(f"pages/{page}.py")
        at.run()
        assert not at.exception, page
        assert expected in captions(at), page


def test_bad_weights_show_a_warning_and_fall_back():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[K.OPT_WEIGHTS] = "0.5, 0.5"
    at.run()
    warnings = [w.value for w in at.sidebar.warning]
    assert any("Weights ignored: weights must be 4 numbers" in w for w in warnings), warnings
    assert make_signature(BleuOptions(), ["ref"]) == sidebar_signature(at)


def test_settings_change_rescores_without_recounting(monkeypatch):
    import ui.app.shared_cache

    calls = []
    real = ui.app.shared_cache.compute_system_statistics

    def counting(*args, **kwargs):
        calls.append(kwargs.get("max_order"))
        return real(*args, **kwargs)

    monkeypatch.setattr(ui.app.shared_cache, "compute_system_statistics", counting)
    ui.app.shared_cache.STATISTICS.clear()
    at = start("corpus")
    assert calls == [
        10
    ]  # ui.app.context.STATISTICS_ORDER: the highest max order 9, +1 for smoothing 5/7
    set_option(at, K.OPT_SMOOTH, "none")
    set_option(at, K.OPT_REF_LENGTH, "shortest")
    set_option(at, K.OPT_MAX_ORDER, 2)  # a column slice of the order-10 statistics
    set_option(at, K.OPT_MAX_ORDER, 9)
    set_option(at, K.OPT_SMOOTH, "chen-cherry-5")  # needs order N+1 = 10: still a slice
    assert calls == [10]
    set_option(at, K.OPT_TOKENIZE, "char")  # a new tokenizer is counted (not ahead under AppTest)
    set_option(at, K.OPT_TOKENIZE, "13a")
    assert calls == [10, 10]
    assert not at.exception


def test_no_background_work_under_apptest(monkeypatch):
    """AppTest runs start neither the warm-up nor counting ahead (ui.app.context.under_app_test).

    ``st.get_option("global.appTest")`` answers False under AppTest (it patches ``streamlit.config``
    only): app.py used to start the warm-up in test processes.
    """
    import ui.app.shared_cache
    from ui.app import warmup

    started = []
    monkeypatch.setattr(warmup, "start", lambda *a, **k: started.append("warm-up"))
    monkeypatch.setattr(ui.app.shared_cache, "count_ahead", lambda *a, **k: started.append("ahead"))
    ui.app.shared_cache.STATISTICS.clear()
    at = start()
    at.switch_page("pages/corpus.py")
    at.run()
    set_option(at, K.OPT_TOKENIZE, "intl")
    assert started == []
