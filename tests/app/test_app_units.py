"""Unit tests of the app's building blocks in ``ui/`` (no running app needed)."""

from __future__ import annotations

import io
import json
import math
import re
import zipfile

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from scipy import stats

from bleu_core.engine.matches import match_provenance
from bleu_core.engine.options import BleuOptions
from bleu_core.errors import BleuStudyError
from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.demo import load_demo
from ui.analysis.frames import corpus_frame, normalised_frame
from ui.analysis.relate import linear_fit, segment_correlation
from ui.app import cache, chart_images, state, uploads
from ui.app.context import truncate_order
from ui.app.export import build_zip, frame_to_latex, reproducible_zip, settings_record, study_digest
from ui.app.frames import system_human_scores
from ui.app.markup import STYLE
from ui.app.settings import options_from_state
from ui.explore.frames import segment_frame
from ui.explore.highlight import (
    comparison_table,
    hypothesis_html,
    reference_html,
    segment_block,
    texts_block,
)
from ui.explore.teach import examples_from_study, walkthrough

XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = '<img src=x onerror="alert(2)">'


# ------------------------------------------------------------------ settings
def test_options_from_state_builds_every_option():
    opts, problems = options_from_state(
        {
            state.OPT_TOKENIZE: "intl",
            state.OPT_LOWERCASE: True,
            state.OPT_MAX_ORDER: 3,
            state.OPT_WEIGHTS: "0.5, 0.3, 0.2",
            state.OPT_REF_LENGTH: "shortest",
            state.OPT_SMOOTH: "floor",
            state.OPT_SMOOTH_VALUE: "0.01",
            state.OPT_EFFECTIVE_ORDER: True,
        }
    )
    assert problems == []
    assert opts == BleuOptions(
        max_order=3,
        weights=(0.5, 0.3, 0.2),
        ref_length="shortest",
        smooth="floor",
        smooth_value=0.01,
        effective_order=True,
        tokenize="intl",
        lowercase=True,
    )


@pytest.mark.parametrize(
    ("values", "match"),
    [
        ({state.OPT_WEIGHTS: "0.5, x"}, r"Weights ignored: 'x' is not a number"),
        ({state.OPT_WEIGHTS: "0.5, 0.6, 0, 0"}, r"Weights ignored: weights must sum to 1"),
        ({state.OPT_SMOOTH: "exp", state.OPT_SMOOTH_VALUE: "0.1"}, r"takes no value"),
        ({state.OPT_SMOOTH: "floor", state.OPT_SMOOTH_VALUE: "-1"}, r"positive number"),
        ({state.OPT_SMOOTH: "floor", state.OPT_SMOOTH_VALUE: "abc"}, r"Smoothing value ignored"),
        ({state.OPT_TOKENIZE: "nope"}, r"Settings reset to defaults: unknown tokenizer 'nope'"),
    ],
)
def test_bad_settings_are_reported_and_fall_back(values, match):
    opts, problems = options_from_state(values)
    assert len(problems) == 1
    assert re.search(match, problems[0]), problems[0]
    assert pytest.approx(sum(opts.weight_vector)) == 1.0


def test_truncating_statistics_equals_counting_at_the_lower_order():
    from bleu_core.engine.statistics import compute_statistics

    hyps = ["the cat sat on the mat today", "a b c d e"]
    refs = [["the cat is on the mat today", "a b c x e"]]
    full = compute_statistics(hyps, refs, max_order=4).array
    two = compute_statistics(hyps, refs, max_order=2).array
    np.testing.assert_array_equal(truncate_order(full, 4, 2), two)


# ------------------------------------------------------------------ html
def test_user_text_is_escaped_in_every_html_builder():
    m = match_provenance(f"a {XSS_SCRIPT} b {XSS_IMG}", [f"{XSS_SCRIPT} a", XSS_IMG], max_order=2)
    names = [f"ref {XSS_SCRIPT}", "r2"]
    html_parts = [
        hypothesis_html(m, 1, names),
        hypothesis_html(m, 2, names, selected=("a",)),
        reference_html(list(m.reference_tokens[0]), {("a",): 1}, 1),
        segment_block(m, 1, names, system=XSS_IMG),
        comparison_table(
            [
                {
                    "system": XSS_SCRIPT,
                    "human": True,
                    "matches": m,
                    "bleu": 1.0,
                    "counts": [(1, 2)],
                    "bp": 1.0,
                    "scores": {XSS_IMG: 1.0},
                }
            ],
            1,
            names,
            [XSS_IMG],
        ),
    ]
    for part in html_parts:
        assert "<script>" not in part
        assert "<img" not in part
    assert "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in html_parts[3]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html_parts[4]


def test_token_styles_follow_match_status():
    # The paper's Example 2: two "the" matched (clip 2), five clipped away.
    m = match_provenance(
        "the the the the the the the.",
        ["The cat is on the mat.", "There is a cat on the mat."],
        max_order=1,
        tokenize="paper",
    )
    html = hypothesis_html(m, 1, ["r1", "r2"])
    assert html.count("bs-matched") == 2
    assert html.count("bs-clipped") == 5
    assert "r1 ×2, r2 ×1; clip count 2" in html


def test_table_tokens_carry_titles_and_blocks_can_leave_styles_out():
    m = match_provenance('the "cat" <sat>', ["the cat sat"], max_order=1)
    entry = {"system": "A", "human": False, "matches": m, "bleu": 1.0, "counts": [(1, 2)]}
    entry |= {"bp": 1.0, "scores": {}}
    table = comparison_table([entry], 1, ["ref"], style=False)
    assert "<style" not in table and "bs-pop" not in table and "tabindex" not in table
    assert 'title="“the” (matched)\n  in: ref ×1; clip count 1"' in table
    assert "&quot;" in table and "&lt;" in table and "<sat>" not in table
    assert comparison_table([entry], 1, ["ref"]).count("<style>") == 2  # STYLE + TABLE_STYLE
    assert "<style" not in segment_block(m, 1, ["ref"], style=False)
    assert segment_block(m, 1, ["ref"]).startswith(STYLE)
    block = texts_block([("source", "<b>Quelle</b>"), ("ref", None)])
    assert block.count("<style>") == 2 and "&lt;b&gt;Quelle" in block and "(none)" in block


# ------------------------------------------------------------------ teaching numbers (BLEU paper, section 2)
@pytest.fixture(scope="module")
def paper_examples():
    return examples_from_study(load_demo("paper-examples"))


def test_paper_examples_give_the_papers_unigram_precisions(paper_examples):
    # Papineni et al. 2002, section 2.1: Example 1 17/18 and 8/14; Example 2 2/7; Example 3 2/2 and 1/1.
    options = BleuOptions(tokenize="paper", smooth="none")
    found = []
    for example in paper_examples:
        refs = [t for _, t in example.references]
        for _, candidate in example.candidates:
            w = walkthrough(candidate, refs, options)
            found.append((w.orders[0].fraction, w.orders[1].fraction))
    fractions = {f for f, _ in found}
    assert {"17/18", "8/14", "2/7", "2/2"} <= fractions
    assert ("2/2", "1/1") in found


def test_walkthrough_agrees_with_sacrebleu_sentence_bleu():
    hyp = "The quick brown fox jumps over the lazy dog near the bank."
    refs = [
        "A quick brown fox jumped over the lazy dog by the bank.",
        "The fast fox jumps over a dog.",
    ]
    w = walkthrough(hyp, refs, BleuOptions())
    expected = sacrebleu.sentence_bleu(hyp, refs)  # sacrebleu 2.x defaults: 13a, exp smoothing
    assert w.bleu * 100 == pytest.approx(expected.score, abs=1e-9)
    assert [s.matches for s in w.orders] == expected.counts
    assert w.bp == pytest.approx(expected.bp)
    assert w.geometric_mean * w.bp == pytest.approx(w.bleu)


# ------------------------------------------------------------------ frames and relations
def _tiny_study() -> Study:
    segs = tuple(Segment(str(i), doc_id="d") for i in range(1, 4))
    ratings = (
        Rating("A", "1", "r1", "g1", "adequacy", 4.0),
        Rating("A", "2", "r2", "g2", "adequacy", 2.0),
        Rating("B", "1", "r1", "g1", "adequacy", 3.0),
        Rating("B", None, "r3", "g2", "adequacy", 1.5),
    )
    return Study(
        name="tiny",
        segments=segs,
        references={"ref": ["a b c", "d e f", "g h"]},
        systems={"A": ["a b c", "d e", "g h"], "B": ["a", "x y", None]},
        human_systems=frozenset({"A"}),
        criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
        ratings=ratings,
    )


def test_system_scores_per_rater_group():
    study = _tiny_study()
    assert system_human_scores(study, "adequacy", "g1") == {"A": 4.0, "B": 3.0}
    g2 = system_human_scores(study, "adequacy", "g2")
    assert g2 == {"A": 2.0, "B": 1.5}  # B: the group's system-level rating


def test_corpus_and_segment_frames():
    from bleu_core.engine.score import bleu_from_stats
    from bleu_core.engine.statistics import compute_statistics

    study = _tiny_study()
    opts = BleuOptions(max_order=2)
    arrays = [
        compute_statistics(
            [t or "" for t in study.systems[s]], [study.references["ref"]], max_order=2
        ).array
        for s in study.systems
    ]
    stacked = np.stack(arrays)
    corpus = bleu_from_stats(stacked.sum(axis=1), opts)
    frame = corpus_frame(
        ["A", "B"], corpus, human_systems=study.human_systems, human_scores={"adequacy": {"A": 3.0}}
    )
    assert list(frame.columns[:5]) == ["system", "human", "BLEU", "p1", "p2"]
    assert frame.loc[0, "system"] == "A" and bool(frame.loc[0, "human"])
    assert math.isnan(frame.loc[1, "adequacy"])
    seg = segment_frame(
        study, ["A", "B"], bleu_from_stats(stacked, opts), study.segment_scores("adequacy")
    )
    assert len(seg) == 6
    rated = seg.dropna(subset=["human"])
    assert len(rated) == 3 and rated["disagreement"].between(0, 1).all()


def test_normalised_frame_maps_each_series_to_its_range():
    frame = normalised_frame({"BLEU": {"a": 1, "b": 3}, "h": {"a": 5, "b": 5}}, ["a", "b"])
    assert frame[frame.series == "BLEU"]["normalised"].tolist() == [0.0, 1.0]
    assert frame[frame.series == "h"]["normalised"].isna().all()  # no spread: undefined


def test_fit_and_correlations_equal_scipy():
    rng = np.random.default_rng(7)
    x = rng.normal(size=40)
    y = 0.5 * x + rng.normal(size=40)
    fit = linear_fit(x, y)
    ref = stats.linregress(x, y)
    assert (fit.r, fit.pvalue, fit.slope, fit.n) == pytest.approx(
        (ref.rvalue, ref.pvalue, ref.slope, 40)
    )
    corr = segment_correlation(np.append(x, np.nan), np.append(y, 1.0))
    assert corr.n == 40
    assert corr.kendall == pytest.approx(stats.kendalltau(x, y).statistic)
    assert corr.pearson == pytest.approx(stats.pearsonr(x, y).statistic)


# ------------------------------------------------------------------ export
def test_latex_escapes_text_and_formats_numbers():
    tex = frame_to_latex(pd.DataFrame({"sys_name": ["a&b"], "BLEU": [12.3456]}), caption="x_y")
    assert r"sys\_name" in tex and r"a\&b" in tex and "12.35" in tex and r"\caption{x\_y}" in tex


def test_reproducible_zip_holds_settings_hashes_tables_and_charts():
    import altair as alt

    study = _tiny_study()
    frame = pd.DataFrame({"system": ["A"], "BLEU": [1.5]})
    chart = alt.Chart(frame).mark_bar().encode(x="BLEU:Q", y="system:N")
    opts = BleuOptions(max_order=2)
    settings = settings_record(
        options=opts,
        signature="sig",
        references=["ref"],
        study=study,
        study_label="upload",
        inputs=[{"name": "t.csv", "bytes": 3, "sha256": "abc"}],
        seed=7,
        n_resamples=500,
    )
    data = reproducible_zip(
        settings=settings,
        tables={"corpus": (frame, "c")},
        charts={"chart": chart.to_json()},
        render_png=lambda spec: b"\x89PNG",
        render_svg=lambda spec: "<svg/>",
    )
    zf = zipfile.ZipFile(io.BytesIO(data))
    assert sorted(zf.namelist()) == sorted(
        [
            "README.txt",
            "settings.json",
            "signature.txt",
            "tables/corpus.csv",
            "tables/corpus.tex",
            "charts/chart.vl.json",
            "charts/chart.png",
            "charts/chart.svg",
        ]
    )
    saved = json.loads(zf.read("settings.json"))
    assert saved["resampling"] == {"seed": 7, "n_resamples": 500}
    assert saved["bleu_options"]["max_order"] == 2
    assert saved["input_files"][0]["sha256"] == "abc"
    assert saved["study"]["content_sha256"] == study_digest(study)
    assert "--max-order 2" in zf.read("README.txt").decode()
    assert build_zip({"a": "1"}) == build_zip({"a": "1"})


def test_chart_images_render_with_vl_convert():
    import altair as alt

    spec = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q").to_json()
    assert chart_images.chart_png(spec).startswith(b"\x89PNG")
    assert "<svg" in chart_images.chart_svg(spec)


# ------------------------------------------------------------------ uploads
LONG_TABLE = (
    "segment_id,system,role,text,criterion,score\n"
    "1,ref,reference,The dog barks.,,\n"
    "1,A,system,The dog is barking.,adequacy,4\n"
    "2,ref,reference,The cat sleeps.,,\n"
    "2,A,system,A cat sleeps.,adequacy,3\n"
)


def test_upload_of_a_long_table_opens_a_study():
    result = uploads.load_uploaded((("study.csv", LONG_TABLE.encode()),), None)
    assert result.study.n_segments == 2 and list(result.study.systems) == ["A"]
    assert result.inputs[0][0] == "study.csv" and len(result.inputs[0][2]) == 64
    assert result.key.startswith("upload:")


def test_upload_of_plain_text_files_uses_the_chosen_roles():
    files = (
        ("ref-A.txt", b"The dog barks.\nThe cat sleeps.\n"),
        ("google.txt", b"The dog is barking.\nA cat sleeps.\n"),
    )
    roles = (("ref-A.txt", "reference"), ("google.txt", "system"))
    result = uploads.load_uploaded(files, None, roles)
    assert list(result.study.references) == ["ref-A"] and list(result.study.systems) == ["google"]
    other = uploads.load_uploaded(
        files, None, (("ref-A.txt", "system"), ("google.txt", "reference"))
    )
    assert list(other.study.references) == ["google"] and other.key != result.key


def test_broken_upload_raises_a_clear_error():
    broken = b"segment,words\n1,hello\n"
    with pytest.raises(
        BleuStudyError, match=r"^broken\.csv, line 1: missing required columns 'segment_id'"
    ) as err:
        uploads.load_uploaded((("broken.csv", broken),), None)
    assert "bleu-study-upload" not in str(
        err.value
    )  # the user's file name, not our temporary folder


def test_browse_frame_filters_searches_and_sorts():
    from bleu_core.engine.score import bleu_from_stats
    from bleu_core.engine.statistics import compute_statistics
    from ui.explore.frames import browse_frame

    study = _tiny_study()
    opts = BleuOptions(max_order=2)
    stacked = np.stack(
        [
            compute_statistics(
                [t or "" for t in study.systems[s]], [study.references["ref"]], max_order=2
            ).array
            for s in study.systems
        ]
    )
    frame = segment_frame(study, ["A", "B"], bleu_from_stats(stacked, opts))
    everything = browse_frame(study, frame, references=["ref"])
    assert len(everything) == 6  # A's perfect matches (BLEU 100 ± rounding) stay in the open range
    assert everything["BLEU"].is_monotonic_decreasing
    only_b = browse_frame(
        study, frame, references=["ref"], systems=["B"], sort="position", descending=False
    )
    assert only_b["system"].tolist() == ["B"] * 3 and only_b["position"].tolist() == [0, 1, 2]
    # "x y" is only in B's output of segment 2; "g h" only in the reference of segment 3
    assert browse_frame(study, frame, references=["ref"], search="X Y")["segment"].tolist() == ["2"]
    assert sorted(browse_frame(study, frame, references=["ref"], search="g h")["system"]) == [
        "A",
        "B",
    ]
    assert browse_frame(study, frame, references=["ref"], search="3")["segment"].tolist() == [
        "3",
        "3",
    ]
    middle = browse_frame(study, frame, references=["ref"], bleu_range=(1.0, 99.0))
    assert len(middle) < 6 and middle["BLEU"].between(1.0, 99.0).all()


# ------------------------------------------------------------------ speed helpers (same results)
def test_match_provenance_of_all_systems_at_once_equals_one_by_one():
    study = _tiny_study()
    names = tuple(study.systems)
    got = cache.segment_matches_of_systems("tiny", study, 1, names, ("ref",), 2, "13a", False)
    assert list(got) == list(names)
    for name in names:
        one = match_provenance(
            study.systems[name][1] or "", [study.references["ref"][1]], max_order=2
        )
        assert got[name] == one


def test_cached_human_scores_equal_the_frames():
    study = _tiny_study()
    assert cache.cached_system_human_scores("tiny", study, "adequacy") == system_human_scores(
        study, "adequacy"
    )
    assert cache.cached_rater_groups("tiny", study, "adequacy") == sorted(
        {r.group for r in study.ratings if r.criterion == "adequacy" and r.group}
    )


def test_segment_pairs_equal_the_segment_frame_rows():
    from bleu_core.engine.score import bleu_from_stats
    from bleu_core.engine.statistics import compute_statistics
    from ui.analysis.relate import segment_pairs

    study = _tiny_study()
    stacked = np.stack(
        [
            compute_statistics(
                [t or "" for t in study.systems[s]], [study.references["ref"]], max_order=2
            ).array
            for s in study.systems
        ]
    )
    sentence = bleu_from_stats(stacked, BleuOptions(max_order=2))
    human = study.segment_scores("adequacy")
    frame = segment_frame(study, list(study.systems), sentence, human).dropna(subset=["human"])
    bleu, scores = segment_pairs(sentence.score, human, range(len(study.systems)))
    np.testing.assert_allclose(bleu, frame["BLEU"].to_numpy())
    np.testing.assert_allclose(scores, frame["human"].to_numpy())


def test_the_warm_up_loaders_exist():
    # ui.app.warmup calls these after its imports (the engine's compiled kernels): a rename in the engine
    # would only log a warning there, so it is caught here
    import importlib

    from ui.app import warmup

    for target in warmup.LOADERS:
        module, _, function = target.partition(":")
        assert callable(getattr(importlib.import_module(module), function)), target
