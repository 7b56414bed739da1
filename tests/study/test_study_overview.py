"""The Study page's overview counts ratings in one pass; it must count what the per-criterion passes did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.study.overview import study_overview

RATINGS = st.lists(
    st.builds(
        Rating,
        st.sampled_from(["A", "B"]),
        st.sampled_from(["1", "2", None]),
        st.sampled_from(["r1", "r2", None]),
        st.sampled_from(["g1", "g2", None]),
        st.sampled_from(["adequacy", "fluency"]),
        st.sampled_from([1.0, 3.0]),
    ),
    max_size=25,
)


@settings(max_examples=100, deadline=None)
@given(RATINGS)
def test_overview_counts_what_one_pass_per_criterion_counted(ratings):
    study = Study(
        "t",
        (Segment("1"), Segment("2")),
        {"ref": ["a", "b"]},
        {"A": ["a", None], "B": ["a", "b"]},
        criteria={"adequacy": Criterion("adequacy"), "fluency": Criterion("fluency")},
        ratings=tuple(ratings),
    )
    overview = study_overview(study)
    expected_rows = tuple(
        (
            name,
            study.rated_items(name),  # the model's own count, one pass per criterion
            ", ".join(
                sorted({r.group for r in ratings if r.criterion == name and r.group is not None})
            )
            or "—",
        )
        for name in study.criteria
    )
    assert tuple((row[0], row[3], row[4]) for row in overview.criteria_table.rows) == expected_rows
    assert overview.rated_items == len(
        {(r.system, r.segment_id) for r in ratings if r.segment_id is not None}
    )
