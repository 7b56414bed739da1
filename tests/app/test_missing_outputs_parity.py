"""One convention for a segment a system has no output for (:mod:`bleu_core.study.output_rows`): it is not
counted in corpus BLEU, by the ``study`` command, the app's Corpus page, ``significance``, the metric
registry and the Export alike, and each says so. The oracle is sacrebleu's ``corpus_bleu`` of the lines
the system has (what sacrebleu's command line scores for the system's file as released).

Two studies: a long table generated from the bundled TED en-de demo (Apache-2.0) with one system's
outputs left out for ten segments, and WMT21 newstest zh-en read in place from ``shared/data`` beside the
repository (research use only, never copied; skipped when absent), whose release has no missing output
but blank lines, which are outputs and counted.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from app_runs import page_alone

from bleu_core.cli import main
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.metrics.registry import score_study
from bleu_core.study import Study, load_study
from bleu_core.study.demo import load_demo
from bleu_core.study.output_rows import (
    MISSING_OUTPUT_RULE,
    missing_outputs,
    output_mask,
    study_corpus_bleu,
    study_statistics,
)
from ui.analysis.export_zip import core_artefacts
from ui.app import shared_cache
from ui.app import state as K
from ui.app.context import STATISTICS_ORDER, Scores, truncate_order
from ui.app.markup import md_escape

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"
LEFT_OUT = range(5, 15)  # segments whose output the second system lacks


def command(*argv: str) -> dict:
    """``python -m bleu_core ARGV --format json`` in this process: its JSON output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main([*argv, "--format", "json"]) == 0
    return json.loads(out.getvalue())


def write_long_table(study: Study, path: Path, lacking: str) -> None:
    """``study`` as a long table (one row per translation, its mean MQM as the rating), without
    ``lacking``'s rows for the segments of :data:`LEFT_OUT`."""
    mqm = study.segment_scores("mqm")
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["segment_id", "doc_id", "system", "role", "text", "criterion", "score"])
        for i, segment in enumerate(study.segments):
            for name, stream in study.references.items():
                out.writerow([segment.id, segment.doc_id, name, "reference", stream[i], "", ""])
            for k, (name, texts) in enumerate(study.systems.items()):
                if name == lacking and i in LEFT_OUT:
                    continue
                score = "" if math.isnan(mqm[k, i]) else f"{mqm[k, i]:.4f}"
                out.writerow([segment.id, segment.doc_id, name, "system", texts[i], "mqm", score])


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Study, str]:
    full = load_demo("ted-en-de")
    machine = [s for s in full.systems if s not in full.human_systems][:4]
    study = full.subset(machine, 40)
    path = tmp_path_factory.mktemp("missing") / "ted-missing.csv"
    write_long_table(study, path, machine[1])
    loaded = load_study(path, pair="en-de").study
    assert missing_outputs(loaded) == {machine[1]: len(LEFT_OUT)}
    return path, loaded, machine[1]


def sacrebleu_of_present(study: Study, name: str) -> float:
    """sacrebleu 2.6's ``corpus_bleu`` of the segments ``name`` has output for, against every reference."""
    keep = [i for i, text in enumerate(study.systems[name]) if text is not None]
    refs = [[stream[i] for i in keep] for stream in study.references.values()]
    return sacrebleu.corpus_bleu([study.systems[name][i] for i in keep], refs).score


def app_corpus_page(study: Study, key: str) -> tuple[dict[str, float], str]:
    """The Corpus page's BLEU column (machine systems only), and its captions."""
    state = {K.STUDY: study, K.STUDY_KEY: key, K.INCLUDE_HUMANS: False}
    at = page_alone("corpus.py", state, timeout=600)
    [frame] = [e.value for e in at.dataframe if "BLEU" in e.value.columns][:1]
    captions = "\n".join(c.value for c in at.caption)
    return dict(zip(frame["system"], frame["BLEU"], strict=True)), captions


def core(study: Study) -> dict[str, float]:
    names, options = list(study.systems), BleuOptions()
    stats = study_statistics(study, names, list(study.references), options)
    scores = study_corpus_bleu(stats, output_mask(study, names), options)
    return {name: float(scores.score[k]) for k, name in enumerate(names)}


def test_a_missing_output_is_not_counted_on_every_surface(generated) -> None:
    path, study, lacking = generated
    truth = core(study)
    assert truth[lacking] == pytest.approx(sacrebleu_of_present(study, lacking), abs=1e-9)
    # counted as an empty line (reference length kept) BLEU would be far lower: the test can fail
    raw = compute_system_statistics({lacking: study.systems[lacking]}, study.reference_streams())
    as_empty = float(bleu_from_stats(raw[lacking].array.sum(axis=0), BleuOptions()).score)
    assert as_empty < truth[lacking] - 5

    summary = command("study", str(path), "--pair", "en-de")
    cli = {s["name"]: s["bleu"] for s in summary["systems"]}
    assert {s["name"]: s["bleu_segments"] for s in summary["systems"]}[lacking] == 40 - 10
    assert summary["bleu_missing_outputs"] == MISSING_OUTPUT_RULE
    [warning] = [w for w in summary["warnings"] if w["code"] == "missing-texts"]
    assert warning["message"] == (
        f"system {lacking!r} has no text for 10 of 40 segments; its corpus BLEU does not count them"
    )

    significance = command("significance", str(path), "--pair", "en-de", "--n-resamples", "10")
    sig = {s["system"]: s["score"] for s in significance["bootstrap"]["systems"]}
    assert significance["missing_outputs"].endswith(MISSING_OUTPUT_RULE)

    page, captions = app_corpus_page(study, "test:missing-outputs")
    note = md_escape(f"{lacking} counts 30 of 40 segments: {MISSING_OUTPUT_RULE}")
    assert note in captions

    reg = score_study(study, ["BLEU"])["BLEU"].system_scores()
    for name, value in truth.items():
        assert cli[name] == pytest.approx(value, abs=1e-9), name
        assert sig[name] == pytest.approx(value, abs=1e-9), name
        assert page[name] == pytest.approx(value, abs=1e-9), name
        assert reg[name] == pytest.approx(value, abs=1e-9), name


@pytest.mark.parametrize("page", ["bleu_vs_human.py", "explore.py"])
def test_every_page_with_corpus_bleu_says_how_missing_outputs_count(generated, page) -> None:
    _, study, lacking = generated
    state = {K.STUDY: study, K.STUDY_KEY: "test:missing-pages", K.INCLUDE_HUMANS: False}
    at = page_alone(page, state, timeout=600)
    captions = "\n".join(c.value for c in at.caption)
    assert md_escape(f"{lacking} counts 30 of 40 segments: {MISSING_OUTPUT_RULE}") in captions


def test_the_export_scores_and_labels_missing_outputs_as_the_page(generated) -> None:
    _, study, lacking = generated
    refs, options = tuple(study.references), BleuOptions()
    shared = shared_cache.system_statistics(
        "test:missing-export", study, refs, "13a", False, STATISTICS_ORDER
    )
    assert not shared.array[list(study.systems).index(lacking), LEFT_OUT.start].any()
    array = truncate_order(shared.array, STATISTICS_ORDER, options.statistics_order)
    scores = Scores(
        study=study,
        key="test:missing-export",
        options=options,
        signature="sig",
        references=refs,
        systems=tuple(study.systems),
        stats=array,
        corpus=study_corpus_bleu(array, output_mask(study), options),
        store_key=("test:missing-export", refs, options),
    )
    tables, _ = core_artefacts(scores)
    frame, caption = tables["corpus-bleu"]
    exported = dict(zip(frame["system"], frame["BLEU"], strict=True))
    assert exported == pytest.approx(core(study), abs=1e-9)
    assert caption.endswith(f"{lacking} counts 30 of 40 segments: {MISSING_OUTPUT_RULE}")


def test_a_release_blank_line_is_an_output_and_counted() -> None:
    if not WMT21.is_dir():
        pytest.skip(f"WMT21 release not found at {WMT21} (research use only, not bundled)")
    study = load_study(WMT21, pair="zh-en").study
    if missing_outputs(study):  # pragma: no cover - the 2021 release has every output
        pytest.fail("the WMT21 zh-en release now lacks outputs: add it to the missing-output test")
    blank = [s for s, texts in study.systems.items() if any(not t.strip() for t in texts)]
    assert "Online-W" in blank  # the release has 2 blank lines (newstest2021.zh-en.hyp.Online-W.en)
    summary = command("study", str(WMT21), "--pair", "zh-en")
    cli = {s["name"]: s for s in summary["systems"]}
    assert summary["bleu_missing_outputs"] is None and cli["Online-W"]["bleu_segments"] == 1948
    txt = WMT21 / "wmt21-news-systems" / "txt"
    hyp = (txt / "system-outputs" / "newstest2021.zh-en.hyp.Online-W.en").read_text("utf-8")
    ref = (txt / "references" / "newstest2021.zh-en.ref.A.en").read_text("utf-8")
    # sacrebleu's CLI on the release's files: blank lines are empty hypotheses
    official = sacrebleu.corpus_bleu(hyp.splitlines(), [ref.splitlines()]).score
    assert cli["Online-W"]["bleu"] == pytest.approx(official, abs=1e-9)
    page, captions = app_corpus_page(study, "test:missing-wmt21")
    assert page["Online-W"] == pytest.approx(official, abs=1e-9)
    assert md_escape(MISSING_OUTPUT_RULE) not in captions


def test_meta_correlates_the_same_corpus_bleu(generated) -> None:
    path, study, _ = generated
    meta = command("meta", str(path), "--pair", "en-de", "--n-resamples", "10")
    [row] = [
        r
        for r in meta["correlations"]
        if (r["level"], r["method"], r["criterion"]) == ("system", "pearson", "mqm")
    ]
    truth = core(study)
    human = study.system_scores("mqm")
    names = list(meta["systems"])
    expected = np.corrcoef([truth[n] for n in names], [human[n] for n in names])[0, 1]
    assert row["statistic"] == pytest.approx(expected, abs=1e-9)
