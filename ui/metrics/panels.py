"""The Metrics page's widget groups and table adapters, so that ``pages/metrics.py`` only lays them out.

Widgets live here (they read ``st`` inputs); the computations stay in :mod:`ui.metrics.charts` and
:mod:`bleu_core.metrics`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.engine.options import REF_LENGTH_POLICIES, SMOOTHING_NAMES, BleuOptions
from bleu_core.metrics.explorer import ExplorerGrid
from bleu_core.metrics.registry import MetricScores
from bleu_core.study import Study
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES
from ui.analysis.correlation_lines import chance_words
from ui.app import state as K
from ui.app.context import table_downloads
from ui.app.segment_bleu import segment_note
from ui.metrics import charts as cm


def williams_table(
    study: Study,
    scores: dict[str, MetricScores],
    pair: Sequence[str],
    systems: Sequence[str],
    criterion: str,
) -> pd.DataFrame:
    """Williams test of the two metrics in ``pair`` against ``criterion``, on the systems in view."""
    order = list(study.systems)
    index = [order.index(s) for s in systems]
    human_seg = study.segment_scores(criterion)[index]
    by_sys = study.system_scores(criterion)
    sub = {m: cm.subset_systems(scores[m], index) for m in pair}
    human_sys = [by_sys[s] for s in systems]
    first, second = pair
    return cm.williams_frame(
        sub, first, second, human_seg, human_sys, study.criteria[criterion].higher_is_better
    )


def correlation_notes(frame: pd.DataFrame, options: BleuOptions, seed: int) -> str:
    """What the correlation table's columns mean: the oriented r, WMT's tau-like, the chance line
    (how it was drawn: from the rows' ``shuffled within`` and
    :data:`bleu_core.evaluation.correlation_chance.PERMUTATIONS`), the sentence BLEU used."""
    from bleu_core.evaluation.correlation_chance import PERMUTATIONS

    levels, within = frame.get("level", ()), frame.get("shuffled within", ())
    how = [
        f"{PERMUTATIONS[lv]} permutations within {g}"
        for lv, g in zip(levels, within, strict=True)
        if g
    ]
    chance = chance_words(how, seed, "each metric's own oriented scores")
    return (
        "`oriented r` flips the sign for error metrics (TER, PER) and lower-is-better criteria, so that a "
        "higher value always means closer agreement with the humans; `r` is the raw coefficient. WMT's "
        "tau-like (kendall-wmt, DARR) is computed on oriented scores over the pairs of translations of a "
        "segment whose human scores differ by at least 25 DA points (a quarter of another stated scale), "
        "and counts metric ties as disagreements. "
        + (f"{chance} The chance line is that of `oriented r`. " if how else "")
        + segment_note(options)
    )


def system_scores_table(
    scores: dict[str, MetricScores], metrics: Sequence[str], systems: Sequence[str]
) -> pd.DataFrame:
    """One row per system, one column per metric (system-level scores)."""
    per_metric = {m: scores[m].system_scores() for m in metrics}
    return pd.DataFrame(
        {"system": list(systems), **{m: [per_metric[m][s] for s in systems] for m in metrics}}
    )


def explorer_grid(study: Study, tokenize: str = "13a") -> tuple[ExplorerGrid, str | None]:
    """The parameter explorer's tick boxes (three columns) and the chosen human criterion.

    The tokenizer starts at ``tokenize`` (the sidebar's, which follows the target language) and starts
    there again when the sidebar's changes (one widget per sidebar tokenizer).

    The defaults change what moves corpus BLEU (case, max order), so the first chart shows four different
    bars; smoothing alone barely moves corpus BLEU (it acts on zero counts, rare in a corpus).
    """
    p = K.MET_EXPLORER_CHOICES
    e1, e2, e3 = st.columns(3)
    grid = ExplorerGrid(
        tokenize=tuple(
            e1.multiselect(
                "Tokenizer", TOKENIZER_NAMES, default=[tokenize], key=f"{p}_tok_{tokenize}"
            )
        ),
        lowercase=tuple(
            e1.multiselect("Lowercase", [False, True], default=[False, True], key=f"{p}_lc")
        ),
        n_refs=tuple(
            e1.multiselect(
                "Number of references",
                list(range(1, len(study.references) + 1)),
                default=[len(study.references)],
                key=f"{p}_k",
            )
        ),
        smooth=tuple(e2.multiselect("Smoothing", SMOOTHING_NAMES, default=["exp"], key=f"{p}_sm")),
        effective_order=tuple(
            e2.multiselect("Effective order", [False, True], default=[True], key=f"{p}_eff")
        ),
        max_order=tuple(
            e3.multiselect("Max order", list(range(1, 10)), default=[2, 4], key=f"{p}_n")
        ),
        ref_length=tuple(
            e3.multiselect(
                "Reference length", REF_LENGTH_POLICIES, default=["closest"], key=f"{p}_rl"
            )
        ),
    )
    # segment_scores is kept on the study per criterion: no pass over every rating on each run
    rated = [c for c in study.criteria if np.isfinite(study.segment_scores(c)).any()]
    criterion = e2.selectbox("Criterion", [None, *rated], index=1 if rated else 0, key=f"{p}_crit")
    return grid, criterion


def show_babych_tables(key: str, study: Study, options: BleuOptions) -> None:
    """The Metrics page's "Babych & Hartley (2004)" section: BLEU against tf.idf / S-score weighted
    precision, recall and F with one reference at a time (their Tables 1-3), computed when the user
    switches it on (a few seconds on a large study)."""
    st.subheader("Babych & Hartley (2004): weighted n-grams")
    with st.expander(
        "Tables 1-3: BLEU vs tf.idf / S-score weighted precision, recall and F with one reference"
    ):
        st.write(
            "Each reference is used alone; word weights (tf.idf, S-score) come from that reference's "
            "documents. An n-gram counts its most salient word's weight when above 1, else 1. "
            "Correlations use machine systems only, as in the paper; stability is the standard "
            "deviation across references."
        )
        if not st.toggle(
            "Compute the tables (a few seconds on a large study)", key=K.MET_BABYCH_ON
        ):
            return
        tables = cm.babych_result(key, study, options.tokenize, options.lowercase)
        t1, t2, t3 = cm.babych_frames(tables)
        st.dataframe(t1, hide_index=True, width="stretch")
        table_downloads(
            t1,
            "babych scores",
            caption="BLEU and weighted P/R/F per system (Babych & Hartley Table 1-2)",
        )
        st.dataframe(t2, width="stretch")
        if not t3.empty:
            st.dataframe(t3, hide_index=True, width="stretch")
        for note in tables.notes:
            st.caption(note)
