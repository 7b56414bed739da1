"""The reference's own human score on the Corpus page.

WMT24+ rates its reference like a system. When that reference is the BLEU reference it cannot be a BLEU
system (it would be scored against itself), so its human scores are set aside from the analyses
(:func:`bleu_core.study.reference_choice.choose_references`). A reader still wants to see them: they are
the level a human translation reaches, the ceiling the systems are compared with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import streamlit as st

from bleu_core.study import Study
from bleu_core.study.reference_choice import reference_human_scores
from ui.app.markup import md_escape


def reference_score_lines(study: Study) -> list[str]:
    """One Markdown line per reference stream that has human scores of its own (user text escaped).

    >>> from bleu_core.study.model import Segment
    >>> study = Study("toy", (Segment("1"),), {"ref-A": ["a"]}, {"S": ["a"]},
    ...               metadata={"reference_ratings": [["ref-A", "1", "r1", None, "esa", 90.0]]})
    >>> reference_score_lines(study)
    ['**ref\\\\-A** (the reference: no BLEU of its own): esa **90.000** (1 rating)']
    """
    lines = []
    for ref, by_criterion in reference_human_scores(study).items():
        parts = [
            f"{md_escape(c)} **{mean:.3f}** ({n} rating{'s' if n != 1 else ''})"
            for c, (mean, n) in by_criterion.items()
        ]
        lines.append(
            f"**{md_escape(ref)}** (the reference: no BLEU of its own): " + ", ".join(parts)
        )
    return lines


def reference_rows(
    study: Study, columns: Sequence[str], extra: Mapping[str, Mapping[str, float]]
) -> pd.DataFrame:
    """The Corpus table's rows of the reference streams rated like systems (WMT24's refA): a human
    translation with its human scores (``extra``: more columns by system, WMT24's ESA figure) and no
    BLEU of its own (NaN: it is the reference), the other ``columns`` empty; no row for a study without
    such ratings.

    >>> from bleu_core.study.model import Segment
    >>> study = Study("toy", (Segment("1"),), {"ref-A": ["a"]}, {"S": ["a"]},
    ...               metadata={"reference_ratings": [["ref-A", "1", "r1", None, "esa", 90.0]]})
    >>> reference_rows(study, ["system", "human", "BLEU", "esa"], {}).to_dict("records")
    [{'system': 'ref-A', 'human': True, 'BLEU': nan, 'esa': 90.0}]
    """
    rows = []
    for ref, by_criterion in reference_human_scores(study).items():
        row: dict[str, object] = {c: math.nan for c in columns}
        row.update({"system": ref, "human": True})
        row.update({c: mean for c, (mean, _) in by_criterion.items() if c in row})
        row.update({c: by[ref] for c, by in extra.items() if c in row and ref in by})
        rows.append(row)
    return pd.DataFrame(rows, columns=list(columns))


def with_reference_rows(frame: pd.DataFrame, refs: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (:func:`ui.analysis.frames.corpus_frame`) with the :func:`reference_rows` below it;
    the whole-number length columns stay whole numbers (an empty cell in the reference's row)."""
    if refs.empty:
        return frame
    out = pd.concat([frame, refs], ignore_index=True)
    out["human"] = out["human"].astype(bool)
    for column in ("hyp_len", "ref_len"):
        if column in frame and frame[column].dtype.kind == "i":
            out[column] = out[column].astype("Int64")
    return out


def render_reference_scores(study: Study) -> None:
    """The references' own human scores under the Corpus table, when the study has any."""
    lines = reference_score_lines(study)
    if not lines:
        return
    st.markdown(
        "Human scores of the reference translation itself, rated like a system and set aside from the "
        "analyses (a translation is not scored against itself):  \n" + "  \n".join(lines)
    )
