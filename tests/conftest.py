"""Fixtures shared by several rooms of tests (a room's own fixtures are in its ``conftest.py``).

``ted_en_de`` and ``ted_zh_en`` are the bundled TED demo studies, whole (en-de: the app's default study;
zh-en: the class-mode lesson's).

``engine_path`` runs a test twice: once with the compiled kernels (the C extension built at install), once
with them switched off by ``BLEU_STUDY_PURE=1`` (the pure numpy/Python paths). Modules that check the engine
against its oracles use it for every test (``pytestmark = pytest.mark.usefixtures("engine_path")``), so both paths are held to the same
results.

Names: an implementation written plainly to check a faster one is an **oracle** — ``<what>_oracle`` for a
function of the tests, ``*_oracle.py`` for a module of them (``tests/metrics/sacrebleu_oracle.py``), and
``method="oracle"`` where a library function keeps that plain path for its tests
(:func:`bleu_core.study.span_scores.span_scores`). A compiled kernel's fallback is not an oracle but the
**pure path** (``BLEU_STUDY_PURE=1``), which serves users too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bleu_core.fast import compiled
from bleu_core.study import Study
from bleu_core.study.demo import load_demo


@pytest.fixture(scope="module", params=["compiled", "pure"])
def engine_path(request: pytest.FixtureRequest) -> Iterator[str]:
    if (
        request.param == "compiled" and not compiled.available()
    ):  # pragma: no cover - a machine without a C compiler at install
        pytest.skip("the compiled kernels are not built")
    with pytest.MonkeyPatch.context() as mp:
        for name in compiled.SWITCHES:
            mp.delenv(name, raising=False)
        if request.param == "pure":
            mp.setenv("BLEU_STUDY_PURE", "1")
        yield request.param


@pytest.fixture(autouse=True, scope="session")
def _app_errors_in_full_under_test() -> Iterator[None]:
    """The app shows visitors no error details (``client.showErrorDetails = "none"``); an AppTest that fails on
    an exception should say which one, so tests see them in full (tests/app/test_app_config.py checks the file)."""
    try:
        from streamlit import config
    except ImportError:  # pragma: no cover - the library tests run without the app
        yield
        return
    config.set_option("client.showErrorDetails", "full")
    yield


@pytest.fixture(scope="module")
def ted_zh_en() -> Study:
    """The bundled TED zh-en demo study, whole."""
    return load_demo("ted-zh-en")


@pytest.fixture(scope="module")
def ted_en_de() -> Study:
    """The bundled TED en-de demo study, whole."""
    return load_demo("ted-en-de")
