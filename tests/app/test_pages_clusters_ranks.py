"""AppTests of issue 39's additions: significance clusters (Significance), rank against rank and the rated
reference drawn as a human translation (BLEU vs human), rated-item counts and "rated only" (Explore).

Small studies: 5 systems × 60 segments of the TED en-de demo (MQM), some ratings removed where a test
needs unrated translations. The numbers on the page are compared with the library's own functions.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import vl_convert as vlc
from app_runs import captions, page_alone

from bleu_core.evaluation.cluster_report import ranks, study_human_clusters
from bleu_core.study import Study
from ui.analysis.cluster_view import reference_scatter
from ui.analysis.frames import system_points
from ui.app import state as K


def run(page: str, study: Study, key: str, **extra: object):
    state = {K.STUDY: study, K.STUDY_KEY: key, K.N_RESAMPLES: 60, K.SEED: 7, K.SIG_TRIALS: 300}
    return page_alone(page, {**state, **extra})


def frame_with(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_significance_page_shows_the_human_clusters_beside_bleus(ted_slice):
    at = run("significance.py", ted_slice, "test:clusters-sig")
    assert "Significance clusters: the metric beside the human scores" in [
        s.value for s in at.subheader
    ]
    wide = frame_with(at, "cluster · mqm")
    assert "cluster · BLEU" in wide.columns
    expected = study_human_clusters(ted_slice, "mqm", list(ted_slice.systems), alpha=0.05)
    on_page = dict(zip(wide["system"], wide["cluster · mqm"], strict=True))
    assert on_page == expected.cluster_of()
    long = frame_with(at, "p vs next")
    assert set(long["ranking"]) == {"BLEU", *ted_slice.criteria}


def test_bleu_vs_human_ranks_bleu_against_the_human_score(ted_slice):
    at = run("bleu_vs_human.py", ted_slice, "test:clusters-bvh", **{K.BVH_CRITERION: "mqm"})
    assert "Rank against rank" in [s.value for s in at.subheader]
    table = frame_with(at, "rank difference")
    human = ted_slice.system_scores("mqm")
    expected = ranks(human, list(ted_slice.systems), ted_slice.criteria["mqm"].higher_is_better)
    assert dict(zip(table["system"], table["human rank"], strict=True)) == expected
    assert (table["rank difference"] == table["human rank"] - table["BLEU rank"]).all()
    assert sorted(table["BLEU rank"]) == list(range(1, len(table) + 1))


def test_the_rated_reference_is_a_labelled_rule_with_a_star():
    study = Study(
        "toy",
        (),
        {"ref-A": []},
        {"S1": [], "S2": [], "H": []},
        human_systems=frozenset({"H"}),
        metadata={"reference_ratings": [["ref-A", "1", "r1", None, "esa", 91.0]]},
    )
    frame = system_points(
        ["S1", "S2", "H"],
        {"S1": 20.0, "S2": 30.0, "H": 25.0},
        {"S1": 70, "S2": 80, "H": 85},
        study.human_systems,
    )
    chart = reference_scatter(
        study, "esa", frame, x="BLEU", y="human score", title="t", all_labels=False
    )
    spec = json.loads(chart.to_json())
    layers = json.dumps(spec)
    assert "ref-A (the reference: no BLEU of its own)" in layers and '"rule"' in layers
    # the human system H is labelled even when the other labels show on hover only
    labelled = [
        [row.get("system") for row in spec["datasets"][layer["data"]["name"]]]
        for layer in spec["layer"]
        if layer.get("mark", {}).get("type") == "text" and "name" in layer.get("data", {})
    ]
    assert ["H"] in labelled
    assert vlc.vegalite_to_svg(chart.to_json()).startswith("<svg")  # a valid Vega-Lite spec
    no_ref = reference_scatter(study, None, frame, x="BLEU", y="human score", title="t")
    assert "ref-A (the reference: no BLEU of its own)" not in no_ref.to_json()


def test_explore_counts_rated_translations_and_lists_only_them_on_request(ted_slice):
    left_out = list(ted_slice.systems)[0]
    study = replace(ted_slice, ratings=tuple(r for r in ted_slice.ratings if r.system != left_out))
    rated = int((~np.isnan(study.segment_scores("mqm"))).sum())
    total = len(study.systems) * study.n_segments
    assert rated < total
    base = {K.EXPLORE_CRITERION: "mqm"}
    at = run("explore.py", study, "test:clusters-explore", **base)
    assert f"{total} of {total} translations match" in captions(at)
    assert f"Rated translations per system (mqm): {rated:,} in all" in [
        e.label for e in at.expander
    ]
    at = run("explore.py", study, "test:clusters-explore", **base, **{K.EXPLORE_RATED_ONLY: True})
    assert f"{rated} of {total} translations match" in captions(at)


def test_the_export_page_lists_the_input_files_settings_json_lists(ted_slice):
    files = [
        {"name": f"txt/system-outputs/en-ja/S{i}.txt", "bytes": i, "sha256": f"{i:064d}"}
        for i in range(29)
    ]
    at = run("export.py", ted_slice, "test:clusters-export", **{K.STUDY_INPUTS: files})
    settings = json.loads(at.code[0].value)
    listed = next(d.value for d in at.dataframe if "sha256" in d.value.columns)
    assert (
        list(listed["name"])
        == [f["name"] for f in settings["input_files"]]
        == [f["name"] for f in files]
    )
