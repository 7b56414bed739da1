"""TER computed once per (system, references, options) and kept on disk."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from bleu_core.errors import BleuOptionError
from bleu_core.metrics import ter as ter_module
from bleu_core.metrics.ter import TerOptions, ter_cache_key, ter_from_stats, ter_statistics_table

REFS = {
    "refA": ["the storm hit the coast at night .", "many houses lost their roofs .", "stay home"],
    "refB": ["a storm struck the coast overnight .", None, "remain indoors"],
}
SYSTEMS = {
    "S1": ["the storm hit the coast at night .", "many houses lost roofs .", "stay at home"],
    "S2": ["a storm hit coast in night", None, "Stay Home"],
    "refB": ["a storm struck the coast overnight .", "houses lost roofs", "remain indoors"],
}


def test_scores_equal_sacrebleu() -> None:
    table = ter_statistics_table(SYSTEMS, REFS)
    # S1 against both streams (segment 2 has only refA): sacrebleu with None for the missing reference
    expected = sacrebleu.corpus_ter(SYSTEMS["S1"], list(REFS.values()))
    assert table.corpus()[0] == pytest.approx(expected.score, abs=1e-9)
    # S2 did not translate segment 2: scored on segments 1 and 3
    s2 = [0, 2]
    expected = sacrebleu.corpus_ter(
        [SYSTEMS["S2"][i] for i in s2], [[r[i] for i in s2] for r in REFS.values()]
    )
    assert table.corpus()[1] == pytest.approx(expected.score, abs=1e-9)
    assert np.isnan(table.sentence()[1, 1])
    # the system that is reference stream refB is scored against refA only
    expected = sacrebleu.corpus_ter(SYSTEMS["refB"], [REFS["refA"]])
    assert table.corpus()[2] == pytest.approx(expected.score, abs=1e-9)
    one = sacrebleu.sentence_ter(SYSTEMS["S1"][2], [REFS["refA"][2], REFS["refB"][2]]).score
    assert table.sentence()[0, 2] == pytest.approx(one, abs=1e-9)


def test_second_call_reads_the_disk(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    seen: list[tuple[int, int, str]] = []
    first = ter_statistics_table(
        SYSTEMS, REFS, cache_dir=tmp_path, progress=lambda *a: seen.append(a)
    )
    assert first.from_cache == ()
    assert len(list(tmp_path.glob("*.npz"))) == 3  # one file per system
    assert not list(tmp_path.glob(".tmp-*"))  # the atomic write left no temporary file
    assert seen[-1][0] == seen[-1][1] == 9  # 3 systems x 3 segments

    def fail(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("TER was recomputed")

    monkeypatch.setattr(ter_module, "_segment_rows", fail)
    second = ter_statistics_table(SYSTEMS, REFS, cache_dir=tmp_path)
    assert second.from_cache == ("S1", "S2", "refB")
    np.testing.assert_array_equal(second.stats, first.stats)
    np.testing.assert_array_equal(second.scored, first.scored)
    # a new system is the only work: the others come from the disk
    monkeypatch.undo()
    more = ter_statistics_table({**SYSTEMS, "S3": ["x", "y", "z"]}, REFS, cache_dir=tmp_path)
    assert more.from_cache == ("S1", "S2", "refB")


def test_key_changes_with_options_texts_and_references() -> None:
    hyps, refs = SYSTEMS["S1"], list(REFS.values())
    base = ter_cache_key(hyps, refs)
    assert base == ter_cache_key(list(hyps), [list(r) for r in refs])
    assert base != ter_cache_key(hyps, refs, TerOptions(case_sensitive=True))
    assert base != ter_cache_key(hyps, refs, TerOptions(normalized=True))
    assert base != ter_cache_key(hyps[:2] + ["other"], refs)
    assert base != ter_cache_key(hyps, refs[:1])
    assert base != ter_cache_key(hyps, refs[::-1])
    assert ter_cache_key(["a", None], [["b", "c"]]) != ter_cache_key(["a", ""], [["b", "c"]])


def test_options_change_the_cached_scores(tmp_path) -> None:  # noqa: ANN001
    lower = ter_statistics_table({"S2": SYSTEMS["S2"]}, REFS, cache_dir=tmp_path)
    cased = ter_statistics_table(
        {"S2": SYSTEMS["S2"]}, REFS, TerOptions(case_sensitive=True), cache_dir=tmp_path
    )
    assert cased.from_cache == ()
    assert cased.stats[0, 2, 0] > lower.stats[0, 2, 0]  # "Stay Home" needs edits when case counts


def test_a_damaged_cache_file_is_recomputed(tmp_path) -> None:  # noqa: ANN001
    first = ter_statistics_table({"S1": SYSTEMS["S1"]}, REFS, cache_dir=tmp_path)
    (path,) = tmp_path.glob("*.npz")
    path.write_bytes(b"not an npz")
    again = ter_statistics_table({"S1": SYSTEMS["S1"]}, REFS, cache_dir=tmp_path)
    assert again.from_cache == ()
    np.testing.assert_array_equal(again.stats, first.stats)


def test_process_pool_gives_the_same_statistics() -> None:
    one = ter_statistics_table(SYSTEMS, REFS)
    two = ter_statistics_table(SYSTEMS, REFS, processes=2)
    np.testing.assert_array_equal(one.stats, two.stats)


def test_from_stats_edge_cases_and_validation() -> None:
    # sacrebleu: empty references with edits score 100, with none 0
    assert ter_from_stats(np.array([3.0, 0.0])) == 100.0
    assert ter_from_stats(np.array([0.0, 0.0])) == 0.0
    with pytest.raises(BleuOptionError, match="TER needs at least one reference stream"):
        ter_statistics_table(SYSTEMS, {})
    with pytest.raises(
        BleuOptionError, match="TER: system 'S9' has 1 segments, the references have 3"
    ):
        ter_statistics_table({"S9": ["a"]}, REFS)


def test_registry_reuses_the_disk_cache_and_keys_only_chrf_inputs(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from bleu_core.metrics.registry import metric_inputs_key, score_study
    from bleu_core.study import Segment, Study

    study = Study(
        name="toy",
        segments=tuple(Segment(str(i)) for i in range(3)),
        references=dict(REFS),
        systems=dict(SYSTEMS),
    )
    seen: list[tuple[int, int, str]] = []
    first = score_study(study, ["TER"], ter_cache_dir=tmp_path, progress=lambda *a: seen.append(a))
    assert seen and seen[-1][0] == seen[-1][1]
    monkeypatch.setattr(ter_module, "_segment_rows", lambda *a, **k: 1 / 0)
    again = score_study(study, ["TER"], ter_cache_dir=tmp_path, tokenize="intl")
    np.testing.assert_array_equal(again["TER"].observed(), first["TER"].observed())
    # TER's and chrF's keys ignore the word tokenizer; BLEU's does not
    for name in ("TER", "chrF", "chrF++"):
        assert metric_inputs_key(name, tokenize="13a") == metric_inputs_key(name, tokenize="intl")
        assert metric_inputs_key(name) != metric_inputs_key(name, lowercase=True)
    assert metric_inputs_key("BLEU", tokenize="13a") != metric_inputs_key("BLEU", tokenize="intl")
    assert metric_inputs_key("F (tf.idf)") != metric_inputs_key(
        "F (tf.idf)", single_reference="refB"
    )
