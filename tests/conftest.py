"""Shared fixtures.

``engine_path`` runs a test twice: once with the compiled (numba) kernels forced on for every input size, once
with them switched off (the pure numpy/Python twins). Modules that check the engine against its oracles use it
for every test (``pytestmark = pytest.mark.usefixtures("engine_path")``), so both paths are held to the same
results.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bleu_core.fast import compiled


@pytest.fixture(scope="module", params=["compiled", "pure"])
def engine_path(request: pytest.FixtureRequest) -> Iterator[str]:
    if (
        request.param == "compiled" and not compiled.available()
    ):  # pragma: no cover - numba is a dependency
        pytest.skip("numba is not installed")
    with pytest.MonkeyPatch.context() as mp:
        if request.param == "compiled":
            mp.setattr(compiled, "MIN_WORK", 0)
            mp.delenv("BLEU_STUDY_NO_NUMBA", raising=False)
        else:
            mp.setenv("BLEU_STUDY_NO_NUMBA", "1")
        yield request.param
