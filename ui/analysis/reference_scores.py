"""The reference's own human score on the Corpus page.

WMT24+ rates its reference like a system. When that reference is the BLEU reference it cannot be a BLEU
system (it would be scored against itself), so its human scores are set aside from the analyses
(:func:`bleu_core.study.reference_choice.choose_references`). A reader still wants to see them: they are
the level a human translation reaches, the ceiling the systems are compared with.
"""

from __future__ import annotations

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


def render_reference_scores(study: Study) -> None:
    """The references' own human scores under the Corpus table, when the study has any."""
    lines = reference_score_lines(study)
    if not lines:
        return
    st.markdown(
        "Human scores of the reference translation itself, rated like a system and set aside from the "
        "analyses (a translation is not scored against itself):  \n" + "  \n".join(lines)
    )
