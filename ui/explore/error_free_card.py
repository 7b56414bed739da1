"""Learn BLEU page: the card "is BLEU = 1 an error-free detector?" on the open study.

Learn BLEU writes BLEU on the 0-1 scale throughout, so the card does too: a perfect sentence BLEU is 1
(100 on sacrebleu's 0-100 scale, the scale :func:`ui.app.segment_bleu.segment_bleu` and
:mod:`bleu_core.evaluation.error_free` compute on; the card divides by 100 only to show the numbers).

On the open study (a class's own ESA ratings join it as ``esa (CODE)``), the raters say which
translations are error-free (:func:`bleu_core.evaluation.error_free.error_free_labels`: ESA ≥ 85 and no error
span, or MQM 0); the card asks how many of them BLEU = 1 finds (recall), how many of BLEU's 1s are
error-free (precision), and how sentence BLEU does as a ranking (average precision against the chance
line), with :func:`~bleu_core.evaluation.error_free.fixed_threshold` and
:func:`~bleu_core.evaluation.error_free.pr_curve`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from bleu_core.evaluation.error_free import (
    error_free_labels,
    fixed_threshold,
    gold_criterion,
    pr_curve,
)
from ui.app.markup import md_escape
from ui.app.segment_bleu import segment_bleu


def _share(x: float) -> str:
    return "—" if x != x else f"{x:.0%}"


def error_free_card(scores: Any) -> None:
    """The card (``scores``: :class:`ui.app.context.Scores` of the open study)."""
    study = scores.study
    st.subheader("Is BLEU = 1 an error-free detector?")
    criterion = gold_criterion(study)
    if criterion is None:
        st.caption(
            "This study has no ESA or MQM ratings, so nobody has said which translations are free of "
            "errors. Rate with ESA in class mode, then come back."
        )
        return
    systems = list(study.machine_systems)
    gold = error_free_labels(study, systems, criterion)
    bleu = segment_bleu(scores, systems)
    precision, recall, marked = fixed_threshold(bleu.ravel(), gold.labels.ravel(), 100.0)
    keep = ~np.isnan(bleu) & ~np.isnan(gold.labels)
    curve = pr_curve(bleu[keep], gold.labels[keep])
    st.markdown(
        f"The raters of **{md_escape(study.name)}** ({md_escape(criterion)}) call a translation "
        f"error-free when {md_escape(gold.rule)}: **{curve.n_error_free:,}** of **{curve.n:,}** rated "
        f"translations ({_share(curve.chance)}). Sentence BLEU is 1 (100 on sacrebleu's scale) for "
        f"**{marked:,}** of them: "
        f"**{_share(precision)}** of those are error-free (precision), and they are "
        f"**{_share(recall)}** of all error-free translations (recall). A correct translation worded "
        "unlike the reference never reaches 1."
    )
    st.caption(
        f"Sentence BLEU as a ranking of the translations: average precision {curve.average_precision:.3f} "
        f"against the chance line {curve.chance:.3f} (the share of error-free translations); best F1 "
        f"{curve.best_f1:.3f} at BLEU ≥ {curve.best_threshold / 100:.3f} ({curve.best_threshold:.1f} on "
        "sacrebleu's scale). Every metric as a detector: the "
        "Metric ranking page."
    )
