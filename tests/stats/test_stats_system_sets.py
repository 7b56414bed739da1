"""One set of systems for every metric of a ranking (:mod:`bleu_core.evaluation.system_sets`), in the core
and in ``meta``: an attached metric without a score for the human translation takes it out for all."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation.system_sets import SystemSet, common_systems


def test_systems_any_metric_lacks_are_left_out_for_every_metric():
    scores = {
        "BLEU": {"A": 30.0, "B": 28.0, "C": 25.0, "HUMAN-B": 20.0},
        "COMET": {"A": 0.8, "B": 0.7, "C": math.nan},
        "bleu-A": {"A": 31.0, "B": 27.0, "C": 24.0},
    }
    found = common_systems(scores, ["A", "B", "C", "HUMAN-B"], human={"HUMAN-B"})
    assert found.systems == ("A", "B")
    assert found.left_out == (("C", "no COMET score"), ("HUMAN-B", "no COMET, bleu-A score"))
    # asked for, but left out: the words say "out", as the signature's humans:out
    assert found.human_included is False
    out = common_systems(scores, ["A", "B", "C", "HUMAN-B"], human={"HUMAN-B"}, include_human=False)
    assert out.left_out[-1] == ("HUMAN-B", "human translation") and out.human_included is False
    assert out.describe(lambda s: f"<{s}>").startswith(
        "2 systems (human translations out): <A>, <B>;"
    )
    assert (
        common_systems(scores, ["A", "B"]).describe() == "2 systems: A, B"
    )  # no human to speak of
    assert out.to_dict()["left_out"][0] == {"system": "C", "reason": "no COMET score"}


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["m1", "m2", "m3"]),
        st.dictionaries(
            st.sampled_from(list("ABCDE")),
            st.one_of(st.floats(-5, 5), st.just(math.nan)),
        ),
        min_size=1,
    )
)
def test_the_set_is_exactly_the_systems_every_metric_scores(scores):
    found = common_systems(scores, list("ABCDE"))
    for s in "ABCDE":
        every = all(not math.isnan(m.get(s, math.nan)) for m in scores.values())
        assert (s in found.systems) == every
    assert len(found.systems) + len(found.left_out) == 5
    assert isinstance(found, SystemSet)


def test_meta_ranks_every_metric_on_the_systems_all_of_them_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a slice of the Apache-2.0 TED zh-en demo: four machine systems and the human translation 'ref';
    # the attached metric (invented scores) has none for 'ref', so no metric is ranked on it
    from bleu_core.cli import main
    from bleu_core.study.demo import load_demo
    from bleu_core.study.storage import save_study

    demo = load_demo("ted-zh-en")
    names = [*list(demo.machine_systems)[:4], "ref"]
    demo = demo.subset(names, 15)
    save_study(demo, tmp_path / "d.study.json")
    rng = np.random.default_rng(1)
    lines = [
        f"{s}\t{rng.normal():.4f}" if t is not None else f"{s}\tNone"
        for s in names[:4]
        for t in demo.systems[s]
    ]
    (tmp_path / "M.seg.score").write_text("\n".join(lines) + "\n")
    argv = ["meta", str(tmp_path / "d.study.json"), "--include-human", "--criteria", "mqm"]
    argv += ["--metric-scores", str(tmp_path / "M.seg.score"), "--n-resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "ref" in data["systems"]  # the correlations include the human translation as asked
    assert data["ranking_systems"]["systems"] == names[:4]
    assert data["ranking_systems"]["left_out"] == [{"system": "ref", "reason": "no M score"}]
    for ranking in data["rankings"]:
        assert ranking["systems"] == names[:4], ranking["statistic"]
    assert main([*argv, "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "every metric scores 4 systems (human translations out)" in text  # ref: left out
    assert "left out: HUMAN (ref) (no M score)" in text  # the human translation by both names
