"""Published tables: every metric × human criterion correlation of a paper's system-level table.

The page and ``python -m bleu_core meta --system-scores TABLE.csv`` share one code path
(:mod:`bleu_core.evaluation.system_table`): the same parser and error messages, the same rule for which columns
are human criteria, the same correlations (scipy's p-values; ``NA`` skipped pair by pair).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NoReturn

import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.evaluation.correlation import METHODS
from bleu_core.evaluation.system_table import (
    is_human_column,
    parse_system_table,
    table_correlations,
    wmt_table_pairs,
)
from bleu_core.io.text import decode_text
from bleu_core.study.demo import data_dir as demo_dir
from ui.app import state as K
from ui.app.context import ensure_entrypoint, show_chart, table_downloads
from ui.app.markup import md_escape as esc
from ui.app.numbers import plural
from ui.metrics import published_charts as cp

EXAMPLES = demo_dir() / "examples"
EXAMPLE_NOTES = {
    "babych2004-table1.csv": "Babych & Hartley (2004), Table 1: mean adequacy and fluency of the 4 MT systems "
    "of the DARPA-94 French–English corpus and their BLEU (REVERSO has no human scores). The paper "
    "prints r = 0.5918 (BLEU–adequacy, p > 0.05) and r = 0.9807 (BLEU–fluency, p < 0.05).",
}
MAX_MB = 5  # the command line's limit for a system table


def stop_with(err: BleuStudyError) -> NoReturn:
    st.error(esc(str(err)), icon=":material/error:")
    st.stop()


ensure_entrypoint()
st.title("Published tables")
st.write(
    "Reproduce a paper's correlation table from its printed numbers: one row per system, the first column "
    "the system name, one column per metric or human criterion, `NA` where a value is missing. Every metric "
    "is correlated with every human criterion, exactly as `python -m bleu_core meta --system-scores "
    "TABLE.csv` does."
)
source = st.radio("Table", ["Bundled example", "Upload a file"], horizontal=True, key=K.PUB_SOURCE)
if source == "Bundled example":
    example = st.selectbox(
        "Example", sorted(p.name for p in EXAMPLES.glob("*.csv")), key=K.PUB_EXAMPLE
    )
    name, data = f"data/examples/{example}", (EXAMPLES / example).read_bytes()
    if example in EXAMPLE_NOTES:
        st.caption(EXAMPLE_NOTES[example])
else:
    upload = st.file_uploader(
        "CSV or TSV of system-level scores",
        type=["csv", "tsv", "txt"],
        max_upload_size=MAX_MB,
        key=K.PUB_UPLOAD,
        help="Comma, tab or semicolon separated; header row first. NA, N/A, nan, - or an empty cell mark a "
        "missing value. At least 3 systems.",
    )
    if upload is None:
        st.info("Upload a table, e.g.\n\n    system,adequacy,fluency,BLEU\n    A,0.68,0.46,0.356")
        st.stop()
    name, data = upload.name, upload.getvalue()

try:
    text = decode_text(data, name)
    language_pairs = wmt_table_pairs(text, name)
    pair = (
        st.selectbox("Language pair", language_pairs, key=K.PUB_LANGUAGE_PAIR)
        if len(language_pairs) > 1
        else None
    )
    table = parse_system_table(text, name, pair=pair)
except BleuStudyError as err:
    stop_with(err)

c1, c2 = st.columns([3, 2])
criteria = c1.multiselect(
    "Human criteria columns",
    list(table.columns),
    default=[c for c in table.columns if is_human_column(c)],
    key=f"{K.PUB_CRITERIA_PREFIX}-{hashlib.sha256(data).hexdigest()[:12]}",
    help="Default: the command line's rule, columns named with a word such as adequacy, fluency, mqm, da, "
    "human or rating. Every other column is a metric.",
)
methods = c2.multiselect("Correlations", list(METHODS), default=list(METHODS), key=K.PUB_METHODS)
st.subheader("The table")
st.dataframe(cp.table_frame(table), hide_index=True, width="content")
st.caption(
    f"{esc(name)}: {plural(len(table.systems), 'system')} × {plural(len(table.columns), 'column')}. "
    "Empty cells are NA: a system missing a value is left out of that pair's correlation only."
)
if not criteria or not methods:
    st.warning("Choose at least one human criterion column and one correlation.")
    st.stop()
try:
    rows = table_correlations(table, criteria, methods)
    pearson = {(r.metric, r.criterion): r.result for r in table_correlations(table, criteria)}
except BleuStudyError as err:
    stop_with(err)

st.subheader("Correlations")
frame = cp.correlations_frame(rows)
no_interval = frame[["CI low", "CI high"]].isna().all().all()
if (
    no_interval
):  # bleu_core gives no interval for a system table: keep the columns only when it does
    frame = frame.drop(columns=["CI low", "CI high"])
else:  # said in the table: a system table has no segments to resample (as every page and `meta`)
    frame["CI method"] = (
        frame["CI low"].notna().map({True: "Fisher z, system-level only", False: "—"})
    )
number = st.column_config.NumberColumn
st.dataframe(
    frame,
    hide_index=True,
    width="stretch",
    column_config={"r": number(format="%.4f"), "p": number(format="%.4f")},
)
stem = Path(name).stem
table_downloads(frame, f"published {stem} correlations", caption=f"Correlations of {name}")
if no_interval:
    st.caption(
        "No confidence intervals: a published table holds one score per system and no segments to "
        "resample. p-values are scipy's two-sided tests of no correlation (Pearson: t-test with n − 2 "
        "degrees of freedom; with 4 systems only very strong correlations reach p < 0.05)."
    )
st.markdown("**As a paper prints them** (metric × criterion · method)")
matrix = cp.r_matrix(frame)
st.dataframe(
    matrix, hide_index=True, column_config={c: number(format="%.4f") for c in matrix.columns[1:]}
)
table_downloads(matrix, f"published {stem} r matrix", caption=f"Correlations of {name}")

st.subheader("Scatter plots")
pairs = list(pearson)
label = " vs ".join
if len(pairs) > 6:
    shown = st.multiselect("Pairs", pairs, default=pairs[:4], format_func=label, key=K.PUB_PAIRS)
else:
    shown = pairs
for i, (metric, criterion) in enumerate(shown, start=1):
    chart = cp.published_scatter(
        table, metric, criterion, pearson[(metric, criterion)], source=name
    )
    show_chart(chart, f"published {stem} scatter {i} {metric} vs {criterion}")
st.caption(
    "Each point is a system; the dashed line is the least-squares fit of the criterion on the metric. "
    "r, R², p and n are Pearson's."
)
