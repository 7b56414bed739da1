"""A ratings table in long form (``criterion`` and ``score``) reads its scores from those two columns only; a
criterion column beside them (wide form mixed in) is reported, not dropped without a word."""

from __future__ import annotations

from bleu_core.study import load_study


def _plain_study(tmp_path, ratings: str):
    (tmp_path / "references").mkdir()
    (tmp_path / "systems").mkdir()
    (tmp_path / "references" / "ref-A.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "systems" / "s1.txt").write_text("a b c\nd e\n", encoding="utf-8")
    (tmp_path / "ratings.csv").write_text(ratings, encoding="utf-8")
    return load_study(str(tmp_path))


def test_a_criterion_column_beside_criterion_and_score_is_reported(tmp_path):
    result = _plain_study(
        tmp_path,
        "system,segment_id,criterion,score,fluency\ns1,1,adequacy,4,3\ns1,2,adequacy,2,1\n",
    )
    assert list(result.study.criteria) == ["adequacy"]  # fluency is not read ...
    (warning,) = [w for w in result.warnings if w.code == "unread-columns"]  # ... and that is said
    assert warning.file.endswith("ratings.csv")
    assert "column 'fluency' is not read" in warning.message


def test_a_long_table_with_a_criterion_column_beside_criterion_and_score_is_reported(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text(
        "segment_id,system,role,text,criterion,score,fluency,comment\n"
        "1,ref-A,reference,The dog,,,,\n"
        "1,g,system,The cat,adequacy,4,2,ok\n",
        encoding="utf-8",
    )
    result = load_study(str(path))
    (warning,) = [w for w in result.warnings if w.code == "unread-columns"]
    assert "columns 'fluency', 'comment' are not read" in warning.message


def test_wide_and_plain_long_tables_give_no_such_warning(tmp_path):
    wide = _plain_study(tmp_path, "system,segment_id,rater,adequacy,fluency\ns1,1,r1,4,3\n")
    assert "unread-columns" not in wide.warning_codes()
    assert sorted(wide.study.criteria) == ["adequacy", "fluency"]
    (tmp_path / "ratings.csv").write_text(
        "system,segment_id,rater,group,criterion,score,higher_is_better,scale_min,scale_max\n"
        "s1,1,r1,g,adequacy,4,true,1,5\n",
        encoding="utf-8",
    )
    assert "unread-columns" not in load_study(str(tmp_path)).warning_codes()
