"""What a study holds, for the Study page: counts and three small tables, without pandas.

The Study page is the first page a user sees, so it avoids what it does not need: no pandas import
(about half a second on a loaded machine) and no data-grid widget (the browser's largest script after
the syntax highlighter). The tables are plain rows, drawn with :func:`ui.app.markup.markdown_table`.

>>> from bleu_core.study import Criterion, Segment, Study
>>> s = Study(name="t", segments=(Segment("1"), Segment("2")), references={"ref": ["a", "b"]},
...           systems={"A": ["a", ""], "H": ["a", "b"]}, human_systems=frozenset({"H"}),
...           criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))}, ratings=())
>>> o = study_overview(s)
>>> o.segments, o.systems, o.human, o.rated_items
(2, 2, 1, 0)
>>> o.systems_table.rows  # A's blank line is an output, scored as empty, not a missing segment
(('A', 'no', 0, 1), ('HUMAN-H (H)', 'yes', 0, 0))
>>> o.criteria_table.rows
(('adequacy', 'higher', '1 … 5', 0, '—', ''),)
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from bleu_core.study import Study
from bleu_core.study.output_rows import blank_outputs, missing_outputs
from bleu_core.study.system_names import system_label


@dataclass(frozen=True)
class Table:
    """A small table: column names and rows of plain values (shown with :func:`ui.app.markup.markdown_table`)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]

    @property
    def empty(self) -> bool:
        return not self.rows


@dataclass(frozen=True)
class StudyOverview:
    """Counts and tables describing a study (see :func:`study_overview`)."""

    segments: int
    documents: int
    references: int
    systems: int
    human: int
    rated_items: int
    systems_table: Table
    criteria_table: Table
    references_table: Table


@dataclass(frozen=True)
class _RatingSummary:
    """What the ratings cover, from one pass over them (half a million on a 50 × 10k study)."""

    items: dict[str, int]  # criterion -> rated (system, segment) items
    groups: dict[str, list[str]]  # criterion -> rater groups, sorted
    rated: int  # (system, segment) items rated on any criterion


def _rating_summary(study: Study) -> _RatingSummary:
    # rated items from the per-criterion score matrices (systems x segments, NaN where unrated), which
    # the Study object computes once and every analysis page reuses: no set of half a million tuples
    rated_cells = np.zeros((len(study.systems), study.n_segments), dtype=bool)
    items: dict[str, int] = {}
    for name in study.criteria:
        cells = ~np.isnan(study.segment_scores(name))
        items[name] = int(cells.sum())
        rated_cells |= cells
    groups: dict[str, set[str]] = {}
    ratings = study.ratings
    pairs = zip(
        map(attrgetter("criterion"), ratings), map(attrgetter("group"), ratings), strict=True
    )
    for criterion, group in set(pairs):
        if group is not None:
            groups.setdefault(criterion, set()).add(group)
    return _RatingSummary(
        items=items,
        groups={c: sorted(g) for c, g in groups.items()},
        rated=int(rated_cells.sum()),
    )


def study_overview(study: Study) -> StudyOverview:
    """Counts and small tables describing a study (for the Study page)."""
    summary = _rating_summary(study)
    # a segment with no output (not counted in corpus BLEU) is missing; a blank line is an output,
    # scored as empty (bleu_core.study.output_rows): two columns, never one sum
    missing, blank = missing_outputs(study), blank_outputs(study)
    systems = Table(
        ("system", "human translation", "missing segments", "blank outputs (scored as empty)"),
        tuple(
            (
                system_label(name, study.human_systems),
                "yes" if name in study.human_systems else "no",
                missing.get(name, 0),
                blank[name],
            )
            for name in study.systems
        ),
    )
    criteria = Table(
        ("criterion", "better", "scale", "rated items", "rater groups", "description"),
        tuple(
            (
                c.name,
                "higher" if c.higher_is_better else "lower",
                "—" if c.scale is None else f"{c.scale[0]:g} … {c.scale[1]:g}",
                summary.items.get(c.name, 0),
                ", ".join(summary.groups.get(c.name, ())) or "—",
                c.description,
            )
            for c in study.criteria.values()
        ),
    )
    references = Table(
        ("reference", "segments covered"),
        tuple(
            (name, sum(t is not None for t in texts)) for name, texts in study.references.items()
        ),
    )
    return StudyOverview(
        segments=study.n_segments,
        documents=len(study.doc_ids()),
        references=len(study.references),
        systems=len(study.systems),
        human=len(study.human_systems),
        rated_items=summary.rated,
        systems_table=systems,
        criteria_table=criteria,
        references_table=references,
    )
