"""The study's reproducible zip (the Export page's): its settings, tables and charts, built from the scores.

:func:`export_contents` gathers what goes in (the core artefacts recomputed under the current settings, the
settings record, optionally the tables and charts viewed on other pages); :func:`study_export_zip` writes
the zip. The session's settings come in as a mapping (the page passes ``st.session_state``; a deferred
download passes :func:`export_state`'s copy), so nothing here draws on the page. The Export page and class
mode's "End of class" (the open study with the class's ratings) build the same zip.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bleu_core.study.criterion_order import criteria_order, headline_criterion
from bleu_core.study.output_rows import missing_note
from ui.analysis.charts import corpus_bars, normalised_chart, regression_scatter
from ui.analysis.domains import domain_tables
from ui.analysis.export_commands import rebuild_commands
from ui.analysis.frames import corpus_frame, normalised_frame
from ui.analysis.human_passes import human_passes_frames
from ui.analysis.relate import describe_fit, linear_fit
from ui.app import state as K
from ui.app.context import Scores
from ui.app.export import app_settings, export_stem, reproducible_zip, settings_record
from ui.app.frames import records_frame, system_human_scores
from ui.app.limits import resampling_settings

#: The session-state keys the zip reads (besides the persistent widget keys of its page settings).
STATE_KEYS = (K.SEED, K.N_RESAMPLES, K.CRITERION, K.INCLUDE_HUMANS, K.STUDY_INPUTS, K.STUDY_LABEL)


@dataclass(frozen=True)
class ExportContents:
    """What goes in the zip: ``settings`` (:func:`ui.app.export.settings_record`), ``tables``
    (``{name: (frame, caption)}``), ``charts`` (``{name: altair chart or Vega-Lite JSON}``) and
    ``commands``, the README's command lines that rebuild the numbers
    (:func:`ui.analysis.export_commands.rebuild_commands`)."""

    settings: dict[str, Any]
    tables: dict[str, tuple[pd.DataFrame, str]]
    charts: dict[str, Any]
    commands: str | None = None

    def zip(self, render_png: Callable[[str], bytes], render_svg: Callable[[str], str]) -> bytes:
        """The reproducible zip; *render_png* / *render_svg* turn a Vega-Lite spec into an image."""
        return reproducible_zip(
            settings=self.settings,
            tables=self.tables,
            charts=self.charts,
            render_png=render_png,
            render_svg=render_svg,
            commands=self.commands,
        )


def export_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of the session's state the zip reads, copied (for a download built after the run)."""
    keys = {*STATE_KEYS, *K.PERSISTENT_WIDGET_KEYS}
    return {key: state[key] for key in keys if key in state}


def core_artefacts(scores: Scores) -> tuple[dict, dict]:
    """The tables and charts always in the zip: corpus BLEU with the human scores, BLEU against each
    criterion (scatter, normalised), per-domain tables and the system-level fits."""
    study = scores.study
    human = {c: system_human_scores(study, c) for c in criteria_order(study.criteria)}
    corpus = corpus_frame(
        scores.systems, scores.corpus, human_systems=study.human_systems, human_scores=human
    )
    tables: dict[str, tuple[pd.DataFrame, str]] = {
        "corpus-bleu": (
            corpus,
            f"Corpus BLEU of {study.name} ({scores.signature})"
            + (f"; {missing}" if (missing := missing_note(study)) else ""),
        ),
    }
    charts: dict[str, Any] = {
        "corpus-bleu-chart": corpus_bars(
            corpus, title=f"Corpus BLEU · {study.name}", subtitle=scores.signature
        ),
    }
    fits = []
    for criterion, values in human.items():
        frame = (
            corpus[["system", "BLEU", "human"]]
            .assign(**{"human score": corpus[criterion]})
            .dropna()
        )
        fit = linear_fit(frame["BLEU"], frame["human score"])
        fits.append(
            {
                "criterion": criterion,
                "r": fit.r,
                "R2": fit.r2,
                "p": fit.pvalue,
                "n": fit.n,
                "slope": fit.slope,
                "intercept": fit.intercept,
            }
        )
        charts[export_stem(f"bleu-vs-{criterion}")] = regression_scatter(
            frame,
            x="BLEU",
            y="human score",
            title=f"{criterion} vs BLEU",
            subtitle=describe_fit(fit),
        )
        order = corpus.sort_values("BLEU")["system"].tolist()
        sign = 1 if study.criteria[criterion].higher_is_better else -1
        norm = normalised_frame(
            {
                "BLEU": dict(zip(corpus["system"], corpus["BLEU"], strict=True)),
                criterion: {s: sign * v for s, v in values.items()},
            },
            order,
        )
        charts[export_stem(f"normalised-{criterion}")] = normalised_chart(
            norm, title=f"BLEU and {criterion} normalised by their range"
        )
    tables.update(domain_tables(scores))  # a study with domains: BLEU and humans per domain
    tables.update(human_passes_frames(study))  # two raters of an item: ceiling, disagreements
    if fits:
        tables["system-level-fits"] = (
            records_frame(fits),
            "BLEU vs human, system level (all systems)",
        )
    return tables, charts


def export_contents(
    scores: Scores,
    state: Mapping[str, Any],
    *,
    include_viewed: bool = False,
    study_label: str | None = None,
    tables: Mapping[str, tuple[pd.DataFrame, str]] | None = None,
    charts: Mapping[str, Any] | None = None,
) -> ExportContents:
    """What the zip of *scores*' study holds under the session's settings (*state*).

    *include_viewed* adds the tables and charts viewed on other pages (the session's export registry);
    *study_label* replaces the label the study was opened under; *tables* / *charts* add more.
    """
    study = scores.study
    all_tables, all_charts = core_artefacts(scores)
    all_tables.update(tables or {})
    all_charts.update(charts or {})
    if include_viewed:
        for (kind, name), value in (state.get(K.EXPORT_REGISTRY) or {}).items():
            if kind == "table" and name not in all_tables:
                all_tables[name] = value
            elif kind == "chart" and name not in all_charts:
                all_charts[name] = value
    seed, n_resamples = resampling_settings(state)
    settings = settings_record(
        options=scores.options,
        signature=scores.signature,
        references=scores.references,
        study=study,
        study_label=state.get(K.STUDY_LABEL, "") if study_label is None else study_label,
        inputs=state.get(K.STUDY_INPUTS) or [],
        seed=seed,
        n_resamples=n_resamples,
        extra={
            "criterion": state.get(K.CRITERION) or headline_criterion(study.criteria),
            "include_human_translations": bool(state.get(K.INCLUDE_HUMANS)),
            "page_settings": app_settings(state, K.PERSISTENT_WIDGET_KEYS),
        },
    )
    commands = rebuild_commands(scores, state, settings["study"]["opened_from"] or study.name)
    return ExportContents(settings, all_tables, all_charts, commands)


def study_export_zip(
    scores: Scores,
    state: Mapping[str, Any],
    *,
    render_png: Callable[[str], bytes],
    render_svg: Callable[[str], str],
    **more: Any,
) -> bytes:
    """The study's reproducible zip: :func:`export_contents` (*more* its keyword arguments) written out."""
    return export_contents(scores, state, **more).zip(render_png, render_svg)
