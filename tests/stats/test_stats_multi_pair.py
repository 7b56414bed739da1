"""Several language pairs at once: per-pair rankings, global average, average rank, clusters
from the tasks' null draws (mt-metrics-eval ``tasks.TaskSetResults.AverageCorrs``, ``AverageRanks``,
``AverageCorrMatrix``, commit 12498083), and ``meta --pairs``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.evaluation.clusters import rank_metrics
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.multi_pair import Task, multi_pair_meta, normalised, task_from_study
from bleu_core.evaluation.multi_pair_tables import format_latex, format_text
from bleu_core.metrics.study_scores import MetricTable, study_metric_scores
from bleu_core.study.demo import load_demo

WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"


def _task(name: str, seed: int, k: int = 5, s: int = 30, metrics=("good", "noisy", "twin")) -> Task:
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(k, s)) + 0.8 * np.arange(k)[:, None]
    names = tuple(f"s{i}" for i in range(k))
    scores = {
        "good": human + rng.normal(0, 0.3, human.shape),
        "twin": human + rng.normal(0, 0.3, human.shape),
        "noisy": rng.normal(size=human.shape),
    }
    tables = {n: MetricTable(n, names, scores[n].mean(1), scores[n], True, "x") for n in metrics}
    return Task(name, "esa", tables, human.mean(1), human)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["acc-eq", "pairwise-accuracy", "pearson"]))
def test_one_task_gives_the_tasks_own_clusters(seed, statistic):
    # one task: the global null draws are the task test's own draws (same seed), so same p-values
    task = _task("xx-yy", seed)
    res = multi_pair_meta([task], (statistic,), n_resamples=200, seed=seed, chance=False)
    own = rank_metrics(
        task.tables, task.human_system, task.human_segment, statistic, n_resamples=200, seed=seed
    )
    order = [r.metric for r in own.rows]
    assert list(res.metrics) == order
    np.testing.assert_allclose(res.pvalues, own.pvalues, atol=1e-12)
    assert [res.rank[m] for m in order] == [r.rank for r in own.rows]
    for r in own.rows:
        assert res.average[r.metric] == pytest.approx(normalised(statistic, r.statistic))


def test_global_average_and_average_rank_are_weighted():
    tasks = [_task("aa-bb", 1), _task("cc-dd", 2)]
    res = multi_pair_meta(tasks, ("acc-eq", "pearson"), n_resamples=100, seed=3, chance=False)
    assert res.weights == (0.25,) * 4 and len(res.rankings) == 4
    for m in res.metrics:
        values = [res.value(i, m) for i in range(4)]
        stats = [s for _, s in res.columns]
        expected = np.mean([normalised(s, v) for s, (v, _) in zip(stats, values, strict=True)])
        assert res.average[m] == pytest.approx(expected)
        assert res.average_rank[m] == pytest.approx(np.mean([r for _, r in values]))
    assert list(res.average.values()) != [] and res.metrics[-1] == "noisy"
    assert res.rank["noisy"] > res.rank[res.metrics[0]]
    # explicit weights: only the first task counts
    only = multi_pair_meta(tasks, ("acc-eq",), weights=[1, 0], n_resamples=50, seed=3, chance=False)
    for m in only.metrics:
        assert only.average[m] == pytest.approx(only.value(0, m)[0])


def test_a_metric_missing_from_one_task_is_left_out_of_the_global_view():
    tasks = [_task("aa-bb", 1), _task("cc-dd", 2, metrics=("good", "noisy"))]
    res = multi_pair_meta(tasks, ("acc-eq",), n_resamples=50, seed=1, chance=False)
    assert set(res.metrics) == {"good", "noisy"}
    assert res.notes == ("left out of the global view (not scored on every task): twin",)
    text = format_text(res)
    assert "left out of the global view" in text and "aa-bb acc*_eq" in text


def test_multi_pair_errors():
    with pytest.raises(StatsInputError, match="no language pairs to meta-evaluate"):
        multi_pair_meta([])
    with pytest.raises(StatsInputError, match=r"weights must be 2 non-negative numbers"):
        multi_pair_meta([_task("a-b", 1)], ("acc-eq", "pearson"), weights=[1, -1])
    with pytest.raises(StatsInputError, match=r"unknown criterion 'da'; this study has: mqm"):
        study = load_demo("ted-en-de")
        task_from_study(study, {}, "da")


@pytest.fixture(scope="module")
def ted_tasks():
    tasks = []
    for name in ("ted-en-de", "ted-zh-en"):
        study = load_demo(name)
        tokenize = "zh" if study.target_lang == "zh" else "13a"
        tables = study_metric_scores(
            study, ["BLEU", "chrF"], systems=study.machine_systems, tokenize=tokenize
        )
        tasks.append(task_from_study(study, tables, "mqm"))
    return tasks


def test_ted_demos_as_two_pairs(ted_tasks):
    # the two bundled TED demos (Apache-2.0) as a two-pair release, WMT24's statistics
    assert [t.name for t in ted_tasks] == ["en-de", "zh-en"]
    res = multi_pair_meta(ted_tasks, n_resamples=100, seed=4)
    assert res.columns == (
        ("en-de", "soft-pairwise-accuracy"),
        ("en-de", "acc-eq"),
        ("zh-en", "soft-pairwise-accuracy"),
        ("zh-en", "acc-eq"),
    )
    assert set(res.metrics) == {"BLEU", "chrF"} and res.seed == 4
    assert all("chance" in r.extra for r in res.rankings)
    assert res.rankings[0].criterion == "mqm (en-de)"
    data = json.loads(json.dumps(res.to_dict()))
    assert [row["metric"] for row in data["global"]] == list(res.metrics)
    assert len(data["global"][0]["per_task"]) == 4 and data["rankings"][1]["statistic"] == "acc-eq"
    latex = format_latex(res, caption="TED 2021 (demo)")
    assert "\\underline{BLEU}" in latex and "\\underline{chrF}" in latex
    assert "en-de SPA" in latex and latex.count("\\\\") >= 3


@pytest.fixture
def release(tmp_path):
    """A two-pair release in the WMT24 layout: invented text, ESA scores that follow a quality score."""
    rng = np.random.default_rng(0)
    root = tmp_path / "release"
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
    esa = []
    for pair, lang in (("en-de", "deu"), ("en-cs", "ces")):
        n = 8
        refs = [" ".join(rng.choice(words, 6)) for _ in range(n)]
        canary = "CANARY GUID 00000000-0000-4000-8000-000000000000 (invented)"
        for sub, lines in (
            (f"txt/sources/{pair}.txt", refs),
            (f"txt/references/{pair}.refA.txt", refs),
        ):
            path = root / sub
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join([canary, *lines]) + "\n", encoding="utf-8")
        for k in range(4):
            out = []
            for i, ref in enumerate(refs):
                tokens = ref.split()
                tokens[: k + 1] = ["omega"] * (k + 1)  # system k replaces k + 1 words
                out.append(" ".join(tokens))
                score = 90 - 15 * k + int(rng.integers(-5, 6))
                esa.append(f"r1,sys{k},{i + 1},TGT,eng,{lang},{score},doc{i},False,[],0,1")
            path = root / f"txt/system-outputs/{pair}/sys{k}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join([canary, *out]) + "\n", encoding="utf-8")
    (root / "humeval").mkdir()
    (root / "humeval" / "esa.csv").write_text("\n".join(esa) + "\n", encoding="utf-8")
    return root


def test_meta_pairs_command(release, capsys):
    argv = ["meta", str(release), "--pairs", "all", "--n-resamples", "50", "--seed", "7"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    out = printed.out
    assert "global view over 4 task(s)" in out and "en-cs SPA" in out and "seed 7" in out
    # what is computed next goes to standard error, a line each (a whole release takes minutes)
    progress = [line for line in printed.err.splitlines() if "ranking" in line or "global" in line]
    assert progress[0].startswith("bleu-study: en-cs: ranking ")
    assert progress[0].endswith("metrics by soft-pairwise-accuracy, 50 resamples…")
    assert len(progress) == 5 and progress[-1].startswith("bleu-study: global view: ")
    assert progress[-1].endswith("pairs of metrics over 4 tasks, 50 resamples…")
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"] == ["en-cs", "en-de"] and data["seed"] == 7
    assert main([*argv, "--latex"]) == 0
    assert "\\underline{BLEU}" in capsys.readouterr().out


def test_meta_pairs_errors(release, tmp_path, capsys):
    assert main(["meta", str(release), "--pairs", "en-fr"]) == 2
    assert "no language pair en-fr; the release has: en-cs, en-de" in capsys.readouterr().err
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    assert main(["meta", str(tmp_path / "a.txt"), "--pairs", "all"]) == 2
    assert "not a WMT release with language pairs" in capsys.readouterr().err
    assert main(["meta", "--pairs", "all"]) == 2
    assert "--pairs needs a release PATH" in capsys.readouterr().err


@pytest.mark.skipif(not WMT24.exists(), reason="the WMT24 release is not beside the repository")
def test_wmt24_release_both_pairs(capsys):
    argv = ["meta", str(WMT24), "--pairs", "en-ja,en-hi", "--n-resamples", "20", "--format", "json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["task"] for c in data["columns"]] == ["en-ja", "en-ja", "en-hi", "en-hi"]
    assert {row["metric"] for row in data["global"]} == {"BLEU", "chrF"}


# ------------------------------------------------------------------ separate studies: meta --studies


@pytest.fixture
def two_studies(release, tmp_path):
    """The two pairs of ``release`` as two separate one-pair studies (folders in the WMT24 layout),
    en-de with a second rater (``r2``, an ``#incomplete`` document) on every system's first 4 lines."""
    import shutil

    rows = (release / "humeval" / "esa.csv").read_text(encoding="utf-8").splitlines()
    out = {}
    for pair, lang in (("en-cs", "ces"), ("en-de", "deu")):
        root = tmp_path / f"study-{pair}"
        shutil.copytree(release, root)
        other = "en-de" if pair == "en-cs" else "en-cs"
        for path in list(root.rglob(f"*{other}*")):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        mine = [r for r in rows if f",eng,{lang}," in r]
        if pair == "en-de":
            mine += [
                f"r2,sys{k},{i},TGT,eng,deu,{85 - 15 * k},doc{i}#incomplete,False,[],0,1"
                for k in range(4)
                for i in range(1, 5)
            ]
        (root / "humeval" / "esa.csv").write_text("\n".join(mine) + "\n", encoding="utf-8")
        out[pair] = root
    return out


def _json_run(argv, capsys):
    assert main([*argv, "--format", "json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_studies_equal_the_python_task_api_and_the_release(two_studies, release, capsys):
    from bleu_core.cli import strict_json
    from bleu_core.study import load_study

    common = ["--n-resamples", "50", "--seed", "7", "--statistics", "pairwise-accuracy,acc-eq"]
    items = [str(two_studies["en-cs"]), f"german={two_studies['en-de']}"]
    data = _json_run(["meta", "--studies", *items, *common], capsys)
    assert data["pairs"] == ["en-cs", "german"]
    assert [s["pair"] for s in data["studies"]] == ["en-cs", "en-de"]
    tasks = []
    for item, name in ((two_studies["en-cs"], "en-cs"), (two_studies["en-de"], "german")):
        study = load_study(item).study
        tables = study_metric_scores(study, ["BLEU", "chrF"], systems=study.machine_systems)
        tasks.append(task_from_study(study, tables, "esa", name))
    res = multi_pair_meta(tasks, ("pairwise-accuracy", "acc-eq"), n_resamples=50, seed=7)
    expected = json.loads(strict_json.dumps(res.to_dict()))
    assert {k: v for k, v in data.items() if k not in ("pairs", "studies", "per_pair")} == expected
    # the same pairs as one release folder: the same numbers (en-de's r2 rows are the difference)
    whole = _json_run(["meta", str(release), "--pairs", "all", *common], capsys)
    assert whole["global"][0]["per_task"][:2] == data["global"][0]["per_task"][:2]
    assert whole["columns"][0]["ceiling"]["note"].startswith("every item has a single esa rating")


def test_studies_carry_the_human_ceiling_in_text_json_and_latex(two_studies, capsys):
    argv = ["meta", "--studies", str(two_studies["en-cs"]), str(two_studies["en-de"])]
    argv += ["--n-resamples", "20", "--statistics", "pairwise-accuracy"]
    data = _json_run(argv, capsys)
    de = data["columns"][1]["ceiling"]
    # r2 rates every system 85 - 15k, r1 90 - 15k ± 5: the two raters order the 4 systems alike
    assert (
        de["available"] and de["statistic"] == 1.0 and (de["n_items"], de["n_systems"]) == (16, 4)
    )
    assert not data["columns"][0]["ceiling"]["available"] and data["global_ceiling"] is None
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "human ceiling  --" in text and "n/a" in text
    assert (
        "human ceiling, en-de pairwise accuracy: one rater against another (drawn with seed" in text
    )
    assert "on 16 items of 4 systems" in text
    assert main([*argv, "--latex"]) == 0
    assert "\\textit{human ceiling} & \\textit{--} &  & \\textit{n/a} & \\textit{1.000}" in (
        capsys.readouterr().out
    )


def test_studies_errors(two_studies, release, capsys):
    de, cs = str(two_studies["en-de"]), str(two_studies["en-cs"])
    cases = [
        ([de, de], r"--studies .* and .* are the same study \(pair en-de\): give each study once"),
        ([de, f"{release}:en-de"], r"are both pair 'en-de': name the columns apart, e\.g\. a="),
        ([str(release)], r"a release with 2 language pairs \(en-cs, en-de\); name one as .*:PAIR"),
        ([cs, "demo:ted-en-de", "--criteria", "esa"], r"demo:ted-en-de: no criterion 'esa' \(--"),
        ([de, cs, "--metrics", "BLEU,COMET"], r"no metric 'COMET': it is neither computed here"),
        ([de, cs, "--ceiling", "mqm"], r"no criterion 'mqm' for the human ceiling in task en-de"),
        ([de, "--pairs", "all"], r"--studies names every study and its pair .*: leave out --pairs"),
        ([de, "--esa", de], r"--esa adds ESA files to one study: leave out --studies, or it"),
    ]
    for items, message in cases:
        assert main(["meta", "--studies", *items, "--n-resamples", "5"]) == 2
        err = capsys.readouterr().err
        assert re.search(message, err), err
    assert main(["meta", cs, "--studies", de]) == 2
    assert "leave out a PATH" in capsys.readouterr().err


def test_study_items_are_read_as_name_path_and_pair(tmp_path):
    from bleu_core.cli.multi_study_command import parse_item

    odd = tmp_path / "odd:en-de"  # a file whose name ends like a pair is a path
    odd.write_text("x", encoding="utf-8")
    assert parse_item(str(odd)).pair is None and parse_item(str(odd)).path == str(odd)
    item = parse_item("de=/data/wmt24:en-ar_EG")
    assert (item.name, item.path, item.pair) == ("de", "/data/wmt24", "en-ar_EG")
    assert parse_item("/data/a=b/study").name is None  # '=' inside a path names nothing
    with pytest.raises(
        StatsInputError, match=r"--studies 'x=': no study PATH; write \[NAME=\]PATH"
    ):
        parse_item("x=")


WMT21 = WMT24.parent / "wmt21-newstest2021-mqm-da"


@pytest.mark.skipif(not WMT24.exists(), reason="the WMT24 release is not beside the repository")
def test_wmt24_pairs_as_studies_equal_the_release_and_carry_the_rater_ceiling(capsys):
    common = ["--n-resamples", "20", "--statistics", "pairwise-accuracy,acc-eq"]
    studies = _json_run(["meta", "--studies", f"{WMT24}:en-ja", f"{WMT24}:en-hi", *common], capsys)
    whole = _json_run(["meta", str(WMT24), "--pairs", "en-ja,en-hi", *common], capsys)
    assert {k: v for k, v in studies.items() if k != "studies"} == whole
    ja = whole["columns"][0]["ceiling"]
    # the #incomplete documents' second raters: 363 items of 12 machine systems (see test_stats_ceiling)
    assert ja["available"] and (ja["n_items"], ja["n_systems"]) == (363, 12)


@pytest.mark.skipif(not WMT21.exists(), reason="the WMT21 release is not beside the repository")
def test_ted_and_wmt21_zh_en_as_one_task_equal_the_python_api(capsys):
    from bleu_core.cli import strict_json
    from bleu_core.study import load_study

    argv = ["meta", "--studies", "ted=demo:ted-zh-en", f"wmt21={WMT21}:zh-en", "--criteria", "mqm"]
    argv += ["--n-resamples", "20", "--statistics", "pairwise-accuracy,acc-eq", "--seed", "3"]
    data = _json_run(argv, capsys)
    tasks = []
    for study, name in ((load_demo("ted-zh-en"), "ted"),
                        (load_study(WMT21, pair="zh-en").study, "wmt21")):  # fmt: skip
        tables = study_metric_scores(study, ["BLEU", "chrF"], systems=study.machine_systems,
                                     tokenize="zh" if study.target_lang == "zh" else "13a")  # fmt: skip
        tasks.append(task_from_study(study, tables, "mqm", name))
    res = multi_pair_meta(tasks, ("pairwise-accuracy", "acc-eq"), n_resamples=20, seed=3)
    expected = json.loads(strict_json.dumps(res.to_dict()))
    assert {k: v for k, v in data.items() if k not in ("pairs", "studies", "per_pair")} == expected
    assert data["notes"] == [
        "left out of the global view (not scored on every task): bleu-A, bleu-all, chrf-A, chrf-all"
    ]
    assert main([*argv[:-6], "--metrics", "BLEU,bleu-A", "--n-resamples", "5"]) == 2
    assert "ted=demo:ted-zh-en: no metric 'bleu-A'" in capsys.readouterr().err


def test_study_checks_raise_clear_errors(two_studies):
    from bleu_core.cli.multi_study_command import load_studies, split_metrics, study_criterion
    from bleu_core.evaluation.ceiling import check_ceiling_criterion

    de = str(two_studies["en-de"])
    with pytest.raises(StatsInputError, match=r"are the same study \(pair en-de\)"):
        load_studies([de, f"x={de}:en-de"])
    (one,) = load_studies([f"german={de}"])
    assert one.name == "german" and one.to_dict()["pair"] == "en-de"
    with pytest.raises(
        StatsInputError, match=r"german=.*: no criterion 'mqm' \(--criteria\); this"
    ):
        study_criterion(one, "mqm")
    assert study_criterion(one, "") == "esa"
    with pytest.raises(StatsInputError, match=r"no metric 'COMET': it is neither computed here"):
        split_metrics([one], ["BLEU", "COMET"])
    assert split_metrics([one], ["bleu", "chrF"]) == (["bleu", "chrF"], [])
    with pytest.raises(
        StatsInputError, match=r"no criterion 'da' for the human ceiling in x; it has"
    ):
        check_ceiling_criterion(one.study, "da", "x")
    assert check_ceiling_criterion(one.study, "raters") is None
