"""Metric comparison page helpers: cached computations, DataFrames and altair charts.

The cached functions follow :mod:`ui.app.cache`'s convention: a hashable ``study_key`` is hashed, the study itself
is passed as ``_study`` and not hashed; nothing inside calls ``st.*`` other than the cache decorator.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.engine.options import BleuOptions
from bleu_core.evaluation.compare import compare_correlations
from bleu_core.evaluation.correlation import CorrelationResult
from bleu_core.evaluation.meta import human_source, segment_correlations, system_correlations
from bleu_core.evaluation.tau_like import study_tau_like
from bleu_core.metrics.babych import MEASURES, SCHEME_LABELS, SCHEMES, BabychTables, babych_tables
from bleu_core.metrics.explorer import ExplorerGrid, ExplorerResult, explore
from bleu_core.metrics.registry import MetricScores
from bleu_core.metrics.variants import many_bleus, variants_for
from bleu_core.study import Study
from ui.analysis.correlation_lines import (
    CHANCE_COLUMNS,
    chance_lines,
    line_numbers,
    random_ticks,
    tick_subtitle,
)
from ui.app import analysis_cache as cache_analysis
from ui.app import background
from ui.app import chart_layout as layout

#: Column formats of the correlation table (coefficients to 3 decimals; p-values are text from
#: :func:`ui.app.numbers.format_p`, so tiny ones read 1.3e-47 and underflows < 1e-300).
CORRELATION_COLUMNS = {
    name: st.column_config.NumberColumn(format=fmt)
    for name, fmt in (
        ("r", "%.3f"),
        ("oriented r", "%.3f"),
        ("low", "%.3f"),
        ("high", "%.3f"),
        *((c, "%.3f") for c in CHANCE_COLUMNS),
    )
}

# ------------------------------------------------------------------------------------------- cached


def metric_scores(
    study_key: str,
    study: Study,
    metrics: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    *,
    pending: list | None = None,
) -> dict[str, MetricScores]:
    """Every metric's scores, cached per metric (see :func:`ui.app.analysis_cache.metric_scores`;
    ``pending``: collect an unfinished background TER instead of waiting for it)."""
    return cache_analysis.metric_scores(
        study_key, study, metrics, tokenize, lowercase, pending=pending
    )


def correlation_frame(
    study_key: str,
    study: Study,
    scores: dict[str, MetricScores],
    metrics: tuple[str, ...],
    systems: tuple[str, ...],
    n_resamples: int,
    seed: int,
    score_keys: dict[str, object],
    pending: list | None = None,
) -> pd.DataFrame:
    """Every metric × criterion: system-level Pearson/Kendall and segment-level Pearson/WMT tau-like.

    Each metric's rows are computed once per what its scores depend on (``score_keys[metric]``, see
    :func:`ui.app.analysis_cache.score_keys`; a tokenizer change re-correlates BLEU, not chrF), in the
    shared background thread (:func:`ui.app.background.result`): with a ``pending`` list, the rows not
    ready yet are left out and their jobs appended to it; without one, the call waits."""
    frames = []
    for name in metrics:
        rows = background.result(
            ("metric correlations", study_key, name, systems, n_resamples, seed, score_keys[name]),
            partial(
                metric_correlations, study_key, study, scores[name], name, systems, n_resamples,
                seed, score_keys[name],
            ),
            f"{name}: correlation with every criterion",
            pending,
        )  # fmt: skip
        if rows is not None:
            frames.append(rows)
    if not frames:
        return pd.DataFrame()
    order = {c: i for i, c in enumerate(study.criteria)}
    frame = pd.concat(frames, ignore_index=True)  # criterion by criterion, metrics in their order
    return frame.sort_values("criterion", key=lambda c: c.map(order), kind="stable").reset_index(
        drop=True
    )


def metric_correlations(
    study_key: str,
    _study: Study,
    _score: MetricScores,
    name: str,
    systems: tuple[str, ...],
    n_resamples: int,
    seed: int,
    score_key: object,
    progress: Any = None,
) -> pd.DataFrame:
    """One metric's rows of :func:`correlation_frame` (every criterion), each with its chance line
    (:mod:`ui.analysis.correlation_lines`: the oriented metric's scores shuffled, from ``seed``)."""
    if progress is not None:
        progress(0, 1, f"{name}: bootstrapping its correlation with every criterion ({n_resamples} "
                 f"resamples, {_score.n_segments:,} segments) and its chance lines")  # fmt: skip
    rows = []
    index = {s: i for i, s in enumerate(_study.systems)}
    keep = [index[s] for s in systems]
    source = _Remembered(subset_systems(_score, keep))
    for criterion, crit in _study.criteria.items():
        human_seg = _study.segment_scores(criterion)[keep]
        level_scores = _study.system_scores(criterion)
        human_values = [level_scores.get(s, math.nan) for s in systems]
        orient = (1 if _score.higher_is_better else -1) * (1 if crit.higher_is_better else -1)
        # the one human side of every page and of `meta` (official scores, segments resampled)
        human = human_source(source.names, human_seg, human_values)
        system = system_correlations(
            source,
            human,
            human_scores=human_values,
            methods=("pearson", "kendall"),
            n_resamples=n_resamples,
            seed=seed,
        )
        oriented = [_orient(res, orient) for res in system.values()]
        observed = np.asarray(human_values) if human is None else human.observed()
        lines = chance_lines(oriented, orient * source.observed(), observed, seed=seed)
        if human is not None:
            # oriented metric scores: WMT's tau-like counts metric ties as discordant, which is
            # only fair to error metrics (TER, PER) if higher means "agrees with humans" for all
            tau_like = study_tau_like(_study, criterion, keep)  # the pairs meta's tau-like counts
            segment = segment_correlations(
                orient * source.source.segment,
                human_seg,
                methods=(("pearson", "none"), ("kendall-wmt", "item")),
                **tau_like,
                n_resamples=n_resamples,
                seed=seed,
            )
            oriented += segment
            lines += chance_lines(
                segment, orient * source.source.segment, human_seg, seed=seed, **tau_like
            )
        rows += _rows(name, criterion, orient, oriented, lines)
    return pd.DataFrame(rows)


def _rows(
    name: str, criterion: str, orient: int, results: Sequence[Any], lines: Sequence[Any]
) -> list[dict[str, Any]]:
    """The table's rows of one metric and criterion: ``results`` oriented, with their chance lines."""
    rows = []
    for res, line in zip(results, lines, strict=True):
        low, high = res.confidence_interval or (math.nan, math.nan)
        rows.append(
            {
                "metric": name,
                "criterion": criterion,
                "level": res.level,
                "method": res.method,
                "r": orient * res.statistic,
                "oriented r": res.statistic,
                "low": low,
                "high": high,
                **line_numbers(line),
                "shuffled within": "" if line is None else line.grouping,
                "p": res.pvalue,
                "n": res.n,
                "note": res.note,
            }
        )
    return rows


class _Remembered:
    """A metric's score source that computes its resampled system scores once per count matrix.

    ``correlation_frame`` correlates one metric with every criterion using the same seed, hence the same
    resampled test sets: the metric side is resampled once instead of once per criterion.
    """

    def __init__(self, source: MetricScores) -> None:
        self.source = source
        self.names = source.names
        self.n_segments = source.n_segments
        self._observed: np.ndarray | None = None
        self._resampled: dict[bytes, np.ndarray] = {}

    def observed(self) -> np.ndarray:
        if self._observed is None:
            self._observed = self.source.observed()
        return self._observed

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        key = hashlib.blake2b(np.ascontiguousarray(counts).tobytes(), digest_size=16).digest()
        if key not in self._resampled:
            self._resampled[key] = self.source.resampled(counts)
        return self._resampled[key]


def _orient(res: CorrelationResult, sign: int) -> CorrelationResult:
    """A symmetric correlation (Pearson, Kendall) with its sign flipped when ``sign`` is -1."""
    if sign > 0:
        return res
    interval = res.confidence_interval
    flipped = None if interval is None else (-interval[1], -interval[0])
    return replace(res, statistic=-res.statistic, confidence_interval=flipped)


def subset_systems(m: MetricScores, keep: Sequence[int]) -> MetricScores:
    return MetricScores(
        m.metric,
        tuple(m.names[i] for i in keep),
        m.stats[keep],
        m.from_stats,
        m.segment[keep],
        m.higher_is_better,
        m.description,
        m.notes,
    )


def williams_frame(
    scores: dict[str, MetricScores],
    first: str,
    second: str,
    human_seg: np.ndarray,
    human_sys: Sequence[float],
    criterion_higher_is_better: bool = True,
) -> pd.DataFrame:
    """Williams test of ``first`` vs ``second`` at segment level (pooled pairs) and system level.

    Both metrics are oriented first (error metrics and lower-is-better criteria negated), so "r" always
    means agreement and the test asks which metric agrees more.
    """
    crit_sign = 1 if criterion_higher_is_better else -1
    sign = {m: (1 if scores[m].higher_is_better else -1) * crit_sign for m in (first, second)}
    rows = []
    for level, a, b, h in (
        (
            "segment",
            sign[first] * scores[first].segment,
            sign[second] * scores[second].segment,
            human_seg,
        ),
        (
            "system",
            sign[first] * scores[first].observed(),
            sign[second] * scores[second].observed(),
            human_sys,
        ),
    ):
        try:
            res = compare_correlations(a, b, h, alternative="two-sided")
            rows.append(
                {
                    "level": level,
                    "r first": res.r1,
                    "r second": res.r2,
                    "r between": res.r12,
                    "t": res.statistic,
                    "p": res.pvalue,
                    "n": res.n,
                    "note": "",
                }
            )
        except ValueError as err:
            rows.append({"level": level, "note": str(err)})
    return pd.DataFrame(rows)


@st.cache_data(max_entries=8, show_spinner="Scoring with every BLEU implementation…")
def variants_frame(
    study_key: str, _study: Study, systems: tuple[str, ...], tokenize: str = "13a"
) -> pd.DataFrame:
    return many_bleus_frame(_study, systems, tokenize=tokenize)


def many_bleus_frame(
    study: Study, systems: tuple[str, ...], progress: Any = None, *, tokenize: str = "13a"
) -> pd.DataFrame:
    """Every system scored as each BLEU implementation defines it, sacrebleu and Hugging Face with the
    sidebar's ``tokenize`` (:func:`bleu_core.metrics.variants.variants_for`; the Metrics page runs it in
    the shared background thread). ``progress(done, total, message)``."""
    _study = study
    variants = variants_for(tokenize)
    refs = list(_study.references.values())
    rows = []
    for k, system in enumerate(systems):
        if progress is not None:
            progress(k, len(systems), f"Same data, many BLEUs: system {k + 1} of {len(systems)}")
        hyps = _study.systems[system]
        keep = [i for i, h in enumerate(hyps) if h is not None]
        for v in many_bleus(
            [hyps[i] for i in keep], [[r[i] for i in keep] for r in refs], variants
        ):
            rows.append(
                {
                    "system": system,
                    "variant": v.variant.label,
                    "BLEU": v.score,
                    "difference": v.difference,
                    "BP": v.bp,
                    "signature": v.signature,
                }
            )
    return pd.DataFrame(rows)


@st.cache_data(max_entries=16, show_spinner="Exploring the parameter grid…")
def explorer_result(
    study_key: str,
    _study: Study,
    system: str,
    grid: ExplorerGrid,
    criterion: str | None,
    default: BleuOptions | None = None,
) -> ExplorerResult:
    """``system`` scored under every combination of ``grid``, differences from ``default`` (the
    sidebar's options)."""
    hyps = _study.systems[system]
    keep = [i for i, h in enumerate(hyps) if h is not None]
    refs = [[r[i] for i in keep] for r in _study.references.values()]
    human = None
    higher = True
    if criterion:
        human = _study.segment_scores(criterion)[list(_study.systems).index(system)][keep]
        higher = _study.criteria[criterion].higher_is_better
    return explore(
        [hyps[i] for i in keep], refs, grid, human=human, higher_is_better=higher, default=default
    )


@st.cache_data(max_entries=8, show_spinner="Computing Babych & Hartley's tables…")
def babych_result(study_key: str, _study: Study, tokenize: str, lowercase: bool) -> BabychTables:
    return babych_tables(_study, options=BleuOptions(tokenize=tokenize, lowercase=lowercase))


# ------------------------------------------------------------------------------------------- frames


def explorer_frame(result: ExplorerResult) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "variant": "; ".join(r.changed) or "default",
                "BLEU": r.score,
                "difference": r.difference,
                "Pearson (segments)": r.pearson,
                "Kendall (segments)": r.kendall,
                "rated": r.n_rated,
                "signature": r.signature,
            }
            for r in result.rows
        ]
    )


def babych_frames(t: BabychTables) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(scores per system, Pearson r per feature × criterion, stability) like the paper's Tables 1-3."""
    scores = pd.DataFrame(
        {"system": list(t.systems), "BLEU (all refs)": [t.bleu[s] for s in t.systems]}
    )
    for (scheme, measure, ref), values in t.scores.items():
        scores[f"{measure} ({SCHEME_LABELS[scheme]}) [{ref}]"] = [values[s] for s in t.systems]
    corr = pd.DataFrame(
        [
            {
                "feature": r.feature,
                "criterion": r.criterion,
                "r": r.result.statistic,
                "p": r.result.pvalue,
                "n": r.result.n,
            }
            for r in t.correlations
        ]
    )
    corr = (
        corr.pivot_table(index="feature", columns="criterion", values="r", sort=False)
        if len(corr)
        else corr
    )
    stab_rows = []
    for measure in MEASURES:
        for system in [*t.systems, "average"]:
            row = {"measure": measure, "system": system}
            for scheme in SCHEMES:
                key = (measure, scheme)
                if key in t.stability:
                    value = (
                        t.stability_average[key]
                        if system == "average"
                        else t.stability[key][system]
                    )
                    row[f"sd {SCHEME_LABELS[scheme]}"] = value
            stab_rows.append(row)
    return scores, corr, pd.DataFrame(stab_rows) if t.stability else pd.DataFrame()


# ------------------------------------------------------------------------------------------- charts


def correlation_chart(frame: pd.DataFrame, *, criterion: str, seed: int) -> alt.Chart:
    """Oriented correlation of each metric (points) with its bootstrap interval (rules), per
    level/method, and the random metric's mean as a tick (its ``seed`` said in the subtitle)."""
    data = frame[frame["criterion"] == criterion].copy()
    data["level · method"] = data["level"] + " · " + data["method"]
    by_value = data.groupby("metric", sort=False)["oriented r"].mean()
    metrics = list(by_value.sort_values(ascending=False, kind="stable").index)  # best first
    series = list(dict.fromkeys(data["level · method"]))
    y = alt.Y("metric:N", sort=metrics, title=None, axis=layout.category_axis(metrics))
    base = alt.Chart(data).encode(
        y=y,
        color=alt.Color(
            "level · method:N", legend=layout.complete_legend(series, title="level · method")
        ),
        yOffset="level · method:N",
    )
    rules = base.mark_rule().encode(
        x=alt.X("low:Q", title="correlation (positive = agrees with humans)"), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=60).encode(
        x="oriented r:Q",
        tooltip=[
            "metric",
            "level",
            "method",
            alt.Tooltip("r:Q", format=".3f"),
            alt.Tooltip("p:Q", format=".2g"),
            "n",
        ],
    )
    layers = [rules, points]
    subtitle = "95% bootstrap intervals; sign oriented so that higher = better agreement"
    if "random metric" in data and data["random metric"].notna().any():
        layers.append(random_ticks(data, y, yOffset="level · method:N"))
        subtitle += f"; {tick_subtitle(seed)}"
    return alt.layer(*layers).properties(
        height=layout.rows_height(len(metrics), per=max(22, 10 * len(series))),
        title=alt.TitleParams(f"Metrics vs {criterion}", subtitle=subtitle),
        width="container",
    )


def explorer_chart(frame: pd.DataFrame) -> alt.Chart:
    """BLEU of each explored variant, coloured by its segment-level Kendall tau with the human scores."""
    color = (
        alt.Color("Kendall (segments):Q", scale=alt.Scale(scheme="viridis"))
        if frame["Kendall (segments)"].notna().any()
        else alt.value("#4c78a8")
    )
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("BLEU:Q"),
            y=alt.Y(
                "variant:N",
                sort="-x",
                title=None,
                axis=layout.category_axis(list(frame["variant"])),
            ),
            color=color,
            tooltip=[
                "variant",
                alt.Tooltip("BLEU:Q", format=".2f"),
                alt.Tooltip("difference:Q", format="+.2f"),
                "signature",
            ],
        )
        .properties(
            title="BLEU under each ticked combination",
            width="container",
            height=layout.rows_height(len(frame)),
        )
    )
