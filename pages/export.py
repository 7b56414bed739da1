"""Export page: one reproducible zip with tables, charts, the signature, every setting and input hashes."""

from __future__ import annotations

import json

import streamlit as st

from bleu_core.study.criterion_order import criteria_order, headline_criterion
from ui import current_scores, file_stem, signature_caption
from ui.analysis.export_page import (
    corpus_bars,
    corpus_frame,
    describe_fit,
    domain_tables,
    linear_fit,
    normalised_chart,
    normalised_frame,
    regression_scatter,
)
from ui.app import chart_images
from ui.app import state as K
from ui.app.export import app_settings, reproducible_zip, settings_record
from ui.app.frames import records_frame, system_human_scores
from ui.app.limits import resamples_input

st.title("Reproducible export")
st.write(
    "One zip with everything needed to re-make the results: tables (CSV and LaTeX), charts (PNG, SVG "
    "and their Vega-Lite spec), the BLEU signature, every setting, the seed and resample count used by "
    "resampling procedures, software versions, and the sha256 of each input file."
)
scores = current_scores()
study = scores.study

c1, c2 = st.columns(2)
c1.number_input(
    "Seed (resampling)",
    min_value=0,
    step=1,
    key=K.SEED,
    help="Used by every bootstrap / randomisation in the app and recorded in the zip.",
)
resamples_input(
    "Resamples",
    key=K.N_RESAMPLES,
    min_value=10,
    where=c2,
    help="Bootstrap resamples of the Significance, Correlation, Metrics and Judges pages.",
)
include_viewed = st.toggle(
    "Also include tables and charts viewed on other pages in this session",
    value=True,
    key=K.EXPORT_INCLUDE_VIEWED,
)

# The core artefacts, always recomputed under the current settings.
human = {c: system_human_scores(study, c) for c in criteria_order(study.criteria)}
corpus = corpus_frame(
    scores.systems, scores.corpus, human_systems=study.human_systems, human_scores=human
)
tables: dict[str, tuple[object, str]] = {
    "corpus-bleu": (corpus, f"Corpus BLEU of {study.name} ({scores.signature})"),
}
charts: dict[str, object] = {
    "corpus-bleu-chart": corpus_bars(
        corpus, title=f"Corpus BLEU · {study.name}", subtitle=scores.signature
    ),
}
fits = []
for criterion, values in human.items():
    frame = (
        corpus[["system", "BLEU", "human"]].assign(**{"human score": corpus[criterion]}).dropna()
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
    charts[file_stem(f"bleu-vs-{criterion}")] = regression_scatter(
        frame, x="BLEU", y="human score", title=f"{criterion} vs BLEU", subtitle=describe_fit(fit)
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
    charts[file_stem(f"normalised-{criterion}")] = normalised_chart(
        norm, title=f"BLEU and {criterion} normalised by their range"
    )
tables.update(domain_tables(scores))  # a study with domains: BLEU and humans per domain
if fits:
    tables["system-level-fits"] = (records_frame(fits), "BLEU vs human, system level (all systems)")

if include_viewed:
    for (kind, name), value in (st.session_state.get(K.EXPORT_REGISTRY) or {}).items():
        if kind == "table" and name not in tables:
            tables[name] = value
        elif kind == "chart" and name not in charts:
            charts[name] = value

inputs = st.session_state.get(K.STUDY_INPUTS) or []
settings = settings_record(
    options=scores.options,
    signature=scores.signature,
    references=scores.references,
    study=study,
    study_label=st.session_state.get(K.STUDY_LABEL, ""),
    inputs=inputs,
    seed=int(st.session_state[K.SEED]),
    n_resamples=int(st.session_state[K.N_RESAMPLES]),
    extra={
        "criterion": st.session_state.get(K.CRITERION) or headline_criterion(study.criteria),
        "include_human_translations": bool(st.session_state.get(K.INCLUDE_HUMANS)),
        "page_settings": app_settings(st.session_state, K.PERSISTENT_WIDGET_KEYS),
    },
)

st.subheader("What goes in")
left, right = st.columns(2)
with left:
    st.markdown("**Tables**: " + ", ".join(f"`{n}`" for n in sorted(tables)))
    st.markdown("**Charts**: " + ", ".join(f"`{n}`" for n in sorted(charts)))
    st.markdown("**Input files**")
    if inputs:
        st.dataframe(records_frame(inputs), hide_index=True, width="stretch")
    else:
        st.caption(
            "The study names no input files; its content digest identifies it: "
            f"`{settings['study']['content_sha256']}`"
        )
with right:
    # Plain text: st.json's value colours (teal booleans, 3.2:1) fail WCAG contrast.
    st.code(
        json.dumps(settings, indent=2, ensure_ascii=False, default=str),
        language=None,
        wrap_lines=True,  # no scroll box a keyboard cannot reach
    )
signature_caption(scores.signature)


def _make_zip() -> bytes:
    return reproducible_zip(
        settings=settings,
        tables=tables,
        charts=charts,
        render_png=chart_images.chart_png,
        render_svg=chart_images.chart_svg,
    )


st.download_button(
    "Download the reproducible zip",
    data=_make_zip,
    type="primary",
    file_name=f"bleu-study-{file_stem(study.name)}.zip",
    mime="application/zip",
    on_click="ignore",
    icon=":material/folder_zip:",
)
st.caption("The charts are rendered when you click (a few seconds for many charts).")
