"""One LaTeX escaper (``bleu_core.latex.tex``) for every LaTeX table: all ten special characters
``\\ { } ~ ^ _ & % # $`` are printed as written in the multi-pair table, the Metric ranking table and the app's
table downloads; and the multi-pair table has the single-study table's chance rows and caption."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bleu_core.evaluation.multi_pair import Task, multi_pair_meta
from bleu_core.evaluation.multi_pair_tables import format_latex
from bleu_core.evaluation.ranking_latex import findings_latex
from bleu_core.latex import tex
from bleu_core.metrics.study_scores import MetricTable
from ui.app.export import frame_to_latex

NAME = r"m\x{1}~^_&%#$"
ESCAPED = r"m\textbackslash{}x\{1\}\textasciitilde{}\textasciicircum{}\_\&\%\#\$"


def test_tex_escapes_every_special_character():
    assert tex(NAME) == ESCAPED
    assert tex("plain text, 3.5 (ok)") == "plain text, 3.5 (ok)"


def _task(name: str, seed: int) -> Task:
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(5, 30)) + 0.8 * np.arange(5)[:, None]
    names = tuple(f"s{i}" for i in range(5))
    scores = {"BLEU": human + rng.normal(0, 0.5, human.shape), NAME: rng.normal(size=human.shape)}
    tables = {n: MetricTable(n, names, v.mean(1), v, True, "x") for n, v in scores.items()}
    return Task(name, "esa", tables, human.mean(1), human)


def test_the_multi_pair_table_escapes_names_and_has_the_chance_rows_and_caption():
    res = multi_pair_meta(
        [_task("aa-bb", 1), _task("cc_dd", 2)], ("pairwise-accuracy",), n_resamples=50, seed=7
    )
    latex = format_latex(res, caption="Two pairs")
    assert ESCAPED in latex and NAME not in latex and "cc\\_dd" in latex
    random = next(line for line in latex.splitlines() if line.startswith("\\textit{random metric}"))
    assert random.startswith("\\textit{random metric} &  &  & ") and random.count("&") == 4
    assert any(line.startswith("\\textit{constant metric} &  &  & ") for line in latex.splitlines())
    caption = next(line for line in latex.splitlines() if line.startswith("\\caption{"))
    assert caption.startswith(
        "\\caption{Two pairs. Random metric: each metric's own scores permuted ("
    )
    assert "permutations within" in caption and "seed " in caption
    single = findings_latex([res.rankings[0]])
    assert ESCAPED in single and "\\textit{random metric}" in single


def test_the_multi_pair_table_without_chance_lines_has_no_chance_rows():
    res = multi_pair_meta([_task("aa-bb", 1)], ("pearson",), n_resamples=20, seed=7, chance=False)
    assert "random metric" not in format_latex(res) and "\\caption" not in format_latex(res)


def test_a_table_download_escapes_every_special_character_in_its_caption():
    latex = frame_to_latex(pd.DataFrame({"system": ["a"], "BLEU": [1.0]}), caption=NAME)
    assert f"\\caption{{{ESCAPED}}}" in latex
