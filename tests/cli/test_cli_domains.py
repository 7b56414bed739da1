"""``--domain NAME`` on ``study``, ``meta``, ``significance`` and ``spans``: the analysis on the segments
of one domain, cut by the function the app's sidebar domain choice calls
(:func:`bleu_core.study.granularity.restrict_to_domain`); and ``study``'s per-domain table, the app's Corpus-page
table (:func:`ui.analysis.domains.domain_frame`, both from :func:`bleu_core.evaluation.domains.compare_by_domain`).

Studies: the committed invented release ``tests/study/data/wmt24-mini`` (domains news, social, literary) and,
where present, the real WMT24 en-ja release in ``shared/data/wmt24-general-esa`` (read in place, never copied).
Oracles: sacrebleu 2.6 ``corpus_bleu`` (ja-mecab) on the domain's lines, scipy's ``pearsonr``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats as scipy_stats

from bleu_core.cli import build_parser, main
from bleu_core.cli.options import restrict_domain
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.errors import StudyError
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.study import Study, load_study
from bleu_core.study.demo import load_demo

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"
REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
MINI_DOMAINS = [
    "news",
    "social",
    "literary",
]  # tests/study/data/wmt24-mini/txt/documents/en-ja.docs


def command(argv: list[str]) -> int:
    """The command's handler run as ``main`` runs it, its errors not caught."""
    args = build_parser(command=argv[0]).parse_args(argv)
    return args.func(args)


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line a refused command prints (exit 2, no traceback)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = [x for x in err.splitlines() if not x.startswith("bleu-study: warning")]
    return line


def release_lines(release: Path, relative: str) -> list[str]:
    """A release file's lines without its canary line."""
    return (release / relative).read_text(encoding="utf-8").split("\n")[1:-1]


def domain_rows(study: Study, domain: str) -> list[int]:
    return [i for i, s in enumerate(study.segments) if s.domain == domain]


def app_per_domain_table(study: Study):
    """The app's per-domain table of the Corpus page for ``study`` under the defaults (the target
    language's tokenizer): :func:`ui.analysis.domains.domain_frame` of the study's statistics, counted as
    the app counts them (every system against every reference stream)."""
    from ui.analysis.domains import domain_frame
    from ui.app.context import Scores

    options = BleuOptions(tokenize="ja-mecab")
    counted = compute_system_statistics(
        study.systems, study.reference_streams(), max_order=4, tokenize="ja-mecab"
    )
    array = np.stack([counted[name].array for name in study.systems])
    scores = Scores(
        study, "test", options, "sig", tuple(study.references), tuple(study.systems), array,
        bleu_from_stats(array.sum(axis=1), options),
    )  # fmt: skip
    frame = domain_frame(scores, list(study.systems))
    labels = {f"HUMAN-{n[-1]} ({n})": n for n in study.human_systems}  # HUMAN-B (ref-B)
    return {labels.get(row["system"], row["system"]): row for row in frame.to_dict("records")}


def same(cli: float | None, app: float) -> bool:
    return (cli is None and math.isnan(app)) or cli == pytest.approx(app, abs=1e-9)


def check_parity(release: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``study``'s per-domain table and ``study --domain D`` equal the app's per-domain table."""
    study = load_study(release, pair="en-ja").study
    app = app_per_domain_table(study)
    whole = run_json(["study", str(release), "--pair", "en-ja"], capsys)
    table = whole["per_domain"]
    assert table["domains"] == list(dict.fromkeys(s.domain for s in study.segments))
    for row in table["systems"]:
        for d in table["domains"]:
            assert same(row["bleu"][d], app[row["name"]][f"BLEU · {d}"])
            assert same(row["human"]["esa"][d], app[row["name"]][f"esa · {d}"])
    for d in table["domains"]:
        cut = run_json(["study", str(release), "--pair", "en-ja", "--domain", d], capsys)
        assert cut["domain"]["name"] == d and cut["per_domain"] is None
        for system in cut["systems"]:
            assert same(system["bleu"], app[system["name"]][f"BLEU · {d}"])
            assert same(system["human"]["esa"], app[system["name"]][f"esa · {d}"])


def test_study_per_domain_table_and_domain_equal_the_apps(capsys) -> None:
    check_parity(MINI, capsys)


@pytest.mark.skipif(not REAL.is_dir(), reason="the WMT24 release is not in shared/data")
def test_real_en_ja_per_domain_equals_the_apps(capsys) -> None:
    check_parity(REAL, capsys)


def test_study_on_a_domain_is_sacrebleu_on_its_lines(capsys) -> None:
    summary = run_json(["study", str(MINI), "--pair", "en-ja", "--domain", "news"], capsys)
    assert summary["domain"] == {
        "name": "news",
        "segments": 3,
        "study_segments": 6,
        "study_domains": MINI_DOMAINS,
    }
    assert summary["segments"] == 3
    assert summary["analysis_signature"].endswith("|domain:news|systems:3")
    rows = domain_rows(load_study(MINI, pair="en-ja").study, "news")
    ref = release_lines(MINI, "txt/references/en-ja.refA.txt")
    for system in ("sysA", "sysB"):
        hyp = release_lines(MINI, f"txt/system-outputs/en-ja/{system}.txt")
        # Oracle: sacrebleu 2.6 corpus_bleu of the news lines, ja-mecab
        oracle = sacrebleu.corpus_bleu(
            [hyp[i] for i in rows], [[ref[i] for i in rows]], tokenize="ja-mecab"
        )
        got = {s["name"]: s for s in summary["systems"]}[system]
        assert got["bleu"] == pytest.approx(oracle.score, abs=1e-12)
    # ESA on the news segments only: ref-A's one rating is of a social segment (esa_mini.csv)
    assert "ref-A" not in {row["system"] for row in summary["esa"]}


def test_study_text_names_the_domain_and_shows_the_table(capsys) -> None:
    assert main(["study", str(MINI), "--pair", "en-ja", "--domain", "social"]) == 0
    out = capsys.readouterr().out
    assert "domain: social (2 of 6 segments; the study's domains: news, social, literary)" in out
    assert "analysis signature: " in out and "|domain:social|systems:3" in out
    assert main(["study", str(MINI), "--pair", "en-ja"]) == 0
    out = capsys.readouterr().out
    assert "per domain (BLEU: the domain's statistics summed" in out and "domain: " not in out


def test_unknown_domain_lists_the_studys_domains(capsys) -> None:
    line = error_of(["study", str(MINI), "--pair", "en-ja", "--domain", "sport"], capsys)
    assert line == (
        "bleu-study: error: WMT24 en-ja: unknown domain 'sport'; the study's domains: news, social, "
        "literary"
    )
    with pytest.raises(
        StudyError, match=r"unknown domain 'sport'; the study's domains: news, social"
    ):
        restrict_domain(load_study(MINI, pair="en-ja").study, "sport")


def test_a_study_without_domains_is_refused(capsys) -> None:
    for command in ("study", "meta", "significance", "spans"):
        line = error_of([command, "demo:ted-en-de", "--domain", "news"], capsys)
        assert "--domain news: this study names no domains (no segment has one)" in line
    with pytest.raises(StudyError, match=r"--domain news: this study names no domains"):
        restrict_domain(load_demo("ted-en-de"), "news")


def test_no_domain_leaves_the_study_alone() -> None:
    study = load_demo("ted-en-de")
    assert restrict_domain(study, None) == (study, None)


def test_meta_on_a_domain(capsys) -> None:
    argv = ["meta", str(MINI), "--pair", "en-ja", "--include-human", "--domain", "news"]
    data = run_json([*argv, "--n-resamples", "20", "--statistics", "none"], capsys)
    assert data["domain"]["name"] == "news" and data["n_segments"] == 3
    assert data["bleu_signature"].endswith("|version:bleu-study-0.1.0|domain:news")
    assert all("|domain:news|systems:3|" in row["signature"] for row in data["correlations"])
    [row] = [
        r
        for r in data["correlations"]
        if (r["metric"], r["criterion"], r["level"], r["method"])
        == ("BLEU", "esa", "system", "pearson")
    ]
    study = load_study(MINI, pair="en-ja").study
    rows = domain_rows(study, "news")
    ref = release_lines(MINI, "txt/references/en-ja.refA.txt")
    files = {"sysA": "system-outputs/en-ja/sysA", "sysB": "system-outputs/en-ja/sysB"}
    files["ref-B"] = "references/en-ja.refB"
    bleu, esa = [], []
    for name, file in files.items():
        hyp = release_lines(MINI, f"txt/{file}.txt")
        bleu.append(
            sacrebleu.corpus_bleu(
                [hyp[i] for i in rows], [[ref[i] for i in rows]], tokenize="ja-mecab"
            ).score
        )
        esa.append(np.nanmean(study.segment_scores("esa")[list(study.systems).index(name), rows]))
    # Oracle: scipy's pearsonr of sacrebleu's BLEU on the news lines and the news ESA means
    assert row["statistic"] == pytest.approx(scipy_stats.pearsonr(bleu, esa).statistic)


def test_meta_text_names_the_domain(capsys) -> None:
    argv = ["meta", str(MINI), "--pair", "en-ja", "--domain", "social", "--include-human"]
    assert main([*argv, "--n-resamples", "20", "--statistics", "none"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("domain: social (2 of 6 segments; the study's domains: ")
    assert "|domain:social|systems:3|humans:in|criterion:esa|" in out


def test_meta_domain_needs_one_study(capsys) -> None:
    line = error_of(["meta", str(MINI), "--pairs", "all", "--domain", "news"], capsys)
    assert (
        line
        == "bleu-study: error: --domain works on one study: give PATH --pair xx-yy, not --pairs"
    )
    # refused before the table is read
    line = error_of(["meta", "--system-scores", "table.csv", "--domain", "news"], capsys)
    assert line.endswith("--domain chooses segments of a study PATH, not of --system-scores")
    with pytest.raises(StatsInputError, match=r"^--domain works on one study: give PATH --pair"):
        command(["meta", str(MINI), "--pairs", "all", "--domain", "news"])
    with pytest.raises(
        StatsInputError, match=r"^--domain chooses segments of a study PATH, not of"
    ):
        command(["meta", "--system-scores", "table.csv", "--domain", "news"])


def test_significance_on_a_domain(capsys) -> None:
    argv = [
        "significance",
        str(MINI),
        "--pair",
        "en-ja",
        "--domain",
        "social",
        "--n-resamples",
        "30",
    ]
    data = run_json(argv, capsys)
    assert data["domain"]["name"] == "social"
    assert data["signature"].endswith(
        "|domain:social|systems:2|humans:out|ci:bootstrap-segments:30:seed12345"
    )
    rows = domain_rows(load_study(MINI, pair="en-ja").study, "social")
    ref = release_lines(MINI, "txt/references/en-ja.refA.txt")
    hyp = release_lines(MINI, "txt/system-outputs/en-ja/sysB.txt")
    scores = {s["system"]: s["score"] for s in data["bootstrap"]["systems"]}
    # Oracle: sacrebleu 2.6 corpus_bleu of sysB's social lines, ja-mecab
    oracle = sacrebleu.corpus_bleu(
        [hyp[i] for i in rows], [[ref[i] for i in rows]], tokenize="ja-mecab"
    )
    assert scores["sysB"] == pytest.approx(oracle.score, abs=1e-9)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "domain: social (2 of 6 segments" in out and "signature: nrefs:1|refs:ref-A|" in out


def test_significance_domain_needs_a_study(capsys) -> None:
    ref = str(MINI / "txt" / "references" / "en-ja.refA.txt")
    hyps = [str(MINI / "txt" / "system-outputs" / "en-ja" / f"sys{x}.txt") for x in "AB"]
    line = error_of(["significance", "-r", ref, "-i", *hyps, "--domain", "news"], capsys)
    assert line.endswith(
        "--domain chooses from a study PATH; with -r/-i files, list only the files you want"
    )
    with pytest.raises(StatsInputError, match=r"^--domain chooses from a study PATH; with -r/-i"):
        command(["significance", "-r", ref, "-i", *hyps, "--domain", "news"])


def test_spans_per_domain_add_up_to_the_whole(capsys) -> None:
    whole = run_json(["spans", str(MINI), "--pair", "en-ja"], capsys)
    assert whole["domain"] is None
    keys = ("matched_in_error", "matched_clean", "unmatched_in_error", "unmatched_clean")
    total = dict.fromkeys(keys, 0)
    for domain in MINI_DOMAINS:
        part = run_json(["spans", str(MINI), "--pair", "en-ja", "--domain", domain], capsys)
        assert part["domain"]["name"] == domain
        for key in keys:
            total[key] += part["overall"][key]
    # token counts are sums over segments, so the domains' counts add up to the study's
    assert total == {key: whole["overall"][key] for key in keys}
    assert main(["spans", str(MINI), "--pair", "en-ja", "--domain", "news"]) == 0
    assert capsys.readouterr().out.startswith("domain: news (3 of 6 segments")
