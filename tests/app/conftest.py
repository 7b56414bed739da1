"""Fixtures shared by the app tests: a TED en-de slice, a campaign database, a fresh startup state.

``app_runs.py`` beside this file holds :func:`app_runs.start_app` (the whole app under AppTest, switched to
a page); this directory is put on ``sys.path`` here so that test modules import it as ``app_runs``
(pytest runs with ``--import-mode=importlib``: no test directory is on the path otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bleu_core.study import Study
from bleu_core.study.demo import load_demo
from ui.app import startup

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="module")
def ted_four_systems() -> Study:
    """4 MT systems × 40 segments of the TED en-de demo with their MQM ratings."""
    full = load_demo("ted-en-de")
    return full.subset(list(full.systems)[:4], 40)


@pytest.fixture(scope="module")
def ted_slice() -> Study:
    """5 MT systems × 60 segments of the TED en-de demo with their MQM ratings."""
    full = load_demo("ted-en-de")
    return full.subset(list(full.systems)[:5], 60)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh campaign database file for the app (``BLEU_STUDY_DB`` points at it); its path."""
    path = tmp_path / "campaigns.sqlite"
    monkeypatch.setenv("BLEU_STUDY_DB", str(path))
    return path


@pytest.fixture
def fresh_startup(monkeypatch: pytest.MonkeyPatch) -> None:
    """No study named on the command line is loaded or being preloaded (:mod:`ui.app.startup`)."""
    monkeypatch.setattr(startup, "_loaded", {})
    monkeypatch.setattr(startup, "_preloads", {})


@pytest.fixture
def jar(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This browser's cookies (class mode's memory, ``ui/campaigns/browser_memory.py``): a dict the pages read
    as they would read ``st.context.cookies`` and that their cookie script writes, as the browser would."""
    from ui.campaigns import browser_memory

    cookies: dict[str, str] = {}
    monkeypatch.setattr(browser_memory, "read_cookie", lambda name: cookies.get(name, ""))
    monkeypatch.setattr(
        browser_memory,
        "write_cookie",
        lambda name, entries: cookies.__setitem__(name, "|".join(entries)),
    )
    return cookies
