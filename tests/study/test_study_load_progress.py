"""Opening a study reports how far it has got (a 50 × 10k study takes seconds to open)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bleu_core.study import load_study
from bleu_core.study.load_progress import LOAD_STAGES

ROOT = Path(__file__).resolve().parents[2]


def _folder(tmp_path: Path, n_systems: int = 3, n_segments: int = 6) -> Path:
    (tmp_path / "references").mkdir()
    (tmp_path / "systems").mkdir()
    (tmp_path / "references" / "ref-A.txt").write_text(
        "".join(f"the cat {i} sat on the mat\n" for i in range(n_segments)), encoding="utf-8"
    )
    rows = ["system,segment_id,adequacy"]
    for k in range(n_systems):
        (tmp_path / "systems" / f"sys-{k}.txt").write_text(
            "".join(f"a cat {i} sat on mat {k}\n" for i in range(n_segments)), encoding="utf-8"
        )
        rows += [f"sys-{k},{i + 1},{(i + k) % 5 + 1}" for i in range(n_segments)]
    (tmp_path / "ratings.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return tmp_path


def test_progress_is_monotone_names_every_stage_and_ends_at_total(tmp_path: Path) -> None:
    calls: list[tuple[int, int, str]] = []
    result = load_study(_folder(tmp_path), progress=lambda *a: calls.append(a))
    assert len(result.study.systems) == 3
    done = [d for d, _, _ in calls]
    assert done == sorted(done)
    assert calls[-1][0] == calls[-1][1] and calls[-1][2] == "Opening the study: done"
    messages = " ".join(m for _, _, m in calls)
    for stage in LOAD_STAGES:
        assert stage in messages, stage
    assert "reading files (4 of 4)" in messages  # 1 reference + 3 systems, each counted


def test_progress_changes_nothing_and_a_failed_load_still_raises(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    with_bar = load_study(folder, progress=lambda *a: None)
    without = load_study(folder)
    assert with_bar.study.systems == without.study.systems
    assert with_bar.study.ratings == without.study.ratings
    (folder / "systems" / "sys-0.txt").write_text("one line only\n", encoding="utf-8")
    calls: list[tuple[int, int, str]] = []
    with pytest.raises(ValueError, match=r"sys-0.txt, line 2: has 1 line but .*ref-A.txt has 6"):
        load_study(folder, progress=lambda *a: calls.append(a))
    assert calls and calls[-1][2] != "Opening the study: done"


def test_the_app_draws_a_bar_while_opening_the_study_named_on_the_command_line(
    monkeypatch, tmp_path: Path
) -> None:
    from streamlit.testing.v1 import AppTest

    from ui.app import startup

    shown: list[str] = []
    given: list[bool] = []
    real = startup.load_startup

    def spy(request, progress=None):
        given.append(progress is not None)  # the app passes its bar's callback

        def show(done: int, total: int, message: str) -> None:
            shown.append(message)
            if progress is not None:
                progress(done, total, message)

        return real(request, progress=show)

    monkeypatch.setattr(startup, "load_startup", spy)
    monkeypatch.setattr(sys, "argv", [str(ROOT / "app.py"), str(_folder(tmp_path))])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert sorted(at.session_state["study"].systems) == ["sys-0", "sys-1", "sys-2"]
    assert given == [True]
    assert shown[-1] == "Opening the study: done"
    assert not [e for e in at.main if type(e).__name__ == "Progress"]  # removed once open
