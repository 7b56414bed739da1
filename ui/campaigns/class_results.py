"""The class's results for the end of a lesson: one summary picture (PNG) and a zip with the class's ratings.

The summary draws BLEU against the class's mean score per criterion with the least-squares line and r in the
title (the paper's Figures 5-6), in colours told apart by colour-blind eyes (Okabe and Ito's palette: blue
machines, vermilion human translations, also told apart by shape). The zip holds the ratings (spreadsheet
formulas defused), the systems' BLEU and class means, the summary (PNG, SVG, Vega-Lite) and what the lesson was
made from (study, systems, segments, seed, BLEU signature): with the study it re-makes every number.
:func:`class_study_zip` is the open study's reproducible zip (the Export page's) with the class's ratings
joined to the study, their table and the summary picture added.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd

from bleu_core.campaigns import (
    Campaign,
    Item,
    StoredRating,
    StoredSpan,
    apply_to_study,
    ratings_to_csv,
    to_study_ratings,
)
from bleu_core.campaigns.exports import campaign_jsonl
from bleu_core.campaigns.lesson import ClassSnapshot
from ui.analysis.export_zip import study_export_zip
from ui.app import state as K
from ui.app.context import Scores
from ui.app.export import build_zip, frame_to_csv, software_versions

if TYPE_CHECKING:
    from bleu_core.study.model import Study

#: Okabe & Ito's colour-blind-safe palette.
OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"]
MACHINE_HUMAN = alt.Scale(domain=["machine", "human"], range=["#0072B2", "#D55E00"])


def r_text(value: float) -> str:
    """r as the projector writes it.

    >>> r_text(0.8149), r_text(float("nan"))
    ('r = 0.81', 'r not yet defined')
    """
    return f"r = {value:.2f}" if math.isfinite(value) else "r not yet defined"


def systems_frame(campaign: Campaign, snap: ClassSnapshot) -> pd.DataFrame:
    """One row per system: human or machine, BLEU, and the class's mean of each criterion."""
    bleu = campaign.metadata.get("bleu", {})
    humans = set(campaign.metadata.get("human_systems", []))
    rows = []
    for system in campaign.systems:
        row = {
            "system": system,
            "human": system in humans,
            "BLEU": float(bleu.get(system, math.nan)),
        }
        for criterion, means in snap.system_means.items():
            row[f"class {criterion}"] = means.get(system, math.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def scale_text(campaign: Campaign, criterion: str) -> str:
    """The scale of *criterion* as the axis names it: ``1-5`` for the paper's criteria, ``0-100`` for ESA.

    >>> from datetime import datetime, UTC
    >>> from bleu_core.campaigns import RatingCriterion
    >>> c = Campaign("K", "n", "s", ("A",), ("1",), (RatingCriterion("esa", "q", tuple("x" * 101), 0),),
    ...              "neither", ("g",), 0, 1, datetime(2024, 1, 1, tzinfo=UTC))
    >>> scale_text(c, "esa"), scale_text(c, "not a criterion")
    ('0-100', '1-5')
    """
    for c in campaign.criteria:
        if c.name == criterion:
            return f"{c.low}-{c.high}"
    return "1-5"


def _criterion_panel(frame: pd.DataFrame, criterion: str, r: float, scale: str) -> alt.LayerChart:
    column = f"class {criterion}"
    data = frame.dropna(subset=[column]).assign(
        kind=lambda f: f["human"].map({True: "human", False: "machine"})
    )
    x = alt.X("BLEU:Q", title="BLEU", scale=alt.Scale(zero=False))
    y = alt.Y(f"{column}:Q", title=f"class {criterion} ({scale})", scale=alt.Scale(zero=False))
    base = alt.Chart(data)
    points = base.mark_point(size=160, filled=True).encode(
        x=x,
        y=y,
        color=alt.Color("kind:N", scale=MACHINE_HUMAN, title=None),
        shape=alt.Shape(
            "kind:N",
            scale=alt.Scale(domain=["machine", "human"], range=["circle", "diamond"]),
            title=None,
        ),
    )
    line = (
        base.mark_line(color="#000000", strokeDash=[6, 4], strokeWidth=2)
        .transform_regression("BLEU", column)
        .encode(x=x, y=y)
    )
    labels = base.mark_text(align="left", dx=9, fontSize=13).encode(x=x, y=y, text="system:N")
    return alt.layer(line, points, labels).properties(
        width=420, height=320, title=alt.Title(f"{criterion}: {r_text(r)}", fontSize=22)
    )


def summary_chart(campaign: Campaign, snap: ClassSnapshot) -> alt.HConcatChart:
    """BLEU against the class's mean score, one panel per criterion, r in each title (one picture)."""
    frame = systems_frame(campaign, snap)
    panels = [
        _criterion_panel(frame, c, snap.fits[c].statistic, scale_text(campaign, c))
        for c in snap.fits
    ]
    title = (
        f"{campaign.name} · {snap.n_joined} students · {snap.n_ratings} ratings · "
        f"BLEU: {campaign.metadata.get('bleu_signature', '')}"
    )
    return (
        alt.hconcat(*panels)
        .properties(title=alt.Title(title, fontSize=14))
        .configure_view(strokeWidth=0)
        .configure_axis(labelFontSize=13, titleFontSize=14)
    )


def lesson_record(campaign: Campaign) -> dict:
    """What the lesson was made from, for the zip's ``lesson.json``."""
    return {
        "campaign": campaign.code,
        "name": campaign.name,
        "study": campaign.study_name,
        "systems": list(campaign.systems),
        "segments": list(campaign.segment_ids),
        "seed": campaign.seed,
        "bleu_signature": campaign.metadata.get("bleu_signature", ""),
        "bleu": campaign.metadata.get("bleu", {}),
        "human_systems": campaign.metadata.get("human_systems", []),
        "criteria": list(campaign.criterion_names),
        "software": software_versions(),
    }


def spans_frame(items: Sequence[Item], spans: Sequence[StoredSpan]) -> pd.DataFrame:
    """One row per error span a student marked: who, which item, where (characters) and the words.

    >>> from bleu_core.campaigns import MarkedSpan
    >>> it = Item(0, "s1", "A", "the cat sat")
    >>> row = spans_frame([it], [StoredSpan("K7", "ana", "class", 0, "s1", "A", MarkedSpan(4, 7, "major"))]).iloc[0]
    >>> row["judge"], int(row["start"]), int(row["end"]), row["severity"], row["text"]
    ('ana', 4, 7, 'major', 'cat')
    """
    text = {it.position: it.translation for it in items}
    columns = ["judge", "group", "position", "segment_id", "system", "kind", "start", "end"]
    rows = [
        [s.judge, s.group, s.position, s.segment_id, s.system, s.kind, s.span.start, s.span.end,
         s.span.severity, s.span.missing,
         "[missing]" if s.span.missing else text.get(s.position, "")[s.span.start : s.span.end]]
        for s in spans
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=[*columns, "severity", "missing", "text"])


def class_zip(
    campaign: Campaign,
    snap: ClassSnapshot,
    ratings: list[StoredRating],
    render_png,
    render_svg,
    *,
    items: Sequence[Item] = (),
    spans: Sequence[StoredSpan] = (),
) -> bytes:
    """The end-of-class zip (see the module docstring); *render_png* / *render_svg* turn a Vega-Lite spec
    into an image. An ESA lesson's error spans (with the *items* they mark) go in too: a table and the
    Pearmut-shaped log of every judge and item."""
    spec = summary_chart(campaign, snap).to_json()
    files = {
        "README.txt": (
            f"{campaign.name} (campaign {campaign.code}): the class's ratings against BLEU.\n"
            "tables/ratings.csv: every rating; tables/systems.csv: BLEU and the class's means;\n"
            + (
                "tables/spans.csv: every error span a student marked (characters and words);\n"
                "ratings.jsonl: each student's item with its score and spans (Pearmut's log shape);\n"
                if campaign.protocol != "adequacy-fluency"
                else ""
            )
            + "charts/summary.*: the projector's result; lesson.json: study, systems, segments, seed and\n"
            "BLEU signature. On the app's Campaigns page, 'Use these ratings in the analyses' adds\n"
            "the ratings to the study, whose Export page gives its full reproducible zip.\n"
        ),
        "lesson.json": json.dumps(lesson_record(campaign), indent=2, ensure_ascii=False) + "\n",
        "tables/ratings.csv": ratings_to_csv(ratings),
        "tables/systems.csv": frame_to_csv(systems_frame(campaign, snap)),
        "charts/summary.vl.json": spec,
        "charts/summary.png": render_png(spec),
        "charts/summary.svg": render_svg(spec),
    }
    if campaign.protocol != "adequacy-fluency":  # the spans the class marked
        files["tables/spans.csv"] = frame_to_csv(spans_frame(items, spans))
        files["ratings.jsonl"] = campaign_jsonl(items, ratings, spans)
    return build_zip(files)


def class_ratings_frame(
    campaign: Campaign, ratings: list[StoredRating], study: Study | None = None
) -> pd.DataFrame:
    """The class's ratings as ``study`` holds them once joined (criterion names as
    :func:`bleu_core.campaigns.integration.to_study_ratings` gives them for that study): system,
    segment, rater, group, criterion, score (tutorial items and attention checks left out)."""
    rows, _criteria = to_study_ratings(campaign, ratings, study=study)
    columns = ["system", "segment_id", "rater", "group", "criterion", "score"]
    return pd.DataFrame([[getattr(r, c) for c in columns] for r in rows], columns=columns)


def class_study_zip(
    scores: Scores,
    state: Mapping[str, Any],
    campaign: Campaign,
    snap: ClassSnapshot,
    ratings: list[StoredRating],
    render_png,
    render_svg,
) -> bytes:
    """The open study's reproducible zip (the Export page's, under the session's settings *state*) with the
    class's ratings joined: its tables and charts include the class's criteria, ``settings.json`` the
    joined study's digest, plus ``tables/class-ratings.*`` and ``charts/class-summary.*``.

    Raises :class:`bleu_core.campaigns.CampaignError` when the open study is not the lesson's."""
    study = apply_to_study(scores.study, campaign, ratings)
    joined = replace(scores, study=study, key=f"{scores.key}|class:{campaign.code}:{len(ratings)}")
    label = state.get(K.STUDY_LABEL) or scores.study.name
    return study_export_zip(
        joined,
        state,
        study_label=f"{label} + class {campaign.code}",
        tables={
            "class-ratings": (
                class_ratings_frame(campaign, ratings, scores.study),
                f"The class's ratings ({campaign.name}, campaign {campaign.code})",
            )
        },
        charts={"class-summary": summary_chart(campaign, snap)},
        render_png=render_png,
        render_svg=render_svg,
    )
