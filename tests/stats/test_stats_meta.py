"""Meta-evaluation: study-level correlations, published system tables (Babych & Hartley Table 1), CLI."""

from __future__ import annotations

import glob
import json
import re

import numpy as np
import pytest
import sacrebleu
from scipy import stats as sps

from bleu_core.cli import main
from bleu_core.errors import InputError
from bleu_core.evaluation import StatsInputError, meta_evaluate
from bleu_core.evaluation.system_table import parse_system_table, split_columns, table_correlations
from bleu_core.study import Criterion, Rating, Segment, Study

SEED_002 = glob.glob("/work/shared/seeds/002_*.txt")


def babych_table1() -> str:
    """Babych & Hartley (2004) Table 1 as CSV: system, adequacy, fluency, BLEU (read from the seed text)."""
    text = open(SEED_002[0], encoding="utf-8").read()
    rows = re.findall(r"^([A-Z]+) (NA|[\d.]+) / (NA|[\d.]+)\t([\d.]+)", text, flags=re.M)[:5]
    assert [r[0] for r in rows] == ["CANDIDE", "GLOBALINK", "MS", "REVERSO", "SYSTRAN"]
    return "system,adequacy,fluency,BLEU\n" + "\n".join(",".join(r) for r in rows) + "\n"


@pytest.mark.skipif(not SEED_002, reason="seed 002 (Babych & Hartley 2004) not available")
def test_babych_table1_correlations(tmp_path, capsys):
    # Babych & Hartley (2004) Table 1: r(2) = 0.5918 (BLEU-adequacy) and 0.9807 (BLEU-fluency) over the 4 MT
    # systems with human scores (REVERSO is NA). The printed inputs are rounded, so ±0.002.
    path = tmp_path / "table1.csv"
    path.write_text(babych_table1(), encoding="utf-8")
    assert main(["meta", "--system-scores", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    r = {(c["metric"], c["criterion"]): c for c in out["correlations"]}
    assert r[("BLEU", "adequacy")]["statistic"] == pytest.approx(0.5918, abs=0.002)
    assert r[("BLEU", "fluency")]["statistic"] == pytest.approx(0.9807, abs=0.002)
    assert r[("BLEU", "adequacy")]["n"] == 4
    # the paper: adequacy p > 0.05, fluency p < 0.05
    assert r[("BLEU", "adequacy")]["pvalue"] > 0.05 > r[("BLEU", "fluency")]["pvalue"]
    assert main(["meta", "--system-scores", str(path)]) == 0
    text = capsys.readouterr().out
    assert "BLEU    adequacy   pearson  0.59" in text


def test_table_columns_rule_and_criteria_option():
    table = parse_system_table(
        "sys;DA z;chrF;BLEU;Adequacy (mean)\nA;1;2;3;4\nB;2;3;1;5\nC;3;1;2;6\n", "t.csv"
    )
    assert split_columns(table) == (["chrF", "BLEU"], ["DA z", "Adequacy (mean)"])
    assert split_columns(table, ["da z"]) == (["chrF", "BLEU", "Adequacy (mean)"], ["DA z"])
    rows = table_correlations(table, methods=("pearson", "kendall"))
    assert len(rows) == 8
    first = rows[0]
    assert (first.metric, first.criterion) == ("chrF", "DA z")
    assert first.result.statistic == pytest.approx(sps.pearsonr([2, 3, 1], [1, 2, 3]).statistic)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "system,ade,BLEU\nA,1,x\nB,2,3\nC,3,4\n",
            r"t.csv, line 2, column BLEU: 'x' is not a number; write a plain decimal number",
        ),
        (
            "system,ade,BLEU\nA,1,2\nB,2\nC,3,4\n",
            r"t.csv, line 3: 2 cells but the header has 3 columns",
        ),
        ("system,ade,BLEU\nA,1,2\nA,2,3\nC,3,4\n", r"line 3: system 'A' appears twice"),
        ("system,ade,ade\nA,1,2\n", r"column 'ade' appears twice"),
        ("system,BLEU\nA,1\n", r"the header has 2 column\(s\)"),
        (
            "system,ade,BLEU\nA,1,2\nB,2,3\n",
            r"2 system row\(s\); a correlation needs at least 3 systems",
        ),
        ("", r"the table is empty"),
        (
            "system,x,BLEU\nA,1,2\nB,2,3\nC,3,4\n",
            r"no column looks like a human criterion .* name them with --criteria",
        ),
    ],
)
def test_table_errors_name_file_line_and_column(text, message):
    with pytest.raises(InputError, match=message):
        table = parse_system_table(text, "t.csv")
        split_columns(table)


def test_unknown_criteria_column_is_explained():
    table = parse_system_table("system,ade,BLEU\nA,1,2\nB,2,3\nC,3,4\n", "t.csv")
    with pytest.raises(
        InputError, match="--criteria names 'fluency', which is not a column; columns: ade, BLEU"
    ):
        split_columns(table, ["fluency"])
    with pytest.raises(InputError, match="every column is a human criterion"):
        split_columns(table, ["ade", "bleu"])


# ------------------------------------------------------------------------------------ study meta-evaluation


@pytest.fixture(scope="module")
def study():
    rng = np.random.default_rng(10)
    vocab = [f"w{i}" for i in range(120)]
    n = 60
    refs = [" ".join(rng.choice(vocab, size=int(rng.integers(5, 15)))) for _ in range(n)]
    systems, ratings = {}, []
    for k, p in enumerate((0.1, 0.25, 0.4, 0.55, 0.7)):
        name = f"sys{k}"
        outs = []
        for i, r in enumerate(refs):
            toks = r.split()
            keep = rng.random(len(toks)) > p
            outs.append(
                " ".join(
                    t if ok else str(rng.choice(vocab)) for t, ok in zip(toks, keep, strict=True)
                )
            )
            if i % 7 != 3:  # some segments unrated
                ratings.append(
                    Rating(
                        name,
                        str(i),
                        "r1",
                        None,
                        "adequacy",
                        float(5 * keep.mean() + rng.normal(0, 0.5)),
                    )
                )
        systems[name] = outs
    return Study(
        name="toy",
        segments=tuple(Segment(str(i)) for i in range(n)),
        references={"ref": refs},
        systems=systems,
        criteria={"adequacy": Criterion("adequacy")},
        ratings=tuple(ratings),
    )


def test_meta_evaluate_matches_sacrebleu_and_scipy(study):
    res = meta_evaluate(study, n_resamples=200, seed=4)
    assert res.seed == 4 and res.systems == tuple(study.systems)
    bleu = [
        sacrebleu.corpus_bleu(study.systems[s], [study.references["ref"]]).score
        for s in res.systems
    ]
    human = [study.system_scores("adequacy")[s] for s in res.systems]
    rows = {(r.result.level, r.result.method, r.result.grouping): r.result for r in res.rows}
    pearson = rows[("system", "pearson", None)]
    assert pearson.statistic == pytest.approx(sps.pearsonr(bleu, human).statistic)
    assert pearson.pvalue == pytest.approx(sps.pearsonr(bleu, human).pvalue)
    low, high = pearson.confidence_interval
    assert low <= pearson.statistic <= high and pearson.n_resamples == 200
    # segment level: sentence BLEU as sacrebleu's sentence_bleu (effective order) vs the ratings
    seg = study.segment_scores("adequacy")
    sent = np.array(
        [
            [
                sacrebleu.sentence_bleu(h, [r]).score
                for h, r in zip(study.systems[s], study.references["ref"], strict=True)
            ]
            for s in res.systems
        ]
    )
    keep = ~np.isnan(seg)
    seg_p = rows[("segment", "pearson", "none")]
    assert seg_p.statistic == pytest.approx(sps.pearsonr(sent[keep], seg[keep]).statistic)
    assert seg_p.n == int(keep.sum())
    d = res.to_dict()
    assert d["seed"] == 4 and d["correlations"][0]["metric"] == "BLEU"


def test_meta_evaluate_input_errors(study):
    with pytest.raises(
        StatsInputError, match="unknown criterion 'fluency'; this study has: adequacy"
    ):
        meta_evaluate(study, criteria=["fluency"], n_resamples=0)
    with pytest.raises(StatsInputError, match="at least 3 systems, got 2"):
        meta_evaluate(study, systems=["sys0", "sys1"], n_resamples=0)
    with pytest.raises(StatsInputError, match="unknown system\\(s\\) 'x'"):
        meta_evaluate(study, systems=["x", "sys1", "sys2"], n_resamples=0)
    with pytest.raises(
        StatsInputError, match="unknown reference stream\\(s\\) 'refB'; the study has: ref"
    ):
        meta_evaluate(study, references=["refB"], n_resamples=0)


# ------------------------------------------------------------------------------------ command line


@pytest.fixture()
def files(tmp_path):
    rng = np.random.default_rng(12)
    vocab = [f"w{i}" for i in range(100)]
    refs = [" ".join(rng.choice(vocab, size=int(rng.integers(5, 15)))) for _ in range(120)]
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    paths = []
    for k, p in enumerate((0.2, 0.5, 0.52)):
        out = [
            " ".join(t if rng.random() > p else str(rng.choice(vocab)) for t in r.split())
            for r in refs
        ]
        path = tmp_path / f"sys{k}.txt"
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        paths.append(str(path))
    return str(tmp_path / "ref.txt"), paths


def test_significance_command_text_and_json(files, capsys):
    ref, hyps = files
    assert (
        main(
            [
                "significance",
                "-r",
                ref,
                "-i",
                *hyps,
                "--n-resamples",
                "300",
                "--test",
                "both",
                "--n-trials",
                "500",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "bootstrap: 300 resamples, seed 12345" in text
    assert "paired-bootstrap" in text and "approximate-randomization: 500 trials" in text
    assert re.search(r"^sys0\.txt\s+·\s+>\s+>$", text, flags=re.M)  # significance matrix row
    assert (
        main(
            [
                "significance",
                "-r",
                ref,
                "-i",
                *hyps,
                "--n-resamples",
                "100",
                "--format",
                "json",
                "--seed",
                "3",
                "--baseline",
                "first",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["bootstrap"]["seed"] == 3
    assert [c["baseline"] for c in out["tests"][0]["comparisons"]] == ["sys0.txt", "sys0.txt"]


def test_significance_command_errors(files, capsys):
    ref, hyps = files
    assert main(["significance", "-r", ref]) == 2
    assert "give reference files with -r and system outputs with -i" in capsys.readouterr().err
    assert main(["significance", "-r", ref, "-i", hyps[0]]) == 2
    assert "at least 2 systems, got 1" in capsys.readouterr().err
    assert main(["significance", "-r", ref, "-i", *hyps, "--baseline", "nope"]) == 2
    assert "baseline 'nope' is not one of the systems" in capsys.readouterr().err


def test_meta_command_errors(tmp_path, capsys):
    assert main(["meta"]) == 2
    assert "give a study PATH, or --system-scores TABLE.csv" in capsys.readouterr().err
    bad = tmp_path / "t.csv"
    bad.write_text("system,ade,BLEU\nA,1,oops\nB,2,3\nC,3,4\n", encoding="utf-8")
    assert main(["meta", "--system-scores", str(bad)]) == 2
    assert "line 2, column BLEU: 'oops' is not a number" in capsys.readouterr().err


def test_meta_command_on_the_demo_study(capsys):
    assert main(["meta", "demo:ted-en-de", "--n-resamples", "50", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_resamples"] == 50 and len(out["systems"]) == 13
    assert {c["criterion"] for c in out["correlations"]} >= {"mqm"}


def test_meta_evaluate_with_system_level_ratings_only(study):
    # A published table of system scores (segment_id None): nothing to resample, so Pearson's r gets
    # scipy's Fisher z interval (said in the note), the others none; no segment-level rows.
    scores = {"sys0": 4.0, "sys1": 3.5, "sys2": 3.6, "sys3": 2.0, "sys4": 1.0}
    fixed = Study(
        name="table",
        segments=study.segments,
        references=study.references,
        systems=study.systems,
        criteria={"da": Criterion("da")},
        ratings=tuple(Rating(s, None, None, None, "da", v) for s, v in scores.items()),
    )
    res = meta_evaluate(fixed, n_resamples=50)
    assert {r.result.level for r in res.rows} == {"system"}
    pearson = next(r.result for r in res.rows if r.result.method == "pearson")
    bleu = [
        sacrebleu.corpus_bleu(study.systems[s], [study.references["ref"]]).score for s in scores
    ]
    assert pearson.statistic == pytest.approx(sps.pearsonr(bleu, list(scores.values())).statistic)
    expected = sps.pearsonr(bleu, list(scores.values())).confidence_interval(
        0.95
    )  # scipy: Fisher z
    assert pearson.confidence_interval == pytest.approx((expected.low, expected.high))
    assert pearson.interval_method == "Fisher z"
    assert pearson.note == "human scores are system-level only: Fisher z interval"
    kendall = next(r.result for r in res.rows if r.result.method == "kendall")
    assert kendall.confidence_interval is None
    assert kendall.note == "human scores are system-level only: no interval"


def test_official_system_scores_with_segment_scores_get_a_segment_bootstrap_interval(study):
    # Both system-level ratings (the official scores) and segment ratings: r uses the official scores
    # and its interval resamples the segments on both sides, the human side shifted to the official
    # score (SegmentMeanSource's ``given``); never "no interval".
    base = meta_evaluate(study, n_resamples=0, criteria=["adequacy"])
    seg_means = study.system_scores("adequacy")
    official = {s: v + (0.3 if k % 2 else -0.2) for k, (s, v) in enumerate(seg_means.items())}
    both = Study(
        name="both",
        segments=study.segments,
        references=study.references,
        systems=study.systems,
        criteria=study.criteria,
        ratings=study.ratings
        + tuple(Rating(s, None, None, None, "adequacy", v) for s, v in official.items()),
    )
    res = meta_evaluate(both, n_resamples=200, criteria=["adequacy"], seed=4)
    pearson = next(
        r.result for r in res.rows if r.result.level == "system" and r.result.method == "pearson"
    )
    names = list(res.systems)
    bleu = [sacrebleu.corpus_bleu(study.systems[s], [study.references["ref"]]).score for s in names]
    assert pearson.statistic == pytest.approx(
        sps.pearsonr(bleu, [official[s] for s in names]).statistic
    )
    assert pearson.interval_method == "bootstrap percentile" and pearson.n_resamples == 200
    low, high = pearson.confidence_interval
    assert low <= high
    # the segment-mean r of the study without official scores is another number
    plain = next(
        r.result for r in base.rows if r.result.level == "system" and r.result.method == "pearson"
    )
    assert plain.statistic != pytest.approx(pearson.statistic)
